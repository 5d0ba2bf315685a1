"""The tournament file of ``manage.py score_event``: parse and check it, print the standings.

Pure (no Django): the command reads the file and prints; everything in between is here.

Vocabulary (the format is documented in ``docs/score-event-format.md``):

- an **event file** is one JSON object (``title``, ``entrants``, ``deals``, ``results``,
  ``penalties``, ``teams``, ``matches``, ``options``); :class:`EventFile` reads the decoded
  object into the comparison core's input (:meth:`EventFile.tournament`) plus what is only
  printed (title, names, the étuis' taker seats, scheduled counts);
- each real result's ``outcome`` is scored by the rules engine (``rules.scoring``) into seat
  marks, the étui's ``taker_seat`` taking, after the duplicate restrictions
  (``rules.duplicate``: 4 players, at least Garde); artificial percentages and penalty points
  are read by the rules' one parser of such numbers (``rules.numbers``).

Invariant: a bad file raises :class:`EventFileError` with one line naming the offending entry
(``results[7] (deal 3, table 2): points: 95 is outside 0..91``); inconsistencies only the core
detects raise its :class:`~scoring.core.ScoringInputError` (also one line).

:func:`render_text` and :func:`render_json` print the standings the core computed from
:meth:`EventFile.tournament`.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import Any, NoReturn

from rules.duplicate import DUPLICATE_PLAYERS, check_duplicate_play
from rules.errors import RuleError
from rules.names import text_sort_key
from rules.numbers import as_decimal, hundredths, percentage_hundredths
from rules.scoring import outcome_from_dict, score_deal, seat_marks
from scoring.core.model import (
    SEATS,
    Match,
    Penalty,
    ScoringInputError,
    ScoringOptions,
    SeatResult,
    Team,
    TournamentInput,
)
from scoring.core.results import HandScore, Standings

TOP_LEVEL_KEYS = {
    "title",
    "entrants",
    "deals",
    "results",
    "penalties",
    "teams",
    "matches",
    "options",
}
RESULT_KEYS = {"deal", "table", "seats", "outcome", "artificial", "director"}
# This command's wording of the duplicate restrictions (rules.duplicate enforces them).
DUPLICATE_WORDING = {
    "players_not_four": "duplicate events are played at 4 players",
    "prise_not_allowed": "a Prise is not allowed in duplicate (Garde at least)",
}


class EventFileError(Exception):
    """One line naming the offending entry of the event file."""


def _fail(message: str) -> NoReturn:
    raise EventFileError(message)


def _object(value: object, where: str) -> Mapping[str, Any]:
    if not isinstance(value, dict):
        _fail(f"{where}: expected an object")
    return value


def _list(data: Mapping[str, Any], key: str, *, required: bool = False) -> list[Any]:
    if key not in data:
        if required:
            _fail(f"{key}: this field is required")
        return []
    value = data[key]
    if not isinstance(value, list):
        _fail(f"{key}: expected a list")
    return list(value)


def _unknown_keys(data: Mapping[str, Any], allowed: set[str], where: str) -> None:
    unknown = sorted(set(data) - allowed)
    if unknown:
        _fail(f"{where}: unknown key {unknown[0]!r}")


def _positive_int(value: object, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        _fail(f"{where}: {json.dumps(value)} is not a positive whole number")
    return value


def _identifier(value: object, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int) or str(value).strip() == "":
        _fail(f"{where}: {json.dumps(value)} is not an id (a non-empty string)")
    return str(value)


def _points(value: object, where: str, *, percentage: bool = False) -> Decimal:
    """Percentage points exact to the hundredth, read by the rules' one parser
    (:mod:`rules.numbers`); ``percentage`` also requires 0..100 (an artificial score)."""
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        _fail(f"{where}: {json.dumps(value)} is not a number")
    parse = percentage_hundredths if percentage else hundredths
    try:
        return as_decimal(parse(value))
    except RuleError as error:
        if error.code in ("invalid_type", "missing_field"):
            _fail(f"{where}: {json.dumps(value)} is not a number")
        _fail(f"{where}: {error.message}")


class EventFile:
    """The parsed and checked event file: the core's input plus what is only printed."""

    def __init__(self, data: object) -> None:
        root = _object(data, "file")
        _unknown_keys(root, TOP_LEVEL_KEYS, "file")
        title = root.get("title", "")
        self.title = title if isinstance(title, str) else ""
        self.names: dict[str, str] = {}
        self.lines: dict[str, str] = {}
        self.known_entrants: set[str] | None = None
        self._read_entrants(root)
        self.taker_seat: dict[int, str] = {}
        self.scheduled: dict[int, int] = {}
        self._read_deals(root)
        self.records: list[SeatResult] = []
        self._read_results(root)
        self.teams: list[Team] = []
        self._read_teams(root)
        self.matches: list[Match] = []
        self._read_matches(root)
        self.penalties: list[Penalty] = []
        self._read_penalties(root)
        self.options = self._read_options(root)

    def tournament(self) -> TournamentInput:
        return TournamentInput.from_results(
            self.records,
            scheduled=self.scheduled,
            penalties=self.penalties,
            teams=self.teams,
            matches=self.matches,
            lines=self.lines,
            options=self.options,
            names={ident: text_sort_key(name) for ident, name in self.names.items()},
        )

    def _read_entrants(self, root: Mapping[str, Any]) -> None:
        if "entrants" not in root:
            return
        self.known_entrants = set()
        for index, raw in enumerate(_list(root, "entrants")):
            where = f"entrants[{index}]"
            entrant = _object(raw, where)
            _unknown_keys(entrant, {"id", "name", "line"}, where)
            if "id" not in entrant:
                _fail(f"{where}: id is required")
            ident = _identifier(entrant["id"], f"{where}: id")
            if ident in self.known_entrants:
                _fail(f"{where}: id {ident} is listed twice")
            self.known_entrants.add(ident)
            name = entrant.get("name", "")
            if not isinstance(name, str):
                _fail(f"{where}: name must be a string")
            self.names[ident] = name
            if entrant.get("line") is not None:
                line = entrant["line"]
                if not isinstance(line, str) or not line:
                    _fail(f"{where}: line must be a non-empty string")
                self.lines[ident] = line

    def _read_deals(self, root: Mapping[str, Any]) -> None:
        deals = _list(root, "deals", required=True)
        if not deals:
            _fail("deals: give at least one deal")
        for index, raw in enumerate(deals):
            where = f"deals[{index}]"
            deal = _object(raw, where)
            _unknown_keys(deal, {"number", "taker_seat", "scheduled"}, where)
            for key in ("number", "taker_seat"):
                if key not in deal:
                    _fail(f"{where}: {key} is required")
            number = _positive_int(deal["number"], f"{where}: number")
            if number in self.taker_seat:
                _fail(f"{where}: deal {number} is listed twice")
            if deal["taker_seat"] not in SEATS:
                _fail(f"{where}: taker_seat must be one of N, E, S, W")
            self.taker_seat[number] = deal["taker_seat"]
            if deal.get("scheduled") is not None:
                self.scheduled[number] = _positive_int(deal["scheduled"], f"{where}: scheduled")

    def _read_results(self, root: Mapping[str, Any]) -> None:
        results = _list(root, "results", required=True)
        table_of: dict[tuple[int, int], int] = {}
        seat_of: dict[tuple[int, str], tuple[int, int]] = {}
        for index, raw in enumerate(results):
            result = _object(raw, f"results[{index}]")
            deal_raw, table_raw = result.get("deal"), result.get("table")
            where = f"results[{index}] (deal {deal_raw}, table {table_raw})"
            _unknown_keys(result, RESULT_KEYS, where)
            deal = _positive_int(deal_raw, f"{where}: deal")
            table = _positive_int(table_raw, f"{where}: table")
            if deal not in self.taker_seat:
                _fail(f"{where}: deal {deal} is not listed in deals")
            if (deal, table) in table_of:
                _fail(
                    f"{where}: deal {deal} at table {table} is already in "
                    f"results[{table_of[(deal, table)]}]"
                )
            table_of[(deal, table)] = index
            seats = self._read_seats(result, where)
            for entrant in seats.values():
                if (deal, entrant) in seat_of:
                    other_table, other_index = seat_of[(deal, entrant)]
                    _fail(
                        f"{where}: {entrant} already plays deal {deal} at table {other_table} "
                        f"(results[{other_index}])"
                    )
                seat_of[(deal, entrant)] = (table, index)
            director = result.get("director", False)
            if not isinstance(director, bool):
                _fail(f"{where}: director must be true or false")
            has_outcome, has_artificial = "outcome" in result, "artificial" in result
            if has_outcome == has_artificial:
                _fail(f"{where}: give either an outcome or artificial percentages")
            if has_outcome:
                marks = self._score_outcome(result["outcome"], self.taker_seat[deal], where)
                self.records += [
                    SeatResult(deal, table, seat, seats[seat], mark=marks[seat], director=director)
                    for seat in SEATS
                ]
            else:
                given = _object(result["artificial"], f"{where}: artificial")
                if set(given) != set(SEATS):
                    _fail(f"{where}: artificial needs exactly the seats N, E, S, W")
                for seat in SEATS:
                    pct = _points(given[seat], f"{where}: artificial.{seat}", percentage=True)
                    self.records.append(
                        SeatResult(
                            deal, table, seat, seats[seat], artificial=pct, director=director
                        )
                    )
        for deal, count in self.scheduled.items():
            played = sum(1 for (d, _t) in table_of if d == deal)
            if played > count:
                _fail(f"deal {deal}: scheduled {count} times but {played} results are given")

    def _read_seats(self, result: Mapping[str, Any], where: str) -> dict[str, str]:
        if "seats" not in result:
            _fail(f"{where}: seats is required")
        raw = _object(result["seats"], f"{where}: seats")
        if set(raw) != set(SEATS):
            _fail(f"{where}: seats needs exactly N, E, S, W")
        seats = {seat: _identifier(raw[seat], f"{where}: seats.{seat}") for seat in SEATS}
        if len(set(seats.values())) != 4:
            _fail(f"{where}: an entrant holds two seats")
        if self.known_entrants is not None:
            for seat, entrant in seats.items():
                if entrant not in self.known_entrants:
                    _fail(f"{where}: seats.{seat}: {entrant} is not listed in entrants")
        return seats

    @staticmethod
    def _score_outcome(raw: object, taker_seat: str, where: str) -> dict[str, int]:
        outcome_data = dict(_object(raw, f"{where}: outcome"))
        outcome_data.setdefault("players", DUPLICATE_PLAYERS)
        try:
            outcome = outcome_from_dict(outcome_data)
            check_duplicate_play(contract=outcome.contract, players=outcome.players)
            score = score_deal(outcome)
            return seat_marks(score, seats=SEATS, taker_seat=taker_seat)
        except RuleError as error:
            field = f"{error.field}: " if error.field else ""
            _fail(f"{where}: {field}{DUPLICATE_WORDING.get(error.code, error.message)}")

    def _read_teams(self, root: Mapping[str, Any]) -> None:
        seated = {record.entrant for record in self.records}
        for index, raw in enumerate(_list(root, "teams")):
            where = f"teams[{index}]"
            team = _object(raw, where)
            _unknown_keys(team, {"id", "name", "members"}, where)
            if "id" not in team or "members" not in team:
                _fail(f"{where}: id and members are required")
            ident = _identifier(team["id"], f"{where}: id")
            members_raw = team["members"]
            if not isinstance(members_raw, list) or not members_raw:
                _fail(f"{where}: members must be a non-empty list")
            members = tuple(_identifier(m, f"{where}: members") for m in members_raw)
            for member in members:
                known = self.known_entrants if self.known_entrants is not None else seated
                if member not in known:
                    _fail(f"{where}: member {member} is not an entrant")
            name = team.get("name", "")
            if not isinstance(name, str):
                _fail(f"{where}: name must be a string")
            try:
                self.teams.append(Team(ident, members, name=name))
            except ScoringInputError as error:
                _fail(f"{where}: {error}")

    def _read_matches(self, root: Mapping[str, Any]) -> None:
        team_ids = {team.id for team in self.teams}
        for index, raw in enumerate(_list(root, "matches")):
            where = f"matches[{index}]"
            match = _object(raw, where)
            _unknown_keys(match, {"id", "teams", "tables"}, where)
            ident = _identifier(match.get("id", f"M{index + 1}"), f"{where}: id")
            teams, tables = match.get("teams"), match.get("tables")
            if not isinstance(teams, list) or len(teams) != 2:
                _fail(f"{where}: teams must list the two team ids")
            for team in teams:
                if str(team) not in team_ids:
                    _fail(f"{where}: team {team} is not listed in teams")
            if not isinstance(tables, list) or len(tables) != 2:
                _fail(f"{where}: tables must list the two tables of the match")
            numbers = (
                _positive_int(tables[0], f"{where}: tables"),
                _positive_int(tables[1], f"{where}: tables"),
            )
            try:
                self.matches.append(Match(ident, str(teams[0]), str(teams[1]), numbers))
            except ScoringInputError as error:
                _fail(f"{where}: {error}")

    def _read_penalties(self, root: Mapping[str, Any]) -> None:
        seated = {record.entrant for record in self.records}
        team_ids = {team.id for team in self.teams}
        for index, raw in enumerate(_list(root, "penalties")):
            where = f"penalties[{index}]"
            penalty = _object(raw, where)
            _unknown_keys(penalty, {"entrant", "points", "reason"}, where)
            if "entrant" not in penalty or "points" not in penalty:
                _fail(f"{where}: entrant and points are required")
            entrant = _identifier(penalty["entrant"], f"{where}: entrant")
            if entrant not in seated and entrant not in team_ids:
                _fail(f"{where}: {entrant} is neither a player with results nor a team")
            points = _points(penalty["points"], f"{where}: points")
            reason = penalty.get("reason", "")
            if not isinstance(reason, str):
                _fail(f"{where}: reason must be a string")
            self.penalties.append(Penalty(entrant, points, reason))

    @staticmethod
    def _read_options(root: Mapping[str, Any]) -> ScoringOptions:
        options = _object(root.get("options", {}), "options")
        _unknown_keys(options, {"team_ranking", "pm_scale", "rank_by_line"}, "options")
        kwargs: dict[str, Any] = {}
        if "team_ranking" in options:
            if options["team_ranking"] not in ("pm", "vp"):
                _fail('options: team_ranking must be "pm" or "vp"')
            kwargs["team_ranking"] = options["team_ranking"]
        if "pm_scale" in options:
            scale = options["pm_scale"]
            if not isinstance(scale, list) or not all(
                isinstance(t, int) and not isinstance(t, bool) for t in scale
            ):
                _fail("options: pm_scale must be a list of whole numbers")
            kwargs["pm_scale"] = tuple(scale)
        if "rank_by_line" in options:
            if not isinstance(options["rank_by_line"], bool):
                _fail("options: rank_by_line must be true or false")
            kwargs["rank_by_line"] = options["rank_by_line"]
        try:
            return ScoringOptions(**kwargs)
        except ScoringInputError as error:
            _fail(f"options: {error}")


