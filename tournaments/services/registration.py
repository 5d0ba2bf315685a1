"""Registration: known players, entrants, and the import of a players' CSV file.

An *entrant* is a movement slot bound to a player. Registering a player creates an entrant with
the next free slot, so slot order is registration order (setting the movement renumbers them
onto its slots in that order). Any change of the entrants before the start (late arrival,
withdrawal) makes the movement stale: it is removed and must be regenerated.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import IntegrityError, transaction
from django.db.models import Max, Q
from django.db.models.functions import Upper
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, Player
from clubs.uploads import check_lines, csv_delimiter, csv_rows, decode_text
from tournaments.models import Entrant, Event
from tournaments.services.common import locked, movement_stale, require_draft, require_own_tables

LICENCE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")


def _clean_licence(licence: str) -> str | None:
    licence = licence.strip()
    if not licence:
        return None
    if not LICENCE_RE.match(licence):
        raise DomainError(
            "invalid_licence",
            _("A licence number is 1 to 20 letters, digits, '.', '/' or '-'."),
            field="licence",
        )
    return licence


def _first_name_required() -> DomainError:
    return DomainError("first_name_required", _("The first name is required."), field="first_name")


def _last_name_required() -> DomainError:
    return DomainError("last_name_required", _("The last name is required."), field="last_name")


def _series_too_long() -> DomainError:
    return DomainError("series_too_long", _("The series is at most 20 characters."), field="series")


@transaction.atomic
def player_create(
    *,
    first_name: str,
    last_name: str,
    licence: str = "",
    club: Club | None = None,
    series: str = "",
) -> Player:
    """A new known player (the licence number, when given, is unique)."""
    first_name, last_name, series = first_name.strip(), last_name.strip(), series.strip()
    if not first_name:
        raise _first_name_required()
    if not last_name:
        raise _last_name_required()
    if len(first_name) > 80 or len(last_name) > 80:
        raise DomainError("name_too_long", _("Names are at most 80 characters."), field="last_name")
    if len(series) > 20:
        raise _series_too_long()
    clean = _clean_licence(licence)
    if clean is not None and Player.objects.filter(licence=clean).exists():
        raise DomainError(
            "licence_taken",
            _("A player with licence %(licence)s already exists.") % {"licence": clean},
            field="licence",
        )
    return Player.objects.create(
        first_name=first_name, last_name=last_name, licence=clean, club=club, series=series
    )


def _next_slot(event: Event) -> int:
    top = Entrant.objects.filter(event=event).aggregate(m=Max("slot"))["m"] or 0
    return int(top) + 1


@transaction.atomic
def entrant_register(*, event: Event, player: Player) -> Entrant:
    """Register ``player`` (also a late arrival before the start: the movement goes stale)."""
    event = locked(event)
    require_draft(event)
    require_own_tables(event)
    if Entrant.objects.filter(event=event, player=player).exists():
        raise DomainError(
            "already_registered",
            _("%(player)s is already registered.") % {"player": player},
            field="player",
        )
    movement_stale(event)
    return Entrant.objects.create(event=event, player=player, slot=_next_slot(event))


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
    clubs_created: list[str] = field(default_factory=list)
    errors: list[ImportLineError] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.errors


CSV_COLUMNS = {
    "last_name": ("last_name", "lastname", "nom", "name"),
    "first_name": ("first_name", "firstname", "prenom", "prénom"),
    "licence": ("licence", "license", "licence_number", "numero_licence"),
    "club": ("club",),
    "series": ("series", "serie", "série"),
}


#: A players' file holds at most this many lines (the import runs in bulk: 10,000 players are
#: registered in a few seconds), of at most :data:`MAX_IMPORT_LINE_CHARS` characters, and is
#: at most :data:`MAX_IMPORT_BYTES` large.
MAX_IMPORT_LINES = 20_000
MAX_IMPORT_LINE_CHARS = 1_000
MAX_IMPORT_BYTES = 2 * 1024 * 1024
#: Values per ``IN (...)`` query and rows per INSERT (well under SQLite's variable limit).
_CHUNK = 500


def _csv_header(header: Sequence[str]) -> dict[str, int]:
    aliases = {alias: key for key, names in CSV_COLUMNS.items() for alias in names}
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        key = aliases.get(name.strip().lower().replace(" ", "_").replace("-", "_"))
        if key is not None and key not in columns:
            columns[key] = index
    missing = [key for key in ("last_name", "first_name") if key not in columns]
    if missing:
        raise DomainError(
            "csv_header",
            _(
                "Line 1 must be a header naming the columns last_name, first_name, licence, "
                "club, series (missing: %(missing)s)."
            )
            % {"missing": ", ".join(missing)},
            field="file",
        )
    return columns


def _chunks(values: Sequence[str]) -> Iterator[Sequence[str]]:
    for start in range(0, len(values), _CHUNK):
        yield values[start : start + _CHUNK]


def _casefold_key(*parts: str) -> tuple[str, ...]:
    return tuple(part.casefold() for part in parts)


def _case_insensitive_candidates(queryset: Any, field: str, names: set[str]) -> Iterator[Any]:
    """The rows of ``queryset`` whose ``field`` may equal one of ``names`` ignoring case
    (the caller compares exactly): upper-cased in the database (Unicode on PostgreSQL, ASCII
    on SQLite, as ``iexact`` is) or spelt the same, in chunks, lowest primary key first."""
    wanted = sorted(names | {name.upper() for name in names})
    annotated = queryset.annotate(_upper=Upper(field))
    for chunk in _chunks(wanted):
        condition = Q(_upper__in=chunk) | Q(**{f"{field}__in": chunk})
        yield from annotated.filter(condition).order_by("pk")


@dataclass
class _Plan:
    """What a players' file registers, decided line by line before anything is written."""

    event: Event
    report: ImportReport
    by_licence: dict[str, Player]  # known (database) and new players, by licence
    by_name: dict[tuple[str, ...], Player]  # unlicensed ones, by case-folded (last, first)
    clubs: dict[str, Club]  # known and new clubs, by case-folded name
    registered: set[int]  # ids of the database players already entrants of the event
    new_clubs: list[Club] = field(default_factory=list)
    new_players: list[Player] = field(default_factory=list)
    entrants: list[Player] = field(default_factory=list)
    taken: set[int] = field(default_factory=set)  # id() of the players this file registers

    def line(self, number: int, values: dict[str, str], licence: str | None) -> None:
        try:
            player, created = self._player(values, licence)
            if (player.pk is not None and player.pk in self.registered) or id(player) in self.taken:
                raise DomainError(
                    "already_registered",
                    _("%(player)s is already registered.") % {"player": player},
                    field="player",
                )
        except DomainError as exc:
            self.report.errors.append(ImportLineError(number, exc.message))
            return
        if created:
            self._create(player, values.get("club", ""))
            self.report.players_created += 1
        else:
            self.report.players_matched += 1
        self.taken.add(id(player))
        self.entrants.append(player)
        self.report.registered.append(player)

    def _player(self, values: dict[str, str], licence: str | None) -> tuple[Player, bool]:
        """The known player of the line, else a new one (not yet stored); the checks and their
        order are those of :func:`player_create`."""
        if licence is not None and licence in self.by_licence:
            player = self.by_licence[licence]
            return player, False
        last, first = values.get("last_name", ""), values.get("first_name", "")
        series = values.get("series", "")
        if not last:
            raise _last_name_required()
        if not first:
            raise _first_name_required()
        if len(series) > 20:
            raise _series_too_long()
        if licence is None:
            known = self.by_name.get(_casefold_key(last, first))
            if known is not None:
                return known, False
        if len(values.get("club", "")) > 120:
            raise DomainError(
                "club_name_too_long", _("The club name is at most 120 characters."), field="club"
            )
        if len(first) > 80 or len(last) > 80:
            raise DomainError(
                "name_too_long", _("Names are at most 80 characters."), field="last_name"
            )
        return Player(first_name=first, last_name=last, licence=licence, series=series), True

    def _create(self, player: Player, club_name: str) -> None:
        if club_name:
            key = club_name.casefold()
            if key not in self.clubs:
                self.clubs[key] = Club(name=club_name)
                self.new_clubs.append(self.clubs[key])
                self.report.clubs_created.append(club_name)
            player.club = self.clubs[key]
        if player.licence is not None:
            self.by_licence[player.licence] = player
        else:
            self.by_name.setdefault(_casefold_key(player.last_name, player.first_name), player)
        self.new_players.append(player)


