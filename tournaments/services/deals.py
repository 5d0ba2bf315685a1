"""The deals of an event: generated from a seed or imported as text, replacing any it had.

- Deal set k holds deals ``(k-1)·dpr+1 .. k·dpr`` (``tournaments.movements.deal_numbers``,
  dpr = ``Event.deals_per_round``); the movement says how many deal sets there are.
- Seat convention (documented for the étuis): the dealer rotates N, E, S, W by deal number
  (deal 1: N; ``rules.deal.generate_deals`` deals that way; an imported deal keeps the dealer
  of its text) and by default the taker seat is the next seat in N, E, S, W order (deal 1: E),
  so over any 4 consecutive deals every seat takes once. An imported deal may name its taker
  seat on a ``taker: S`` line (``preneur:`` too; N, E, S, W, or O for Ouest), independently of
  its dealer. In team events the movement fixes where the taking member sits
  (``Schedule.team_taker_seat``) and every deal uses it (an imported taker line must agree).
- Seeds: ``rules.deal.random_seed`` draws the default seed (1 .. 2**62, from ``secrets``), so
  events that keep the default never play the same cards; ``Event.seed`` is the seed the deals were
  generated from, 0 when they were imported (``deals_seed``).
- An imposed contract obeys the duplicate restrictions (``rules.duplicate``): no Prise.

Simultaneous tournaments (``tournaments.services.sections``): a *simultaneous* holds the deals
every section plays and has no movement, so its number of rounds R is the number of deals it
holds divided by ``deals_per_round`` (it holds R × dpr deals from its creation on). Generating
or importing its deals keeps R unless ``rounds`` is given, and copies them to every section
(same numbers, deal sets, cards, dealer and taker seats, imposed contract); refused once a
section has started (the parent is then running: the cards are being played). A *section*
never generates nor imports deals of its own.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from rules import deal as rules_deal
from rules.duplicate import DUPLICATE_SEATS, check_duplicate_play
from rules.enums import Contract
from rules.errors import RuleError
from tournaments.models import Deal, Event
from tournaments.movements import deal_set_of
from tournaments.services.common import is_simultaneous, locked, require_draft

HEADER_RE = re.compile(r"^\s*(#|deal\b|donne\b|=+|-{3,})", re.IGNORECASE)
#: An imported deal's taker seat line: ``taker: S`` (or ``preneur: S``).
TAKER_RE = re.compile(r"^\s*(taker|preneur)\s*:\s*(?P<seat>\S*)\s*$", re.IGNORECASE)
#: Seat letters an imported taker line may use (O: Ouest, the French West).
TAKER_SEATS = {"N": "N", "E": "E", "S": "S", "W": "W", "O": "W"}
#: ``Event.seed`` of deals that were imported, not generated.
NO_SEED = 0


def deals_seed(event: Event) -> int | None:
    """The seed ``event``'s deals were generated from, None when they were imported."""
    return None if event.seed == NO_SEED else event.seed


def _imposed(imposed_contract: str) -> str:
    """``imposed_contract`` if a duplicate table may be told to play it ("" imposes none)."""
    if not imposed_contract:
        return ""
    try:
        contract = Contract(imposed_contract)
    except ValueError:
        raise DomainError(
            "unknown_contract", _("Unknown contract."), field="imposed_contract"
        ) from None
    try:
        check_duplicate_play(contract=contract)
    except RuleError as error:
        raise DomainError.from_rule(error, field="imposed_contract") from error
    return imposed_contract


