"""The deals of an event: generated from a seed or imported as text, replacing any it had.

- Deal set k holds deals ``(k-1)·dpr+1 .. k·dpr`` (``tournaments.movements.deal_numbers``,
  dpr = ``Event.deals_per_round``); the movement says how many deal sets there are.
- Seat convention (documented for the étuis): the dealer rotates N, E, S, W by deal number
  (deal 1: N; ``rules.deal.generate_deals`` deals that way; an imported deal keeps the dealer
  of its text) and the taker seat is the next seat in N, E, S, W order (deal 1: E), so over
  any 4 consecutive deals every seat takes once. In team events the movement fixes where the
  taking member sits (``Schedule.team_taker_seat``) and every deal uses it.
- An imposed contract obeys the duplicate restrictions (``rules.duplicate``): no Prise.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from rules import deal as rules_deal
from rules.duplicate import DUPLICATE_SEATS, check_duplicate_play
from rules.enums import Contract
from rules.errors import RuleError
from tournaments.errors import TournamentError
from tournaments.models import Deal, Event
from tournaments.movements import deal_set_of
from tournaments.services.common import locked, require_draft

HEADER_RE = re.compile(r"^\s*(#|deal\b|donne\b|=+|-{3,})", re.IGNORECASE)


def _imposed(imposed_contract: str) -> str:
    """``imposed_contract`` if a duplicate table may be told to play it ("" imposes none)."""
    if not imposed_contract:
        return ""
    try:
        contract = Contract(imposed_contract)
    except ValueError:
        raise TournamentError(
            "unknown_contract", _("Unknown contract."), field="imposed_contract"
        ) from None
    try:
        check_duplicate_play(contract=contract)
    except RuleError as error:
        raise TournamentError.from_rule(error, field="imposed_contract") from error
    return imposed_contract


def _deal_rows(event: Event, deals: Sequence[rules_deal.Deal], imposed_contract: str) -> list[Deal]:
    """Deal rows numbered 1..n; the dealer comes from the deal, the taker follows the dealer."""
    dpr = event.deals_per_round
    team_taker = event.schedule.team_taker_seat() if event.is_team_event else None
    rows = []
    for number, deal in enumerate(deals, start=1):
        dealer = deal.dealer % 4
        rows.append(
            Deal(
                event=event,
                number=number,
                deal_set=deal_set_of(number, dpr),
                dealer_seat=DUPLICATE_SEATS[dealer],
                taker_seat=team_taker or DUPLICATE_SEATS[(dealer + 1) % 4],
                imposed_contract=imposed_contract,
                cards=rules_deal.deal_to_text(deal),
            )
        )
    return rows


def _deal_count(event: Event) -> int:
    if not event.movement:
        raise TournamentError("movement_missing", _("Choose the movement before the deals."))
    return event.schedule.deal_set_count * event.deals_per_round


@transaction.atomic
def event_deals_generate(*, event: Event, seed: int, imposed_contract: str = "") -> list[Deal]:
    """Generate the event's deals from ``seed`` (replacing any deals it had)."""
    event = locked(event)
    require_draft(event)
    imposed_contract = _imposed(imposed_contract)
    count = _deal_count(event)
    try:
        generated = rules_deal.generate_deals(players=4, count=count, seed=seed)
    except RuleError as exc:
        raise TournamentError.from_rule(exc, field="seed") from exc
    Deal.objects.filter(event=event).delete()
    rows = Deal.objects.bulk_create(_deal_rows(event, generated, imposed_contract))
    event.seed = seed
    event.save(update_fields=["seed", "updated_at"])
    return rows


def split_deal_texts(text: str) -> list[tuple[int, str]]:
    """Split a deals file into (first line number, deal text) blocks.

    Deals are separated by blank lines or by header lines (``# ...``, ``Deal 3``, ``Donne 3``,
    ``===``), as ``python manage.py deals`` prints them.
    """
    blocks: list[tuple[int, str]] = []
    current: list[str] = []
    start = 0
    for number, line in enumerate(text.removeprefix("\ufeff").splitlines(), start=1):
        if not line.strip() or HEADER_RE.match(line):
            if current:
                blocks.append((start, "\n".join(current)))
                current = []
            continue
        if not current:
            start = number
        current.append(line)
    if current:
        blocks.append((start, "\n".join(current)))
    return blocks


@transaction.atomic
def event_deals_import(*, event: Event, text: str, imposed_contract: str = "") -> list[Deal]:
    """Replace the event's deals by those of ``text`` (the rules engine's text form)."""
    event = locked(event)
    require_draft(event)
    imposed_contract = _imposed(imposed_contract)
    count = _deal_count(event)
    parsed: list[rules_deal.Deal] = []
    for index, (line, block) in enumerate(split_deal_texts(text), start=1):
        try:
            deal = rules_deal.deal_from_text(block)
        except RuleError as exc:
            # The engine counts lines inside the block; name the line of the whole file.
            inner = (exc.field or "").removeprefix("line ")
            at = line + int(inner) - 1 if inner.isdigit() else line
            raise TournamentError(
                exc.code,
                _("Deal %(deal)s (line %(line)s): %(reason)s")
                % {"deal": index, "line": at, "reason": exc.translated(_)},
                field="file",
            ) from exc
        if deal.players != 4:
            raise TournamentError(
                "players_not_four",
                _("Deal %(deal)s (line %(line)s): a duplicate deal has 4 hands.")
                % {"deal": index, "line": line},
                field="file",
            )
        parsed.append(deal)
    if len(parsed) != count:
        raise TournamentError(
            "deal_count",
            _(
                "The file holds %(found)s deals; the movement needs %(needed)s "
                "(%(sets)s deal sets of %(per)s)."
            )
            % {
                "found": len(parsed),
                "needed": count,
                "sets": count // event.deals_per_round,
                "per": event.deals_per_round,
            },
            field="file",
        )
    Deal.objects.filter(event=event).delete()
    return Deal.objects.bulk_create(_deal_rows(event, parsed, imposed_contract))
