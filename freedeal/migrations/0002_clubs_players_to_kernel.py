# The club and player references now point at the kernel's models (``clubs``): the same
# tables, so the state alone changes.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("freedeal", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="freedealtournament",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="free_deal_tournaments", to="clubs.club", verbose_name="club"),
                ),
                migrations.AlterField(
                    model_name="freedealplayer",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="free_deal_entries", to="clubs.player", verbose_name="player"),
                ),
            ],
            database_operations=[],
        ),
    ]