def _plan(event: Event, entries: list[tuple[int, dict[str, str]]]) -> _Plan:
    """Read what the database knows in a few queries, then decide every line in order."""
    report = ImportReport()
    checked: list[tuple[int, dict[str, str], str | None]] = []
    for number, values in entries:
        try:
            checked.append((number, values, _clean_licence(values.get("licence", ""))))
        except DomainError as exc:
            report.errors.append(ImportLineError(number, exc.message))
    licences = sorted({licence for _n, _v, licence in checked if licence is not None})
    by_licence = {
        player.licence: player
        for chunk in _chunks(licences)
        for player in Player.objects.filter(licence__in=chunk)
        if player.licence is not None
    }
    unlicensed = {values.get("last_name", "") for _n, values, licence in checked if not licence}
    by_name: dict[tuple[str, ...], Player] = {}
    for player in _case_insensitive_candidates(
        Player.objects.filter(licence__isnull=True), "last_name", unlicensed - {""}
    ):
        by_name.setdefault(_casefold_key(player.last_name, player.first_name), player)
    club_names = {values.get("club", "") for _n, values, _l in checked} - {""}
    clubs: dict[str, Club] = {}
    for club in _case_insensitive_candidates(Club.objects.all(), "name", club_names):
        clubs.setdefault(club.name.casefold(), club)
    registered = set(
        Entrant.objects.filter(event=event, player__isnull=False).values_list(
            "player_id", flat=True
        )
    )
    plan = _Plan(event, report, by_licence, by_name, clubs, registered)
    for number, values, licence in checked:
        plan.line(number, values, licence)
    report.errors.sort(key=lambda error: error.line)
    return plan


