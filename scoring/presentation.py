"""Presentation helpers of the public pages and exports: rows, labels, frequencies, hands.

Plain objects built from what the selectors (``scoring.selectors``) fetched; no query here.

Vocabulary (docs/domain/duplicate.md): a *result row* is one table result made readable (its
four *seat cells*: player, mark, percentage); a *frequency* groups the tables that reached the
same contract and value; a *score card line* is one deal of a player's card; a *match sheet*
is a quadrette match of the snapshot with its teams; a *movement table* is one table of one
round of the movement page. Labels follow the active language.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Protocol, TypeVar

from django.utils.translation import gettext as _

from scoring.models import HandScore, RankingEntry, key_pk
from tournaments.models import (
    SEATS,
    Contract,
    Entrant,
    PoigneeSize,
    Seat,
    Side,
    TableResult,
    Team,
)
from tournaments.movements import Schedule, deal_numbers
from tournaments.presentation import DealDiagram, HandView, signed

# ---------------------------------------------------------------------------- labels


def poignees_label(poignees: Any) -> str:
    """``[{"side": "attack", "size": "simple"}]`` → ``"simple (Attack)"``."""
    parts: list[str] = []
    for poignee in poignees or []:
        value = poignee.get("size", "")
        size = str(PoigneeSize(value).label) if value in PoigneeSize.values else str(value)
        side = poignee.get("side")
        side_label = str(Side(side).label) if side in Side.values else ""
        parts.append(f"{size} ({side_label})" if side_label else size)
    return ", ".join(parts)


def chelem_label(announced: bool, made_by: str) -> str:
    if made_by:
        side = str(Side(made_by).label)
        if announced:
            return _("announced, made by the %(side)s") % {"side": side.lower()}
        return _("made by the %(side)s") % {"side": side.lower()}
    if announced:
        return _("announced, failed")
    return ""


def seat_label(seat: str) -> str:
    return str(Seat(seat).label)


def ranking_views(kinds: Iterable[str]) -> list[tuple[str, str]]:
    """The tabs of the ranking page: (kind, label) of each ranking the event has."""
    labels: dict[str, str] = {
        RankingEntry.Kind.TEAM: _("Teams"),
        RankingEntry.Kind.INDIVIDUAL: _("Individual"),
        RankingEntry.Kind.LINE: _("Per line"),
    }
    return [(kind, labels[kind]) for kind in kinds]


class _Lined(Protocol):
    line: str


L = TypeVar("L", bound=_Lined)


def ranking_lines(entries: Iterable[L]) -> list[tuple[str, list[L]]]:
    """Per-line ranking rows grouped by line: (line label, rows) in N, E, S, W order."""
    lines: dict[str, list[L]] = defaultdict(list)
    for entry in entries:
        lines[entry.line].append(entry)
    return [(seat_label(line) if line else "", rows) for line, rows in sorted(lines.items())]


@dataclass(frozen=True)
class RankedMember:
    """A team member as a team's ranking row names him: his score card and his name."""

    event_id: int
    entrant_id: int
    name: str


@dataclass(frozen=True)
class RankedRow:
    """One row of a ranking table as plain values (what the ranking's cache keeps: data, never
    markup, so that the template escapes whatever comes back from the cache).

    ``name``: the player's or, in a team ranking, the team's; ``event_id``/``entrant_id``: the
    player's score card (None for a team); ``team``: the player's team (team events);
    ``members``: a team's players but phantoms; ``section_*``: a simultaneous's section."""

    rank: int
    line: str
    name: str
    event_id: int | None
    entrant_id: int | None
    team: str
    members: tuple[RankedMember, ...]
    section_id: int | None
    section_name: str
    percentage: Decimal | None
    penalty: Decimal
    marks_total: int
    deals_played: int
    points_de_match: int | None
    victory_points: Decimal | None


