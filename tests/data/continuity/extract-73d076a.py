"""Run in ``manage.py shell`` on commit 73d076a with the database built by
``build-73d076a.py``: every result's "entered by" as that code stores it, and every line of
the three histories. Writes the JSON document to the path in the EXPECTED variable."""
import json
import os

from freedeal.models import FreeDealChange, FreeDealResult
from teammatch.models import RoomResult, RoomResultChange
from tournaments.models import ResultChange, TableResult


def user(u):
    return None if u is None else u.get_username()


def lines(queryset, owner):
    return [
        {"pk": c.pk, "result": c.result_id, "action": c.action, "actor": user(c.actor),
         "actor_label": c.actor_label, "at": c.at.isoformat(), "reason": c.reason,
         "before": c.before, "after": c.after, **owner(c)}
        for c in queryset.select_related("actor").order_by("pk")
    ]


document = {
    "tournaments": {
        "results": [
            {"pk": r.pk, "table": r.table.number, "deal": r.deal.number,
             "entered_by": user(r.entered_by), "entered_via": r.entered_via,
             "director_assigned": r.director_assigned, "value": r.value}
            for r in TableResult.objects.select_related("entered_by", "table", "deal")
            .order_by("pk")
        ],
        "history": lines(ResultChange.objects.all(), lambda c: {"event": c.event_id}),
    },
    "teammatch": {
        "results": [
            {"pk": r.pk, "room": r.room, "deal": r.deal.number, "entered_by": r.entered_by,
             "director": r.director, "value": r.value}
            for r in RoomResult.objects.select_related("deal").order_by("pk")
        ],
        "history": lines(RoomResultChange.objects.all(), lambda c: {}),
    },
    "freedeal": {
        "results": [
            {"pk": r.pk, "party": r.party, "deal": r.deal, "entered_by": user(r.entered_by),
             "entered_by_label": r.entered_by_label, "value": r.value}
            for r in FreeDealResult.objects.select_related("entered_by").order_by("pk")
        ],
        "history": lines(FreeDealChange.objects.all(), lambda c: {"tournament": c.tournament_id}),
    },
}
with open(os.environ["EXPECTED"], "w", encoding="utf-8") as file:
    json.dump(document, file, indent=1, ensure_ascii=False, default=str)
print({k: (len(v["results"]), len(v["history"])) for k, v in document.items()})
