"""The club's player register: adding a player, linking a known licence, editing a line,
deactivating, and importing a CSV file of the register.

Vocabulary: a *register line* (:class:`~clubs.models.Membership`) puts a player on a club's
register with a category and an *active* flag (the competitions' pickers offer the active
lines only). A player's *home club* is ``Player.club``.

Invariants, kept by every write here (the competitions register newcomers through
:func:`register_player_add` and :class:`RegisterPlan` too):

- **a licence identifies one player across clubs**: adding or importing a licence already
  known (even from another club) links that player into the club's register and never renames
  him; a different name is reported (:attr:`PlannedLine.name_differs`, a warning of the import);
- a player without a licence (a *guest*) may be added and play; within one club's register a
  guest is one per name (first and last name, ignoring case); before a guest is created by
  hand, the pages ask :func:`register_namesakes` whether the register already holds that name
  spelt otherwise (accents, case, order) and offer that player instead;
- a player's name is edited only by his home club's organisers, or by any register holding
  him when he has no home club; category and active belong to each line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.db import IntegrityError, transaction
from django.db.models import Q
from django.db.models.functions import Upper
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, Membership, Player
from clubs.uploads import check_lines, csv_delimiter, csv_rows, decode_text
from rules.names import fold

LICENCE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")
MAX_NAME = 80
MAX_CATEGORY = 40
MAX_SERIES = 20
MAX_CLUB_NAME = 120
#: Values per ``IN (...)`` query and rows per INSERT (well under SQLite's variable limit).
CHUNK = 500
#: Namesakes named at most before a new guest is created (:func:`register_namesakes`).
MAX_NAMESAKES = 10

#: What a line of the register became.
CREATED, LINKED, UPDATED, UNCHANGED, DUPLICATE = "created", "linked", "updated", "unchanged", "dup"


# --------------------------------------------------------------------------- checks


def licence_clean(licence: str) -> str | None:
    """``licence`` stripped, None when empty; refused (``invalid_licence``) when malformed."""
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


def names_clean(first_name: str, last_name: str) -> tuple[str, str]:
    """The stripped names, refused when missing or longer than 80 characters."""
    first, last = first_name.strip(), last_name.strip()
    if not last:
        raise DomainError("last_name_required", _("The last name is required."), field="last_name")
    if not first:
        raise DomainError(
            "first_name_required", _("The first name is required."), field="first_name"
        )
    if len(first) > MAX_NAME or len(last) > MAX_NAME:
        raise DomainError("name_too_long", _("Names are at most 80 characters."), field="last_name")
    return first, last


def _category_clean(category: str) -> str:
    category = category.strip()
    if len(category) > MAX_CATEGORY:
        raise DomainError(
            "category_too_long", _("The category is at most 40 characters."), field="category"
        )
    return category


def _series_clean(series: str) -> str:
    series = series.strip()
    if len(series) > MAX_SERIES:
        raise DomainError(
            "series_too_long", _("The series is at most 20 characters."), field="series"
        )
    return series


def name_key(first_name: str, last_name: str) -> tuple[str, str]:
    """How two guests' names compare: first and last name, stripped, ignoring case."""
    return (last_name.strip().casefold(), first_name.strip().casefold())


def chunks(values: Sequence[Any]) -> Iterator[Sequence[Any]]:
    for start in range(0, len(values), CHUNK):
        yield values[start : start + CHUNK]