def ranked_rows(entries: Iterable[RankingEntry]) -> list[RankedRow]:
    """``entries`` (``scoring.selectors.ranking_rows``) as :class:`RankedRow` values."""
    rows = []
    for entry in entries:
        members: tuple[RankedMember, ...] = ()
        entrant = entry.entrant
        if entrant is None:  # a team's row (its entrant not read: no entrant_id, no query)
            team = entry.team
            name, event_id, team_name = (team.name if team else ""), None, ""
            if team is not None:
                members = tuple(
                    RankedMember(member.event_id, member.pk, str(member))
                    for member in team.members.all()
                    if not member.phantom
                )
        else:
            name, event_id = str(entrant), entrant.event_id
            team_name = entrant.team.name if entrant.team is not None else ""
        rows.append(
            RankedRow(
                rank=entry.rank,
                line=entry.line,
                name=name,
                event_id=event_id,
                entrant_id=entry.entrant_id,
                team=team_name,
                members=members,
                section_id=getattr(entry, "section_id", None),
                section_name=getattr(entry, "section_name", None) or "",
                percentage=entry.percentage,
                penalty=entry.penalty,
                marks_total=entry.marks_total,
                deals_played=entry.deals_played,
                points_de_match=entry.points_de_match,
                victory_points=entry.victory_points,
            )
        )
    return rows


# ------------------------------------------------------------------------ result rows


@dataclass
class SeatCell:
    seat: str
    seat_label: str
    entrant: Entrant | None
    is_taker: bool
    mark: int | None
    percentage: Decimal | None = None
    artificial: Decimal | None = None

    @property
    def name(self) -> str:
        return "—" if self.entrant is None else str(self.entrant)

    @property
    def team(self) -> Team | None:
        return self.entrant.team if self.entrant is not None else None


@dataclass
class ResultRow:
    """One table result made readable: seats with players, outcome words, marks and %."""

    result: TableResult
    seats: list[SeatCell] = field(default_factory=list)

    @property
    def deal_number(self) -> int:
        return self.result.deal.number

    @property
    def table_number(self) -> int:
        return self.result.table.number

    @property
    def played(self) -> bool:
        return self.result.kind == TableResult.Kind.PLAYED

    @property
    def kind_label(self) -> str:
        return str(TableResult.Kind(self.result.kind).label)

    @property
    def contract_label(self) -> str:
        return str(Contract(self.result.contract).label) if self.result.contract else ""

    @property
    def points(self) -> Decimal | None:
        half = self.result.points_half
        return None if half is None else Decimal(half) / 2

    @property
    def petit_au_bout_label(self) -> str:
        side = self.result.petit_au_bout
        return str(Side(side).label) if side else ""

    @property
    def poignees_label(self) -> str:
        return poignees_label(self.result.poignees)

    @property
    def chelem_label(self) -> str:
        return chelem_label(self.result.chelem_announced, self.result.chelem_made_by)

    @property
    def taker(self) -> SeatCell | None:
        return next((cell for cell in self.seats if cell.is_taker), None)


def result_row(result: TableResult, hand_scores: Iterable[HandScore] = ()) -> ResultRow:
    """``result`` with each seat's percentage taken from ``hand_scores`` (the snapshot's rows
    of that result; none while its outcomes are not shown)."""
    percentage = {score.seat: score.percentage for score in hand_scores}
    taker_seat = result.taker_seat or result.deal.taker_seat
    played = result.kind == TableResult.Kind.PLAYED
    entrants = {"N": result.seat_n, "E": result.seat_e, "S": result.seat_s, "W": result.seat_w}
    marks = result.seat_marks()
    artificial = result.seat_artificial()
    return ResultRow(
        result=result,
        seats=[
            SeatCell(
                seat=seat,
                seat_label=seat_label(seat),
                entrant=entrants[seat],
                is_taker=played and seat == taker_seat,
                mark=marks[seat],
                percentage=percentage.get(seat),
                artificial=artificial[seat],  # type: ignore[arg-type]
            )
            for seat in SEATS
        ],
    )


def result_rows(results: Iterable[TableResult], *, with_scores: bool) -> list[ResultRow]:
    """Rows of results fetched with their ``hand_scores`` (``scoring.selectors``)."""
    return [
        result_row(result, result.hand_scores.all() if with_scores else ()) for result in results
    ]


@dataclass
class Frequency:
    """How many tables got one taker mark, and the taker's percentage for it."""

    contract: str
    value: int | None
    taker_mark: int | None
    count: int
    taker_percentage: Decimal | None


