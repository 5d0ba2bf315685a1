"""One "entered by" for every kind (issue 32): a free-deal result gets its path beside its
account and name (``clubs.models.EnteredBy``). Stored results keep both; their path is the
director's when he wrote them (his account kept, or a reason on their latest history line,
for an archive restored without accounts), else the table's phone."""

from typing import Any

from django.db import migrations, models

CHOICES = [("table", "table's phone"), ("api", "API"), ("organiser", "director"),
           ("import", "import")]  # fmt: skip


def paths(apps: Any, schema_editor: Any) -> None:
    result_model = apps.get_model("freedeal", "FreeDealResult")
    change_model = apps.get_model("freedeal", "FreeDealChange")
    reasoned: dict[int, bool] = {}
    for result_id, reason in change_model.objects.order_by("pk").values_list("result_id", "reason"):
        reasoned[result_id] = bool(reason)  # the latest line wins
    director = [
        pk
        for pk, user in result_model.objects.values_list("pk", "entered_by_id")
        if user is not None or reasoned.get(pk, False)
    ]
    result_model.objects.update(entered_via="table")
    for start in range(0, len(director), 500):
        result_model.objects.filter(pk__in=director[start : start + 500]).update(
            entered_via="organiser"
        )


class Migration(migrations.Migration):
    dependencies = [
        ("freedeal", "0005_late_arrivals_bounded"),
    ]

    operations = [
        migrations.AddField(
            model_name="freedealresult",
            name="entered_via",
            field=models.CharField(
                blank=True, choices=CHOICES, max_length=12, verbose_name="entered via"
            ),
        ),
        migrations.RunPython(paths, migrations.RunPython.noop),
    ]
