"""Archive and restore a whole event as one JSON document (``docs/archive-format.md``).

An *archive* holds everything an event is made of — the event (and, for a simultaneous, every
section), its players, teams, entrants, movement, deals with their cards, tables, results with
their history of changes, penalties, and the published standings (rankings and hand scores) —
under the schema name :data:`SCHEMA` and version :data:`VERSION`. No database id appears in it:
rows refer to each other by natural references (deal numbers, table numbers, entrant slots,
team numbers, section names), so an archive restores on any server.

- :func:`archive_event` builds the document of an event (a plain event or a simultaneous; a
  section is archived with its simultaneous); ``archives.format.dumps`` writes it (stable key
  order, one line per row).
- A restore (:func:`archives.kinds.restore_document`, the one entry point of every kind) reads
  a file, checks it entirely (:func:`check_archive`: schema, version, every value and every
  reference) before writing anything, then in one transaction (:func:`restore_checked`)
  creates the event in the club given, matches players by licence (or creates them,
  ``archives.players``), restores results, history, penalties and the archived standings,
  and finally recomputes the standings and compares them with the archived ones
  (:attr:`RestoreReport.verified`). Any refusal raises
  :class:`ArchiveError` (a translated ``DomainError``) and stores nothing.
- :func:`check_archive` and :func:`restore_checked` are the two halves of a restore, so that
  a series archive (``archives.series``) checks and restores its embedded events with them.

Table codes are table phones' credentials: a restore gives every table a new code unless asked
to keep the archived ones (``keep_table_codes``), so that an archive file never opens entry on
another server.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from archives.format import (
    BIG,
    POSITIVE,
    SMALL,
    TEXT,
    ArchiveError,
    as_bool,
    as_choice,
    as_date,
    as_decimal,
    as_int,
    as_list,
    as_moment,
    as_object,
    as_text,
    check_envelope,
    dec,
    filename,
    iso,
    refuse,
)
from archives.players import PlayerMatcher, check_player, player_ref
from clubs.errors import DomainError
from clubs.models import Club, Player
from clubs.outcomes import outcome_score
from clubs.phone_codes import new_phone_code
from rules.duplicate import DUPLICATE_SEATS
from scoring import services as scoring_services
from scoring.bulk import consistent_read
from scoring.models import HandScore, RankingEntry, StandingsSnapshot, key_pk, team_key
from tournaments import movements
from tournaments.models import (
    Contract,
    Deal,
    Entrant,
    Event,
    Penalty,
    ResultChange,
    Seat,
    Side,
    Table,
    TableResult,
    Team,
)
from tournaments.movements import Schedule
from tournaments.services import is_simultaneous

SCHEMA = "duplitarot-event-archive"
VERSION = 1
SEATS = tuple(DUPLICATE_SEATS)
#: The snapshot data's keys holding quadrette match sheets (public ones, the organisers' ones).
MATCH_KEYS = ("matches", "matches_all")
HAND_FIELDS = ("event_id", "deal_id", "entrant_id", "table_number", "round_number", "seat",
               "mark", "mp_num", "mp_den", "top", "percentage", "artificial")  # fmt: skip
DEAL_KEYS = ("number", "deal_set", "dealer_seat", "taker_seat", "imposed_contract", "cards")
HAND_COLUMNS = ("section", "deal", "table", "seat", "slot", "round", "mark", "mp_num", "mp_den",
                "top", "percentage", "artificial")  # fmt: skip


# =============================================================================== export


@dataclass
class _Refs:
    """Database ids of an archived event turned into natural references."""

    section_of_event: dict[int, str | None]  # event pk -> section name (None: the event)
    slot_of_entrant: dict[int, int]
    team_number: dict[int, int]

    def entrant(self, entrant_id: int | None, event_id: int) -> dict[str, Any] | None:
        if entrant_id not in self.slot_of_entrant or event_id not in self.section_of_event:
            return None
        return {
            "section": self.section_of_event[event_id],
            "slot": self.slot_of_entrant[entrant_id],
        }

    def team(self, team_id: int | None, event_id: int) -> dict[str, Any] | None:
        if team_id not in self.team_number or event_id not in self.section_of_event:
            return None
        return {"section": self.section_of_event[event_id], "number": self.team_number[team_id]}


def _seats_slots(seats: Any, slot_of: Mapping[int, int]) -> Any:
    """A history picture's ``seats`` (entrant ids) as slots."""
    if not isinstance(seats, Mapping):
        return seats
    return {seat: slot_of.get(value) if isinstance(value, int) else None
            for seat, value in seats.items()}  # fmt: skip


def _picture(state: Any, slot_of: Mapping[int, int]) -> Any:
    if not isinstance(state, Mapping):
        return state
    return {key: _seats_slots(value, slot_of) if key == "seats" else value
            for key, value in state.items()}  # fmt: skip


