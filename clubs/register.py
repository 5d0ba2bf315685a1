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
- a new player is a member of the register's club (his home club) or has no home club, never
  another club's, and no club is ever created for him (:mod:`clubs.newcomers`);
- a player's name and series are edited only by his home club's organisers, or by any
  register holding him when he has no home club; category and active belong to each line;
- a series is stored in one form (:func:`series_code`): ``"1"`` to ``"4"`` for the
  federation's 1st to 4th series, ``"P"`` for Promotion, ``""`` for none.
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
from clubs.models import Club, Membership, Player, PlayerSeries
from clubs.newcomers import names_club, player_new
from clubs.uploads import table_rows
from rules.names import fold

LICENCE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")
MAX_NAME = 80
MAX_CATEGORY = 40
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


#: The written forms of a series, after :func:`header_key`: ``1``, ``S1``, ``1re``, ``1ère
#: série``, ``série 1``, ``1st series``...; a word ordinal; Promotion; no series.
_SERIES_FORM = re.compile(
    r"(?:s|serie|series)?_?([1-4])(?:er|ere|re|e|eme|nde|de|st|nd|rd|th)?_?(?:s|serie|series)?"
)
_SERIES_ORDINALS = {
    "premiere": "1", "deuxieme": "2", "seconde": "2", "troisieme": "3", "quatrieme": "4",
    "first": "1", "second": "2", "third": "3", "fourth": "4",
}  # fmt: skip
_PROMOTION = frozenset({"p", "promo", "promotion", "serie_promotion"})
_NO_SERIES = frozenset({"", "nc", "non_classe", "aucune", "none", "sans"})


def series_code(text: str) -> str | None:
    """The stored form of a series written ``text`` (:class:`~clubs.models.PlayerSeries`:
    ``"1"`` to ``"4"``, ``"P"``; ``""`` for none or "NC"), None when it is not a series."""
    key = header_key(text)
    if key in _NO_SERIES:
        return ""
    if key in _PROMOTION:
        return PlayerSeries.PROMOTION.value
    match = _SERIES_FORM.fullmatch(key)
    if match:
        return match.group(1)
    first, *rest = key.split("_")
    if first in _SERIES_ORDINALS and rest in ([], ["serie"], ["series"]):
        return _SERIES_ORDINALS[first]
    return None


