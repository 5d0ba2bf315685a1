"""Public pages of an event: home, live ranking, frequency sheets, score cards, teams, movement.

Vocabulary (shared/domain/duplicate.md): a *frequency sheet* (feuille de donne) lists every
table's result of one deal with its seat marks and percentages; a *score card* (feuille de
marque personnelle) lists one player's deals; the *snapshot* is the scoring app's
``StandingsSnapshot`` with its ``HandScore`` and ``RankingEntry`` rows.

Invariants:

- pages read the snapshot plus ``tournaments`` rows only, never the comparison core; every
  list is loaded with a bounded number of queries (``select_related`` / ``prefetch_related``);
- a page is "provisional" while results are missing or the snapshot is behind the event's
  ``results_version`` (see :func:`event_progress`);
- the cards of a deal (its hand diagram) are shown only once the deal has a result at every
  table the movement schedules it on: a deal still being played never leaks;
- likewise the per-table outcomes of a deal (contract, oudlers, points, value, marks,
  percentages) are shown to everybody but the organisers only once the deal is finished or the
  event is (``scoring.selectors.deal_outcomes_public``, the one rule); the frequency sheet of an
  unfinished deal only tells which tables have entered it, and a score card shows such a deal as
  "in play", its totals coming from the (live) ranking row;
- an event that is not public answers 404, except to organisers of its club (preview).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any

from django.core.cache import cache
from django.db.models import Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils.cache import patch_vary_headers
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from scoring.selectors import (
    DealSummary,
    RoundPlan,
    deal_outcomes_public,
    deal_summaries,
    deals_hidden_from,
    movement_rounds,
    scheduled_tables_per_deal_set,
)
from tournaments.access import user_directs
from tournaments.models import (
    SEATS,
    Contract,
    Deal,
    Entrant,
    Event,
    Seat,
    Side,
    TableResult,
    Team,
)
from tournaments.presentation import SuitLine, deal_diagram

SEAT_FIELDS: dict[str, str] = {"N": "seat_n", "E": "seat_e", "S": "seat_s", "W": "seat_w"}
# Everything a result row needs to name its players and teams, in one query.
RESULT_RELATED: tuple[str, ...] = (
    "table",
    "deal",
    *(f"{name}__player" for name in SEAT_FIELDS.values()),
    *(f"{name}__team" for name in SEAT_FIELDS.values()),
)
RANKING_CACHE_SECONDS = 3600


# ------------------------------------------------------------------------------ access


def visible_event_or_404(request: HttpRequest, event_id: int) -> Event:
    event = get_object_or_404(Event.objects.select_related("club"), pk=event_id)
    if not event.public and not user_directs(request.user, event):
        raise Http404(_("No public event with this number."))
    return event


def snapshot_of(event: Event) -> StandingsSnapshot | None:
    return StandingsSnapshot.objects.filter(event=event).first()


# ---------------------------------------------------------------------------- movement


def deal_numbers(deal_set: int, deals_per_round: int) -> range:
    """Deal set k holds deals (k-1)*deals_per_round+1 .. k*deals_per_round."""
    return range((deal_set - 1) * deals_per_round + 1, deal_set * deals_per_round + 1)


# ---------------------------------------------------------------------------- progress


@dataclass(frozen=True)
class Progress:
    """How far an event is: results entered against expected, and the snapshot's state."""

    entered: int
    expected: int
    snapshot: StandingsSnapshot | None
    results_version: int
    finished: bool  # the organiser closed the event: no more corrections expected

    @property
    def behind(self) -> bool:
        return self.snapshot is None or self.snapshot.results_version < self.results_version

    @property
    def missing(self) -> int:
        return max(self.expected - self.entered, 0)

    @property
    def provisional(self) -> bool:
        """Final only once every result is in, counted, and the event is closed (same rule
        as ``scoring.selectors.snapshot_status`` for the API)."""
        return self.behind or self.missing > 0 or not self.snapshot_complete or not self.finished

    @property
    def snapshot_complete(self) -> bool:
        return self.snapshot is not None and self.snapshot.complete

    @property
    def percent_done(self) -> int:
        return round(100 * self.entered / self.expected) if self.expected else 0