def _event_block(event: Event, refs: _Refs) -> dict[str, Any]:
    """One event (a plain event, a simultaneous or a section) without its sections."""
    entrants = list(Entrant.objects.filter(event=event).select_related("player__club", "team"))
    slot_of = {entrant.pk: entrant.slot for entrant in entrants}
    refs.slot_of_entrant.update(slot_of)
    teams = list(Team.objects.filter(event=event).order_by("number"))
    refs.team_number.update({team.pk: team.number for team in teams})
    deals = list(Deal.objects.filter(event=event).order_by("number"))
    tables = list(Table.objects.filter(event=event).order_by("number"))
    results = list(
        TableResult.objects.filter(event=event)
        .select_related("deal", "table")
        .order_by("deal__number", "table__number")
    )
    history = (
        ResultChange.objects.filter(event=event)
        .select_related("result__deal", "result__table", "actor")
        .order_by("at", "pk")
    )
    penalties = (
        Penalty.objects.filter(event=event)
        .select_related("created_by")
        .order_by("created_at", "pk")
    )
    seat_slot: dict[int | None, int | None] = {pk: slot for pk, slot in slot_of.items()}
    return {
        "name": event.name,
        "club": {"name": event.club.name, "city": event.club.city},
        "date": event.date.isoformat(),
        "format": event.format,
        "status": event.status,
        "public": event.public,
        "deals_per_round": event.deals_per_round,
        "seed": event.seed,
        "opponent_confirmation": event.opponent_confirmation,
        "ranking": event.ranking,
        "pm_scale": event.pm_scale,
        "results_version": event.results_version,
        "movement": event.movement or None,
        "teams": [{"number": team.number, "name": team.name} for team in teams],
        "entrants": [
            {
                "slot": entrant.slot,
                "phantom": entrant.phantom,
                "line": entrant.line,
                "team": None if entrant.team is None else entrant.team.number,
                "player": player_ref(entrant.player, event.club_id),
            }
            for entrant in sorted(entrants, key=lambda e: e.slot)
        ],
        "deals": [
            {
                "number": deal.number,
                "deal_set": deal.deal_set,
                "dealer_seat": deal.dealer_seat,
                "taker_seat": deal.taker_seat,
                "imposed_contract": deal.imposed_contract,
                "cards": deal.cards,
            }
            for deal in deals
        ],
        "tables": [{"number": table.number, "code": table.code} for table in tables],
        "results": [
            {
                "deal": result.deal.number,
                "table": result.table.number,
                "round": result.round_number,
                "kind": result.kind,
                "seats": {
                    seat: seat_slot.get(pk) for seat, pk in result.seat_entrant_ids().items()
                },
                "taker_seat": result.taker_seat,
                "contract": result.contract,
                "oudlers": result.oudlers,
                "points_half": result.points_half,
                "petit_au_bout": result.petit_au_bout,
                "poignees": result.poignees,
                "chelem_announced": result.chelem_announced,
                "chelem_made_by": result.chelem_made_by,
                "won": result.won,
                "margin": result.margin,
                "value": result.value,
                "marks": result.seat_marks(),
                "artificial": {seat: dec(v) for seat, v in result.seat_artificial().items()},  # type: ignore[arg-type]
                "director_assigned": result.director_assigned,
                "confirmed": result.confirmed,
                "entered_via": result.entered_via,
                "version": result.version,
                "created_at": iso(result.created_at),
                "updated_at": iso(result.updated_at),
            }
            for result in results
        ],
        "history": [
            {
                "deal": change.result.deal.number,
                "table": change.result.table.number,
                "action": change.action,
                "by": change.actor_label
                or ("" if change.actor is None else change.actor.get_username()),
                "at": iso(change.at),
                "reason": change.reason,
                "before": _picture(change.before, slot_of),
                "after": _picture(change.after, slot_of),
            }
            for change in history
        ],
        "penalties": [
            {
                "slot": None if penalty.entrant_id is None else slot_of.get(penalty.entrant_id),
                "team": None if penalty.team_id is None else refs.team_number[penalty.team_id],
                "points": dec(penalty.points),
                "reason": penalty.reason,
                "by": None if penalty.created_by is None else penalty.created_by.get_username(),
                "created_at": iso(penalty.created_at),
            }
            for penalty in penalties
        ],
    }


def _match_sheets(sheets: Any, team_ref: Any) -> Any:
    """Match sheets with their core team keys (``"t<pk>"``) as team references."""
    if not isinstance(sheets, list):
        return sheets
    out = []
    for sheet in sheets:
        if isinstance(sheet, Mapping):
            sheet = dict(sheet)
            for side in ("team_a", "team_b"):
                value = sheet.get(side)
                if isinstance(value, str) and value[1:].isdigit():
                    sheet[side] = team_ref(key_pk(value))
        out.append(sheet)
    return out


def _snapshot_data(data: Any, refs: _Refs, event_of_team: Mapping[int, int]) -> Any:
    """The snapshot's ``data`` with its ids as natural references (team references, section
    names); keys it does not know are kept as they are."""
    if not isinstance(data, Mapping):
        return data
    out = dict(data)

    def team_ref(pk: int) -> dict[str, Any] | None:
        return refs.team(pk, event_of_team.get(pk, -1))

    for key in MATCH_KEYS:
        if key in out:
            out[key] = _match_sheets(out[key], team_ref)
    if isinstance(out.get("sections"), list):
        out["sections"] = [
            {**item, "event": refs.section_of_event.get(item.get("event", -1), None)}
            if isinstance(item, Mapping)
            else item
            for item in out["sections"]
        ]
    return out


#: Whether ranking rows carry ``published`` (public rows, or the organisers' complete ones).
HAS_PUBLISHED = any(f.name == "published" for f in RankingEntry._meta.get_fields())


def _ranking_row(
    entry: RankingEntry,
    refs: _Refs,
    event_of_entrant: Mapping[int, int],
    event_of_team: Mapping[int, int],
) -> dict[str, Any]:
    row: dict[str, Any] = {
        "section": refs.section_of_event.get(entry.event_id),
        "kind": entry.kind,
        "line": entry.line,
        "rank": entry.rank,
        "entrant": None
        if entry.entrant_id is None
        else refs.entrant(entry.entrant_id, event_of_entrant.get(entry.entrant_id, -1)),
        "team": None
        if entry.team_id is None
        else refs.team(entry.team_id, event_of_team.get(entry.team_id, -1)),
        "percentage": dec(entry.percentage),
        "penalty": dec(entry.penalty),
        "marks_total": entry.marks_total,
        "deals_played": entry.deals_played,
        "points_de_match": entry.points_de_match,
        "victory_points": dec(entry.victory_points),
    }
    if HAS_PUBLISHED:
        row["published"] = bool(getattr(entry, "published", True))
    return row


def _ranking_order(section_index: Mapping[str | None, int]) -> Any:
    """Rows in an order that no database id decides (ties of rank included)."""

    def key(row: Mapping[str, Any]) -> tuple[Any, ...]:
        return (
            section_index.get(row["section"], -1),
            not row.get("published", True),
            row["kind"],
            row["line"],
            row["rank"],
            json.dumps([row["entrant"], row["team"]], sort_keys=True),
        )

    return key