def case_insensitive_candidates(queryset: Any, field_name: str, names: set[str]) -> Iterator[Any]:
    """The rows of ``queryset`` whose ``field_name`` may equal one of ``names`` ignoring case
    (the caller compares exactly): upper-cased in the database (Unicode on PostgreSQL, ASCII
    on SQLite, as ``iexact`` is) or spelt the same, in chunks, lowest primary key first."""
    wanted = sorted(names | {name.upper() for name in names})
    annotated = queryset.annotate(_upper=Upper(field_name))
    for chunk in chunks(wanted):
        condition = Q(_upper__in=chunk) | Q(**{f"{field_name}__in": chunk})
        yield from annotated.filter(condition).order_by("pk")


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class RegisterEntry:
    """One player to put on a register (a line of a file, or a form).

    ``category``/``active`` None: keep what the line has (a new line: no category, active).
    ``home_club``: the name of the home club of a new player (created when unknown; only
    where the plan allows it), else the register's club.
    """

    number: int
    last_name: str
    first_name: str
    licence: str = ""
    category: str | None = None
    active: bool | None = None
    series: str = ""
    home_club: str = ""


@dataclass
class PlannedLine:
    """What an entry became: its player (stored or new), its register line, the outcome
    (``created``, ``linked``, ``updated``, ``unchanged``, or ``dup`` when an earlier entry
    of the same plan already named that player: ``first`` is that entry's number)."""

    number: int
    player: Player
    membership: Membership
    outcome: str
    name_differs: bool = False
    first: int = 0


