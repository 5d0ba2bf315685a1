"""Print-ready pages of an event (A4: one table / deal set per ``.page``, the players' route
cards several to a sheet).

Table cards carry a QR code of the table's absolute entry URL (``/table/<code>/``), rendered
as inline SVG with the ``qrcode`` package, and the table code printed large (to type it in
when the QR code cannot be read). The URL starts with ``settings.DUPLITAROT_PUBLIC_URL`` when it
is set (the address phones in the room reach the server at, e.g. ``http://192.168.1.20:8000``:
a laptop serving on all its addresses while the organiser browses on 127.0.0.1), else with the
request's own scheme and host. Everything is derived from the stored movement and
the entrants bound to its slots; the browser prints (or saves as PDF) with the @media print
rules of the templates.

The **score sheets** (feuilles de table) are the paper fallback of a table without a phone: one
A4 page per table for a round (position), with the players by seat and, for each deal of its
étui, blank boxes for everything the director's entry grid and result form take (contract,
bouts, points, petit au bout, poignées, chelem, or "not played"), and the players' signatures.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clubs.access import directs
from clubs.outcome_forms import contract_choices
from clubs.phone import public_base_url
from tournaments import selectors
from tournaments.models import Event, PoigneeSize, Side
from tournaments.presentation import deal_diagram
from tournaments.services.deals import deals_seed

PrintView = Callable[..., HttpResponse]


def needs_movement(view: PrintView) -> PrintView:
    """Decorator: without a movement there is nothing to print; back to the movement step."""

    @wraps(view)
    def wrapper(request: HttpRequest, event: Event, *args: Any, **kwargs: Any) -> HttpResponse:
        if not event.schedule:
            messages.error(request, _("Choose the movement before printing."))
            return redirect("organiser:movement", pk=event.pk)
        return view(request, event, *args, **kwargs)

    return wrapper


def table_entry_url(request: HttpRequest, code: str) -> str:
    """The absolute URL a phone opens from the table card's QR code."""
    return f"{public_base_url(request)}/table/{code}/"


def qr_svg(data: str) -> SafeString:
    """``data`` as an inline SVG QR code (generated here from our own URL, so safe markup)."""
    image = qrcode.make(data, image_factory=qrcode.image.svg.SvgPathImage, box_size=10)
    return mark_safe(image.to_string(encoding="unicode"))


def _print(
    request: HttpRequest, template: str, event: Event, context: dict[str, Any]
) -> HttpResponse:
    return render(request, template, {"event": event, **context})


def copies_named(event: Event) -> bool:
    """Whether the printed cards name each étui's copy: as soon as one étui is prepared in
    more than one copy, every copy says which it is, the first one included (a table told
    "étui 3" could otherwise pick up the second copy)."""
    return any(count > 1 for count in event.schedule.copies_per_deal_set().values())


@login_required
@directs(Event)
@needs_movement
def table_cards(request: HttpRequest, event: Event) -> HttpResponse:
    cards = []
    for card in selectors.event_table_cards(event):
        url = table_entry_url(request, card.table.code)
        cards.append({"card": card, "url": url, "qr": qr_svg(url)})
    context = {"cards": cards, "copies_named": copies_named(event)}
    return _print(request, "tournaments/print/table_cards.html", event, context)


def route_cards_per_sheet(rounds: int) -> int:
    """How many route cards an A4 sheet holds (2 columns), each still listing every round:
    8 (2×4) up to 9 rounds, 6 (2×3) up to 14, else 4 (2×2)."""
    if rounds <= 9:
        return 8
    return 6 if rounds <= 14 else 4


@login_required
@directs(Event)
@needs_movement
def route_cards(request: HttpRequest, event: Event) -> HttpResponse:
    """Every player's route card, several to an A4 sheet (cut apart along the dashed lines)."""
    cards = selectors.event_route_cards(event)
    per_sheet = route_cards_per_sheet(event.schedule.planned_rounds)
    sheets = [cards[start : start + per_sheet] for start in range(0, len(cards), per_sheet)]
    context = {"cards": cards, "sheets": sheets, "rows_per_sheet": per_sheet // 2}
    return _print(request, "tournaments/print/route_cards.html", event, context)


@login_required
@directs(Event)
@needs_movement
def deal_set_routes(request: HttpRequest, event: Event) -> HttpResponse:
    routes = selectors.event_deal_set_routes(event)
    return _print(request, "tournaments/print/deal_set_routes.html", event, {"routes": routes})


@login_required
@directs(Event)
def hand_diagrams(request: HttpRequest, event: Event) -> HttpResponse:
    deals = selectors.event_deals(event)
    if not deals or not all(d.cards for d in deals):
        messages.error(request, _("Hand diagrams need deals with their cards."))
        return redirect("organiser:deals", pk=event.pk)
    diagrams = [deal_diagram(d) for d in deals]
    context = {"diagrams": diagrams, "seed": deals_seed(event)}
    return _print(request, "tournaments/print/hands.html", event, context)


def _score_sheet_rounds(event: Event) -> list[dict[str, Any]]:
    """The rounds of the movement and the tables playing each (the sheets that exist)."""
    return [
        {"number": rnd.number, "tables": sorted(p.table for p in rnd.tables if not p.sits_out)}
        for rnd in event.schedule.rounds
    ]


@login_required
@directs(Event)
@needs_movement
def score_sheets_index(request: HttpRequest, event: Event) -> HttpResponse:
    """Which score sheets to print: every table of a round, or one table."""
    context = {"rounds": _score_sheet_rounds(event)}
    return _print(request, "tournaments/print/score_sheets_index.html", event, context)


@login_required
@directs(Event)
@needs_movement
def score_sheets(
    request: HttpRequest, event: Event, round_number: int, table_number: int | None = None
) -> HttpResponse:
    """The score sheets of a round (one page per table playing it), or of one table."""
    sheets = selectors.event_score_sheets(event, round_number, table_number)
    if not sheets:
        if sheets is None:
            error = _("Round %(round)s is not in the movement (or not paired yet).") % {
                "round": round_number
            }
        else:
            error = _("Table %(table)s does not play in round %(round)s.") % {
                "table": table_number,
                "round": round_number,
            }
        choose = {"event": event, "rounds": _score_sheet_rounds(event), "error": error}
        return render(request, "tournaments/print/score_sheets_index.html", choose, status=404)
    context: dict[str, Any] = {
        "sheets": sheets,
        "round_number": round_number,
        "contracts": contract_choices(),
        "sides": Side.choices,
        "sizes": PoigneeSize.choices,
        "copies_named": copies_named(event),
    }
    return _print(request, "tournaments/print/score_sheets.html", event, context)
