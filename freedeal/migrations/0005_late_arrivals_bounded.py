"""Late arrivals bounded (issue 30): the phone's text of a clamped kept-since instant, a
free-deal arrival's party, and one unhandled arrival per table, party and deal. Before the
constraint, the stored ones are bounded as new ones are (``clubs.late_arrivals.bound_stored``): outcomes capped, instants
local time cannot show clamped, the older unhandled duplicates marked handled (none deleted).
"""

from typing import Any

from django.db import migrations, models

from clubs.late_arrivals import bound_stored


def bound(apps: Any, schema_editor: Any) -> None:
    bound_stored(apps.get_model("freedeal", "FreeDealLateArrival"), party=True)


class Migration(migrations.Migration):
    dependencies = [
        ("freedeal", "0004_entry_keys_late_arrivals"),
    ]

    operations = [
        migrations.AddField(
            model_name="freedeallatearrival",
            name="kept_since_sent",
            field=models.CharField(
                blank=True, max_length=64, verbose_name="kept since, as the phone said"
            ),
        ),
        migrations.AddField(
            model_name="freedeallatearrival",
            name="party",
            field=models.PositiveIntegerField(default=0, verbose_name="party"),
        ),
        migrations.RunPython(bound, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="freedeallatearrival",
            constraint=models.UniqueConstraint(
                condition=models.Q(("handled", False)),
                fields=("holder", "party", "deal"),
                name="freedeal_freedeallatearrival_one_unhandled",
            ),
        ),
    ]