def frequencies(rows: Iterable[ResultRow]) -> list[Frequency]:
    groups: dict[tuple[int | None, str], list[ResultRow]] = defaultdict(list)
    for row in rows:
        if row.played:
            groups[(row.result.value, row.contract_label)].append(row)
    table: list[Frequency] = []
    for (value, contract), members in groups.items():
        taker = members[0].taker
        table.append(
            Frequency(
                contract=contract,
                value=value,
                taker_mark=taker.mark if taker else None,
                count=len(members),
                taker_percentage=taker.percentage if taker else None,
            )
        )
    table.sort(key=lambda f: (f.taker_mark is None, -(f.taker_mark or 0)))
    return table


def labelled_hands(diagram: DealDiagram) -> list[tuple[str, HandView]]:
    """The four hands of a diagram with their seat names (the chien is ``diagram.chien``)."""
    return [(seat_label(hand.seat), hand) for hand in diagram.hands]


# ------------------------------------------------------------------------- score card


@dataclass
class ScoreCardLine:
    """One deal of a score card; ``hidden`` while the deal's outcomes are not public yet."""

    score: HandScore
    row: ResultRow
    cell: SeatCell
    hidden: bool = False

    @property
    def partners(self) -> list[SeatCell]:
        """Players on the same side at that table (the other defenders, or nobody)."""
        if self.hidden or self.cell.is_taker:  # the sides would tell who took, and whether
            return []
        return [c for c in self.row.seats if c is not self.cell and not c.is_taker]

    @property
    def opponents(self) -> list[SeatCell]:
        if self.hidden:
            return []
        if self.cell.is_taker:
            return [c for c in self.row.seats if c is not self.cell]
        return [c for c in self.row.seats if c.is_taker]

    @property
    def role(self) -> str:
        if self.hidden or not self.row.played:
            return ""
        return _("taker") if self.cell.is_taker else _("defence")


def score_card_lines(
    scores: Iterable[HandScore], hidden_deals: frozenset[int] | set[int] = frozenset()
) -> list[ScoreCardLine]:
    """One line per hand score of a player; those of ``hidden_deals`` carry no outcome.

    Only the player's own percentage is shown on a personal card.
    """
    lines: list[ScoreCardLine] = []
    for score in scores:
        row = result_row(score.result, [score])
        cell = next(c for c in row.seats if c.seat == score.seat)
        lines.append(ScoreCardLine(score, row, cell, hidden=row.deal_number in hidden_deals))
    return lines


def score_card_totals(
    lines: Sequence[ScoreCardLine], ranking_entry: RankingEntry | None
) -> tuple[int | None, Decimal | None]:
    """The card's total of marks and mean percentage.

    While some line is hidden it has no mark to add up: the totals are then the ranking row's
    (the published ranking counts only the deals finished everywhere, so it reveals nothing of
    a hidden line: scoring.selectors).
    """
    if any(line.hidden for line in lines):
        if ranking_entry is None:
            return None, None
        return ranking_entry.marks_total, ranking_entry.percentage
    percentages = [line.score.percentage for line in lines]
    mean = (
        (sum(percentages, Decimal(0)) / len(percentages)).quantize(Decimal("0.01"))
        if percentages
        else None
    )
    return sum(line.score.mark or 0 for line in lines), mean


# ------------------------------------------------------------------------ match sheets


@dataclass
class MatchDeal:
    number: int
    net: int | None  # team A's net
    pm: int | None  # team A's PM

    @property
    def net_text(self) -> str:
        return signed(self.net)

    @property
    def pm_text(self) -> str:
        return signed(self.pm)

    def reversed(self) -> MatchDeal:
        """The deal seen from team B: a table's marks sum to zero, so B's net and PM are A's
        negated."""
        return MatchDeal(
            number=self.number,
            net=None if self.net is None else -self.net,
            pm=None if self.pm is None else -self.pm,
        )


