"""Run on the landed code: every stored row of the business tables, and computed rankings."""
import json, sys
from django.apps import apps
from django.db import connection

LABELS = ["tournaments", "scoring", "teammatch", "freedeal", "series"]
rows = {}
for label in LABELS:
    for model in apps.get_app_config(label).get_models():
        table = model._meta.db_table
        cols = [f.column for f in model._meta.concrete_fields]
        with connection.cursor() as c:
            c.execute(f'SELECT {", ".join(chr(34)+x+chr(34) for x in cols)} FROM "{table}" ORDER BY 1')
            data = [list(r) for r in c.fetchall()]
        rows[model._meta.label_lower] = {"table": table, "columns": cols, "rows": data}
        for f in model._meta.local_many_to_many:
            t = f.remote_field.through
            if t._meta.auto_created:
                tcols = [x.column for x in t._meta.concrete_fields]
                with connection.cursor() as c:
                    c.execute(f'SELECT {", ".join(tcols)} FROM "{t._meta.db_table}" ORDER BY 1')
                    rows[t._meta.label_lower] = {"table": t._meta.db_table, "columns": tcols, "rows": [list(r) for r in c.fetchall()]}

computed = {}
import dataclasses
def plain(x):
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return {f.name: plain(getattr(x, f.name)) for f in dataclasses.fields(x) if f.name not in ("tournament", "series", "entries", "players", "cup", "match")}
    if isinstance(x, dict):
        return {str(k): plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [plain(v) for v in x]
    if isinstance(x, (int, str, bool)) or x is None:
        return x
    return str(x)
from freedeal.models import FreeDealTournament
from freedeal import selectors as fsel
for t in FreeDealTournament.objects.order_by("pk"):
    computed[f"freedeal:{t.pk}"] = plain(fsel.ranking(t).rows)
from teammatch.models import Cup
from teammatch.services import match_sheets
for cup in Cup.objects.order_by("pk"):
    for everything in (False, True):
        computed[f"cup:{cup.pk}:{everything}"] = plain(match_sheets(list(cup.matches.order_by("pk")), cup, everything=everything))
from series.models import Series
from series.selectors import series_ranking
for s in Series.objects.order_by("pk"):
    computed[f"series:{s.pk}"] = plain(series_ranking(s).standings)
json.dump({"rows": rows, "computed": computed}, open(sys.argv[1], "w"), default=str, indent=0)
print("ok", len(rows))