@dataclass
class RegisterPlan:
    """Decides, in memory from a few queries, what a batch of entries does to ``club``'s
    register, then :meth:`store` writes it in bulk. Refused entries are in :attr:`rejected`
    (their number and the :class:`DomainError`); nothing of them is written.

    ``create_home_clubs``: an entry's ``home_club`` names the home club of a new player
    (found ignoring case, else created); otherwise new players' home club is ``club``.
    """

    club: Club
    create_home_clubs: bool = False
    lines: list[PlannedLine] = field(default_factory=list)
    rejected: list[tuple[int, DomainError]] = field(default_factory=list)
    clubs_created: list[str] = field(default_factory=list)
    _by_licence: dict[str, Player] = field(default_factory=dict)
    _guests: dict[tuple[str, str], Player] = field(default_factory=dict)
    _memberships: dict[int, Membership] = field(default_factory=dict)  # by id(player)
    _clubs: dict[str, Club] = field(default_factory=dict)
    _seen: dict[int, int] = field(default_factory=dict)  # id(player) -> first entry number
    _new_clubs: list[Club] = field(default_factory=list)
    _new_players: list[Player] = field(default_factory=list)
    _new_lines: list[Membership] = field(default_factory=list)
    _changed_lines: dict[int, Membership] = field(default_factory=dict)

    def decide(self, entries: Sequence[RegisterEntry]) -> RegisterPlan:
        """Read what the database knows of ``entries``, then decide each in order."""
        checked: list[tuple[RegisterEntry, str | None]] = []
        for entry in entries:
            try:
                checked.append((entry, licence_clean(entry.licence)))
            except DomainError as error:
                self.rejected.append((entry.number, error))
        self._load(checked)
        for entry, licence in checked:
            try:
                self.lines.append(self._decide(entry, licence))
            except DomainError as error:
                self.rejected.append((entry.number, error))
        self.rejected.sort(key=lambda item: item[0])
        return self

    def _load(self, checked: list[tuple[RegisterEntry, str | None]]) -> None:
        licences = sorted({licence for _e, licence in checked if licence is not None})
        for chunk in chunks(licences):
            for player in Player.objects.filter(licence__in=chunk):
                if player.licence is not None:
                    self._by_licence[player.licence] = player
        if any(licence is None for _e, licence in checked):
            # A club's guests are few: all read, compared in Python (SQLite's UPPER is ASCII).
            guests = Player.objects.filter(licence__isnull=True, memberships__club=self.club)
            for player in guests.order_by("pk"):
                self._guests.setdefault(name_key(player.first_name, player.last_name), player)
        known = {p.pk: p for p in [*self._by_licence.values(), *self._guests.values()]}
        for chunk in chunks(sorted(known)):
            for line in Membership.objects.filter(club=self.club, player__in=chunk):
                line.player = known[line.player_id]
                self._memberships[id(line.player)] = line
        if self.create_home_clubs:
            names = {entry.home_club.strip() for entry, _l in checked} - {""}
            for club in case_insensitive_candidates(Club.objects.all(), "name", names):
                self._clubs.setdefault(club.name.casefold(), club)

    def _decide(self, entry: RegisterEntry, licence: str | None) -> PlannedLine:
        first, last = names_clean(entry.first_name, entry.last_name)
        category = None if entry.category is None else _category_clean(entry.category)
        series = _series_clean(entry.series)
        player = (
            self._by_licence.get(licence) if licence else self._guests.get(name_key(first, last))
        )
        if player is not None and id(player) in self._seen:
            line = self._memberships[id(player)]
            return PlannedLine(entry.number, player, line, DUPLICATE, first=self._seen[id(player)])
        if player is None:
            player = Player(
                first_name=first,
                last_name=last,
                licence=licence,
                club=self._home_club(entry.home_club),
                series=series,
            )
            self._new_players.append(player)
            if licence:
                self._by_licence[licence] = player
            else:
                self._guests[name_key(first, last)] = player
            line = self._new_line(player, category, entry.active)
            outcome = CREATED
        elif id(player) not in self._memberships:
            line = self._new_line(player, category, entry.active)
            outcome = LINKED
        else:
            line = self._memberships[id(player)]
            outcome = self._update(line, category, entry.active)
        self._seen[id(player)] = entry.number
        differs = name_key(first, last) != name_key(player.first_name, player.last_name)
        return PlannedLine(entry.number, player, line, outcome, name_differs=differs)

    def _home_club(self, name: str) -> Club:
        name = name.strip()
        if not self.create_home_clubs or not name:
            return self.club
        if len(name) > MAX_CLUB_NAME:
            raise DomainError(
                "club_name_too_long", _("The club name is at most 120 characters."), field="club"
            )
        key = name.casefold()
        if key not in self._clubs:
            self._clubs[key] = Club(name=name)
            self._new_clubs.append(self._clubs[key])
            self.clubs_created.append(name)
        return self._clubs[key]

    def _new_line(self, player: Player, category: str | None, active: bool | None) -> Membership:
        line = Membership(
            club=self.club,
            player=player,
            category=category or "",
            active=True if active is None else active,
        )
        self._memberships[id(player)] = line
        self._new_lines.append(line)
        return line

    def _update(self, line: Membership, category: str | None, active: bool | None) -> str:
        changed = False
        if category is not None and category != line.category:
            line.category, changed = category, True
        if active is not None and active != line.active:
            line.active, changed = active, True
        if changed and line.pk is not None:
            self._changed_lines[line.pk] = line
        return UPDATED if changed else UNCHANGED

    def store(self) -> None:
        """Write the plan (inside the caller's transaction): new clubs, new players, new and
        changed register lines. A licence or club created meanwhile by somebody else refuses
        the whole batch (``register_conflict``)."""
        try:
            with transaction.atomic():
                Club.objects.bulk_create(self._new_clubs, batch_size=CHUNK)
                Player.objects.bulk_create(self._new_players, batch_size=CHUNK)
                Membership.objects.bulk_create(self._new_lines, batch_size=CHUNK)
                Membership.objects.bulk_update(
                    list(self._changed_lines.values()), ["category", "active"], batch_size=CHUNK
                )
        except IntegrityError as exc:
            raise DomainError(
                "register_conflict",
                _(
                    "Players or clubs were created elsewhere while this was prepared: nothing "
                    "was saved; try again."
                ),
                field="file",
            ) from exc


# --------------------------------------------------------------------------- one player


@dataclass(frozen=True)
class RegisterAdd:
    """What :func:`register_player_add` did: the player, his line, the outcome (``created``,
    ``linked``, ``updated``, ``unchanged``) and whether the name given differs from the
    stored one (a known player is never renamed)."""

    player: Player
    membership: Membership
    outcome: str
    name_differs: bool


