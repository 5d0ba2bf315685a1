"""Event setup services: events, players, entrants, teams, movement, deals, start and finish.

HackSoft style: ``<entity>_<action>``, keyword-only, typed, atomic. Every failure raises
:class:`django.core.exceptions.ValidationError` with a translated message (keyed by the form
field at fault when there is one) and leaves the database as it was.

Vocabulary and invariants
- An *entrant* is a movement slot bound to a player. Registering a player creates an entrant
  with the next free slot, so slot order is registration order. Setting the movement renumbers
  the real entrants onto the movement's real slots in registration order (team events: team
  by team, members in registration order) and creates phantom entrants (``player=None``) for
  the phantom slots.
- The movement stored on an event always passed the validator: a movement with a hard error is
  refused and nothing changes.
- Any change of the entrants before the start (late arrival, withdrawal, team change) makes the
  movement stale: it is removed (``Event.movement = None``, rounds deleted, phantoms dropped) and
  must be regenerated before the event can start. Table rows and their codes are kept and reused.
- Deals: deal set k holds deals (k-1)·dpr+1 .. k·dpr (dpr = ``Event.deals_per_round``).
  Seat convention (documented for the étuis): the dealer rotates N, E, S, W by deal number
  (deal 1: N; ``rules.deal.generate_deals`` deals that way; an imported deal keeps the dealer
  of its text) and the taker seat is the next seat in N, E, S, W order (deal 1: E), so over
  any 4 consecutive deals every seat takes once. In team events the movement fixes where the taking
  member sits (``taker_seat`` of the movement document, N by default) and every deal uses it.
- Duplicate events are played at least at Garde: an imposed Prise is refused.
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import IO, Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import F, Max
from django.utils.translation import gettext as _

from rules import deal as rules_deal
from rules.errors import RuleError
from tournaments import movements
from tournaments.models import (
    SEATS,
    Club,
    Contract,
    Deal,
    Entrant,
    Event,
    EventSession,
    Player,
    Round,
    Table,
    Team,
)
from tournaments.selectors import TEAM_SIZES

SLOT_SHIFT = 1_000_000  # temporary offset used to renumber slots without unique clashes
LICENCE_RE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9./-]{0,19}$")


def deal_seats(number: int) -> tuple[str, str]:
    """(dealer seat, taker seat) of deal ``number`` under the documented rotation."""
    return SEATS[(number - 1) % 4], SEATS[number % 4]


def _locked(event: Event) -> Event:
    """Re-read ``event`` under a row lock (serialises concurrent setup changes)."""
    return Event.objects.select_for_update().get(pk=event.pk)


def _require_draft(event: Event) -> None:
    if event.status != Event.Status.DRAFT:
        raise ValidationError(_("The event has already started: its setup can no longer change."))


# --- events ------------------------------------------------------------------------------


@transaction.atomic
def event_create(
    *,
    club: Club,
    name: str,
    date: dt.date,
    format: str,
    deals_per_round: int = 4,
    public: bool = False,
    opponent_confirmation: bool = False,
) -> Event:
    """A draft event with one session."""
    if format not in Event.Format.values:
        raise ValidationError({"format": _("Unknown format.")})
    if not 1 <= deals_per_round <= 12:
        raise ValidationError({"deals_per_round": _("Deals per round must be between 1 and 12.")})
    if not name.strip():
        raise ValidationError({"name": _("The event needs a name.")})
    event = Event.objects.create(
        club=club,
        name=name.strip(),
        date=date,
        format=format,
        deals_per_round=deals_per_round,
        public=public,
        opponent_confirmation=opponent_confirmation,
    )
    EventSession.objects.create(event=event, number=1)
    return event


@transaction.atomic
def event_update(
    *,
    event: Event,
    name: str,
    date: dt.date,
    deals_per_round: int,
    public: bool,
    opponent_confirmation: bool = False,
) -> Event:
    """Change the details of a draft event (a change of deals per round drops the deals)."""
    event = _locked(event)
    _require_draft(event)
    if not 1 <= deals_per_round <= 12:
        raise ValidationError({"deals_per_round": _("Deals per round must be between 1 and 12.")})
    if deals_per_round != event.deals_per_round:
        Deal.objects.filter(event=event).delete()
    event.name, event.date, event.public = name.strip(), date, public
    event.deals_per_round, event.opponent_confirmation = deals_per_round, opponent_confirmation
    event.save()
    return event


# --- players and entrants ----------------------------------------------------------------


def _clean_licence(licence: str) -> str | None:
    licence = licence.strip()
    if not licence:
        return None
    if not LICENCE_RE.match(licence):
        raise ValidationError(
            {"licence": _("A licence number is 1 to 20 letters, digits, '.', '/' or '-'.")}
        )
    return licence


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
        raise ValidationError({"first_name": _("The first name is required.")})
    if not last_name:
        raise ValidationError({"last_name": _("The last name is required.")})
    if len(first_name) > 80 or len(last_name) > 80:
        raise ValidationError({"last_name": _("Names are at most 80 characters.")})
    if len(series) > 20:
        raise ValidationError({"series": _("The series is at most 20 characters.")})
    clean = _clean_licence(licence)
    if clean is not None and Player.objects.filter(licence=clean).exists():
        raise ValidationError(
            {"licence": _("A player with licence %(licence)s already exists.") % {"licence": clean}}
        )
    return Player.objects.create(
        first_name=first_name, last_name=last_name, licence=clean, club=club, series=series
    )


def _movement_stale(event: Event) -> None:
    """Drop the movement after an entrant change (event already locked, draft)."""
    if event.movement is None:
        return
    event.movement = None
    event.save(update_fields=["movement", "updated_at"])
    Round.objects.filter(event=event).delete()
    Entrant.objects.filter(event=event, phantom=True).delete()


def _next_slot(event: Event) -> int:
    top = Entrant.objects.filter(event=event).aggregate(m=Max("slot"))["m"] or 0
    return int(top) + 1


@transaction.atomic
def entrant_register(*, event: Event, player: Player) -> Entrant:
    """Register ``player`` (also a late arrival before the start: the movement goes stale)."""
    event = _locked(event)
    _require_draft(event)
    if Entrant.objects.filter(event=event, player=player).exists():
        raise ValidationError(
            {"player": _("%(player)s is already registered.") % {"player": player}}
        )
    _movement_stale(event)
    return Entrant.objects.create(event=event, player=player, slot=_next_slot(event))


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant) -> None:
    """Withdraw a registered player before the start (the movement goes stale)."""
    event = _locked(entrant.event)
    _require_draft(event)
    if entrant.phantom:
        raise ValidationError(_("A phantom slot cannot be withdrawn."))
    _movement_stale(event)
    Entrant.objects.filter(pk=entrant.pk).delete()


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
        raise ValidationError(
            {"file": _("The file is not UTF-8 text (save it as CSV UTF-8).")}
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
        raise ValidationError(
            {
                "file": _(
                    "Line 1 must be a header naming the columns last_name, first_name, licence, "
                    "club, series (missing: %(missing)s)."
                )
                % {"missing": ", ".join(missing)}
            }
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
    atomic on its own; a file that cannot be read at all raises ``ValidationError``.
    """
    text = _read_csv_text(file)
    lines = text.splitlines()
    if not lines or not lines[0].strip():
        raise ValidationError({"file": _("The file is empty.")})
    delimiter = ";" if lines[0].count(";") >= lines[0].count(",") else ","
    rows = list(csv.reader(io.StringIO(text), delimiter=delimiter))
    columns = _csv_header(rows[0])
    report = ImportReport()
    clubs: dict[str, Club] = {}
    with transaction.atomic():
        _require_draft(_locked(event))
        for line_number, row in enumerate(rows[1:], start=2):
            if not any(cell.strip() for cell in row):
                continue
            values = {key: (row[i].strip() if i < len(row) else "") for key, i in columns.items()}
            known_clubs, created_clubs = dict(clubs), len(report.clubs_created)
            try:
                with transaction.atomic():  # a savepoint: a bad line leaves nothing behind
                    player, created = _import_player(values, report, clubs)
                    entrant_register(event=event, player=player)
            except ValidationError as exc:
                # The savepoint rolled back any club this line created: forget it too.
                clubs.clear()
                clubs.update(known_clubs)
                del report.clubs_created[created_clubs:]
                report.errors.append(ImportLineError(line_number, " ".join(exc.messages)))
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
        raise ValidationError(_("The last name is required."))
    if not first:
        raise ValidationError(_("The first name is required."))
    if len(values.get("series", "")) > 20:
        raise ValidationError(_("The series is at most 20 characters."))
    if licence is None:
        known = Player.objects.filter(
            licence__isnull=True, last_name__iexact=last, first_name__iexact=first
        ).first()
        if known is not None:
            return known, False
    club_name = values.get("club", "")
    if len(club_name) > 120:
        raise ValidationError(_("The club name is at most 120 characters."))
    club = _club_by_name(club_name, report, clubs) if club_name else None
    player = player_create(
        first_name=first,
        last_name=last,
        licence=licence or "",
        club=club,
        series=values.get("series", ""),
    )
    return player, True


