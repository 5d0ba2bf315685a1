"""Each player's folded names and sort key (``rules.names``), stored beside his names so that
the searches ignore case and accents and the lists sort in French order in the database; filled
here for the players already stored (their names are unchanged)."""

from typing import Any

from django.db import migrations, models

from rules import names


def fill_names(apps: Any, schema_editor: Any) -> None:
    Player = apps.get_model("clubs", "Player")
    using = schema_editor.connection.alias
    batch = []
    players = Player.objects.using(using).only("pk", "first_name", "last_name").order_by("pk")
    for player in players.iterator(chunk_size=2000):
        player.last_name_folded = names.fold(player.last_name)
        player.first_name_folded = names.fold(player.first_name)
        player.name_sort_key = names.sort_key(player.last_name, player.first_name)
        batch.append(player)
        if len(batch) >= 500:
            Player.objects.using(using).bulk_update(batch, DERIVED)
            batch = []
    Player.objects.using(using).bulk_update(batch, DERIVED)


DERIVED = ["last_name_folded", "first_name_folded", "name_sort_key"]


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0007_club_owner"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="last_name_folded",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="player",
            name="first_name_folded",
            field=models.CharField(default="", editable=False, max_length=160),
            preserve_default=False,
        ),
        migrations.AddField(
            model_name="player",
            name="name_sort_key",
            field=models.CharField(default="", editable=False, max_length=255),
            preserve_default=False,
        ),
        migrations.RunPython(fill_names, migrations.RunPython.noop, elidable=False),
        migrations.RemoveIndex(
            model_name="player",
            name="clubs_playe_last_na_107332_idx",
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["name_sort_key"], name="clubs_player_sort_key_idx"),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(
                fields=["last_name_folded", "first_name_folded"], name="clubs_player_folded_idx"
            ),
        ),
        migrations.AlterModelOptions(
            name="player",
            options={
                "ordering": ["name_sort_key", "pk"],
                "verbose_name": "player",
                "verbose_name_plural": "players",
            },
        ),
        migrations.AlterModelOptions(
            name="membership",
            options={
                "ordering": ["player__name_sort_key", "pk"],
                "verbose_name": "register line",
                "verbose_name_plural": "register lines",
            },
        ),
    ]
