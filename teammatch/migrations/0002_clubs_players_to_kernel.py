# The club and player references now point at the kernel's models (``clubs``): the same
# tables, so the state alone changes.

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0001_initial"),
        ("teammatch", "0001_initial"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="cup",
                    name="club",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="cups", to="clubs.club", verbose_name="club"),
                ),
                migrations.AlterField(
                    model_name="cupteamplayer",
                    name="player",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="cupteam",
                    name="players",
                    field=models.ManyToManyField(related_name="cup_teams", through="teammatch.CupTeamPlayer", to="clubs.player", verbose_name="players"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="open_taker",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="open_defender_1",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="open_defender_2",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="open_defender_3",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="closed_taker",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="closed_defender_1",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="closed_defender_2",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
                migrations.AlterField(
                    model_name="quarterlineup",
                    name="closed_defender_3",
                    field=models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name="+", to="clubs.player"),
                ),
            ],
            database_operations=[],
        ),
    ]