def _deal_rows(
    event: Event,
    deals: Sequence[rules_deal.Deal],
    imposed_contract: str,
    takers: Sequence[str | None] = (),
) -> list[Deal]:
    """Deal rows numbered 1..n; the dealer comes from the deal, the taker seat from ``takers``
    (one per deal, None: the default) or else follows the dealer (team events: the movement's
    taker seat)."""
    dpr = event.deals_per_round
    team_taker = event.schedule.team_taker_seat() if event.is_team_event else None
    rows = []
    for number, deal in enumerate(deals, start=1):
        dealer = deal.dealer % 4
        taker = takers[number - 1] if number <= len(takers) else None
        rows.append(
            Deal(
                event=event,
                number=number,
                deal_set=deal_set_of(number, dpr),
                dealer_seat=DUPLICATE_SEATS[dealer],
                taker_seat=taker or team_taker or DUPLICATE_SEATS[(dealer + 1) % 4],
                imposed_contract=imposed_contract,
                cards=rules_deal.deal_to_text(deal),
            )
        )
    return rows


MAX_SIMULTANEOUS_ROUNDS = 60


def simultaneous_rounds(event: Event) -> int:
    """The number of rounds (deal sets) of a simultaneous: the deals it holds ÷ dpr."""
    return Deal.objects.filter(event=event).count() // event.deals_per_round


def check_rounds(rounds: object) -> int:
    """``rounds`` if it is a number of rounds a simultaneous may have."""
    if (
        isinstance(rounds, bool)
        or not isinstance(rounds, int)
        or not 1 <= rounds <= MAX_SIMULTANEOUS_ROUNDS
    ):
        raise DomainError(
            "rounds_out_of_range",
            _("The number of rounds must be between 1 and %(max)s.")
            % {"max": MAX_SIMULTANEOUS_ROUNDS},
            field="rounds",
        )
    return rounds


def _refuse_section(event: Event) -> None:
    if event.simultaneous_id is not None:
        raise DomainError(
            "section_deals",
            _(
                "A section plays the deals of its simultaneous: generate or import them on the "
                "simultaneous."
            ),
        )


def _require_simultaneous_draft(event: Event) -> None:
    """The deals of a simultaneous change only while no section has started."""
    if event.status != Event.Status.DRAFT:
        raise DomainError(
            "section_started",
            _(
                "A section has started: the deals of the simultaneous are being played and can "
                "no longer change."
            ),
        )


def _deal_count(event: Event, *, simultaneous: bool = False, rounds: int | None = None) -> int:
    if simultaneous:
        if rounds is None:
            rounds = simultaneous_rounds(event)
        return check_rounds(rounds) * event.deals_per_round
    if not event.movement:
        raise DomainError("movement_missing", _("Choose the movement before the deals."))
    return event.schedule.deal_set_count * event.deals_per_round


def section_deal_copies(section: Event, deals: Sequence[Deal]) -> list[Deal]:
    """Unsaved copies of the simultaneous's ``deals`` for ``section``."""
    return [
        Deal(
            event=section,
            number=deal.number,
            deal_set=deal.deal_set,
            dealer_seat=deal.dealer_seat,
            taker_seat=deal.taker_seat,
            imposed_contract=deal.imposed_contract,
            cards=deal.cards,
        )
        for deal in deals
    ]


def copy_deals_to_sections(simultaneous: Event, deals: Sequence[Deal] | None = None) -> int:
    """Replace the deals of every draft section of ``simultaneous`` by copies of its own (and
    their seed by its seed).

    The caller holds the simultaneous's row lock (no section starts meanwhile: a section
    start takes that lock). Returns the number of sections updated.
    """
    if deals is None:
        deals = list(Deal.objects.filter(event=simultaneous).order_by("number"))
    sections = list(
        Event.objects.filter(simultaneous=simultaneous, status=Event.Status.DRAFT).order_by("pk")
    )
    if not sections:
        return 0
    Deal.objects.filter(event__in=sections).delete()
    # The sections print the seed of the deals they hold (``deals_seed``).
    Event.objects.filter(pk__in=[s.pk for s in sections]).update(seed=simultaneous.seed)
    copies: list[Deal] = []
    for section in sections:
        copies += section_deal_copies(section, deals)
    Deal.objects.bulk_create(copies, batch_size=2000)
    return len(sections)


