"""One "entered by" for every kind (issue 32), the data: a room result's path is the
director's when its flag says so, else the room's phone's; the director's account is read from
the history line that wrote the stored result (its latest). Undone: the flag is the director's
path. In a migration of its own: PostgreSQL alters no table in the transaction that wrote its
rows (their pending foreign key checks)."""

from typing import Any

from django.db import migrations


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
        ("teammatch", "0007_entered_by_one_convention"),
    ]

    operations = [
        migrations.RunPython(forward, backward),
    ]