def register_player_add(
    *,
    club: Club,
    first_name: str,
    last_name: str,
    licence: str = "",
    category: str | None = None,
    series: str = "",
    home_club: Club | None = None,
) -> RegisterAdd:
    """Put a player on ``club``'s register, active: a known licence links that player (never
    renamed), a guest already on the register by that name is reused, else a new player is
    created (home club: ``home_club`` or ``club``). Refused: ``invalid_licence``,
    ``last_name_required``, ``first_name_required``, ``name_too_long``, ``category_too_long``,
    ``series_too_long``, ``register_conflict``."""
    entry = RegisterEntry(
        number=1,
        last_name=last_name,
        first_name=first_name,
        licence=licence,
        category=category,
        active=True,
        series=series,
    )
    with transaction.atomic():
        plan = RegisterPlan(club).decide([entry])
        if plan.rejected:
            raise plan.rejected[0][1]
        (line,) = plan.lines
        if home_club is not None and line.outcome == CREATED:
            line.player.club = home_club
        plan.store()
    return RegisterAdd(line.player, line.membership, line.outcome, line.name_differs)


def register_namesakes(
    *, club: Club, first_name: str, last_name: str, licence: str = "", active_only: bool = False
) -> list[Membership]:
    """The lines of ``club``'s register (``active_only``: its active lines) whose player has
    the names typed, ignoring case, accents and punctuation, in either order (the folded
    names, :func:`rules.names.fold`): before a new guest is created from these names, the page
    names them and offers to take that player instead. None when a licence is given (it names
    the player) and none for the guest :func:`register_player_add` would reuse anyway (same
    names, ignoring case)."""
    last, first = fold(last_name), fold(first_name)
    if licence.strip() or not last or not first:
        return []
    same = Q(last_name_folded=last, first_name_folded=first)
    swapped = Q(last_name_folded=first, first_name_folded=last)
    # The players first (two lookups of the folded names' index), then their lines here.
    namesakes = Player.objects.filter(same | swapped).values("pk")
    lines = Membership.objects.filter(club=club, player__in=namesakes)
    if active_only:
        lines = lines.filter(active=True)
    typed = name_key(first_name, last_name)
    return [
        line
        for line in lines.select_related("player", "player__club").order_by(
            "player__name_sort_key", "pk"
        )[:MAX_NAMESAKES]
        if line.player.licence or name_key(line.player.first_name, line.player.last_name) != typed
    ]


def register_players_link(*, club: Club, players: Sequence[Player]) -> int:
    """Put the known ``players`` that are not on ``club``'s register on it (active); the lines
    they already have are left as they are. How many lines were added."""
    ids = {player.pk for player in players}
    with transaction.atomic():
        known = set(
            Membership.objects.filter(club=club, player__in=ids).values_list("player", flat=True)
        )
        new = [Membership(club=club, player_id=pk) for pk in sorted(ids - known)]
        Membership.objects.bulk_create(new, batch_size=CHUNK, ignore_conflicts=True)
    return len(new)


# --------------------------------------------------------------------------- one line


def register_line_name_editable(membership: Membership) -> bool:
    """Whether the club of ``membership`` may edit the player's name (his home club, or he has
    none)."""
    home = membership.player.club_id
    return home is None or home == membership.club_id


def register_line_update(
    *,
    membership: Membership,
    first_name: str,
    last_name: str,
    category: str,
    active: bool,
) -> Membership:
    """Change a register line: its category and active flag, and the player's name where the
    club may edit it (:func:`register_line_name_editable`; else ``name_not_editable`` when the
    name given differs)."""
    first, last = names_clean(first_name, last_name)
    category = _category_clean(category)
    with transaction.atomic():
        line = (
            Membership.objects.select_for_update(of=("self",))
            .select_related("player")
            .get(pk=membership.pk)
        )
        player = line.player
        if (first, last) != (player.first_name, player.last_name):
            if not register_line_name_editable(line):
                raise DomainError(
                    "name_not_editable",
                    _("Only the player's home club may change his name."),
                    field="last_name",
                )
            player.first_name, player.last_name = first, last
            player.save(update_fields=["first_name", "last_name"])
        line.category, line.active = category, active
        line.save(update_fields=["category", "active"])
    return line