def _standings_block(event: Event, members: Sequence[Event], refs: _Refs) -> dict[str, Any] | None:
    snapshot = StandingsSnapshot.objects.filter(event=event).first()
    if snapshot is None:
        return None
    ids = [event.pk, *(member.pk for member in members)]
    order = {pk: index for index, pk in enumerate(ids)}
    section_index = {refs.section_of_event.get(pk): index for pk, index in order.items()}
    event_of_entrant = dict(Entrant.objects.filter(event__in=members).values_list("pk", "event_id"))
    event_of_team = dict(Team.objects.filter(event__in=members).values_list("pk", "event_id"))
    member_ids = [member.pk for member in members]
    deal_number = dict(Deal.objects.filter(event__in=member_ids).values_list("pk", "number"))
    hands = sorted(
        HandScore.objects.filter(event_id__in=member_ids).values(*HAND_FIELDS),
        key=lambda h: (
            order[h["event_id"]],
            deal_number.get(h["deal_id"], 0),
            h["table_number"],
            SEATS.index(h["seat"]) if h["seat"] in SEATS else 9,
        ),
    )
    rankings = [
        _ranking_row(entry, refs, event_of_entrant, event_of_team)
        for entry in RankingEntry.objects.filter(event_id__in=ids)
    ]
    rankings.sort(key=_ranking_order(section_index))
    return {
        "results_version": snapshot.results_version,
        "computed_at": iso(snapshot.computed_at),
        "complete": snapshot.complete,
        "results_expected": snapshot.results_expected,
        "results_entered": snapshot.results_entered,
        "data": _snapshot_data(snapshot.data, refs, event_of_team),
        "rankings": rankings,
        "hands": {
            "columns": list(HAND_COLUMNS),
            "rows": [
                [
                    refs.section_of_event.get(h["event_id"]),
                    deal_number.get(h["deal_id"]),
                    h["table_number"],
                    h["seat"],
                    refs.slot_of_entrant.get(h["entrant_id"]),
                    h["round_number"],
                    h["mark"],
                    h["mp_num"],
                    h["mp_den"],
                    h["top"],
                    dec(h["percentage"]),
                    h["artificial"],
                ]
                for h in hands
            ],
        },
    }


def archive_event(event: Event) -> dict[str, Any]:
    """The archive document of ``event`` (a plain event or a simultaneous with its sections).

    A section is refused (:class:`ArchiveError`): its standings are its simultaneous's, which
    is archived whole.
    """
    if event.is_section:
        raise ArchiveError(
            _("A section is archived with its simultaneous: archive the simultaneous.")
        )
    with consistent_read():
        event = Event.objects.select_related("club").get(pk=event.pk)
        simultaneous = is_simultaneous(event)
        sections = (
            list(Event.objects.filter(simultaneous=event).select_related("club").order_by("pk"))
            if simultaneous
            else []
        )
        refs = _Refs(
            section_of_event={event.pk: None, **{s.pk: s.name for s in sections}},
            slot_of_entrant={},
            team_number={},
        )
        block = _event_block(event, refs)
        block["simultaneous"] = simultaneous
        block["sections"] = [_event_block(section, refs) for section in sections]
        standings = _standings_block(event, sections or [event], refs)
    return {
        "schema": SCHEMA,
        "version": VERSION,
        "exported_at": iso(timezone.now()),
        "event": block,
        "standings": standings,
    }


def archive_filename(event: Event) -> str:
    """A file name for ``event``'s archive: ``<date>-<name>.duplitarot.json`` (ASCII)."""
    return filename(event.date, event.name, "event")


# ============================================================================== reading


SEAT_CHOICES = [seat.value for seat in Seat]
SIDE_CHOICES = [side.value for side in Side]
CONTRACT_CHOICES = [contract.value for contract in Contract]


def _seat_map(value: Any, path: str, check: Any) -> dict[str, Any]:
    mapping = as_object(value, path, SEATS)
    return {seat: check(mapping[seat], f"{path}.{seat}") for seat in SEATS}


# --------------------------------------------------------------------------- blocks

EVENT_KEYS = (
    "name", "club", "date", "format", "status", "public", "deals_per_round", "seed",
    "opponent_confirmation", "ranking", "pm_scale", "results_version", "movement", "teams",
    "entrants", "deals", "tables", "results", "history", "penalties",
)  # fmt: skip
RESULT_KEYS = (
    "deal", "table", "round", "kind", "seats", "taker_seat", "contract", "oudlers",
    "points_half", "petit_au_bout", "poignees", "chelem_announced", "chelem_made_by", "won",
    "margin", "value", "marks", "artificial", "director_assigned", "confirmed", "entered_via",
    "version", "created_at", "updated_at",
)  # fmt: skip
RANKING_KEYS = (
    "section", "kind", "line", "rank", "entrant", "team", "percentage", "penalty",
    "marks_total", "deals_played", "points_de_match", "victory_points",
)  # fmt: skip
STANDINGS_KEYS = (
    "results_version", "computed_at", "complete", "results_expected", "results_entered",
    "data", "rankings", "hands",
)  # fmt: skip
#: Outcome fields of a played result that the rules recompute (a file cannot disagree).
SCORED_FIELDS = (
    "taker_seat", "contract", "oudlers", "points_half", "petit_au_bout", "poignees",
    "chelem_announced", "chelem_made_by", "won", "margin", "value",
)  # fmt: skip


@dataclass
class _Section:
    """One checked event block: its values, and its rows keyed by natural references."""

    path: str
    values: dict[str, Any]
    schedule: Schedule
    teams: dict[int, dict[str, Any]]
    entrants: dict[int, dict[str, Any]]
    deals: dict[int, dict[str, Any]]
    tables: dict[int, dict[str, Any]]
    results: dict[tuple[int, int], dict[str, Any]]
    history: list[dict[str, Any]]
    penalties: list[dict[str, Any]]


def _check_picture(value: Any, path: str, slots: Mapping[int, Any]) -> None:
    """A history picture: null or an object whose ``seats`` (if any) name the event's slots."""
    if value is None:
        return
    if not isinstance(value, dict):
        raise refuse(_("an object is expected"), path)
    seats = value.get("seats")
    if seats is None:
        return
    for seat, slot in _seat_map(seats, f"{path}.seats", lambda v, p: v).items():
        if slot is not None and as_int(slot, f"{path}.seats.{seat}", 1, POSITIVE) not in slots:
            raise refuse(_("no entrant holds this slot"), f"{path}.seats.{seat}")