def event_progress(event: Event, rounds: Sequence[RoundPlan] | None = None) -> Progress:
    if rounds is None:
        rounds = movement_rounds(event)
    expected = sum(1 for r in rounds for plan in r.tables if plan.real) * event.deals_per_round
    # Unconfirmed results (waiting for a defender's confirmation) are not counted yet.
    entered = (
        TableResult.objects.filter(event=event)
        .exclude(kind=TableResult.Kind.PLAYED, confirmed=False)
        .count()
    )
    return Progress(
        entered=entered,
        expected=expected,
        snapshot=snapshot_of(event),
        results_version=event.results_version,
        finished=event.status == Event.Status.FINISHED,
    )


# ------------------------------------------------------------------------ result rows


def entrant_name(entrant: Entrant | None) -> str:
    if entrant is None:
        return "—"
    return str(entrant)


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
        return entrant_name(self.entrant)

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


POIGNEE_SIZES = {
    "simple": gettext_lazy("simple"),
    "double": gettext_lazy("double"),
    "triple": gettext_lazy("triple"),
}


def poignees_label(poignees: Any) -> str:
    """``[{"side": "attack", "size": "simple"}]`` → ``"simple (Attack)"``."""
    parts: list[str] = []
    for poignee in poignees or []:
        size = str(POIGNEE_SIZES.get(poignee.get("size"), poignee.get("size", "")))
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


def build_result_rows(
    results: Iterable[TableResult], hand_scores: Iterable[HandScore]
) -> list[ResultRow]:
    """Result rows with each seat's percentage from the snapshot's hand scores."""
    score_of: dict[tuple[int, str], HandScore] = {
        (score.result_id, score.seat): score for score in hand_scores
    }
    rows: list[ResultRow] = []
    for result in results:
        row = ResultRow(result=result)
        taker_seat = result.taker_seat or result.deal.taker_seat
        marks = result.seat_marks()
        artificial = result.seat_artificial()
        for seat in SEATS:
            score = score_of.get((result.pk, seat))
            row.seats.append(
                SeatCell(
                    seat=seat,
                    seat_label=str(Seat(seat).label),
                    entrant=getattr(result, SEAT_FIELDS[seat]),
                    is_taker=seat == taker_seat and result.kind == TableResult.Kind.PLAYED,
                    mark=marks[seat],
                    percentage=score.percentage if score is not None else None,
                    artificial=artificial[seat],  # type: ignore[arg-type]
                )
            )
        rows.append(row)
    return rows


# -------------------------------------------------------------------------- hand diagram


@dataclass(frozen=True)
class HandLine:
    suit: str  # S, H, D, C, or T for the trumps (the Excuse listed last among them)
    symbol: str
    cards: str


@dataclass(frozen=True)
class HandBlock:
    place: str  # a seat code, or "chien"
    label: str
    is_taker: bool
    is_dealer: bool
    lines: list[HandLine]


def hand_diagram(deal: Deal) -> list[HandBlock] | None:
    """The four hands and the chien of ``deal`` as display blocks, or None without cards.

    The suit lines come from ``tournaments.selectors.deal_diagram`` (the étui printout uses the
    same), which reads the deal's text form with ``rules.deal``.
    """
    if not deal.cards:
        return None
    diagram = deal_diagram(deal)

    def lines_of(suits: Iterable[SuitLine]) -> list[HandLine]:
        return [
            HandLine(suit=line.css.removeprefix("suit-"), symbol=line.symbol, cards=line.cards)
            for line in suits
        ]

    blocks = [
        HandBlock(
            place=hand.seat,
            label=str(Seat(hand.seat).label),
            is_taker=hand.is_taker,
            is_dealer=hand.is_dealer,
            lines=lines_of(hand.suits),
        )
        for hand in diagram.hands
    ]
    blocks.append(
        HandBlock(
            place="chien",
            label=_("Chien"),
            is_taker=False,
            is_dealer=False,
            lines=lines_of(diagram.chien),
        )
    )
    return blocks