def register_line_activate(*, membership: Membership, active: bool) -> Membership:
    """Deactivate (``active=False``) or reactivate a register line. A deactivated player stays
    in the competitions he played; the pickers no longer offer him."""
    Membership.objects.filter(pk=membership.pk).update(active=active)
    membership.active = active
    return membership


# --------------------------------------------------------------------------- CSV import


#: A register file holds at most this many lines, each of at most
#: :data:`MAX_IMPORT_LINE_CHARS` characters, and is at most :data:`MAX_IMPORT_BYTES` large.
MAX_IMPORT_LINES = 20_000
MAX_IMPORT_LINE_CHARS = 1_000
MAX_IMPORT_BYTES = 2 * 1024 * 1024

#: Header names, normalised (:func:`header_key`: no accents, lower case, ``_`` between words).
REGISTER_COLUMNS: dict[str, tuple[str, ...]] = {
    "licence": (
        "licence",
        "license",
        "licence_number",
        "license_number",
        "numero_licence",
        "numero_de_licence",
        "num_licence",
        "n_licence",
        "n_de_licence",
        "no_licence",
        "no_de_licence",
        "licence_no",
    ),
    "last_name": ("nom", "last_name", "lastname", "surname", "family_name", "nom_de_famille"),
    "first_name": ("prenom", "first_name", "firstname", "given_name"),
    "category": ("categorie", "category", "cat"),
    "active": ("actif", "active", "membre_actif", "active_member"),
}

_YES = frozenset({"oui", "o", "yes", "y", "1", "x", "vrai", "true", "actif", "active"})
_NO = frozenset({"non", "n", "no", "0", "faux", "false", "inactif", "inactive"})


def header_key(name: str) -> str:
    """A header cell compared without accents, case, spaces or punctuation."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(char for char in plain if not unicodedata.combining(char)).casefold()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def _register_header_message(missing: list[str]) -> str:
    return _(
        "Line 1 must name the columns: Nom, Prénom, and if you have them Licence, "
        "Catégorie, Actif (or last_name, first_name, licence, category, active). "
        "Is this the register's CSV file?"
    )


def csv_columns(
    header: Sequence[str],
    aliases: dict[str, tuple[str, ...]],
    required: Sequence[str],
    header_message: Callable[[list[str]], str] = _register_header_message,
) -> dict[str, int]:
    """Where each known column is in ``header`` (the first cell of a name wins); refused
    (``csv_header``) when a ``required`` one is missing."""
    known = {alias: key for key, names in aliases.items() for alias in names}
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        key = known.get(header_key(name))
        if key is not None and key not in columns:
            columns[key] = index
    missing = [key for key in required if key not in columns]
    if missing:
        raise DomainError("csv_header", header_message(missing), field="file")
    return columns


def _active_value(text: str) -> bool | None:
    key = header_key(text)
    if not key:
        return None
    if key in _YES:
        return True
    if key in _NO:
        return False
    raise DomainError(
        "invalid_active",
        _("“%(value)s” is not a value of the column Actif: write oui or non.") % {"value": text},
        field="active",
    )


@dataclass(frozen=True)
class ReportLine:
    """A line of an import report: the file's line number and what it says."""

    line: int
    message: str


@dataclass
class RegisterImportReport:
    """The outcome of a register import: the players created, linked (licence already known),
    updated (category or active changed), unchanged, the rejected lines with why, and the
    warnings (a known licence under another name: the stored name was kept)."""

    created: list[ReportLine] = field(default_factory=list)
    linked: list[ReportLine] = field(default_factory=list)
    updated: list[ReportLine] = field(default_factory=list)
    unchanged: list[ReportLine] = field(default_factory=list)
    rejected: list[ReportLine] = field(default_factory=list)
    warnings: list[ReportLine] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.rejected