def _check_result(raw: Any, path: str, section: _Section) -> dict[str, Any]:
    result = as_object(raw, path, RESULT_KEYS)
    deal = section.deals.get(as_int(result["deal"], f"{path}.deal", 1, SMALL))
    if deal is None:
        raise refuse(_("no deal has this number"), f"{path}.deal")
    if as_int(result["table"], f"{path}.table", 1, SMALL) not in section.tables:
        raise refuse(_("no table has this number"), f"{path}.table")
    as_int(result["round"], f"{path}.round", 1, SMALL)
    kind = as_choice(result["kind"], f"{path}.kind", TableResult.Kind.values)

    def slot(value: Any, where: str) -> Any:
        if as_int(value, where, 1, POSITIVE, null=True) not in (None, *section.entrants):
            raise refuse(_("no entrant holds this slot"), where)
        return value

    _seat_map(result["seats"], f"{path}.seats", slot)
    as_choice(result["taker_seat"], f"{path}.taker_seat", SEAT_CHOICES, blank=True)
    as_choice(result["contract"], f"{path}.contract", CONTRACT_CHOICES, blank=True)
    as_int(result["oudlers"], f"{path}.oudlers", 0, 3, null=True)
    as_int(result["points_half"], f"{path}.points_half", 0, 182, null=True)
    as_choice(result["petit_au_bout"], f"{path}.petit_au_bout", SIDE_CHOICES, blank=True)
    as_list(result["poignees"], f"{path}.poignees")
    as_bool(result["chelem_announced"], f"{path}.chelem_announced")
    as_choice(result["chelem_made_by"], f"{path}.chelem_made_by", SIDE_CHOICES, blank=True)
    as_bool(result["won"], f"{path}.won", null=True)
    as_int(result["margin"], f"{path}.margin", -SMALL - 1, SMALL, null=True)
    as_int(result["value"], f"{path}.value", -POSITIVE - 1, POSITIVE, null=True)
    _seat_map(result["marks"], f"{path}.marks",
              lambda v, p: as_int(v, p, -POSITIVE - 1, POSITIVE, null=True))  # fmt: skip
    result["artificial"] = _seat_map(result["artificial"], f"{path}.artificial",
                                     lambda v, p: as_decimal(v, p, 5, null=True))  # fmt: skip
    as_bool(result["director_assigned"], f"{path}.director_assigned")
    as_bool(result["confirmed"], f"{path}.confirmed")
    as_text(result["entered_via"], f"{path}.entered_via", 12)
    as_int(result["version"], f"{path}.version", 0, POSITIVE)
    result["created_at"] = as_moment(result["created_at"], f"{path}.created_at")
    result["updated_at"] = as_moment(result["updated_at"], f"{path}.updated_at")
    if kind == TableResult.Kind.PLAYED:
        _check_outcome(result, deal, path)
    return result


def _check_outcome(result: dict[str, Any], deal: dict[str, Any], path: str) -> None:
    """A played result's outcome is legal and its value and marks are the rules' own."""
    half = result["points_half"]
    if half is None or not result["taker_seat"]:
        raise refuse(_("a played result needs its outcome"), path)
    outcome = {
        "taker_seat": result["taker_seat"],
        "contract": result["contract"],
        "oudlers": result["oudlers"],
        "points": half // 2 if half % 2 == 0 else half / 2,
        "petit_au_bout": result["petit_au_bout"] or None,
        "poignees": result["poignees"],
        "chelem": {
            "announced": result["chelem_announced"],
            "made_by": result["chelem_made_by"] or None,
        },
    }
    stub = Deal(number=deal["number"], taker_seat=deal["taker_seat"],
                imposed_contract=deal["imposed_contract"])  # fmt: skip
    try:
        scored = outcome_score(deal=stub, outcome=outcome, director=True)
    except DomainError as error:
        raise refuse(error.describe(), path) from None
    fields = scored.fields
    marks = {seat: fields[f"mark_{seat.lower()}"] for seat in SEATS}
    if any(result[key] != fields[key] for key in SCORED_FIELDS) or result["marks"] != marks:
        raise refuse(_("the value or the marks are not those of the outcome"), path)