# --- teams -------------------------------------------------------------------------------


@transaction.atomic
def team_create(*, event: Event, name: str, entrants: Sequence[Entrant]) -> Team:
    """A team of registered entrants (3 for triplette, 4 for quadrette), numbered next."""
    event = _locked(event)
    _require_draft(event)
    size = TEAM_SIZES.get(event.format)
    if size is None:
        raise ValidationError(_("Individual events have no teams."))
    if len(entrants) != size or len({e.pk for e in entrants}) != size:
        raise ValidationError(
            {"members": _("A team has exactly %(size)s different members.") % {"size": size}}
        )
    pks = [e.pk for e in entrants]
    rows = list(Entrant.objects.select_for_update().filter(pk__in=pks, event=event, phantom=False))
    if len(rows) != size:
        raise ValidationError({"members": _("Every member must be registered in this event.")})
    taken = [e for e in rows if e.team_id is not None]
    if taken:
        raise ValidationError(
            {
                "members": _("Already in a team: %(names)s.")
                % {"names": ", ".join(str(e) for e in taken)}
            }
        )
    name = name.strip()
    if not name:
        raise ValidationError({"name": _("The team needs a name.")})
    if Team.objects.filter(event=event, name__iexact=name).exists():
        raise ValidationError({"name": _("Another team already has this name.")})
    number = (Team.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1
    team = Team.objects.create(event=event, number=number, name=name)
    Entrant.objects.filter(pk__in=pks).update(team=team)
    _movement_stale(event)
    return team


@transaction.atomic
def team_delete(*, team: Team) -> None:
    """Dissolve a team before the start (its members stay registered)."""
    event = _locked(team.event)
    _require_draft(event)
    Entrant.objects.filter(team=team).update(team=None)
    team.delete()
    _movement_stale(event)


@transaction.atomic
def teams_build_in_order(*, event: Event) -> list[Team]:
    """Group the players without a team into teams in registration order."""
    event = _locked(event)
    _require_draft(event)
    size = TEAM_SIZES.get(event.format)
    if size is None:
        raise ValidationError(_("Individual events have no teams."))
    free = list(
        Entrant.objects.filter(event=event, phantom=False, team__isnull=True)
        .select_related("player")
        .order_by("slot")
    )
    if not free or len(free) % size:
        raise ValidationError(
            _("%(count)s players without a team cannot form teams of %(size)s.")
            % {"count": len(free), "size": size}
        )
    teams = []
    for start in range(0, len(free), size):
        members = free[start : start + size]
        number = (Team.objects.filter(event=event).aggregate(m=Max("number"))["m"] or 0) + 1
        team = Team.objects.create(
            event=event,
            number=number,
            name=" / ".join(m.player.last_name for m in members if m.player is not None)[:120],
        )
        Entrant.objects.filter(pk__in=[m.pk for m in members]).update(team=team)
        teams.append(team)
    _movement_stale(event)
    return teams


# --- movement ----------------------------------------------------------------------------


def _report_errors(report: movements.ValidationReport) -> list[str]:
    return [str(error) for error in report.errors]


def event_movement_propose(*, event: Event) -> dict[str, Any]:
    """The movement package's proposal for the current entrants.

    A dict with ``kind``, ``tables``, ``rounds``, ``phantoms``, ``parameters`` and the
    validated ``document`` (see ``tournaments.movements.propose``).
    """
    count = _entrant_count_for_movement(event)
    if count == 0:
        raise ValidationError(_("Register the entrants before choosing the movement."))
    try:
        proposal = movements.propose(event.format, count)
    except movements.MovementError as exc:
        raise ValidationError(
            _("No movement can be proposed: %(reason)s") % {"reason": exc}
        ) from exc
    return dict(proposal)


def _entrant_count_for_movement(event: Event) -> int:
    if event.is_team_event:
        return Team.objects.filter(event=event).count()
    return Entrant.objects.filter(event=event, phantom=False).count()


def event_movement_build(
    *, event: Event, tables: int | None = None, rounds: int | None = None, seed: int = 0
) -> dict[str, Any]:
    """Generate (without storing) the movement for the current entrants."""
    count = _entrant_count_for_movement(event)
    if count == 0:
        raise ValidationError(_("Register the entrants before choosing the movement."))
    try:
        if event.format == Event.Format.INDIVIDUAL:
            doc = movements.generate_individual(
                tables=tables if tables is not None else -(-count // 4),
                rounds=rounds,
                players=count,
                seed=seed,
            )
        elif event.format == Event.Format.TRIPLETTE:
            doc = movements.generate_triplette(teams=count, seed=seed)
        else:
            doc = movements.generate_quadrette(teams=count, rounds=rounds, seed=seed)
    except (movements.MovementError, ValueError, TypeError) as exc:
        # The pure package speaks English; the sentence around its reason is translated.
        raise ValidationError(
            _("No movement for these parameters: %(reason)s") % {"reason": exc}
        ) from exc
    return doc


@transaction.atomic
def event_movement_set(
    *,
    event: Event,
    tables: int | None = None,
    rounds: int | None = None,
    seed: int = 0,
    movement: dict[str, Any] | None = None,
) -> movements.ValidationReport:
    """Generate (or take ``movement``), validate, store and bind the event's movement.

    Refuses any movement with a hard error (nothing changes). On success: tables 1..T exist
    (existing codes kept), rounds 1..R exist, entrants are renumbered onto the movement's
    slots in registration order, phantom slots get phantom entrants, lines are set.
    Returns the validator's report.
    """
    event = _locked(event)
    _require_draft(event)
    doc = (
        movement
        if movement is not None
        else event_movement_build(event=event, tables=tables, rounds=rounds, seed=seed)
    )
    report = movements.validate(doc)
    if not report.ok:
        raise ValidationError(
            [_("The movement has hard errors and cannot be used:"), *_report_errors(report)]
        )
    if doc.get("format") != event.format:
        raise ValidationError(
            _("This movement is for another format (%(format)s).") % {"format": doc.get("format")}
        )
    _bind_entrants(event, doc)
    _sync_tables_and_rounds(event, doc)
    event.movement = doc
    event.save(update_fields=["movement", "updated_at"])
    return report


def _bind_entrants(event: Event, doc: dict[str, Any]) -> None:
    slots = sorted(doc["entrants"], key=lambda e: int(e["id"]))
    real_slots = [s for s in slots if not s.get("phantom")]
    Entrant.objects.filter(event=event, phantom=True).delete()
    entrants = list(Entrant.objects.filter(event=event).select_related("team").order_by("slot"))
    if event.is_team_event:
        ordered = _team_order(event, entrants, real_slots)
    else:
        if len(entrants) != len(real_slots):
            raise ValidationError(
                _("The movement seats %(slots)s players but %(players)s are registered.")
                % {"slots": len(real_slots), "players": len(entrants)}
            )
        ordered = entrants
    Entrant.objects.filter(event=event).update(slot=F("slot") + SLOT_SHIFT)
    for entrant, slot in zip(ordered, real_slots, strict=True):
        entrant.slot = int(slot["id"])
        entrant.line = slot.get("line") or ""
    Entrant.objects.bulk_update(ordered, ["slot", "line"])
    Entrant.objects.bulk_create(
        Entrant(event=event, slot=int(s["id"]), player=None, phantom=True, line=s.get("line") or "")
        for s in slots
        if s.get("phantom")
    )


def _team_order(
    event: Event, entrants: list[Entrant], real_slots: list[dict[str, Any]]
) -> list[Entrant]:
    """Entrants in the order of the movement's real slots: team by team, members by slot."""
    size = TEAM_SIZES[event.format]
    loose = [e for e in entrants if e.team_id is None]
    if loose:
        raise ValidationError(
            _("%(count)s registered players are not in a team.") % {"count": len(loose)}
        )
    by_team: dict[int, list[Entrant]] = {}
    for entrant in entrants:
        assert entrant.team is not None
        by_team.setdefault(entrant.team.number, []).append(entrant)
    if any(len(members) != size for members in by_team.values()):
        raise ValidationError(_("Every team must have %(size)s members.") % {"size": size})
    doc_teams: dict[Any, list[dict[str, Any]]] = {}
    for slot in real_slots:
        doc_teams.setdefault(slot.get("team"), []).append(slot)
    if len(doc_teams) != len(by_team):
        raise ValidationError(
            _("The movement has %(slots)s teams but %(teams)s are registered.")
            % {"slots": len(doc_teams), "teams": len(by_team)}
        )
    ordered: list[Entrant] = []
    team_members = [by_team[n] for n in sorted(by_team)]
    # The real slots are visited in id order; each movement team takes the next real team.
    assigned: dict[Any, list[Entrant]] = {}
    for doc_team, members in zip(doc_teams, team_members, strict=True):
        if len(doc_teams[doc_team]) != len(members):
            raise ValidationError(_("Every team must have %(size)s members.") % {"size": size})
        assigned[doc_team] = list(members)
    for slot in real_slots:
        ordered.append(assigned[slot.get("team")].pop(0))
    return ordered


def _sync_tables_and_rounds(event: Event, doc: dict[str, Any]) -> None:
    table_count, round_count = int(doc["tables"]), int(doc["rounds"])
    existing = set(Table.objects.filter(event=event).values_list("number", flat=True))
    Table.objects.filter(event=event, number__gt=table_count).delete()
    Table.objects.bulk_create(
        Table(event=event, number=n) for n in range(1, table_count + 1) if n not in existing
    )
    session, _created = EventSession.objects.get_or_create(event=event, number=1)
    Round.objects.filter(event=event).delete()
    Round.objects.bulk_create(
        Round(event=event, session=session, number=n) for n in range(1, round_count + 1)
    )


# --- deals -------------------------------------------------------------------------------


def _check_contract(event: Event, imposed_contract: str) -> str:
    if imposed_contract and imposed_contract not in Contract.values:
        raise ValidationError({"imposed_contract": _("Unknown contract.")})
    if imposed_contract == Contract.PRISE:
        raise ValidationError(
            {"imposed_contract": _("Duplicate events are played at least at Garde.")}
        )
    return imposed_contract


def _deal_rows(event: Event, deals: Sequence[rules_deal.Deal], imposed_contract: str) -> list[Deal]:
    """Deal rows numbered 1..n; the dealer comes from the deal, the taker follows the dealer."""
    dpr = event.deals_per_round
    team_taker = (event.movement or {}).get("taker_seat", "N") if event.is_team_event else None
    rows = []
    for number, deal in enumerate(deals, start=1):
        dealer = deal.dealer % 4
        rows.append(
            Deal(
                event=event,
                number=number,
                deal_set=(number - 1) // dpr + 1,
                dealer_seat=SEATS[dealer],
                taker_seat=team_taker or SEATS[(dealer + 1) % 4],
                imposed_contract=imposed_contract,
                cards=rules_deal.deal_to_text(deal),
            )
        )
    return rows


def _deal_count(event: Event) -> int:
    if not event.movement:
        raise ValidationError(_("Choose the movement before the deals."))
    return int(event.movement["deal_sets"]) * event.deals_per_round


@transaction.atomic
def event_deals_generate(*, event: Event, seed: int, imposed_contract: str = "") -> list[Deal]:
    """Generate the event's deals from ``seed`` (replacing any deals it had)."""
    event = _locked(event)
    _require_draft(event)
    imposed_contract = _check_contract(event, imposed_contract)
    count = _deal_count(event)
    try:
        generated = rules_deal.generate_deals(players=4, count=count, seed=seed)
    except RuleError as exc:
        raise ValidationError({"seed": exc.translated(_)}) from exc
    Deal.objects.filter(event=event).delete()
    rows = Deal.objects.bulk_create(_deal_rows(event, generated, imposed_contract))
    event.seed = seed
    event.save(update_fields=["seed", "updated_at"])
    return rows


HEADER_RE = re.compile(r"^\s*(#|deal\b|donne\b|=+|-{3,})", re.IGNORECASE)


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
    event = _locked(event)
    _require_draft(event)
    imposed_contract = _check_contract(event, imposed_contract)
    count = _deal_count(event)
    blocks = split_deal_texts(text)
    parsed: list[rules_deal.Deal] = []
    for index, (line, block) in enumerate(blocks, start=1):
        try:
            deal = rules_deal.deal_from_text(block)
        except RuleError as exc:
            # The engine counts lines inside the block; name the line of the whole file.
            inner = (exc.field or "").removeprefix("line ")
            at = line + int(inner) - 1 if inner.isdigit() else line
            raise ValidationError(
                {
                    "file": _("Deal %(deal)s (line %(line)s): %(reason)s")
                    % {"deal": index, "line": at, "reason": exc.translated(_)}
                }
            ) from exc
        if deal.players != 4:
            raise ValidationError(
                {
                    "file": _("Deal %(deal)s (line %(line)s): a duplicate deal has 4 hands.")
                    % {"deal": index, "line": line}
                }
            )
        parsed.append(deal)
    if len(parsed) != count:
        raise ValidationError(
            {
                "file": _(
                    "The file holds %(found)s deals; the movement needs %(needed)s "
                    "(%(sets)s deal sets of %(per)s)."
                )
                % {
                    "found": len(parsed),
                    "needed": count,
                    "sets": count // event.deals_per_round,
                    "per": event.deals_per_round,
                }
            }
        )
    Deal.objects.filter(event=event).delete()
    return Deal.objects.bulk_create(_deal_rows(event, parsed, imposed_contract))


# --- start and finish --------------------------------------------------------------------


def event_start_problems(event: Event) -> list[str]:
    """Everything that prevents the event from starting (empty when it can start)."""
    from tournaments.selectors import event_setup_state

    problems: list[str] = []
    if event.status != Event.Status.DRAFT:
        problems.append(_("The event is not a draft."))
    state = event_setup_state(event)
    if state.entrant_count == 0:
        problems.append(_("No entrant is registered."))
    if event.is_team_event and not state.teams_ok:
        problems.append(_("Every player must be in a complete team."))
    if not event.movement:
        problems.append(_("The movement is missing (or must be regenerated after a change)."))
    else:
        report = movements.validate(event.movement)
        if not report.ok:
            problems.append(_("The stored movement has hard errors."))
        slots = {int(e["id"]) for e in event.movement["entrants"]}
        bound = set(Entrant.objects.filter(event=event).values_list("slot", flat=True))
        if slots != bound:
            problems.append(_("The entrants do not match the movement: regenerate it."))
        if Table.objects.filter(event=event).count() != int(event.movement["tables"]):
            problems.append(_("The tables do not match the movement: regenerate it."))
        if not state.deals_ok:
            problems.append(
                _("Deals are missing: %(found)s of %(needed)s (deal sets %(sets)s).")
                % {
                    "found": state.deal_count,
                    "needed": state.deals_expected,
                    "sets": ", ".join(str(k) for k in state.deal_sets_missing) or "-",
                }
            )
    return problems


@transaction.atomic
def event_start(*, event: Event) -> Event:
    """draft → running, once movement, entrants and every deal set are ready."""
    event = _locked(event)
    problems = event_start_problems(event)
    if problems:
        raise ValidationError(problems)
    event.status = Event.Status.RUNNING
    event.save(update_fields=["status", "updated_at"])
    return event


@transaction.atomic
def event_finish(*, event: Event) -> Event:
    """running → finished."""
    event = _locked(event)
    if event.status != Event.Status.RUNNING:
        raise ValidationError(_("Only a running event can be finished."))
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status", "updated_at"])
    return event