@dataclass
class MatchSheet:
    round: int
    tables: list[int]
    team_a: Team | None
    team_b: Team | None
    deals: list[MatchDeal]
    pm_a: int
    pm_b: int
    vp_a: Decimal | None
    vp_b: Decimal | None

    @property
    def pm_text(self) -> str:
        """The match's points de match, team A's then team B's: ``+12 / −12``."""
        return f"{signed(self.pm_a)} / {signed(self.pm_b)}"

    def involves(self, team_pk: int) -> bool:
        return any(team is not None and team.pk == team_pk for team in (self.team_a, self.team_b))

    def seen_from(self, team_pk: int) -> MatchSheet:
        """The sheet with team ``team_pk`` first (as team A): its figures read from its side."""
        if self.team_b is None or self.team_b.pk != team_pk:
            return self
        return MatchSheet(
            round=self.round,
            tables=self.tables,
            team_a=self.team_b,
            team_b=self.team_a,
            deals=[deal.reversed() for deal in self.deals],
            pm_a=self.pm_b,
            pm_b=self.pm_a,
            vp_a=self.vp_b,
            vp_b=self.vp_a,
        )


def match_sheet_rows(
    matches: Iterable[Mapping[str, Any]],
    teams: Mapping[int, Team],
    hidden_deals: frozenset[int] | set[int] = frozenset(),
) -> list[MatchSheet]:
    """Quadrette match sheets (the core's ``MatchSheet.to_dict()``) with their teams, by round.

    The net and PM of a deal in ``hidden_deals`` (still to be played somewhere) are left out;
    the match totals stay, like the rankings.
    """

    def team_of(key: str | None) -> Team | None:
        return teams.get(key_pk(key)) if key else None

    def deal_of(deal: Mapping[str, Any]) -> MatchDeal:
        number = int(deal["deal"])
        if number in hidden_deals:
            return MatchDeal(number=number, net=None, pm=None)
        return MatchDeal(number=number, net=deal.get("net_a"), pm=deal.get("pm_a"))

    sheets = [
        MatchSheet(
            round=int(match.get("round", 0)),
            tables=[int(table) for table in match.get("tables", [])],
            team_a=team_of(match.get("team_a")),
            team_b=team_of(match.get("team_b")),
            deals=[deal_of(deal) for deal in match.get("deals", [])],
            pm_a=int(match.get("pm_a", 0)),
            pm_b=int(match.get("pm_b", 0)),
            vp_a=None if match.get("vp_a") is None else Decimal(str(match["vp_a"])),
            vp_b=None if match.get("vp_b") is None else Decimal(str(match["vp_b"])),
        )
        for match in matches
    ]
    sheets.sort(key=lambda sheet: (sheet.round, sheet.tables))
    return sheets


def team_match_sheets(sheets: Iterable[MatchSheet], team_pk: int) -> list[MatchSheet]:
    """The match sheets of team ``team_pk``, each seen from its side, by round."""
    return [sheet.seen_from(team_pk) for sheet in sheets if sheet.involves(team_pk)]


# ---------------------------------------------------------------------------- movement


@dataclass
class MovementCell:
    seat: str
    seat_label: str
    entrant: Entrant | None


@dataclass
class MovementTable:
    table: int
    deals: range
    real: bool
    cells: list[MovementCell]

    @property
    def deals_label(self) -> str:
        first, last = self.deals.start, self.deals.stop - 1
        return str(first) if first == last else f"{first}–{last}"


@dataclass
class MovementRound:
    number: int
    tables: list[MovementTable]
    byes: list[Entrant]


def movement_rounds(
    schedule: Schedule, deals_per_round: int, entrants: Mapping[int, Entrant]
) -> list[MovementRound]:
    """Who plays where each round, and which deals (``entrants`` by slot)."""
    return [
        MovementRound(
            number=rnd.number,
            tables=[
                MovementTable(
                    table=play.table,
                    deals=deal_numbers(play.deal_set, deals_per_round),
                    real=play.plays,
                    cells=[
                        MovementCell(seat, seat_label(seat), entrants.get(play.seats[seat]))
                        for seat in SEATS
                    ],
                )
                for play in rnd.tables
            ],
            byes=[entrants[slot] for slot in rnd.byes if slot in entrants],
        )
        for rnd in schedule.rounds
    ]