def _check_event(raw: Any, path: str, keys: Sequence[str]) -> _Section:
    block = as_object(raw, path, keys)
    name = as_text(block["name"], f"{path}.name", 200)
    if not name.strip():
        raise refuse(_("the event needs a name"), f"{path}.name")
    club = as_object(block["club"], f"{path}.club", ("name", "city"))
    as_text(club["name"], f"{path}.club.name", 120)
    as_text(club["city"], f"{path}.club.city", 120)
    block["date"] = as_date(block["date"], f"{path}.date")
    event_format = as_choice(block["format"], f"{path}.format", Event.Format.values)
    as_choice(block["status"], f"{path}.status", Event.Status.values)
    as_bool(block["public"], f"{path}.public")
    as_int(block["deals_per_round"], f"{path}.deals_per_round", 1, 12)
    as_int(block["seed"], f"{path}.seed", -BIG - 1, BIG)
    as_bool(block["opponent_confirmation"], f"{path}.opponent_confirmation")
    as_choice(block["ranking"], f"{path}.ranking", Event.Ranking.values)
    scale = as_list(block["pm_scale"], f"{path}.pm_scale")
    if len(scale) > 100:
        raise refuse(_("at most 100 thresholds are expected"), f"{path}.pm_scale")
    for index, threshold in enumerate(scale):
        as_int(threshold, f"{path}.pm_scale[{index}]", 0, POSITIVE)
    as_int(block["results_version"], f"{path}.results_version", 0, POSITIVE)
    schedule = _check_movement(block["movement"], f"{path}.movement", event_format)
    section = _Section(path, block, schedule, {}, {}, {}, {}, {}, [], [])

    for index, raw_team in enumerate(as_list(block["teams"], f"{path}.teams")):
        where = f"{path}.teams[{index}]"
        team = as_object(raw_team, where, ("number", "name"))
        number = as_int(team["number"], f"{where}.number", 1, SMALL)
        if not as_text(team["name"], f"{where}.name", 120).strip():
            raise refuse(_("the team needs a name"), f"{where}.name")
        if number in section.teams:
            raise refuse(_("%(value)s appears twice") % {"value": number}, f"{where}.number")
        section.teams[number] = team

    licences: set[str] = set()
    for index, raw_entrant in enumerate(as_list(block["entrants"], f"{path}.entrants")):
        where = f"{path}.entrants[{index}]"
        entrant = as_object(raw_entrant, where, ("slot", "phantom", "line", "team", "player"))
        slot = as_int(entrant["slot"], f"{where}.slot", 1, POSITIVE)
        if slot in section.entrants:
            raise refuse(_("%(value)s appears twice") % {"value": slot}, f"{where}.slot")
        phantom = as_bool(entrant["phantom"], f"{where}.phantom")
        as_choice(entrant["line"], f"{where}.line", SEAT_CHOICES, blank=True)
        team_number = as_int(entrant["team"], f"{where}.team", 1, SMALL, null=True)
        if team_number is not None and team_number not in section.teams:
            raise refuse(_("no team has this number"), f"{where}.team")
        if entrant["player"] is None:
            if not phantom:
                raise refuse(_("a player is expected (only a phantom has none)"), f"{where}.player")
        else:
            if phantom:
                raise refuse(_("a phantom has no player"), f"{where}.player")
            player = check_player(entrant["player"], f"{where}.player")
            if player["licence"] is not None:
                if player["licence"] in licences:
                    raise refuse(
                        _("%(value)s appears twice") % {"value": player["licence"]},
                        f"{where}.player.licence",
                    )
                licences.add(player["licence"])
        section.entrants[slot] = entrant
    if schedule.entrants:
        document = {entrant.id: entrant.phantom for entrant in schedule.entrants}
        stored = {slot: entrant["phantom"] for slot, entrant in section.entrants.items()}
        if document != stored:
            raise refuse(_("the entrants are not the movement's slots"), f"{path}.entrants")

    for index, raw_deal in enumerate(as_list(block["deals"], f"{path}.deals")):
        where = f"{path}.deals[{index}]"
        deal = as_object(raw_deal, where, DEAL_KEYS)
        number = as_int(deal["number"], f"{where}.number", 1, SMALL)
        if number in section.deals:
            raise refuse(_("%(value)s appears twice") % {"value": number}, f"{where}.number")
        as_int(deal["deal_set"], f"{where}.deal_set", 1, SMALL)
        as_choice(deal["dealer_seat"], f"{where}.dealer_seat", SEAT_CHOICES)
        as_choice(deal["taker_seat"], f"{where}.taker_seat", SEAT_CHOICES)
        as_choice(deal["imposed_contract"], f"{where}.imposed_contract", CONTRACT_CHOICES,
                blank=True)  # fmt: skip
        as_text(deal["cards"], f"{where}.cards", TEXT)
        section.deals[number] = deal

    for index, raw_table in enumerate(as_list(block["tables"], f"{path}.tables")):
        where = f"{path}.tables[{index}]"
        table = as_object(raw_table, where, ("number", "code"))
        number = as_int(table["number"], f"{where}.number", 1, SMALL)
        if number in section.tables:
            raise refuse(_("%(value)s appears twice") % {"value": number}, f"{where}.number")
        if not as_text(table["code"], f"{where}.code", 32).strip():
            raise refuse(_("a table code is expected"), f"{where}.code")
        section.tables[number] = table

    for index, raw_result in enumerate(as_list(block["results"], f"{path}.results")):
        where = f"{path}.results[{index}]"
        result = _check_result(raw_result, where, section)
        key = (result["deal"], result["table"])
        if key in section.results:
            raise refuse(_("a second result for this deal and table"), where)
        section.results[key] = result

    for index, raw_change in enumerate(as_list(block["history"], f"{path}.history")):
        where = f"{path}.history[{index}]"
        change = as_object(raw_change, where, ("deal", "table", "action", "by", "at", "reason",
                                             "before", "after"))  # fmt: skip
        key = (as_int(change["deal"], f"{where}.deal", 1, SMALL),
               as_int(change["table"], f"{where}.table", 1, SMALL))  # fmt: skip
        if key not in section.results:
            raise refuse(_("no result for this deal and table"), where)
        as_choice(change["action"], f"{where}.action", ResultChange.Action.values)
        as_text(change["by"], f"{where}.by", 120)
        change["at"] = as_moment(change["at"], f"{where}.at")
        as_text(change["reason"], f"{where}.reason", TEXT)
        _check_picture(change["before"], f"{where}.before", section.entrants)
        _check_picture(change["after"], f"{where}.after", section.entrants)
        section.history.append(change)

    for index, raw_penalty in enumerate(as_list(block["penalties"], f"{path}.penalties")):
        where = f"{path}.penalties[{index}]"
        penalty = as_object(raw_penalty, where, ("slot", "team", "points", "reason", "by",
                                               "created_at"))  # fmt: skip
        slot = as_int(penalty["slot"], f"{where}.slot", 1, POSITIVE, null=True)
        team_number = as_int(penalty["team"], f"{where}.team", 1, SMALL, null=True)
        if (slot is None) == (team_number is None):
            raise refuse(_("a penalty names an entrant or a team"), where)
        if slot is not None and slot not in section.entrants:
            raise refuse(_("no entrant holds this slot"), f"{where}.slot")
        if team_number is not None and team_number not in section.teams:
            raise refuse(_("no team has this number"), f"{where}.team")
        points = as_decimal(penalty["points"], f"{where}.points", 5)
        if points is None or points <= 0:
            raise refuse(_("a positive number is expected"), f"{where}.points")
        penalty["points"] = points
        as_text(penalty["reason"], f"{where}.reason", TEXT)
        as_text(penalty["by"], f"{where}.by", 150, null=True)
        penalty["created_at"] = as_moment(penalty["created_at"], f"{where}.created_at")
        section.penalties.append(penalty)
    return section


def _check_movement(value: Any, path: str, event_format: str) -> Schedule:
    if value is None:
        return Schedule()
    if not isinstance(value, dict):
        raise refuse(_("an object or null is expected"), path)
    try:
        report = movements.validate(value)
        schedule = Schedule.from_document(value) if report.ok else None
    except (ValueError, KeyError, TypeError, AttributeError, IndexError):
        schedule = None
    if schedule is None:
        raise refuse(_("the movement is not valid"), path)
    if schedule.format != event_format:
        raise refuse(_("the movement is for another format"), path)
    return schedule


# ------------------------------------------------------------------------- standings


@dataclass
class _Checked:
    """A whole archive, checked: the event, its sections by name, the standings."""

    event: _Section
    simultaneous: bool
    sections: dict[str, _Section]
    standings: dict[str, Any] | None

    def member(self, name: Any, path: str) -> _Section:
        """The section named ``name`` (None: the event itself)."""
        if name is None:
            return self.event
        if isinstance(name, str) and name in self.sections:
            return self.sections[name]
        raise refuse(_("no section has this name"), path)


def _check_ref(value: Any, path: str, checked: _Checked, number_key: str) -> tuple[_Section, int]:
    ref = as_object(value, path, ("section", number_key))
    member = checked.member(ref["section"], f"{path}.section")
    number = as_int(ref[number_key], f"{path}.{number_key}", 1, POSITIVE)
    rows = member.entrants if number_key == "slot" else member.teams
    if number not in rows:
        raise refuse(_("this reference does not resolve"), path)
    return member, number


