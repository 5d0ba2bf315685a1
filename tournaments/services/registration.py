"""Registration: entrants, and the import of a players' CSV file.

Players come from the register of the event's club (a section: its own club): a newcomer typed
by hand joins it through ``clubs.register.register_player_add``, the lines of a players' file
through ``clubs.register.RegisterPlan`` (a known licence links that player, never renamed; a
guest of the register is reused by name; a newcomer of another club has no home club:
``clubs.newcomers``).

An *entrant* is a movement slot bound to a player. Registering a player creates an entrant with
the next free slot, so slot order is registration order (setting the movement renumbers them
onto its slots in that order). Any change of the entrants before the start (late arrival,
withdrawal) makes the movement stale: it is removed and must be regenerated.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Player
from clubs.register import (
    CREATED,
    DUPLICATE,
    REGISTER_COLUMNS,
    RegisterEntry,
    RegisterPlan,
    file_entries,
    licence_clash,
)
from tournaments.models import Entrant, Event
from tournaments.services.common import locked, movement_stale, require_draft, require_own_tables


def _next_slot(event: Event) -> int:
    top = Entrant.objects.filter(event=event).aggregate(m=Max("slot"))["m"] or 0
    return int(top) + 1


@transaction.atomic
def entrant_register(*, event: Event, player: Player) -> Entrant:
    """Register ``player`` (also a late arrival before the start: the movement goes stale)."""
    added = entrants_register(event=event, players=[player])
    if not added:
        raise DomainError(
            "already_registered",
            _("%(player)s is already registered.") % {"player": player},
            field="player",
        )
    return added[0]


#: Players registered at most by one confirmation (:func:`entrants_register`).
MAX_AT_ONCE = 200


@transaction.atomic
def entrants_register(*, event: Event, players: Sequence[Player]) -> list[Entrant]:
    """Register several players with one confirmation (the players ticked in a search, the
    players of the last evening): those already registered are left out, the others take the
    next free slots in French order of their names. Refused as a whole as
    :func:`entrant_register` is (not a draft, a simultaneous's tables), and beyond
    :data:`MAX_AT_ONCE` players (``too_many_at_once``)."""
    if len(players) > MAX_AT_ONCE:
        raise DomainError(
            "too_many_at_once",
            _("At most %(max)s players are registered at once.") % {"max": MAX_AT_ONCE},
            field="player",
        )
    event = locked(event)
    require_draft(event)
    require_own_tables(event)
    wanted = {player.pk: player for player in players}
    taken = set(
        Entrant.objects.filter(event=event, player__in=list(wanted)).values_list(
            "player_id", flat=True
        )
    )
    new = sorted(
        (player for pk, player in wanted.items() if pk not in taken),
        key=lambda player: (player.name_sort_key, player.pk),
    )
    if not new:
        return []
    movement_stale(event)
    first = _next_slot(event)
    return Entrant.objects.bulk_create(
        [Entrant(event=event, player=player, slot=first + n) for n, player in enumerate(new)]
    )


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant) -> None:
    """Withdraw a registered player before the start (the movement goes stale)."""
    event = locked(entrant.event)
    require_draft(event)
    if entrant.phantom:
        raise DomainError("phantom_slot", _("A phantom slot cannot be withdrawn."))
    movement_stale(event)
    Entrant.objects.filter(pk=entrant.pk).delete()


# --- CSV import --------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportLineError:
    line: int
    message: str


@dataclass
class ImportReport:
    """The outcome of a CSV import: what was registered, and every rejected line with why."""

    registered: list[Player] = field(default_factory=list)
    players_created: int = 0
    players_matched: int = 0
    errors: list[ImportLineError] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


#: The columns of a players' file (a register file's category and active are not read here).
CSV_COLUMNS: dict[str, tuple[str, ...]] = {
    "last_name": (*REGISTER_COLUMNS["last_name"], "name"),
    "first_name": REGISTER_COLUMNS["first_name"],
    "licence": REGISTER_COLUMNS["licence"],
    "club": ("club",),
    "series": REGISTER_COLUMNS["series"],
}


#: A players' file holds at most this many lines (the import runs in bulk: 10,000 players are
#: registered in a few seconds), of at most :data:`MAX_IMPORT_LINE_CHARS` characters, and is
#: at most :data:`MAX_IMPORT_BYTES` large.
MAX_IMPORT_LINES = 20_000
MAX_IMPORT_LINE_CHARS = 1_000
MAX_IMPORT_BYTES = 2 * 1024 * 1024
_CHUNK = 500


def _header_message(missing: list[str]) -> str:
    return _(
        "Line 1 must be a header naming the columns Last name, First name, and if you have "
        "them Licence, Club, Series (in French or English)."
    )


def _entry(number: int, values: dict[str, str]) -> RegisterEntry:
    return RegisterEntry(
        number=number,
        last_name=values.get("last_name", ""),
        first_name=values.get("first_name", ""),
        licence=values.get("licence", ""),
        series=values.get("series", ""),
        home_club=values.get("club", ""),
    )


def _decide(
    event: Event, entries: list[tuple[int, dict[str, str]]]
) -> tuple[ImportReport, RegisterPlan]:
    """Decide every line: its player through the register of the event's club (a known
    licence links that player, a guest of the register is reused by name, else a newcomer
    joins the register), then refuse the players already registered."""
    report = ImportReport()
    by_number = {number: _entry(number, values) for number, values in entries}
    plan = RegisterPlan(event.club).decide(list(by_number.values()))
    report.errors.extend(ImportLineError(number, error.message) for number, error in plan.rejected)
    registered = set(
        Entrant.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    for line in plan.lines:
        player = line.player
        clash = (
            licence_clash(by_number[line.number], by_number[line.first])
            if line.outcome == DUPLICATE
            else None
        )
        if clash is not None:
            report.errors.append(ImportLineError(line.number, clash.message))
            continue
        if line.outcome == DUPLICATE or (player.pk is not None and player.pk in registered):
            report.errors.append(
                ImportLineError(
                    line.number, _("%(player)s is already registered.") % {"player": player}
                )
            )
            continue
        if line.outcome == CREATED:
            report.players_created += 1
        else:
            report.players_matched += 1
        report.registered.append(player)
    report.errors.sort(key=lambda error: error.line)
    return report, plan


def _store(event: Event, report: ImportReport, plan: RegisterPlan) -> None:
    """Write the register's changes, then the entrants on the next free slots."""
    if not report.registered:
        return
    plan.store()
    movement_stale(event)
    first = _next_slot(event)
    Entrant.objects.bulk_create(
        [
            Entrant(event=event, player=player, slot=first + index)
            for index, player in enumerate(report.registered)
        ],
        batch_size=_CHUNK,
    )