# ----------------------------------------------------------------------------- context


def base_context(event: Event, progress: Progress | None = None, **extra: Any) -> dict[str, Any]:
    context: dict[str, Any] = {
        "event": event,
        "progress": progress if progress is not None else event_progress(event),
    }
    context.update(extra)
    return context


# ---------------------------------------------------------------------------- views


@require_GET
def home(request: HttpRequest) -> HttpResponse:
    """Public events, running first, then finished (then announced drafts made public)."""
    status_order = {Event.Status.RUNNING: 0, Event.Status.FINISHED: 1, Event.Status.DRAFT: 2}
    events = sorted(
        Event.objects.filter(public=True).select_related("club"),
        key=lambda event: (status_order.get(event.status, 3), -event.date.toordinal(), event.name),
    )
    return render(request, "home.html", {"events": events})


@require_GET
def event_home(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    rounds = movement_rounds(event)
    progress = event_progress(event, rounds)
    per_round_expected = {
        r.number: sum(1 for plan in r.tables if plan.real) * event.deals_per_round for r in rounds
    }
    entered_per_round = Counter(
        TableResult.objects.filter(event=event)
        .exclude(kind=TableResult.Kind.PLAYED, confirmed=False)
        .values_list("round_number", flat=True)
    )
    round_progress = [
        {"number": number, "entered": entered_per_round.get(number, 0), "expected": expected}
        for number, expected in per_round_expected.items()
    ]
    context = base_context(
        event,
        progress,
        round_progress=round_progress,
        tables=len(rounds[0].tables) if rounds else 0,
        entrants=Entrant.objects.filter(event=event, phantom=False).count(),
        teams=Team.objects.filter(event=event).count() if event.is_team_event else 0,
        deals=Deal.objects.filter(event=event).count(),
    )
    return render(request, "scoring/public/event.html", context)


RANKING_VIEWS = ("individual", "line", "team")


def ranking_views_for(event: Event) -> list[tuple[str, str]]:
    views: list[tuple[str, str]] = []
    if event.is_team_event:
        views.append(("team", _("Teams")))
    views.append(("individual", _("Individual")))
    if RankingEntry.objects.filter(event=event, kind=RankingEntry.Kind.LINE).exists():
        views.append(("line", _("Per line")))
    return views


def ranking_entries(event: Event, kind: str) -> list[RankingEntry]:
    queryset = RankingEntry.objects.filter(event=event, kind=kind)
    if kind == RankingEntry.Kind.TEAM:
        queryset = queryset.select_related("team").prefetch_related(
            Prefetch(
                "team__members",
                queryset=Entrant.objects.select_related("player").order_by("slot"),
            )
        )
    else:
        queryset = queryset.select_related("entrant__player", "entrant__team")
    return list(queryset.order_by("line", "rank", "pk"))


def _ranking_view_name(request: HttpRequest, event: Event) -> str:
    requested = request.GET.get("view", "")
    if requested in RANKING_VIEWS:
        return requested
    return "team" if event.is_team_event else "individual"


def render_ranking_fragment(
    request: HttpRequest, event: Event, view: str, progress: Progress, projector: bool = False
) -> str:
    """The ranking table, cached on (event, versions, language, view)."""
    snapshot = progress.snapshot
    key = ":".join(
        str(part)
        for part in (
            "public-ranking",
            event.pk,
            event.results_version,
            snapshot.results_version if snapshot else "none",
            snapshot.computed_at.timestamp() if snapshot else "none",
            progress.entered,
            progress.finished,
            get_language(),
            view,
            int(projector),
        )
    )
    html = cache.get(key)
    if html is None:
        entries = ranking_entries(event, view)
        lines: dict[str, list[RankingEntry]] = defaultdict(list)
        if view == "line":
            for entry in entries:
                lines[entry.line].append(entry)
        html = render_to_string(
            "scoring/public/_ranking_table.html",
            {
                "event": event,
                "view": view,
                "entries": entries,
                "lines": [
                    (str(Seat(line).label) if line else "", rows)
                    for line, rows in sorted(lines.items())
                ],
                "progress": progress,
                "projector": projector,
                "show_vp": event.format == Event.Format.QUADRETTE,
            },
            request=request,
        )
        cache.set(key, html, RANKING_CACHE_SECONDS)
    return mark_safe(html)  # rendered by our own template above, escaped there


@require_GET
def ranking(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    view = _ranking_view_name(request, event)
    progress = event_progress(event)
    fragment = render_ranking_fragment(request, event, view, progress)
    if request.headers.get("HX-Request"):
        response = HttpResponse(fragment)
    else:
        context = base_context(
            event, progress, view=view, views=ranking_views_for(event), fragment=fragment
        )
        response = render(request, "scoring/public/ranking.html", context)
    # The same URL answers the whole page or the htmx fragment: caches must tell them apart.
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def ranking_projector(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    view = _ranking_view_name(request, event)
    progress = event_progress(event)
    fragment = render_ranking_fragment(request, event, view, progress, projector=True)
    if request.headers.get("HX-Request"):
        response = HttpResponse(fragment)
    else:
        context = base_context(event, progress, view=view, fragment=fragment)
        response = render(request, "scoring/public/projector.html", context)
    patch_vary_headers(response, ["HX-Request"])
    return response


@require_GET
def deal_list(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    rounds = movement_rounds(event)
    context = base_context(
        event, event_progress(event, rounds), deals=deal_summaries(event, rounds)
    )
    return render(request, "scoring/public/deals.html", context)


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


@require_GET
def deal_sheet(request: HttpRequest, event_id: int, number: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    deal = get_object_or_404(Deal, event=event, number=number)
    rounds = movement_rounds(event)
    scheduled = scheduled_tables_per_deal_set(rounds).get(deal.deal_set, 0)
    results = list(
        TableResult.objects.filter(deal=deal)
        .select_related(*RESULT_RELATED)
        .order_by("table__number")
    )
    summary = DealSummary(deal=deal, scheduled=scheduled, entered=len(results))
    finished = summary.finished
    # A table still to play this deal must not learn any other table's outcome of it.
    outcomes_shown = deal_outcomes_public(event, summary) or user_directs(request.user, event)
    if outcomes_shown:
        hand_scores = HandScore.objects.filter(deal=deal).only("result_id", "seat", "percentage")
        rows = build_result_rows(results, hand_scores)
    else:
        rows = build_result_rows(results, [])
    previous_number = (
        Deal.objects.filter(event=event, number__lt=number)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    next_number = (
        Deal.objects.filter(event=event, number__gt=number)
        .order_by("number")
        .values_list("number", flat=True)
        .first()
    )
    context = base_context(
        event,
        event_progress(event, rounds),
        deal=deal,
        rows=rows,
        outcomes_shown=outcomes_shown,
        frequencies=frequencies(rows) if outcomes_shown else [],
        scheduled=scheduled,
        finished=finished,
        # Never leak the cards of a deal that some table has still to play.
        diagram=hand_diagram(deal) if finished else None,
        taker_seat_label=Seat(deal.taker_seat).label,
        dealer_seat_label=Seat(deal.dealer_seat).label,
        previous_number=previous_number,
        next_number=next_number,
    )
    return render(request, "scoring/public/deal.html", context)


def search_entrants(event: Event, query: str) -> list[Entrant]:
    """Real entrants whose player's names contain every word of ``query`` (any order)."""
    queryset = Entrant.objects.filter(event=event, phantom=False, player__isnull=False)
    for word in query.split():
        queryset = queryset.filter(
            Q(player__first_name__icontains=word)
            | Q(player__last_name__icontains=word)
            | Q(player__licence__iexact=word)
        )
    return list(
        queryset.select_related("player", "team").order_by(
            "player__last_name", "player__first_name"
        )
    )


@require_GET
def player_list(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    query = request.GET.get("q", "").strip()
    entrants = search_entrants(event, query)
    if query and len(entrants) == 1:
        return redirect("public:scorecard", event_id=event.pk, entrant_id=entrants[0].pk)
    context = base_context(event, query=query, entrants=entrants)
    return render(request, "scoring/public/players.html", context)


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
    event: Event, entrant: Entrant, hidden_deals: frozenset[int] | set[int] = frozenset()
) -> list[ScoreCardLine]:
    """The entrant's deals; those in ``hidden_deals`` (numbers) carry no outcome to show."""
    scores = list(
        HandScore.objects.filter(event=event, entrant=entrant)
        .select_related(*(f"result__{name}" for name in RESULT_RELATED))
        .order_by("deal__number", "round_number")
    )
    results = [score.result for score in scores]
    # Percentages of the other seats are not needed on a personal card: only the player's own.
    rows = build_result_rows(results, scores)
    lines: list[ScoreCardLine] = []
    for score, row in zip(scores, rows, strict=True):
        cell = next(c for c in row.seats if c.seat == score.seat)
        hidden = row.deal_number in hidden_deals
        lines.append(ScoreCardLine(score=score, row=row, cell=cell, hidden=hidden))
    return lines


@require_GET
def score_card(request: HttpRequest, event_id: int, entrant_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    entrant = get_object_or_404(
        Entrant.objects.select_related("player", "team"),
        event=event,
        pk=entrant_id,
        phantom=False,
    )
    hidden_deals = deals_hidden_from(event, directs=user_directs(request.user, event))
    lines = score_card_lines(event, entrant, hidden_deals)
    entries = list(
        RankingEntry.objects.filter(event=event, entrant=entrant).order_by("kind", "line")
    )
    individual = next((e for e in entries if e.kind == RankingEntry.Kind.INDIVIDUAL), None)
    line_entry = next((e for e in entries if e.kind == RankingEntry.Kind.LINE), None)
    marks_total: int | None
    mean: Decimal | None
    if any(line.hidden for line in lines):
        # Hidden lines have no mark to add up: the totals are the ranking row's (rankings are
        # published live by design, shared/domain/duplicate.md).
        marks_total = individual.marks_total if individual is not None else None
        mean = individual.percentage if individual is not None else None
    else:
        marks_total = sum(line.score.mark or 0 for line in lines)
        percentages = [line.score.percentage for line in lines]
        mean = (
            (sum(percentages, Decimal(0)) / len(percentages)).quantize(Decimal("0.01"))
            if percentages
            else None
        )
    context = base_context(
        event,
        entrant=entrant,
        lines=lines,
        ranking_entry=individual,
        line_entry=line_entry,
        line_label=str(Seat(line_entry.line).label) if line_entry and line_entry.line else "",
        marks_total=marks_total,
        mean_percentage=mean,
        ranked_count=RankingEntry.objects.filter(
            event=event, kind=RankingEntry.Kind.INDIVIDUAL
        ).count(),
    )
    return render(request, "scoring/public/scorecard.html", context)


@require_GET
def team_ranking(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    if not event.is_team_event:
        raise Http404(_("This event has no teams."))
    progress = event_progress(event)
    context = base_context(
        event,
        progress,
        entries=ranking_entries(event, RankingEntry.Kind.TEAM),
        show_vp=event.format == Event.Format.QUADRETTE,
    )
    return render(request, "scoring/public/teams.html", context)


@require_GET
def match_sheets(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    if event.format != Event.Format.QUADRETTE:
        raise Http404(_("Match sheets exist for quadrette events only."))
    progress = event_progress(event)
    teams = {team.pk: team for team in Team.objects.filter(event=event)}
    hidden_deals = deals_hidden_from(event, directs=user_directs(request.user, event))
    context = base_context(
        event,
        progress,
        matches=match_sheet_rows(event, progress.snapshot, teams, hidden_deals),
    )
    return render(request, "scoring/public/matches.html", context)


@dataclass
class MatchDeal:
    number: int
    net: int | None  # team A's net
    pm: int | None  # team A's PM


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


MATCH_ID_RE = re.compile(r"^r(?P<round>\d+)-")


def match_sheet_rows(
    event: Event,
    snapshot: StandingsSnapshot | None,
    teams: dict[int, Team],
    hidden_deals: frozenset[int] | set[int] = frozenset(),
) -> list[MatchSheet]:
    """Quadrette match sheets from the snapshot's ``data["matches"]``.

    The net and PM of a deal in ``hidden_deals`` (still to be played somewhere) are left out;
    the match totals stay, like the rankings.

    The scoring service writes the core's ``MatchSheet.to_dict()``: ``match`` is
    ``"r<round>-t<table>-<table>"``, teams are ``"t<Team.pk>"``, deals carry ``net_a``/``pm_a``.
    """
    if snapshot is None:
        return []

    def team_of(key: object) -> Team | None:
        text = str(key or "")
        return teams.get(int(text[1:])) if text[1:].isdigit() else None

    sheets: list[MatchSheet] = []
    for match in snapshot.data.get("matches", []):
        found = MATCH_ID_RE.match(str(match.get("match", "")))
        vp_a, vp_b = match.get("vp_a"), match.get("vp_b")
        sheets.append(
            MatchSheet(
                round=int(found["round"]) if found else 0,
                tables=[int(t) for t in match.get("tables", [])],
                team_a=team_of(match.get("team_a")),
                team_b=team_of(match.get("team_b")),
                deals=[
                    MatchDeal(number=int(d["deal"]), net=None, pm=None)
                    if int(d["deal"]) in hidden_deals
                    else MatchDeal(number=int(d["deal"]), net=d.get("net_a"), pm=d.get("pm_a"))
                    for d in match.get("deals", [])
                ],
                pm_a=int(match.get("pm_a", 0)),
                pm_b=int(match.get("pm_b", 0)),
                vp_a=Decimal(str(vp_a)) if vp_a is not None else None,
                vp_b=Decimal(str(vp_b)) if vp_b is not None else None,
            )
        )
    sheets.sort(key=lambda sheet: (sheet.round, sheet.tables))
    return sheets


@dataclass
class MovementCell:
    seat: str
    seat_label: str
    entrant: Entrant | None


@dataclass
class MovementTable:
    table: int
    deal_set: int
    deals: range
    real: bool
    cells: list[MovementCell]

    @property
    def deals_label(self) -> str:
        first, last = self.deals.start, self.deals.stop - 1
        return str(first) if first == last else f"{first}–{last}"


@require_GET
def movement(request: HttpRequest, event_id: int) -> HttpResponse:
    event = visible_event_or_404(request, event_id)
    rounds = movement_rounds(event)
    entrants = {
        entrant.slot: entrant
        for entrant in Entrant.objects.filter(event=event).select_related("player", "team")
    }
    schedule = []
    for round_plan in rounds:
        tables = [
            MovementTable(
                table=plan.table,
                deal_set=plan.deal_set,
                deals=deal_numbers(plan.deal_set, event.deals_per_round),
                real=plan.real,
                cells=[
                    MovementCell(
                        seat=seat,
                        seat_label=str(Seat(seat).label),
                        entrant=entrants.get(plan.seats.get(seat, -1)),
                    )
                    for seat in SEATS
                ],
            )
            for plan in round_plan.tables
        ]
        byes = [entrants[slot] for slot in round_plan.byes if slot in entrants]
        schedule.append({"number": round_plan.number, "tables": tables, "byes": byes})
    context = base_context(event, event_progress(event, rounds), schedule=schedule)
    return render(request, "scoring/public/movement.html", context)


def event_links(event: Event) -> list[tuple[str, str]]:
    """Every public page of an event (used by the event home and the demo's printout)."""
    links = [
        (_("Ranking"), reverse("public:ranking", args=[event.pk])),
        (_("Projector"), reverse("public:ranking_projector", args=[event.pk])),
        (_("Frequency sheets"), reverse("public:deals", args=[event.pk])),
        (_("Score cards"), reverse("public:players", args=[event.pk])),
    ]
    if event.is_team_event:
        links.append((_("Team ranking"), reverse("public:teams", args=[event.pk])))
    if event.format == Event.Format.QUADRETTE:
        links.append((_("Match sheets"), reverse("public:matches", args=[event.pk])))
    links.append((_("Movement"), reverse("public:movement", args=[event.pk])))
    return links
