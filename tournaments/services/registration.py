"""Registration: known players, entrants, and the import of a players' CSV file.

An *entrant* is a movement slot bound to a player. Registering a player creates an entrant with
the next free slot, so slot order is registration order (setting the movement renumbers them
onto its slots in that order). Any change of the entrants before the start (late arrival,
withdrawal) makes the movement stale: it is removed and must be regenerated.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO

from django.db import transaction
from django.db.models import Max
from django.utils.translation import gettext as _

from tournaments.errors import TournamentError
from tournaments.models import Club, Entrant, Event, Player
from tournaments.services.common import locked, movement_stale, require_draft, require_own_tables

LICENCE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")


def _clean_licence(licence: str) -> str | None:
    licence = licence.strip()
    if not licence:
        return None
    if not LICENCE_RE.match(licence):
        raise TournamentError(
            "invalid_licence",
            _("A licence number is 1 to 20 letters, digits, '.', '/' or '-'."),
            field="licence",
        )
    return licence


def _first_name_required() -> TournamentError:
    return TournamentError(
        "first_name_required", _("The first name is required."), field="first_name"
    )


def _last_name_required() -> TournamentError:
    return TournamentError("last_name_required", _("The last name is required."), field="last_name")


def _series_too_long() -> TournamentError:
    return TournamentError(
        "series_too_long", _("The series is at most 20 characters."), field="series"
    )


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
        raise TournamentError(
            "name_too_long", _("Names are at most 80 characters."), field="last_name"
        )
    if len(series) > 20:
        raise _series_too_long()
    clean = _clean_licence(licence)
    if clean is not None and Player.objects.filter(licence=clean).exists():
        raise TournamentError(
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
        raise TournamentError(
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
        raise TournamentError("phantom_slot", _("A phantom slot cannot be withdrawn."))
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


def _read_csv_text(file: IO[bytes] | IO[str] | bytes | str) -> str:
    raw: bytes | str = file if isinstance(file, bytes | str) else file.read()
    if isinstance(raw, str):
        return raw.removeprefix("\ufeff")
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TournamentError(
            "file_not_utf8",
            _("The file is not UTF-8 text (save it as CSV UTF-8)."),
            field="file",
        ) from exc


def _csv_header(header: Sequence[str]) -> dict[str, int]:
    aliases = {alias: key for key, names in CSV_COLUMNS.items() for alias in names}
    columns: dict[str, int] = {}
    for index, name in enumerate(header):
        key = aliases.get(name.strip().lower().replace(" ", "_").replace("-", "_"))
        if key is not None and key not in columns:
            columns[key] = index
    missing = [key for key in ("last_name", "first_name") if key not in columns]
    if missing:
        raise TournamentError(
            "csv_header",
            _(
                "Line 1 must be a header naming the columns last_name, first_name, licence, "
                "club, series (missing: %(missing)s)."
            )
            % {"missing": ", ".join(missing)},
            field="file",
        )
    return columns


def _club_by_name(name: str, report: ImportReport, cache: dict[str, Club]) -> Club:
    key = name.casefold()
    if key not in cache:
        club = Club.objects.filter(name__iexact=name).first()
        if club is None:
            club = Club.objects.create(name=name)
            report.clubs_created.append(name)
        cache[key] = club
    return cache[key]


def players_import_csv(*, event: Event, file: IO[bytes] | IO[str] | bytes | str) -> ImportReport:
    """Register the players of a CSV file; good lines are imported, bad ones reported.

    Columns (header row required, any order, ``;`` or ``,`` separated, UTF-8 with or without
    BOM): last_name, first_name, licence, club, series. A known licence registers that player;
    a line without licence reuses a known unlicensed player of the same name. Each line is
    atomic on its own; a file that cannot be read at all raises ``TournamentError``.
    """
    text = _read_csv_text(file)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise TournamentError("file_empty", _("The file is empty."), field="file")
    delimiter = ";" if lines[0].count(";") >= lines[0].count(",") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    columns = _csv_header(rows[0])
    report = ImportReport()
    clubs: dict[str, Club] = {}
    with transaction.atomic():
        event = locked(event)
        require_draft(event)
        require_own_tables(event)
        for line_number, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            values = {key: (row[i].strip() if i < len(row) else "") for key, i in columns.items()}
            known_clubs, created_clubs = dict(clubs), len(report.clubs_created)
            try:
                with transaction.atomic():  # a savepoint: a bad line leaves nothing behind
                    player, created = _import_player(values, report, clubs)
                    entrant_register(event=event, player=player)
            except TournamentError as exc:
                # The savepoint rolled back any club this line created: forget it too.
                clubs.clear()
                clubs.update(known_clubs)
                del report.clubs_created[created_clubs:]
                report.errors.append(ImportLineError(line_number, exc.message))
                continue
            report.registered.append(player)
            if created:
                report.players_created += 1
            else:
                report.players_matched += 1
    return report


def _import_player(
    values: dict[str, str], report: ImportReport, clubs: dict[str, Club]
) -> tuple[Player, bool]:
    licence = _clean_licence(values.get("licence", ""))
    if licence is not None:
        known = Player.objects.filter(licence=licence).first()
        if known is not None:
            return known, False
    last, first = values.get("last_name", ""), values.get("first_name", "")
    if not last:
        raise _last_name_required()
    if not first:
        raise _first_name_required()
    if len(values.get("series", "")) > 20:
        raise _series_too_long()
    if licence is None:
        known = Player.objects.filter(
            licence__isnull=True, last_name__iexact=last, first_name__iexact=first
        ).first()
        if known is not None:
            return known, False
    club_name = values.get("club", "")
    if len(club_name) > 120:
        raise TournamentError(
            "club_name_too_long", _("The club name is at most 120 characters."), field="club"
        )
    club = _club_by_name(club_name, report, clubs) if club_name else None
    player = player_create(
        first_name=first,
        last_name=last,
        licence=licence or "",
        club=club,
        series=values.get("series", ""),
    )
    return player, True