def _check_standings(raw: Any, path: str, checked: _Checked) -> dict[str, Any] | None:
    if raw is None:
        return None
    standings = as_object(raw, path, STANDINGS_KEYS)
    as_int(standings["results_version"], f"{path}.results_version", 0, POSITIVE)
    standings["computed_at"] = as_moment(standings["computed_at"], f"{path}.computed_at")
    as_bool(standings["complete"], f"{path}.complete")
    as_int(standings["results_expected"], f"{path}.results_expected", 0, POSITIVE)
    as_int(standings["results_entered"], f"{path}.results_entered", 0, POSITIVE)
    data = standings["data"]
    if not isinstance(data, dict):
        raise refuse(_("an object is expected"), f"{path}.data")
    for key in MATCH_KEYS:
        for index, sheet in enumerate(as_list(data.get(key, []), f"{path}.data.{key}")):
            where = f"{path}.data.{key}[{index}]"
            if not isinstance(sheet, dict):
                raise refuse(_("an object is expected"), where)
            for side in ("team_a", "team_b"):
                if side in sheet:
                    _check_ref(sheet[side], f"{where}.{side}", checked, "number")
    for index, item in enumerate(as_list(data.get("sections", []), f"{path}.data.sections")):
        where = f"{path}.data.sections[{index}]"
        if not isinstance(item, dict) or "event" not in item:
            raise refuse(_("an object is expected"), where)
        checked.member(item["event"], f"{where}.event")

    for index, raw_row in enumerate(as_list(standings["rankings"], f"{path}.rankings")):
        where = f"{path}.rankings[{index}]"
        keys = (*RANKING_KEYS, "published") if isinstance(raw_row, dict) and (
            "published" in raw_row) else RANKING_KEYS  # fmt: skip
        row = as_object(raw_row, where, keys)
        checked.member(row["section"], f"{where}.section")
        as_choice(row["kind"], f"{where}.kind", RankingEntry.Kind.values)
        as_choice(row["line"], f"{where}.line", SEAT_CHOICES, blank=True)
        as_int(row["rank"], f"{where}.rank", 1, POSITIVE)
        if (row["entrant"] is None) == (row["team"] is None):
            raise refuse(_("a ranking row names an entrant or a team"), where)
        if row["entrant"] is not None:
            _check_ref(row["entrant"], f"{where}.entrant", checked, "slot")
        else:
            _check_ref(row["team"], f"{where}.team", checked, "number")
        row["percentage"] = as_decimal(row["percentage"], f"{where}.percentage", 6, null=True)
        row["penalty"] = as_decimal(row["penalty"], f"{where}.penalty", 6)
        as_int(row["marks_total"], f"{where}.marks_total", -POSITIVE - 1, POSITIVE)
        as_int(row["deals_played"], f"{where}.deals_played", 0, POSITIVE)
        as_int(row["points_de_match"], f"{where}.points_de_match", -POSITIVE - 1, POSITIVE,
             null=True)  # fmt: skip
        row["victory_points"] = as_decimal(row["victory_points"], f"{where}.victory_points", 6,
                                         null=True)  # fmt: skip
        row["published"] = as_bool(row.get("published", True), f"{where}.published")

    hands = as_object(standings["hands"], f"{path}.hands", ("columns", "rows"))
    if hands["columns"] != list(HAND_COLUMNS):
        raise refuse(_("the columns are not those of this archive version"), f"{path}.hands")
    for index, row in enumerate(as_list(hands["rows"], f"{path}.hands.rows")):
        where = f"{path}.hands.rows[{index}]"
        if not isinstance(row, list) or len(row) != len(HAND_COLUMNS):
            raise refuse(_("a row of %(count)s values is expected") % {"count": len(HAND_COLUMNS)},
                          where)  # fmt: skip
        section_name, deal, table, seat, slot, rnd, mark, num, den, top, pct, art = row
        member = checked.member(section_name, f"{where}[0]")
        place = (as_int(deal, f"{where}[1]", 1, SMALL), as_int(table, f"{where}[2]", 1, SMALL))
        if place not in member.results:
            raise refuse(_("no result for this deal and table"), where)
        as_choice(seat, f"{where}[3]", SEAT_CHOICES)
        if as_int(slot, f"{where}[4]", 1, POSITIVE) not in member.entrants:
            raise refuse(_("no entrant holds this slot"), f"{where}[4]")
        as_int(rnd, f"{where}[5]", 0, SMALL)
        as_int(mark, f"{where}[6]", -POSITIVE - 1, POSITIVE, null=True)
        as_int(num, f"{where}[7]", -BIG - 1, BIG)
        as_int(den, f"{where}[8]", 1, POSITIVE)
        as_int(top, f"{where}[9]", 0, POSITIVE, null=True)
        row[10] = as_decimal(pct, f"{where}[10]", 5)
        as_bool(art, f"{where}[11]")
    return standings


def check_archive(document: Any, at: str = "") -> _Checked:
    """Check a parsed archive entirely (schema, version, values, references); nothing is
    written. Raises :class:`ArchiveError` naming the first fault and where it is (``at``: the
    place of an archive embedded in another one, such as a series' events)."""

    def place(key: str) -> str:
        return f"{at}.{key}" if at else key

    top = check_envelope(
        document,
        schema=SCHEMA,
        version=VERSION,
        keys=("event", "standings"),
        not_this_kind=_("This file is not a duplitarot event archive."),
        path=at,
    )
    raw_event = top["event"]
    event = _check_event(raw_event, place("event"), (*EVENT_KEYS, "simultaneous", "sections"))
    simultaneous = as_bool(raw_event["simultaneous"], place("event.simultaneous"))
    raw_sections = as_list(raw_event["sections"], place("event.sections"))
    if not simultaneous and raw_sections:
        raise refuse(_("only a simultaneous has sections"), place("event.sections"))
    if simultaneous:
        for key in ("movement", "tables", "entrants", "results", "teams", "penalties"):
            if raw_event[key]:
                raise refuse(_("a simultaneous has none of its own"), place(f"event.{key}"))
    sections: dict[str, _Section] = {}
    for index, raw_section in enumerate(raw_sections):
        where = place(f"event.sections[{index}]")
        section = _check_event(raw_section, where, EVENT_KEYS)
        name = section.values["name"]
        if name in sections:
            raise refuse(_("%(value)s appears twice") % {"value": json.dumps(name)},
                         f"{where}.name")  # fmt: skip
        if section.values["format"] != event.values["format"]:
            raise refuse(_("a section plays the simultaneous's format"), f"{where}.format")
        if section.deals != event.deals:
            raise refuse(_("a section plays copies of the simultaneous's deals"),
                         f"{where}.deals")  # fmt: skip
        sections[name] = section
    checked = _Checked(event, simultaneous, sections, None)
    checked.standings = _check_standings(top["standings"], place("standings"), checked)
    return checked


# ============================================================================== restore