@transaction.atomic
def deal_seats_set(*, event: Event, number: int, dealer_seat: str, taker_seat: str) -> Deal:
    """Set the dealer and the taker seat of one deal of a draft event, independently of each
    other (the generator and the import give the seat after the dealer unless told).

    Not in a section or a simultaneous (their deals are the simultaneous's copies, set by
    import), and not the taker of a team event (its movement seats the team's taker).
    """
    _refuse_section(event)
    if is_simultaneous(event):
        raise DomainError(
            "simultaneous_deal_seats",
            _("The seats of a simultaneous's deals are set by importing its deals."),
        )
    event = locked(event)
    require_draft(event)
    for field, seat in (("dealer_seat", dealer_seat), ("taker_seat", taker_seat)):
        if seat not in DUPLICATE_SEATS:
            raise DomainError(
                "unknown_seat",
                _("%(seat)s is not a seat (N, E, S, W)") % {"seat": seat},
                field=field,
            )
    deal = Deal.objects.filter(event=event, number=number).first()
    if deal is None:
        raise DomainError(
            "unknown_deal", _("No deal has the number %(deal)s.") % {"deal": number}, field="deal"
        )
    team_taker = event.schedule.team_taker_seat() if event.is_team_event else None
    if team_taker and taker_seat != team_taker:
        raise DomainError(
            "team_taker_seat",
            _("In this team event the movement seats the taker in %(seat)s.")
            % {"seat": team_taker},
            field="taker_seat",
        )
    deal.dealer_seat, deal.taker_seat = dealer_seat, taker_seat
    deal.save(update_fields=["dealer_seat", "taker_seat"])
    return deal


@transaction.atomic
def event_deals_generate(
    *, event: Event, seed: int, imposed_contract: str = "", rounds: int | None = None
) -> list[Deal]:
    """Generate the event's deals from ``seed`` (replacing any deals it had).

    On a simultaneous, ``rounds`` (default: the rounds it has) sets the number of deal sets,
    and the deals are copied to every section; elsewhere the movement fixes the count and
    ``rounds`` must not be given.
    """
    _refuse_section(event)
    simultaneous = is_simultaneous(event)
    event = locked(event)
    if simultaneous:
        _require_simultaneous_draft(event)
    else:
        require_draft(event)
        if rounds is not None:
            raise DomainError(
                "rounds_not_applicable",
                _("The movement fixes the number of deals of this event."),
                field="rounds",
            )
    imposed_contract = _imposed(imposed_contract)
    count = _deal_count(event, simultaneous=simultaneous, rounds=rounds)
    rows = deals_replace_generated(event, seed=seed, count=count, imposed_contract=imposed_contract)
    if simultaneous:
        copy_deals_to_sections(event, rows)
    return rows


def deals_replace_generated(
    event: Event, *, seed: int, count: int, imposed_contract: str = ""
) -> list[Deal]:
    """Replace the deals of ``event`` (locked by the caller) by ``count`` deals from ``seed``."""
    imposed_contract = _imposed(imposed_contract)
    try:
        generated = rules_deal.generate_deals(players=4, count=count, seed=seed)
    except RuleError as exc:
        raise DomainError.from_rule(exc, field="seed") from exc
    Deal.objects.filter(event=event).delete()
    rows = Deal.objects.bulk_create(_deal_rows(event, generated, imposed_contract))
    event.seed = seed
    event.save(update_fields=["seed", "updated_at"])
    return rows


