"""What the browser tests build in, and read from, the served instance's database.

Run by the instance's helper process (``ServedInstance.call``, ``tests.browser.served``), never
in the test process: each function takes and returns plain JSON data (ids, codes, numbers).
"""

from __future__ import annotations

from typing import Any

from clubs.models import Club


def club() -> Club:
    """The instance's club, made on its first-run page (its organiser ``marie``)."""
    first = Club.objects.order_by("pk").first()
    assert first is not None
    return first


def club_id() -> int:
    return club().pk


def club_organiser() -> str:
    """A new organiser of the instance's club, and of no other (the first run's account is
    the instance's superuser: it directs every club); their username (the factories'
    password)."""
    from tests.factories import OrganiserFactory

    return str(OrganiserFactory(clubs=[club()]).username)


def running_table(
    *, tables: int, rounds: int, deals_per_round: int, number: int = 1
) -> dict[str, Any]:
    """A running event of the instance's club; table ``number``'s code and id, and its deals
    at each position (number and taker's seat)."""
    from tests.builders import running_event

    event = running_event(
        tables=tables, rounds=rounds, deals_per_round=deals_per_round, club=club()
    )
    table = event.tables.get(number=number)
    return {
        "event": event.pk,
        "table": table.pk,
        "code": table.code,
        "codes": {str(t.number): t.code for t in event.tables.all()},
        "tables": {str(t.number): t.pk for t in event.tables.all()},
        "deals": {str(r): deals_at(event.pk, number, r) for r in range(1, rounds + 1)},
    }


def deals_at(event_id: int, table_number: int, round_number: int) -> list[dict[str, Any]]:
    """The deals table ``table_number`` plays at position ``round_number``."""
    from tournaments.models import Event

    event = Event.objects.get(pk=event_id)
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return [
        {"number": deal.number, "taker_seat": deal.taker_seat, "pk": deal.pk}
        for deal in event.deals.filter(deal_set=play.deal_set).order_by("number")
    ]


def results(table_id: int) -> list[dict[str, Any]]:
    """Table ``table_id``'s stored results, by deal."""
    from tournaments.models import TableResult

    return [
        {
            "deal": result.deal.number,
            "contract": result.contract,
            "oudlers": result.oudlers,
            "value": result.value,
            "points_half": result.points_half,
            "entered_via": result.entered_via,
        }
        for result in TableResult.objects.filter(table_id=table_id)
        .select_related("deal")
        .order_by("deal__number")
    ]


def event_state(event_id: int) -> dict[str, Any]:
    """An event's status and closed positions."""
    from tournaments.models import Event

    event = Event.objects.get(pk=event_id)
    return {"status": event.status, "closed_rounds": list(event.closed_rounds)}