def players_import_csv(*, event: Event, file: IO[bytes] | IO[str] | bytes | str) -> ImportReport:
    """Register the players of a CSV file; good lines are imported, bad ones reported.

    Columns (header row required, any order, named in French or English, ``;``, ``,`` or tab
    separated, the encodings of :mod:`clubs.uploads`, or an Excel workbook): Nom, Prénom,
    Licence, Club, Série (the others are named in the report). A known
    licence registers that player (and puts him on the register of the event's club); a line
    without licence reuses a guest of that register of the same name (ignoring case); a new
    player joins that register: his home club is the event's club when the line's club is
    empty or that club, else he has none (never another club's player, and no club is
    created: ``clubs.newcomers``). A line in error is reported and leaves nothing behind. A
    file that cannot be read at all (see :mod:`clubs.uploads`: too large, binary, empty, too
    many or too long lines, unreadable CSV, no header) raises ``DomainError`` and registers
    nobody.

    The whole file is decided in memory from a few queries (the licences and names it holds,
    the event's entrants) and written with bulk inserts in one transaction.
    """
    read = file_entries(
        file,
        CSV_COLUMNS,
        max_bytes=MAX_IMPORT_BYTES,
        max_lines=MAX_IMPORT_LINES,
        max_line_chars=MAX_IMPORT_LINE_CHARS,
        header_message=_header_message,
    )
    with transaction.atomic():
        event = locked(event)
        require_draft(event)
        require_own_tables(event)
        report, plan = _decide(event, read.rows)
        _store(event, report, plan)
    report.ignored_columns = read.ignored_columns
    return report