def series_clean(series: str) -> str:
    """The stored form of ``series`` (:func:`series_code`), refused (``invalid_series``) when
    it is not a series."""
    code = series_code(series)
    if code is None:
        raise DomainError(
            "invalid_series",
            _(
                "“%(value)s” is not a series: write 1, 2, 3 or 4 (1st to 4th series) or P "
                "(Promotion), or leave it empty."
            )
            % {"value": series.strip()[:40]},
            field="series",
        )
    return code


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
    ``series`` as written (:func:`series_code`); empty: keep the player's.
    ``home_club``: the club the input gives a new player: none or the register's club, he is
    its member (his home club); another club, or ``member`` false, he has no home club
    (:mod:`clubs.newcomers`: never another club's player).
    """

    number: int
    last_name: str
    first_name: str
    licence: str = ""
    category: str | None = None
    active: bool | None = None
    series: str = ""
    home_club: str = ""
    member: bool = True


@dataclass
class PlannedLine:
    """What an entry became: its player (stored or new), its register line, the outcome
    (``created``, ``linked``, ``updated``, ``unchanged``, or ``dup`` when an earlier entry
    of the same plan already named that player: ``first`` is that entry's number).
    ``series_kept``: the entry gives another series than the player's, which this club may
    not change (:func:`register_line_name_editable`): the stored one is kept."""

    number: int
    player: Player
    membership: Membership
    outcome: str
    name_differs: bool = False
    first: int = 0
    series_kept: bool = False


@dataclass
class RegisterPlan:
    """Decides, in memory from a few queries, what a batch of entries does to ``club``'s
    register, then :meth:`store` writes it in bulk. Refused entries are in :attr:`rejected`
    (their number and the :class:`DomainError`); nothing of them is written. Every entry is
    put on ``club``'s register; a new player is made by :func:`clubs.newcomers.player_new`.
    """

    club: Club
    lines: list[PlannedLine] = field(default_factory=list)
    rejected: list[tuple[int, DomainError]] = field(default_factory=list)
    _by_licence: dict[str, Player] = field(default_factory=dict)
    _guests: dict[tuple[str, str], Player] = field(default_factory=dict)
    _memberships: dict[int, Membership] = field(default_factory=dict)  # by id(player)
    _seen: dict[int, int] = field(default_factory=dict)  # id(player) -> first entry number
    _new_players: list[Player] = field(default_factory=list)
    _new_lines: list[Membership] = field(default_factory=list)
    _changed_lines: dict[int, Membership] = field(default_factory=dict)
    _changed_players: dict[int, Player] = field(default_factory=dict)

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
            for player in Player.objects.filter(licence__in=chunk).select_related("club"):
                if player.licence is not None:
                    self._by_licence[player.licence] = player
        if any(licence is None for _e, licence in checked):
            # A club's guests are few: all read, compared in Python (SQLite's UPPER is ASCII).
            guests = Player.objects.filter(
                licence__isnull=True, memberships__club=self.club
            ).select_related("club")
            for player in guests.order_by("pk"):
                self._guests.setdefault(name_key(player.first_name, player.last_name), player)
        known = {p.pk: p for p in [*self._by_licence.values(), *self._guests.values()]}
        for chunk in chunks(sorted(known)):
            for line in Membership.objects.filter(club=self.club, player__in=chunk):
                line.player = known[line.player_id]
                self._memberships[id(line.player)] = line

    def _decide(self, entry: RegisterEntry, licence: str | None) -> PlannedLine:
        first, last = names_clean(entry.first_name, entry.last_name)
        category = None if entry.category is None else _category_clean(entry.category)
        series = series_clean(entry.series)
        player = (
            self._by_licence.get(licence) if licence else self._guests.get(name_key(first, last))
        )
        if player is not None and id(player) in self._seen:
            line = self._memberships[id(player)]
            return PlannedLine(entry.number, player, line, DUPLICATE, first=self._seen[id(player)])
        if player is None:
            named = entry.home_club.strip()
            player = player_new(
                club=self.club,
                first_name=first,
                last_name=last,
                licence=licence,
                series=series,
                member=entry.member and (not named or names_club(self.club, named)),
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
        kept = False
        if outcome != CREATED and series and series != player.series:
            if player.club_id in (None, self.club.pk):
                player.series = series
                self._changed_players[player.pk] = player
                outcome = UPDATED if outcome == UNCHANGED else outcome
            else:
                kept = True
        self._seen[id(player)] = entry.number
        differs = name_key(first, last) != name_key(player.first_name, player.last_name)
        return PlannedLine(
            entry.number, player, line, outcome, name_differs=differs, series_kept=kept
        )

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
        """Write the plan (inside the caller's transaction): new players, the series of known
        players, new and changed register lines. A licence created meanwhile by somebody else
        refuses the whole batch (``register_conflict``)."""
        try:
            with transaction.atomic():
                Player.objects.bulk_create(self._new_players, batch_size=CHUNK)
                Player.objects.bulk_update(
                    list(self._changed_players.values()), ["series"], batch_size=CHUNK
                )
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
    ``linked``, ``updated``, ``unchanged``), whether the name given differs from the
    stored one (a known player is never renamed) and whether the series given was not
    stored (:attr:`PlannedLine.series_kept`)."""

    player: Player
    membership: Membership
    outcome: str
    name_differs: bool
    series_kept: bool = False


def register_player_add(
    *,
    club: Club,
    first_name: str,
    last_name: str,
    licence: str = "",
    category: str | None = None,
    series: str = "",
    member: bool = True,
) -> RegisterAdd:
    """Put a player on ``club``'s register, active: a known licence links that player (never
    renamed), a guest already on the register by that name is reused, else a new player is
    created (home club: ``club``; none unless ``member``: a player of another club). Refused:
    ``invalid_licence``, ``last_name_required``, ``first_name_required``, ``name_too_long``,
    ``category_too_long``, ``invalid_series``, ``register_conflict``."""
    entry = RegisterEntry(
        number=1,
        last_name=last_name,
        first_name=first_name,
        licence=licence,
        category=category,
        active=True,
        series=series,
        member=member,
    )
    with transaction.atomic():
        plan = RegisterPlan(club).decide([entry])
        if plan.rejected:
            raise plan.rejected[0][1]
        (line,) = plan.lines
        plan.store()
    return RegisterAdd(
        line.player, line.membership, line.outcome, line.name_differs, line.series_kept
    )


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
    series: str | None = None,
) -> Membership:
    """Change a register line: its category and active flag, and the player's name and series
    (None: kept) where the club may edit them (:func:`register_line_name_editable`; else
    ``name_not_editable`` when one given differs)."""
    first, last = names_clean(first_name, last_name)
    category = _category_clean(category)
    with transaction.atomic():
        line = (
            Membership.objects.select_for_update(of=("self",))
            .select_related("player")
            .get(pk=membership.pk)
        )
        player = line.player
        # A series stored before it had one form is kept as it is unless another is given.
        series = player.series if series in (None, player.series) else series_clean(series)
        if (first, last, series) != (player.first_name, player.last_name, player.series):
            if not register_line_name_editable(line):
                raise DomainError(
                    "name_not_editable",
                    _("Only the player's home club may change his name and series."),
                    field="last_name" if (first, last) != (player.first_name, player.last_name)
                    else "series",
                )  # fmt: skip
            player.first_name, player.last_name, player.series = first, last, series
            player.save(update_fields=["first_name", "last_name", "series"])
        line.category, line.active = category, active
        line.save(update_fields=["category", "active"])
    return line


def register_line_activate(*, membership: Membership, active: bool) -> Membership:
    """Deactivate (``active=False``) or reactivate a register line. A deactivated player stays
    in the competitions he played; the pickers no longer offer him."""
    Membership.objects.filter(pk=membership.pk).update(active=active)
    membership.active = active
    return membership


# --------------------------------------------------------------------------- file import


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
    "series": ("serie", "series"),
    "active": ("actif", "active", "membre_actif", "active_member"),
}
#: A header that names no column of the aliases but holds one of these words is that column
#: (``Licence FFT``, ``N° de licencié``, ``Série 2025``), unless it also holds a word of
#: :data:`_OTHER_FACT` (``Date de licence``, ``Type de licence`` are other columns).
REGISTER_WORDS: dict[str, tuple[str, ...]] = {
    "licence": ("licence", "license", "licencie"),
    "series": ("serie", "series"),
}
_OTHER_FACT = frozenset({"date", "type", "validite", "expiration", "statut", "categorie", "club"})

_YES = frozenset({"oui", "o", "yes", "y", "1", "x", "vrai", "true", "actif", "active"})
_NO = frozenset({"non", "n", "no", "0", "faux", "false", "inactif", "inactive"})


def header_key(name: str) -> str:
    """A header cell compared without accents, case, spaces or punctuation."""
    plain = unicodedata.normalize("NFKD", name)
    plain = "".join(char for char in plain if not unicodedata.combining(char)).casefold()
    return re.sub(r"[^a-z0-9]+", "_", plain).strip("_")


def _register_header_message(missing: list[str]) -> str:
    return _(
        "Line 1 must name the columns: Last name, First name, and if you have them Licence, "
        "Category, Series, Active (in French or English). Is this the register's file?"
    )


@dataclass(frozen=True)
class FileColumns:
    """Where each known column is in a header row, and the header cells not read (unknown,
    or naming a column already found), as written."""

    index: dict[str, int]
    ignored: list[str]


def csv_columns(
    header: Sequence[str],
    aliases: dict[str, tuple[str, ...]],
    required: Sequence[str],
    header_message: Callable[[list[str]], str] = _register_header_message,
    words: dict[str, tuple[str, ...]] = REGISTER_WORDS,
) -> FileColumns:
    """Where each known column is in ``header``: a cell equal to one of its ``aliases`` (the
    first wins), else the first cell holding one of its ``words`` (:data:`REGISTER_WORDS`);
    refused (``csv_header``) when a ``required`` one is missing."""
    known = {alias: key for key, names in aliases.items() for alias in names}
    keys = [header_key(name) for name in header]
    columns: dict[str, int] = {}
    for index, key in enumerate(keys):
        column = known.get(key)
        if column is not None and column not in columns:
            columns[column] = index
    taken = set(columns.values())
    for column, names in words.items():
        if column in columns:
            continue
        for index, key in enumerate(keys):
            held = set(key.split("_"))
            if index not in taken and held & set(names) and not held & _OTHER_FACT:
                columns[column] = index
                taken.add(index)
                break
    missing = [key for key in required if key not in columns]
    if missing:
        raise DomainError("csv_header", header_message(missing), field="file")
    ignored = [
        name.strip() for index, name in enumerate(header) if name.strip() and index not in taken
    ]
    return FileColumns(columns, ignored)


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
    updated (category, active or series changed), unchanged, the rejected lines with why, the
    warnings (a known licence under another name: the stored name was kept; a series only
    the player's home club sets), and the file's columns that were not read."""

    created: list[ReportLine] = field(default_factory=list)
    linked: list[ReportLine] = field(default_factory=list)
    updated: list[ReportLine] = field(default_factory=list)
    unchanged: list[ReportLine] = field(default_factory=list)
    rejected: list[ReportLine] = field(default_factory=list)
    warnings: list[ReportLine] = field(default_factory=list)
    ignored_columns: list[str] = field(default_factory=list)

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


def series_kept_warning(number: int, line: PlannedLine) -> ReportLine:
    player = line.player
    return ReportLine(
        number,
        _(
            "%(player)s keeps his series (%(series)s): only his home club, %(club)s, changes "
            "it; the series in the file is ignored."
        )
        % {
            "player": player,
            "series": player.get_series_display() or "—",
            "club": player.club.name if player.club is not None else "",
        },
    )


def duplicate_error(first: int) -> DomainError:
    return DomainError(
        "duplicate_line",
        _("Same player as line %(line)s: this line is ignored.") % {"line": first},
    )


def licence_clash(entry: RegisterEntry, first: RegisterEntry) -> DomainError | None:
    """Why ``entry`` is ignored when it gives the licence of the earlier entry ``first`` under
    another name (a licence typed twice?); None when both name the same player."""
    if not entry.licence.strip() or name_key(entry.first_name, entry.last_name) == name_key(
        first.first_name, first.last_name
    ):
        return None
    return DomainError(
        "duplicate_licence",
        _(
            "Licence %(licence)s is also that of line %(line)s (%(last)s %(first)s): this line "
            "is ignored; check the licence of both lines."
        )
        % {
            "licence": entry.licence.strip(),
            "line": first.number,
            "first": first.first_name.strip(),
            "last": first.last_name.strip(),
        },
        field="licence",
    )


@dataclass(frozen=True)
class FileEntries:
    """The non-blank rows of a players' file: (line number, stripped cell by column key), and
    the header cells that were not read."""

    rows: list[tuple[int, dict[str, str]]]
    ignored_columns: list[str]


def file_entries(
    file: IO[bytes] | IO[str] | bytes | str,
    aliases: dict[str, tuple[str, ...]],
    *,
    max_bytes: int = MAX_IMPORT_BYTES,
    max_lines: int = MAX_IMPORT_LINES,
    max_line_chars: int = MAX_IMPORT_LINE_CHARS,
    header_message: Callable[[list[str]], str] = _register_header_message,
) -> FileEntries:
    """The rows of a players' CSV file or Excel workbook (:func:`clubs.uploads.table_rows`);
    the whole file is refused (a :class:`DomainError` on ``file``) when it cannot be read or
    its header lacks the last and first name columns."""
    rows = table_rows(file, max_bytes=max_bytes, max_lines=max_lines, max_line_chars=max_line_chars)
    columns = csv_columns(rows[0][1], aliases, ("last_name", "first_name"), header_message)
    return FileEntries(
        [
            (
                number,
                {key: (row[i].strip() if i < len(row) else "") for key, i in columns.index.items()},
            )
            for number, row in rows[1:]
            if any(cell.strip() for cell in row)
        ],
        columns.ignored,
    )


def register_import_csv(
    *, club: Club, file: IO[bytes] | IO[str] | bytes | str
) -> RegisterImportReport:
    """Import a file of ``club``'s register: CSV (French Excel: ``;`` or ``,``; the encodings
    of :mod:`clubs.uploads`) or an Excel workbook (``.xlsx``, its first sheet). Columns (header
    required, French or English, any order, :func:`csv_columns`): Nom, Prénom, Licence,
    Catégorie, Série (:func:`series_code`), Actif (oui/non); the others are named in the
    report. Good lines are saved, bad ones reported with their number and why; a file that
    cannot be read at all, or without the name columns, is refused as a whole
    (``DomainError`` on ``file``) and saves nothing."""
    read = file_entries(file, REGISTER_COLUMNS)
    report = RegisterImportReport(ignored_columns=read.ignored_columns)
    entries: list[RegisterEntry] = []
    for number, values in read.rows:
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
                series=values.get("series", ""),
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
        entry = by_number[line.number]
        if line.outcome == DUPLICATE:
            refusal = licence_clash(entry, by_number[line.first]) or duplicate_error(line.first)
            report.rejected.append(ReportLine(line.number, refusal.message))
            continue
        lists[line.outcome].append(ReportLine(line.number, str(line.player)))
        if line.name_differs:
            report.warnings.append(
                name_differs_warning(
                    line.number, line, entry.first_name.strip(), entry.last_name.strip()
                )
            )
        if line.series_kept:
            report.warnings.append(series_kept_warning(line.number, line))
    report.rejected.sort(key=lambda item: item.line)
    report.warnings.sort(key=lambda item: item.line)
    return report