# ----------------------------------------------------------------------------- text output


def _text_table(headers: Sequence[str], rows: Sequence[Sequence[str]], left: set[int]) -> str:
    """A plain table: columns in ``left`` are left-aligned, the others right-aligned."""
    widths = [len(header) for header in headers]
    for row in rows:
        widths = [max(width, len(cell)) for width, cell in zip(widths, row, strict=True)]

    def render(cells: Sequence[str]) -> str:
        parts = [
            cell.ljust(width) if column in left else cell.rjust(width)
            for column, (cell, width) in enumerate(zip(cells, widths, strict=True))
        ]
        return "  ".join(parts).rstrip()

    return "\n".join([render(headers), *(render(row) for row in rows)])


def _matchpoints_text(score: HandScore) -> str:
    if score.matchpoints is None:
        return "-"
    value: Fraction = score.matchpoints
    if value.denominator == 1:
        return str(value.numerator)
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return str(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def render_text(event: EventFile, standings: Standings) -> str:
    names = event.names
    out: list[str] = []
    if event.title:
        out += [event.title, "=" * len(event.title), ""]
    deals = sorted({score.deal for score in standings.hands})
    for deal in deals:
        scores = sorted(
            standings.hands.for_deal(deal), key=lambda s: (SEATS.index(s.seat), s.table)
        )
        tables = len({score.table for score in scores})
        scheduled = event.scheduled.get(deal)
        planned = f"scheduled {scheduled}, " if scheduled else ""
        out.append(
            f"Deal {deal} - taker {event.taker_seat[deal]} - {planned}"
            f"{tables} table{'s' if tables > 1 else ''}"
        )
        rows = [
            [
                score.seat,
                str(score.table),
                score.entrant,
                names.get(score.entrant, ""),
                "-" if score.mark is None else str(score.mark),
                _matchpoints_text(score),
                "-" if score.top is None else str(score.top),
                str(score.percentage),
                "artificial" if score.artificial else ("director" if score.director else ""),
            ]
            for score in scores
        ]
        out.append(
            _text_table(
                ["Seat", "Table", "Entrant", "Name", "Mark", "MP", "Top", "%", "Note"],
                rows,
                left={0, 2, 3, 8},
            )
        )
        out.append("")

    with_lines = any(row.line for row in standings.individual)
    with_line_rank = event.options.rank_by_line
    headers = ["Rank", "Entrant", "Name", "%", "Penalty", "Marks", "Deals"]
    if with_lines:
        headers.append("Line")
    if with_line_rank:
        headers.append("Line rank")
    rows = []
    for row in standings.individual:
        cells = [
            str(row.rank),
            row.entrant,
            names.get(row.entrant, ""),
            str(row.percentage),
            str(row.penalty),
            str(row.marks),
            str(row.deals),
        ]
        if with_lines:
            cells.append(row.line or "")
        if with_line_rank:
            cells.append("" if row.line_rank is None else str(row.line_rank))
        rows.append(cells)
    out += ["Individual ranking", _text_table(headers, rows, left={1, 2, 7}), ""]

    if standings.teams:
        basis = {"percentage": "percentage", "pm": "total PM", "vp": "victory points"}
        out.append(f"Team ranking (by {basis[standings.team_basis or 'percentage']})")
        headers = ["Rank", "Team", "Name", "%", "Penalty", "Marks", "Entries"]
        with_matches = standings.team_basis in ("pm", "vp")
        if with_matches:
            headers += ["PM", "VP", "Matches"]
        rows = []
        for team in standings.teams:
            cells = [
                str(team.rank),
                team.team,
                team.name,
                str(team.percentage),
                str(team.penalty),
                str(team.marks),
                str(team.entries),
            ]
            if with_matches:
                cells += [str(team.pm), str(team.vp), str(team.matches)]
            rows.append(cells)
        out += [_text_table(headers, rows, left={1, 2}), ""]

    for sheet in standings.matches:
        out.append(
            f"Match {sheet.match}: {sheet.team_a} v {sheet.team_b} "
            f"(tables {sheet.tables[0]} and {sheet.tables[1]})"
        )
        rows = [
            [str(deal.deal), "-" if deal.net_a is None else str(deal.net_a), str(deal.pm_a)]
            for deal in sheet.deals
        ]
        out.append(
            _text_table(["Deal", f"Net {sheet.team_a}", f"PM {sheet.team_a}"], rows, left=set())
        )
        out.append(
            f"PM {sheet.team_a} {sheet.pm_a}, {sheet.team_b} {sheet.pm_b} - "
            f"VP {sheet.team_a} {sheet.vp_a}, {sheet.team_b} {sheet.vp_b}"
        )
        out.append("")
    return "\n".join(out).rstrip() + "\n"


def render_json(event: EventFile, standings: Standings) -> str:
    data = standings.to_dict()
    data["title"] = event.title
    for key in ("hands", "individual"):
        for row in data[key]:  # type: ignore[attr-defined]
            row["name"] = event.names.get(row["entrant"], "")
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"
