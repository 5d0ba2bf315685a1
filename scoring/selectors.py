"""Reads of the published standings: THE read path of the public pages, exports and API.

Every query those views make is here; each selector owns its ``select_related`` /
``prefetch_related`` (one query per list, none per row). Views call selectors, then the
presentation helpers of ``scoring.presentation``; they never query a model themselves.

Vocabulary:

- *results expected* (:func:`results_expected`): one result per deal at every table that really
  plays, over the event or in one round. Computed here only; the recompute stores it in the
  snapshot with the results it counted (overall and per round);
- :class:`StandingsStatus` says how to label what is shown, from what the snapshot stores plus
  the event's current ``results_version`` and status. Its ``state`` is

  - ``"none"``: never computed;
  - ``"behind"``: the snapshot is older than the event's results (a recompute is pending);
  - ``"provisional"``: up to date, but results are still missing or the event is not finished;
  - ``"complete"``: up to date, every expected result counted, and the event is finished;

  and a ranking is *provisional* in every state but ``"complete"``.

Which deals' per-table outcomes may be shown is decided by ``tournaments.publication`` (the
tournaments API applies the same rule; ``tournaments`` never imports ``scoring``).

Simultaneous tournaments: :func:`event_family` tells a simultaneous (its sections) from a
section (its simultaneous) and an ordinary event; the simultaneous's reads span its sections
(:func:`simultaneous_deal_results`, :func:`search_simultaneous_entrants`,
:func:`sections_progress`, ``ranking_rows(..., sections=True)``), rows naming their section.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Count, F, Max, Prefetch, Q, QuerySet, prefetch_related_objects

from clubs.selectors import names_contain, query_terms
from scoring.models import HandScore, RankingEntry, StandingsSnapshot
from tournaments.models import Deal, Entrant, Event, Table, TableResult, Team

# Everything a result row needs to name its players and teams, in one query.
RESULT_RELATED: tuple[str, ...] = (
    "table",
    "deal",
    *(f"seat_{seat}__{related}" for related in ("player", "team") for seat in "nesw"),
)

# ------------------------------------------------------------------------------ status


def results_expected(event: Event, round: int | None = None) -> int:
    """Results expected over the event, or in round ``round``: deals × tables really playing
    (for a simultaneous, the sum over its sections)."""
    schedule = event.schedule  # from the per-process cache when the movement is deferred
    if not schedule.rounds and event.pk is not None and event.simultaneous_id is None:
        sections = Event.objects.defer("movement").filter(simultaneous_id=event.pk)
        return sum(results_expected(section, round) for section in sections)
    return schedule.playing_count(round) * event.deals_per_round


@dataclass(frozen=True)
class RoundProgress:
    number: int
    entered: int
    expected: int


@dataclass(frozen=True)
class StandingsStatus:
    """How far the published standings are (see the module docstring).

    ``entered`` and ``expected`` are the snapshot's counts (without a snapshot, nothing entered
    of what the movement expects); ``snapshot`` is the snapshot read, for its match sheets.
    """

    state: str  # none / behind / provisional / complete
    snapshot_version: int
    results_version: int
    entered: int
    expected: int
    computed_at: dt.datetime | None
    finished: bool  # the organiser closed the event: no more corrections expected
    rounds: tuple[RoundProgress, ...] = ()
    snapshot: StandingsSnapshot | None = field(default=None, repr=False, compare=False)
    # Deal numbers the published rankings leave out (still in play somewhere), of deals_total.
    withheld: tuple[int, ...] = ()
    deals_total: int = 0

    @property
    def deals_counted(self) -> int:
        """Deals the published rankings count (finished everywhere)."""
        return max(self.deals_total - len(self.withheld), 0)

    @property
    def behind(self) -> bool:
        return self.state in ("none", "behind")

    @property
    def provisional(self) -> bool:
        return self.state != "complete"

    @property
    def missing(self) -> int:
        return max(self.expected - self.entered, 0)


def standings_status(event: Event) -> StandingsStatus:
    """The status of the event's standings, with the event's current version (two queries).

    A section's standings are its simultaneous's (one comparison, one snapshot): the state
    comes from there, and is complete only when every section is finished; the counts and
    rounds shown are the section's own. A simultaneous shows the counts of all its sections.
    """
    scoring_id = event.scoring_event_id
    snapshot = StandingsSnapshot.objects.filter(event_id=scoring_id).first()
    results_version, status = Event.objects.values_list("results_version", "status").get(
        pk=scoring_id
    )
    finished = status == Event.Status.FINISHED
    data: dict[str, Any] = dict(snapshot.data or {}) if snapshot else {}
    withheld = tuple(int(number) for number in data.get("withheld", ()))
    deals_total = int(data.get("deals_total", 0))
    if event.is_section:
        own = next((s for s in data.get("sections", []) if s["event"] == event.pk), None)
        data = {"rounds": own["rounds"]} if own else {}
        counts = (own["entered"], own["expected"]) if own else None
    else:
        counts = (snapshot.results_entered, snapshot.results_expected) if snapshot else None
    stored: list[dict[str, Any]] | None = data.get("rounds")
    if stored is None:  # no snapshot (or one older than per-round progress): nothing entered
        rounds = tuple(
            RoundProgress(number, 0, results_expected(event, number))
            for number in event.schedule.round_numbers
        )
    else:
        rounds = tuple(RoundProgress(r["round"], r["entered"], r["expected"]) for r in stored)
    if snapshot is None:
        return StandingsStatus("none", 0, results_version, 0, results_expected(event), None,
                               finished, rounds)  # fmt: skip
    if snapshot.results_version < results_version:
        state = "behind"
    elif snapshot.complete and finished:
        state = "complete"
    else:
        state = "provisional"
    entered, expected = counts if counts is not None else (0, results_expected(event))
    return StandingsStatus(
        state,
        snapshot.results_version,
        results_version,
        entered,
        expected,
        snapshot.computed_at,
        finished,
        rounds,
        snapshot,
        withheld,
        deals_total,
    )


def snapshot_matches(
    snapshot: StandingsSnapshot | None, *, complete: bool = False
) -> list[dict[str, Any]]:
    """The quadrette match sheets of a snapshot, as the core's ``MatchSheet.to_dict()``:
    those of the published deals, or (``complete``, for organisers) of every entered deal."""
    if snapshot is None:
        return []
    data = snapshot.data or {}
    if complete and "matches_all" in data:
        return list(data["matches_all"])
    return list(data.get("matches", []))


def _published(event_id: int, complete: bool) -> bool:
    """Which ranking rows to read (``RankingEntry.published``): the published ones, or for
    ``complete`` (an organiser's view) the complete ones, which exist as ``published=False``
    rows only while some deal is withheld (one indexed query)."""
    if not complete:
        return True
    return not RankingEntry.objects.filter(event_id=event_id, published=False).exists()


# ---------------------------------------------------------------------------- rankings


def ranking_rows(
    event: Event,
    kind: str = RankingEntry.Kind.INDIVIDUAL,
    line: str | None = None,
    *,
    sections: bool = False,
    complete: bool = False,
) -> list[RankingEntry]:
    """Ranking rows of one kind (``individual``, ``line``, ``team``), by line then rank.

    Player rows carry ``entrant.player`` and ``entrant.team``; team rows carry ``team`` and its
    members with their players (slot order). ``sections`` (the overall ranking of a
    simultaneous): each row also carries ``section_id`` and ``section_name``, the section of
    its player or team (same query). ``complete``: the organisers' ranking on every entered
    deal instead of the published one (deals finished everywhere).
    """
    if kind not in RankingEntry.Kind.values:
        raise ValueError(f"unknown ranking kind {kind!r}")
    rows = RankingEntry.objects.filter(
        event=event, kind=kind, published=_published(event.pk, complete)
    )
    if kind == RankingEntry.Kind.TEAM:
        members = Entrant.objects.select_related("player").order_by("slot")
        rows = rows.select_related("team").prefetch_related(
            Prefetch("team__members", queryset=members)
        )
        owner = "team__event"
    else:
        rows = rows.select_related("entrant__player", "entrant__team")
        owner = "entrant__event"
    if sections:
        rows = rows.annotate(section_id=F(f"{owner}_id"), section_name=F(f"{owner}__name"))
    if line:
        rows = rows.filter(line=line)
    # Equal ranks in French order of the names (the recompute stores them so; this also orders
    # rankings stored before it did), then as stored (scoring.core.tie_order).
    names = F("entrant__player__name_sort_key").asc(nulls_last=True)
    return list(rows.order_by("line", "rank", names, "pk"))


def ranking_kinds(event: Event) -> list[str]:
    """The rankings the event has: team (team events), individual, per line (line movements)."""
    kinds: list[str] = [RankingEntry.Kind.TEAM] if event.is_team_event else []
    kinds.append(RankingEntry.Kind.INDIVIDUAL)
    if RankingEntry.objects.filter(event=event, kind=RankingEntry.Kind.LINE).exists():
        kinds.append(RankingEntry.Kind.LINE)
    return kinds


def ranking_entries_of(
    event: Event, entrant: Entrant, *, complete: bool = False
) -> list[RankingEntry]:
    """The entrant's individual and per-line ranking rows (published, or ``complete``)."""
    rows = RankingEntry.objects.filter(
        event=event, entrant=entrant, published=_published(event.pk, complete)
    )
    return list(rows.order_by("kind", "line"))


def ranked_count(event: Event, *, complete: bool = False) -> int:
    return RankingEntry.objects.filter(
        event=event, kind=RankingEntry.Kind.INDIVIDUAL, published=_published(event.pk, complete)
    ).count()


# ------------------------------------------------------------------------------- events


@dataclass(frozen=True)
class EventFigures:
    tables: int
    entrants: int
    teams: int
    deals: int


def public_events() -> list[Event]:
    """Public events, running first, then finished (then announced drafts), latest first.

    The sections of a public simultaneous are listed on its page, not here.
    """
    order: dict[str, int] = {
        Event.Status.RUNNING: 0,
        Event.Status.FINISHED: 1,
        Event.Status.DRAFT: 2,
    }
    return sorted(
        Event.objects.filter(public=True)
        .exclude(simultaneous__public=True)
        .select_related("club")
        .defer("movement"),
        key=lambda event: (order.get(event.status, 3), -event.date.toordinal(), event.name),
    )


def event_figures(event: Event) -> EventFigures:
    rounds = event.schedule.rounds
    return EventFigures(
        tables=len(rounds[0].tables) if rounds else 0,
        entrants=Entrant.objects.filter(event=event, phantom=False).count(),
        teams=Team.objects.filter(event=event).count() if event.is_team_event else 0,
        deals=Deal.objects.filter(event=event).count(),
    )


def teams_by_pk(event: Event) -> dict[int, Team]:
    return {team.pk: team for team in Team.objects.filter(event=event)}


def entrants_by_slot(event: Event) -> dict[int, Entrant]:
    """Every entrant of the event (phantoms included) with player and team, by slot."""
    entrants = Entrant.objects.filter(event=event).select_related("player", "team")
    return {entrant.slot: entrant for entrant in entrants}


# ------------------------------------------------------------------------------- deals


def deals_of(event: Event) -> QuerySet[Deal]:
    return Deal.objects.filter(event=event)


def deal_of(event: Event, number: int) -> Deal | None:
    """Deal ``number`` of ``event``, or None."""
    return deals_of(event).filter(number=number).first()


def deal_neighbours(event: Event, number: int) -> tuple[int | None, int | None]:
    """The numbers of the deals before and after deal ``number`` (None at the ends)."""
    numbers = list(deals_of(event).order_by("number").values_list("number", flat=True))
    before = [n for n in numbers if n < number]
    after = [n for n in numbers if n > number]
    return (before[-1] if before else None, after[0] if after else None)


def deal_results(deal: Deal) -> list[TableResult]:
    """The table results of a deal by table, with their players and teams (one query)."""
    return list(
        TableResult.objects.filter(deal=deal)
        .select_related(*RESULT_RELATED)
        .order_by("table__number")
    )


def load_hand_scores(results: list[TableResult]) -> None:
    """Fetch the snapshot's hand scores of ``results`` into their ``hand_scores`` (one query),
    so a row reads its percentages from its own result, never matched up afterwards."""
    prefetch_related_objects(results, _hand_scores())


def results_with_scores(
    event: Event,
    hidden_deals: frozenset[int] | set[int] = frozenset(),
    *,
    simultaneous: bool = False,
) -> list[TableResult]:
    """Every table result of the event but those of ``hidden_deals`` (numbers), with players,
    teams and hand scores, by deal then table (two queries). For a ``simultaneous``, every
    section's results, each carrying ``section_name``, by deal, section, then table."""
    results: QuerySet[TableResult]
    if simultaneous:
        results = TableResult.objects.filter(event__simultaneous=event).annotate(
            section_name=F("event__name")
        )
        order = ["deal__number", "event__name", "event_id", "table__number"]
    else:
        results = TableResult.objects.filter(event=event)
        order = ["deal__number", "table__number"]
    return list(
        results.exclude(deal__number__in=hidden_deals)
        .select_related(*RESULT_RELATED)
        .prefetch_related(_hand_scores())
        .order_by(*order)
    )


def _hand_scores() -> Prefetch[Any]:
    scores = HandScore.objects.only("result_id", "seat", "percentage")
    return Prefetch("hand_scores", queryset=scores)


def hand_scores_for_deal(event: Event, deal: Deal) -> QuerySet[HandScore]:
    """A frequency sheet's rows for the API: every seat of every table of the deal (of a
    simultaneous: of every section's copy of it, by section then table)."""
    scores = HandScore.objects.select_related("entrant__player", "result", "deal")
    if event.movement is None:  # a simultaneous (or an event not prepared yet)
        sections = Q(event__simultaneous=event, deal__number=deal.number)
        return scores.filter(Q(event=event, deal=deal) | sections).order_by(
            "event__name", "event_id", "table_number", "seat"
        )
    return scores.filter(event=event, deal=deal).order_by("table_number", "seat")


# ----------------------------------------------------------------------------- players


def real_entrants(event: Event) -> QuerySet[Entrant]:
    """The event's entrants but phantoms, with player and team."""
    return Entrant.objects.filter(event=event, phantom=False).select_related("player", "team")


def real_entrant(event: Event, pk: int) -> Entrant | None:
    """Entrant ``pk`` of ``event`` (player and team loaded), or None (a phantom too)."""
    return real_entrants(event).filter(pk=pk).first()


def _matching(entrants: QuerySet[Entrant], query: str, licences: bool) -> QuerySet[Entrant]:
    """``entrants`` with a player whose names contain every word of ``query`` (any order, case
    and accents ignored), or whose licence is one of the words when ``licences`` (the
    competition's organisers: a licence is theirs to see); in French order."""
    entrants = entrants.filter(player__isnull=False)
    for word in query_terms(query):
        found = names_contain(word, "player__")
        if licences:
            found |= Q(player__licence__iexact=word)
        entrants = entrants.filter(found)
    return entrants.order_by("player__name_sort_key", "pk")


def search_entrants(event: Event, query: str, *, licences: bool = False) -> list[Entrant]:
    """Real entrants whose player's names contain every word of ``query`` (any order), or
    (``licences``: the event's organisers) whose licence is one of them."""
    return list(_matching(real_entrants(event), query, licences))


def hand_scores_for_entrant(event: Event, entrant: Entrant) -> list[HandScore]:
    """A score card: the entrant's hand scores by deal, each with its table result, the
    result's players and teams (one query)."""
    return list(
        HandScore.objects.filter(event=event, entrant=entrant)
        .select_related(*(f"result__{name}" for name in RESULT_RELATED))
        .order_by("deal__number", "round_number")
    )


# ------------------------------------------------------------------------ simultaneous


@dataclass(frozen=True)
class EventFamily:
    """Where an event stands among simultaneous tournaments (``Event`` docstring).

    ``simultaneous``: for a section, the simultaneous it belongs to (with its club).
    ``sections``: for a simultaneous, its sections with their clubs, by name (their movements
    are not loaded). An ordinary event has neither.
    """

    simultaneous: Event | None = None
    sections: tuple[Event, ...] = ()

    @property
    def is_simultaneous(self) -> bool:
        return bool(self.sections)

    @property
    def is_section(self) -> bool:
        return self.simultaneous is not None


def event_family(event: Event) -> EventFamily:
    """The event's simultaneous (a section) or sections (a simultaneous): one query, none for
    an ordinary event with a movement (a simultaneous has none)."""
    if event.simultaneous_id is not None:
        parent = Event.objects.select_related("club").get(pk=event.simultaneous_id)
        return EventFamily(simultaneous=parent)
    if event.movement is None and event.pk is not None:
        sections = (
            Event.objects.filter(simultaneous_id=event.pk)
            .select_related("club")
            .defer("movement", "pm_scale")
            .order_by("name", "pk")
        )
        return EventFamily(sections=tuple(sections))
    return EventFamily()


@dataclass(frozen=True)
class SectionProgress:
    """One section of a simultaneous on its home page: results entered of those expected."""

    section: Event
    entered: int
    expected: int

    @property
    def complete(self) -> bool:
        return self.expected > 0 and self.entered >= self.expected


def sections_progress(sections: Sequence[Event], status: StandingsStatus) -> list[SectionProgress]:
    """Each section's counts as the simultaneous's snapshot stores them (``data["sections"]``,
    those :func:`standings_status` gives a section); a section the snapshot does not know yet
    has nothing entered of what its movement expects (one query for all such sections)."""
    data: dict[str, Any] = (status.snapshot.data or {}) if status.snapshot else {}
    stored = {row["event"]: row for row in data.get("sections", [])}
    unknown = [section.pk for section in sections if section.pk not in stored]
    expected: dict[int, int] = {}
    if unknown:
        for row in Event.objects.filter(pk__in=unknown).only("id", "movement", "deals_per_round"):
            expected[row.pk] = row.schedule.playing_count() * row.deals_per_round
    return [
        SectionProgress(section, stored[section.pk]["entered"], stored[section.pk]["expected"])
        if section.pk in stored
        else SectionProgress(section, 0, expected.get(section.pk, 0))
        for section in sections
    ]


def simultaneous_figures(simultaneous: Event) -> EventFigures:
    """Tables, players, teams and deals over every section of ``simultaneous``."""
    return EventFigures(
        tables=Table.objects.filter(event__simultaneous=simultaneous).count(),
        entrants=Entrant.objects.filter(event__simultaneous=simultaneous, phantom=False).count(),
        teams=Team.objects.filter(event__simultaneous=simultaneous).count()
        if simultaneous.is_team_event
        else 0,
        deals=Deal.objects.filter(event=simultaneous).count(),
    )


def simultaneous_deal_results(simultaneous: Event, number: int) -> list[TableResult]:
    """Every section's results of deal ``number`` (all its copies), with players and teams,
    each carrying ``section_name``; by section name, then table (one query)."""
    return list(
        TableResult.objects.filter(event__simultaneous=simultaneous, deal__number=number)
        .select_related(*RESULT_RELATED)
        .annotate(section_name=F("event__name"))
        .order_by("event__name", "event_id", "table__number")
    )


def search_simultaneous_entrants(
    simultaneous: Event, query: str, limit: int, *, licences: bool = False
) -> list[Entrant]:
    """Real entrants of every section whose player matches ``query`` (as :func:`search_entrants`),
    at most ``limit``, each carrying ``section_name`` (one query)."""
    entrants = (
        Entrant.objects.filter(event__simultaneous=simultaneous, phantom=False)
        .select_related("player", "team")
        .annotate(section_name=F("event__name"))
    )
    return list(_matching(entrants, query, licences)[:limit])


def section_entrant(simultaneous: Event, entrant_id: int) -> Entrant | None:
    """The real entrant ``entrant_id`` if it plays in a section of ``simultaneous``."""
    return Entrant.objects.filter(
        pk=entrant_id, event__simultaneous=simultaneous, phantom=False
    ).first()


def overall_rank(
    simultaneous: Event, entrant: Entrant, *, complete: bool = False
) -> tuple[int | None, int]:
    """A section player's rank in the simultaneous's overall individual ranking (None while
    unranked) and how many players it ranks (published, or ``complete``)."""
    figures = RankingEntry.objects.filter(
        event=simultaneous,
        kind=RankingEntry.Kind.INDIVIDUAL,
        published=_published(simultaneous.pk, complete),
    ).aggregate(rank=Max("rank", filter=Q(entrant=entrant)), count=Count("id"))
    return figures["rank"], figures["count"]