@dataclass
class RestoreReport:
    """What a restore did. ``verified``: the standings recomputed from the restored results
    equal the archived ones (``None``: the archive holds no standings); ``differences`` names
    what differs when they do not."""

    event: Event
    sections: int = 0
    results: int = 0
    tables: int = 0
    players_matched: int = 0
    players_created: int = 0
    table_codes_kept: bool = False
    verified: bool | None = None
    differences: list[str] | None = None
    #: The restored event (key None) and its sections by name.
    members: dict[str | None, Event] = field(default_factory=dict)


@dataclass
class _Restored:
    """Database ids of the restored rows, by natural reference."""

    events: dict[str | None, Event]
    entrants: dict[tuple[str | None, int], int]
    teams: dict[tuple[str | None, int], int]
    deals: dict[tuple[str | None, int], int]
    results: dict[tuple[str | None, int, int], int]


def _players(checked: _Checked, matcher: PlayerMatcher) -> dict[int, Player]:
    """Players of every entrant (by ``id()`` of its archived player), matched or created by
    ``matcher`` (``archives.players``)."""
    members = [checked.event, *checked.sections.values()]
    wanted = [
        entrant["player"]
        for member in members
        for entrant in member.entrants.values()
        if entrant["player"] is not None
    ]
    matcher.begin(wanted)
    return {id(data): matcher.resolve(data) for data in wanted}


def _event_row(values: Mapping[str, Any], club: Club, parent: Event | None) -> Event:
    return Event.objects.create(
        club=club,
        name=values["name"],
        date=values["date"],
        format=values["format"],
        status=values["status"],
        public=values["public"],
        deals_per_round=values["deals_per_round"],
        seed=values["seed"],
        movement=values["movement"],
        opponent_confirmation=values["opponent_confirmation"],
        ranking=values["ranking"],
        pm_scale=values["pm_scale"],
        results_version=values["results_version"],
        simultaneous=parent,
    )


def _seat_columns(
    name: str | None, seats: Mapping[str, Any], restored: _Restored
) -> dict[str, int | None]:
    return {
        f"seat_{seat.lower()}_id": None if slot is None else restored.entrants[(name, slot)]
        for seat, slot in seats.items()
    }


def _picture_ids(value: Any, name: str | None, restored: _Restored) -> Any:
    if not isinstance(value, dict) or not isinstance(value.get("seats"), dict):
        return value
    seats = {
        seat: None if slot is None else restored.entrants[(name, slot)]
        for seat, slot in value["seats"].items()
    }
    return {**value, "seats": seats}


def _store_member(
    section: _Section,
    name: str | None,
    event: Event,
    restored: _Restored,
    players: Mapping[int, Player],
    keep_codes: bool,
) -> None:
    """The rows of one event block (its event row is ``event``)."""
    teams = Team.objects.bulk_create(
        Team(event=event, number=number, name=team["name"])
        for number, team in sorted(section.teams.items())
    )
    for team in teams:
        restored.teams[(name, team.number)] = team.pk
    entrants = Entrant.objects.bulk_create(
        Entrant(
            event=event,
            slot=slot,
            phantom=entrant["phantom"],
            line=entrant["line"],
            team_id=None if entrant["team"] is None else restored.teams[(name, entrant["team"])],
            player=None if entrant["player"] is None else players[id(entrant["player"])],
        )
        for slot, entrant in sorted(section.entrants.items())
    )
    for entrant in entrants:
        restored.entrants[(name, entrant.slot)] = entrant.pk
    deals = Deal.objects.bulk_create(
        Deal(event=event, **{key: deal[key] for key in DEAL_KEYS})
        for _number, deal in sorted(section.deals.items())
    )
    for deal in deals:
        restored.deals[(name, deal.number)] = deal.pk
    tables = Table.objects.bulk_create(
        Table(event=event, number=number, code=table["code"] if keep_codes else new_phone_code())
        for number, table in sorted(section.tables.items())
    )
    table_ids = {table.number: table.pk for table in tables}
    # Who last wrote each result: the name on the latest line that wrote its outcome (an
    # archive names no account).
    writer = {
        (change["deal"], change["table"]): change["by"]
        for change in section.history
        if change["action"] != ResultChange.Action.CONFIRM
    }
    rows: list[TableResult] = []
    for (deal_number, table_number), result in sorted(section.results.items()):
        row = TableResult(
            event=event,
            entered_by_label=writer.get((deal_number, table_number), ""),
            deal_id=restored.deals[(name, deal_number)],
            table_id=table_ids[table_number],
            round_number=result["round"],
            **_seat_columns(name, result["seats"], restored),
            **{key: result[key] for key in (
                "kind", "taker_seat", "contract", "oudlers", "points_half", "petit_au_bout",
                "poignees", "chelem_announced", "chelem_made_by", "won", "margin", "value",
                "director_assigned", "confirmed", "entered_via", "version")},
            **{f"mark_{seat.lower()}": mark for seat, mark in result["marks"].items()},
            **{f"artificial_{seat.lower()}": v for seat, v in result["artificial"].items()},
        )  # fmt: skip
        row.created_at, row.updated_at = result["created_at"], result["updated_at"]
        rows.append(row)
    rows = TableResult.objects.bulk_create(rows, batch_size=1000)
    # auto_now(_add) stamped the rows now: give them back their archived times.
    for row, result in zip(rows, (r for _k, r in sorted(section.results.items())), strict=True):
        row.created_at, row.updated_at = result["created_at"], result["updated_at"]
    TableResult.objects.bulk_update(rows, ["created_at", "updated_at"], batch_size=1000)
    deal_of = {pk: number for (n, number), pk in restored.deals.items() if n == name}
    table_of = {pk: number for number, pk in table_ids.items()}
    for row in rows:
        restored.results[(name, deal_of[row.deal_id], table_of[row.table_id])] = row.pk

    changes = ResultChange.objects.bulk_create(
        (
            ResultChange(
                event=event,
                result_id=restored.results[(name, change["deal"], change["table"])],
                action=change["action"],
                actor_label=change["by"],
                reason=change["reason"],
                before=_picture_ids(change["before"], name, restored),
                after=_picture_ids(change["after"], name, restored),
            )
            for change in section.history
        ),
        batch_size=1000,
    )
    for change_row, change in zip(changes, section.history, strict=True):
        change_row.at = change["at"]
    ResultChange.objects.bulk_update(changes, ["at"], batch_size=1000)
    penalties = Penalty.objects.bulk_create(
        Penalty(
            event=event,
            entrant_id=None if p["slot"] is None else restored.entrants[(name, p["slot"])],
            team_id=None if p["team"] is None else restored.teams[(name, p["team"])],
            points=p["points"],
            reason=p["reason"],
        )
        for p in section.penalties
    )
    for penalty_row, penalty in zip(penalties, section.penalties, strict=True):
        penalty_row.created_at = penalty["created_at"]
    Penalty.objects.bulk_update(penalties, ["created_at"])


