"""Every player with a home club (``Player.club``) becomes an active line of that club's
register: the register starts as the clubs' players were before it existed."""

from typing import Any

from django.db import migrations


def fill_registers(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("clubs", "Player")
    Membership = apps.get_model("clubs", "Membership")
    using = schema_editor.connection.alias
    known = set(Membership.objects.using(using).values_list("club_id", "player_id"))
    batch = []
    rows = Player.objects.using(using).filter(club__isnull=False).values_list("pk", "club_id")
    for player_id, club_id in rows.iterator(chunk_size=2000):
        if (club_id, player_id) in known:
            continue
        batch.append(Membership(club_id=club_id, player_id=player_id, active=True))
        if len(batch) >= 500:
            Membership.objects.using(using).bulk_create(batch)
            batch = []
    Membership.objects.using(using).bulk_create(batch)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0004_register_and_invitations"),
    ]

    operations = [
        migrations.RunPython(fill_registers, migrations.RunPython.noop),
    ]