def _taker_line(
    block: str, *, deal: int, first_line: int, team_taker: str | None
) -> tuple[str | None, str]:
    """The taker seat a deal's text names (None: none named) and the text without that line
    (blanked to a comment, so the engine's line numbers stay those of the file)."""
    taker: str | None = None
    lines = block.split("\n")
    for offset, raw in enumerate(lines):
        match = TAKER_RE.match(raw)
        if match is None:
            continue
        at = first_line + offset
        if taker is not None:
            raise DomainError(
                "duplicate_taker",
                _("Deal %(deal)s (line %(line)s): a second taker line.")
                % {"deal": deal, "line": at},
                field="file",
            )
        seat = TAKER_SEATS.get(match["seat"].upper())
        if seat is None:
            raise DomainError(
                "unknown_taker_seat",
                _(
                    "Deal %(deal)s (line %(line)s): the taker seat must be N, E, S or W (O), "
                    "not %(seat)s."
                )
                % {"deal": deal, "line": at, "seat": repr(match["seat"])},
                field="file",
            )
        if team_taker is not None and seat != team_taker:
            raise DomainError(
                "team_taker_seat",
                _(
                    "Deal %(deal)s (line %(line)s): in this team event the movement seats the "
                    "taker in %(seat)s."
                )
                % {"deal": deal, "line": at, "seat": team_taker},
                field="file",
            )
        taker = seat
        lines[offset] = "#"
    return taker, "\n".join(lines)


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
def event_deals_import(
    *, event: Event, text: str, imposed_contract: str = "", rounds: int | None = None
) -> list[Deal]:
    """Replace the event's deals by those of ``text`` (the rules engine's text form).

    On a simultaneous the file must hold ``rounds`` × dpr deals (default: the rounds it has)
    and the deals are copied to every section.
    """
    _refuse_section(event)
    simultaneous = is_simultaneous(event)
    event = locked(event)
    if simultaneous:
        _require_simultaneous_draft(event)
    else:
        require_draft(event)
        if rounds is not None:
            raise DomainError(
                "rounds_not_applicable",
                _("The movement fixes the number of deals of this event."),
                field="rounds",
            )
    imposed_contract = _imposed(imposed_contract)
    count = _deal_count(event, simultaneous=simultaneous, rounds=rounds)
    parsed: list[rules_deal.Deal] = []
    takers: list[str | None] = []
    team_taker = event.schedule.team_taker_seat() if event.is_team_event else None
    for index, (line, block) in enumerate(split_deal_texts(text), start=1):
        taker, block = _taker_line(block, deal=index, first_line=line, team_taker=team_taker)
        takers.append(taker)
        try:
            deal = rules_deal.deal_from_text(block)
        except RuleError as exc:
            # The engine counts lines inside the block; name the line of the whole file.
            inner = (exc.field or "").removeprefix("line ")
            at = line + int(inner) - 1 if inner.isdigit() else line
            raise DomainError(
                exc.code,
                _("Deal %(deal)s (line %(line)s): %(reason)s")
                % {"deal": index, "line": at, "reason": exc.translated(_)},
                field="file",
            ) from exc
        if deal.players != 4:
            raise DomainError(
                "players_not_four",
                _("Deal %(deal)s (line %(line)s): a duplicate deal has 4 hands.")
                % {"deal": index, "line": line},
                field="file",
            )
        parsed.append(deal)
    if len(parsed) != count:
        numbers = {
            "found": len(parsed),
            "needed": count,
            "sets": count // event.deals_per_round,
            "per": event.deals_per_round,
        }
        message = (
            _(
                "The file holds %(found)s deals; the simultaneous needs %(needed)s "
                "(%(sets)s rounds of %(per)s)."
            )
            if simultaneous
            else _(
                "The file holds %(found)s deals; the movement needs %(needed)s "
                "(%(sets)s deal sets of %(per)s)."
            )
        )
        raise DomainError("deal_count", message % numbers, field="file")
    Deal.objects.filter(event=event).delete()
    rows = Deal.objects.bulk_create(_deal_rows(event, parsed, imposed_contract, takers))
    event.seed = NO_SEED
    event.save(update_fields=["seed", "updated_at"])
    if simultaneous:
        copy_deals_to_sections(event, rows)
    return rows
