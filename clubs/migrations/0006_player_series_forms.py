"""A player's series is stored in one form (``clubs.models.PlayerSeries``): ``1`` to ``4``, ``P``
for Promotion, empty for none. The series stored before, as typed (``S1``, ``1ère série``,
``Promotion``...), are put in that form as ``clubs.register.series_code`` reads them; a value
that is not a series is kept as it is (nothing stored is lost); every player and every register
line stays."""

from typing import Any

from django.db import migrations, models


def series_in_one_form(apps: Any, schema_editor: Any) -> None:
    from clubs.register import series_code

    Player = apps.get_model("clubs", "Player")
    using = schema_editor.connection.alias
    changed: dict[str, list[int]] = {}
    rows = Player.objects.using(using).exclude(series="").values_list("pk", "series")
    for pk, series in rows.iterator(chunk_size=2000):
        code = series_code(series)
        if code is not None and code != series:
            changed.setdefault(code, []).append(pk)
    for code, pks in changed.items():
        for start in range(0, len(pks), 500):
            Player.objects.using(using).filter(pk__in=pks[start : start + 500]).update(series=code)


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0005_register_from_home_clubs"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="series",
            field=models.CharField(
                blank=True,
                choices=[
                    ("1", "1st series"),
                    ("2", "2nd series"),
                    ("3", "3rd series"),
                    ("4", "4th series"),
                    ("P", "Promotion"),
                ],
                max_length=20,
                verbose_name="series",
            ),
        ),
        migrations.RunPython(series_in_one_form, migrations.RunPython.noop),
    ]
