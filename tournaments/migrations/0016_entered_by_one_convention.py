"""One "entered by" for every kind (issue 32): a table's result keeps the name shown beside its
account and path (``clubs.models.EnteredBy``). ``entered_by`` and ``entered_via`` stay as
stored; the name of a stored result is read from its history: the label of its latest line
written by the same account (none: a table's phone), else the account's name."""

from typing import Any

from django.conf import settings
from django.db import migrations, models

CHOICES = [("table", "table's phone"), ("api", "API"), ("organiser", "director"),
           ("import", "import")]  # fmt: skip


def labels(apps: Any, schema_editor: Any) -> None:
    result_model = apps.get_model("tournaments", "TableResult")
    change_model = apps.get_model("tournaments", "ResultChange")
    user_model = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    usernames = dict(user_model.objects.values_list("pk", "username"))
    by_result: dict[tuple[int, int | None], str] = {}
    for result_id, actor_id, label in (
        change_model.objects.exclude(action="confirm")
        .order_by("pk")
        .values_list("result_id", "actor_id", "actor_label")
        .iterator(chunk_size=2000)
    ):
        if label:
            by_result[(result_id, actor_id)] = label  # the latest line wins
    changed = []
    for result in result_model.objects.only("pk", "entered_by_id").iterator(chunk_size=2000):
        label = by_result.get((result.pk, result.entered_by_id)) or usernames.get(
            result.entered_by_id, ""
        )
        if label:
            result.entered_by_label = label[:120]
            changed.append(result)
    result_model.objects.bulk_update(changed, ["entered_by_label"], batch_size=1000)


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0015_late_arrivals_bounded"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="tableresult",
            name="entered_by_label",
            field=models.CharField(blank=True, max_length=120, verbose_name="entered by"),
        ),
        migrations.AlterField(
            model_name="tableresult",
            name="entered_via",
            field=models.CharField(
                blank=True, choices=CHOICES, max_length=12, verbose_name="entered via"
            ),
        ),
        migrations.RunPython(labels, migrations.RunPython.noop),
    ]