def _data_ids(data: dict[str, Any], restored: _Restored) -> dict[str, Any]:
    """The snapshot's ``data`` with its natural references as ids again."""
    out = dict(data)

    def team_key_of(ref: Any) -> Any:
        if isinstance(ref, dict):
            return team_key(restored.teams[(ref["section"], ref["number"])])
        return ref

    for key in MATCH_KEYS:
        if key in out:
            out[key] = [
                {**sheet, **{side: team_key_of(sheet[side]) for side in ("team_a", "team_b")
                             if side in sheet}}
                for sheet in out[key]
            ]  # fmt: skip
    if "sections" in out:
        out["sections"] = [
            {**item, "event": restored.events[item["event"]].pk} for item in out["sections"]
        ]
    return out


def _store_standings(standings: dict[str, Any], restored: _Restored) -> None:
    event = restored.events[None]
    snapshot = StandingsSnapshot.objects.create(
        event=event,
        results_version=standings["results_version"],
        complete=standings["complete"],
        results_expected=standings["results_expected"],
        results_entered=standings["results_entered"],
        data=_data_ids(standings["data"], restored),
    )
    StandingsSnapshot.objects.filter(pk=snapshot.pk).update(computed_at=standings["computed_at"])
    RankingEntry.objects.bulk_create(
        (
            RankingEntry(
                event=restored.events[row["section"]],
                kind=row["kind"],
                line=row["line"],
                rank=row["rank"],
                entrant_id=None
                if row["entrant"] is None
                else restored.entrants[(row["entrant"]["section"], row["entrant"]["slot"])],
                team_id=None
                if row["team"] is None
                else restored.teams[(row["team"]["section"], row["team"]["number"])],
                percentage=row["percentage"],
                penalty=row["penalty"],
                marks_total=row["marks_total"],
                deals_played=row["deals_played"],
                points_de_match=row["points_de_match"],
                victory_points=row["victory_points"],
                **({"published": row["published"]} if HAS_PUBLISHED else {}),
            )
            for row in standings["rankings"]
        ),
        batch_size=2000,
    )
    HandScore.objects.bulk_create(
        (
            HandScore(
                event=restored.events[name],
                result_id=restored.results[(name, deal, table)],
                deal_id=restored.deals[(name, deal)],
                entrant_id=restored.entrants[(name, slot)],
                table_number=table,
                round_number=rnd,
                seat=seat,
                mark=mark,
                mp_num=num,
                mp_den=den,
                top=top,
                percentage=pct,
                artificial=art,
            )
            for name, deal, table, seat, slot, rnd, mark, num, den, top, pct, art in standings[
                "hands"
            ]["rows"]
        ),
        batch_size=2000,
    )


def _comparable(block: Mapping[str, Any] | None) -> Any:
    if block is None:
        return None
    return {key: value for key, value in block.items() if key != "computed_at"}


def _differences(archived: Any, recomputed: Any) -> list[str]:
    if archived is None or recomputed is None:
        return [] if archived == recomputed else ["standings"]
    out = []
    for key in sorted(set(archived) | set(recomputed)):
        if key == "data":
            out += [
                f"data.{sub}"
                for sub in sorted(set(archived[key]) | set(recomputed[key]))
                if archived[key].get(sub) != recomputed[key].get(sub)
            ]
        elif archived.get(key) != recomputed.get(key):
            out.append(key)
    return out


def _verify(restored: _Restored) -> tuple[bool, list[str]]:
    """Recompute the restored event's standings and compare them with the archived ones that
    were just stored; the archived snapshot is kept either way (savepoint rolled back)."""
    event = restored.events[None]
    members = [e for name, e in restored.events.items() if name is not None] or [event]
    refs = _restored_refs(restored)
    archived = _comparable(_standings_block(event, members, refs))
    sid = transaction.savepoint()
    try:
        scoring_services.standings_recompute(event_id=event.pk, force=True, full=True)
        recomputed = _comparable(_standings_block(event, members, refs))
    finally:
        transaction.savepoint_rollback(sid)
        scoring_services.forget_published_hands()
    differences = _differences(archived, recomputed)
    return not differences, differences


def _restored_refs(restored: _Restored) -> _Refs:
    return _Refs(
        section_of_event={event.pk: name for name, event in restored.events.items()},
        slot_of_entrant={pk: slot for (_name, slot), pk in restored.entrants.items()},
        team_number={pk: number for (_name, number), pk in restored.teams.items()},
    )


def restore_checked(
    checked: _Checked,
    *,
    club: Club,
    keep_table_codes: bool = False,
    matcher: PlayerMatcher | None = None,
) -> RestoreReport:
    """Store a checked archive into ``club`` and verify its standings. Call it inside a
    transaction (``archives.kinds.restore_document`` does; a series restores its events in its
    own)."""
    members: list[tuple[str | None, _Section]] = [(None, checked.event)]
    members += list(checked.sections.items())
    if keep_table_codes:
        codes = [t["code"] for _n, m in members for t in m.tables.values()]
        if len(set(codes)) != len(codes) or Table.objects.filter(code__in=codes).exists():
            raise refuse(
                _("These table codes are already used on this server: restore with new codes.")
            )
    matcher = matcher or PlayerMatcher(club)
    report = RestoreReport(event=Event(), table_codes_kept=keep_table_codes)
    before = (matcher.matched, matcher.created)
    players = _players(checked, matcher)
    report.players_matched = matcher.matched - before[0]
    report.players_created = matcher.created - before[1]
    restored = _Restored({}, {}, {}, {}, {})
    parent = _event_row(checked.event.values, club, None)
    restored.events[None] = parent
    for section_name, section in checked.sections.items():
        restored.events[section_name] = _event_row(section.values, club, parent)
    for name, member in members:
        _store_member(member, name, restored.events[name], restored, players, keep_table_codes)
    if checked.standings is not None:
        _store_standings(checked.standings, restored)
        report.verified, report.differences = _verify(restored)
    report.event = parent
    report.members = dict(restored.events)
    report.sections = len(checked.sections)
    report.results = len(restored.results)
    report.tables = sum(len(m.tables) for _n, m in members)
    return report
