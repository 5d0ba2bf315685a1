"""Late arrivals bounded (issue 30): the phone's text of a clamped kept-since instant, and
one unhandled arrival per holder and deal. Before the constraint, the stored ones are
bounded as new ones are (``clubs.late_arrivals.bound_stored``): outcomes capped, instants
local time cannot show clamped, the older unhandled duplicates marked handled (none deleted).
"""

from typing import Any

from django.db import migrations, models

from clubs.late_arrivals import bound_stored


def bound(apps: Any, schema_editor: Any) -> None:
    bound_stored(apps.get_model("teammatch", "RoomLateArrival"))


class Migration(migrations.Migration):
    dependencies = [
        ("teammatch", "0005_cup_team_player_french_order"),
    ]

    operations = [
        migrations.AddField(
            model_name="roomlatearrival",
            name="kept_since_sent",
            field=models.CharField(
                blank=True, max_length=64, verbose_name="kept since, as the phone said"
            ),
        ),
        migrations.RunPython(bound, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="roomlatearrival",
            constraint=models.UniqueConstraint(
                condition=models.Q(("handled", False)),
                fields=("holder", "deal"),
                name="teammatch_roomlatearrival_one_unhandled",
            ),
        ),
    ]