def name_differs_warning(number: int, line: PlannedLine, first: str, last: str) -> ReportLine:
    return ReportLine(
        number,
        _(
            "Licence %(licence)s is %(player)s's: the name in the file (%(first)s %(last)s) is "
            "ignored, the stored name is kept."
        )
        % {"licence": line.player.licence, "player": line.player, "first": first, "last": last},
    )


def duplicate_error(first: int) -> DomainError:
    return DomainError(
        "duplicate_line",
        _("Same player as line %(line)s: this line is ignored.") % {"line": first},
    )


def csv_entries(
    file: IO[bytes] | IO[str] | bytes | str,
    aliases: dict[str, tuple[str, ...]],
    *,
    max_bytes: int = MAX_IMPORT_BYTES,
    max_lines: int = MAX_IMPORT_LINES,
    max_line_chars: int = MAX_IMPORT_LINE_CHARS,
    header_message: Callable[[list[str]], str] = _register_header_message,
) -> list[tuple[int, dict[str, str]]]:
    """(line number, stripped cell by column key) of every non-blank row of a players' CSV
    file; the whole file is refused (a :class:`DomainError` on ``file``) when it cannot be read
    (:mod:`clubs.uploads`) or its header lacks the last and first name columns."""
    text = decode_text(file, max_bytes=max_bytes)
    lines = check_lines(text, max_lines=max_lines, max_line_chars=max_line_chars)
    if not lines or not lines[0].strip():
        raise DomainError("file_empty", _("The file is empty."), field="file")
    rows = list(csv_rows(text, csv_delimiter(lines[0])))
    columns = csv_columns(rows[0][1], aliases, ("last_name", "first_name"), header_message)
    return [
        (number, {key: (row[i].strip() if i < len(row) else "") for key, i in columns.items()})
        for number, row in rows[1:]
        if any(cell.strip() for cell in row)
    ]


def register_import_csv(
    *, club: Club, file: IO[bytes] | IO[str] | bytes | str
) -> RegisterImportReport:
    """Import a CSV file of ``club``'s register (French Excel: ``;`` or ``,``, UTF-8 with or
    without BOM, or Windows-1252). Columns (header required, French or English, any order):
    Nom, Prénom, Licence, Catégorie, Actif (oui/non). Good lines are saved, bad ones
    reported with their number and why; a file that cannot be read at all, or without the
    name columns, is refused as a whole (``DomainError`` on ``file``) and saves nothing."""
    rows = csv_entries(file, REGISTER_COLUMNS)
    report = RegisterImportReport()
    entries: list[RegisterEntry] = []
    for number, values in rows:
        try:
            active = _active_value(values["active"]) if "active" in values else None
        except DomainError as error:
            report.rejected.append(ReportLine(number, error.message))
            continue
        category = values.get("category") or None
        entries.append(
            RegisterEntry(
                number=number,
                last_name=values.get("last_name", ""),
                first_name=values.get("first_name", ""),
                licence=values.get("licence", ""),
                category=category,
                active=active,
            )
        )
    by_number = {entry.number: entry for entry in entries}
    with transaction.atomic():
        plan = RegisterPlan(club).decide(entries)
        plan.store()
    report.rejected.extend(ReportLine(number, error.message) for number, error in plan.rejected)
    lists = {
        CREATED: report.created,
        LINKED: report.linked,
        UPDATED: report.updated,
        UNCHANGED: report.unchanged,
    }
    for line in plan.lines:
        if line.outcome == DUPLICATE:
            report.rejected.append(ReportLine(line.number, duplicate_error(line.first).message))
            continue
        lists[line.outcome].append(ReportLine(line.number, str(line.player)))
        if line.name_differs:
            entry = by_number[line.number]
            report.warnings.append(
                name_differs_warning(
                    line.number, line, entry.first_name.strip(), entry.last_name.strip()
                )
            )
    report.rejected.sort(key=lambda item: item.line)
    return report