# ---------------------------------------------------------------------------------- charts
# Figures of the public pages' charts (issue 11), drawn in the browser by the vendored Chart.js
# (static/vendor/chartjs, static/js/charts.js). Each chart is a JSON-ready dict passed to the
# page with ``json_script``: built only from what the page shows (the score card's lines not
# hidden, the frequency sheet's frequencies), so a chart can never tell more than its page.


def _chart_number(value: Decimal | None) -> float | None:
    """A decimal as a JSON number (percentages have two decimals: the float prints them)."""
    return None if value is None else float(value)


@dataclass
class RoundProgress:
    """One round of a player's card: the mean percentage of its deals shown on the card, and
    the mean of every deal shown up to and including this round (the cumulative one)."""

    round_number: int
    deals: int
    percentage: Decimal
    cumulative: Decimal


def _mean(values: Sequence[Decimal]) -> Decimal:
    # As the card's total (score_card_totals): the mean quantized to 0.01.
    return (sum(values, Decimal(0)) / len(values)).quantize(Decimal("0.01"))


def round_progress(lines: Iterable[ScoreCardLine]) -> list[RoundProgress]:
    """The player's progress round by round from the card's shown lines (a hidden line, a deal
    still in play at some table, counts nowhere; a round with only hidden lines is left out)."""
    by_round: dict[int, list[Decimal]] = defaultdict(list)
    for line in lines:
        if not line.hidden:
            by_round[line.score.round_number].append(line.score.percentage)
    progress: list[RoundProgress] = []
    so_far: list[Decimal] = []
    for number in sorted(by_round):
        percentages = by_round[number]
        so_far.extend(percentages)
        progress.append(
            RoundProgress(
                round_number=number,
                deals=len(percentages),
                percentage=_mean(percentages),
                cumulative=_mean(so_far),
            )
        )
    return progress


def progress_chart(progress: Sequence[RoundProgress]) -> dict[str, Any]:
    """The score card's line chart: the percentage of each round and the cumulative one."""
    return {
        "type": "line",
        "labels": [_("Round %(number)s") % {"number": p.round_number} for p in progress],
        "x_title": _("Round"),
        "y_title": _("Percentage"),
        "y_min": 0,
        "y_max": 100,
        "unit": "%",
        "datasets": [
            {
                "key": "round",
                "label": _("Percentage of the round"),
                "data": [_chart_number(p.percentage) for p in progress],
            },
            {
                "key": "cumulative",
                "label": _("Cumulative percentage"),
                "data": [_chart_number(p.cumulative) for p in progress],
            },
        ],
    }


@dataclass
class ViewerLine:
    """The line of the viewer (a player coming from their score card) on a frequency sheet."""

    row: ResultRow
    cell: SeatCell


def viewer_line(rows: Iterable[ResultRow], entrant_id: int | None) -> ViewerLine | None:
    """The seat of ``entrant_id`` among the sheet's rows, if the player sat at one of them."""
    if entrant_id is None:
        return None
    for row in rows:
        for cell in row.seats:
            if cell.entrant is not None and cell.entrant.pk == entrant_id:
                return ViewerLine(row, cell)
    return None


def frequency_index(table: Sequence[Frequency], line: ViewerLine | None) -> int | None:
    """Which frequency (bar) holds the viewer's table result, if any."""
    if line is None or not line.row.played:
        return None
    for index, frequency in enumerate(table):
        if frequency.value == line.row.result.value and frequency.contract == (
            line.row.contract_label
        ):
            return index
    return None


def distribution_chart(table: Sequence[Frequency], highlight: int | None = None) -> dict[str, Any]:
    """The frequency sheet's bar chart: one bar per frequency (contract and value, in the
    table's order), its height the number of tables; ``highlight`` the viewer's bar."""
    return {
        "type": "bar",
        "labels": [
            f"{frequency.contract} {frequency.value}"
            if frequency.value is not None
            else frequency.contract
            for frequency in table
        ],
        "x_title": _("Contract and value"),
        "y_title": _("Tables"),
        "y_min": 0,
        "integer": True,
        "highlight": highlight,
        "datasets": [
            {
                "key": "tables",
                "label": _("Tables"),
                "data": [frequency.count for frequency in table],
            },
        ],
        "marks": [frequency.taker_mark for frequency in table],
        "mark_label": _("Taker's mark"),
    }
