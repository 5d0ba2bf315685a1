# The event's club and the entrant's player now point at the kernel's models (``clubs``):
# the same tables, so the state alone changes.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("tournaments", "0008_event_ruleset"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="event",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="events", to="clubs.club", verbose_name="club"),
                ),
                migrations.AlterField(
                    model_name="entrant",
                    name="player",
                    field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name="entries", to="clubs.player", verbose_name="player"),
                ),
            ],
            database_operations=[],
        ),
    ]
