"""One "entered by" for every kind (issue 32): a room result's text ``entered_by`` becomes its
name shown (``entered_by_label``), its ``director`` flag its path (``entered_via``: the
director's, else the room's phone), and the director's account is read from the history line
that wrote the stored result (its latest). Reversible: the flag is the director's path."""

from typing import Any

from django.conf import settings
from django.db import migrations, models
from django.db.models.deletion import SET_NULL

CHOICES = [("table", "table's phone"), ("api", "API"), ("organiser", "director"),
           ("import", "import")]  # fmt: skip


def forward(apps: Any, schema_editor: Any) -> None:
    result_model = apps.get_model("teammatch", "RoomResult")
    change_model = apps.get_model("teammatch", "RoomResultChange")
    latest: dict[int, tuple[int | None, str]] = {}
    for result_id, actor_id, label in change_model.objects.order_by("pk").values_list(
        "result_id", "actor_id", "actor_label"
    ):
        latest[result_id] = (actor_id, label)
    changed = []
    for result in result_model.objects.only("pk", "director", "entered_by_label"):
        result.entered_via = "organiser" if result.director else "table"
        actor_id, label = latest.get(result.pk, (None, ""))
        if result.director and actor_id is not None and label == result.entered_by_label:
            result.entered_by_id = actor_id
        changed.append(result)
    result_model.objects.bulk_update(changed, ["entered_via", "entered_by"], batch_size=1000)


def backward(apps: Any, schema_editor: Any) -> None:
    result_model = apps.get_model("teammatch", "RoomResult")
    result_model.objects.update(director=False)
    result_model.objects.filter(entered_via="organiser").update(director=True)


class Migration(migrations.Migration):
    dependencies = [
        ("teammatch", "0006_late_arrivals_bounded"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.RenameField(
            model_name="roomresult", old_name="entered_by", new_name="entered_by_label"
        ),
        migrations.AddField(
            model_name="roomresult",
            name="entered_by",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=SET_NULL,
                related_name="+",
                to=settings.AUTH_USER_MODEL,
            ),
        ),
        migrations.AddField(
            model_name="roomresult",
            name="entered_via",
            field=models.CharField(
                blank=True, choices=CHOICES, max_length=12, verbose_name="entered via"
            ),
        ),
        migrations.RunPython(forward, backward),
        migrations.RemoveField(model_name="roomresult", name="director"),
    ]