def _store(plan: _Plan) -> None:
    """Write the plan: new clubs, new players, then their entrants on the next free slots."""
    if not plan.entrants:
        return
    try:
        with transaction.atomic():
            Club.objects.bulk_create(plan.new_clubs, batch_size=_CHUNK)
            Player.objects.bulk_create(plan.new_players, batch_size=_CHUNK)
    except IntegrityError as exc:
        raise DomainError(
            "import_conflict",
            _(
                "Players or clubs of the file were created while it was read: nothing was "
                "imported; import the file again."
            ),
            field="file",
        ) from exc
    movement_stale(plan.event)
    first = _next_slot(plan.event)
    Entrant.objects.bulk_create(
        [
            Entrant(event=plan.event, player=player, slot=first + index)
            for index, player in enumerate(plan.entrants)
        ],
        batch_size=_CHUNK,
    )


def players_import_csv(*, event: Event, file: IO[bytes] | IO[str] | bytes | str) -> ImportReport:
    """Register the players of a CSV file; good lines are imported, bad ones reported.

    Columns (header row required, any order, ``;``, ``,`` or tab separated, UTF-8 with or
    without BOM, or Windows-1252/Latin-1): last_name, first_name, licence, club, series. A known
    licence registers that player; a line without licence reuses a known unlicensed player of
    the same name (ignoring case). A line in error is reported and leaves nothing behind (no
    player, no club). A file that cannot be read at all (see :mod:`clubs.uploads`:
    too large, binary, empty, too many or too long lines, unreadable CSV, no header) raises
    ``DomainError`` and registers nobody.

    The whole file is decided in memory from a few queries (the licences, names and clubs it
    names, the event's entrants) and written with bulk inserts in one transaction.
    """
    text = decode_text(file, max_bytes=MAX_IMPORT_BYTES)
    lines = check_lines(text, max_lines=MAX_IMPORT_LINES, max_line_chars=MAX_IMPORT_LINE_CHARS)
    if not lines or not lines[0].strip():
        raise DomainError("file_empty", _("The file is empty."), field="file")
    rows = list(csv_rows(text, csv_delimiter(lines[0])))
    columns = _csv_header(rows[0][1])
    entries = [
        (number, {key: (row[i].strip() if i < len(row) else "") for key, i in columns.items()})
        for number, row in rows[1:]
        if any(cell.strip() for cell in row)
    ]
    with transaction.atomic():
        event = locked(event)
        require_draft(event)
        require_own_tables(event)
        plan = _plan(event, entries)
        _store(plan)
    return plan.report
