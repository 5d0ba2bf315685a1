"""Every read of free-deal tournaments: lists, the ranking, a player's card, the progress, the
seating, the table phone's page, the director's grid and a result's history.

Views and the API read through these functions only (they make no query of their own).
Visibility follows ``clubs.access``: a public tournament for everybody, a private one for the
organisers of its club (and superusers) only; anybody else gets a 404. What a viewer may see of
the results is :func:`freedeal.publication.free_deal_publication` (with free deals nobody else
plays a table's deals, so every entered result shows; provisional until finished).

The ranking (:func:`free_deal_ranking`) is ``freedeal.seating.free_deal_ranking``
over each player's marks per party, summed from the stored results.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import QuerySet
from django.http import HttpRequest

from clubs.access import UserLike, clubs_directed_by, directed_by, visible_to
from clubs.models import Club, Player
from clubs.phone_codes import phone_code_lookup
from clubs.selectors import register_active_players
from freedeal.models import (
    FreeDealChange,
    FreeDealPlayer,
    FreeDealResult,
    FreeDealTable,
    FreeDealTournament,
)
from freedeal.outcomes import default_dealer
from freedeal.seating import RankingRow
from freedeal.seating import free_deal_ranking as rank_by_marks

INDEX_LIMIT = 200


# --------------------------------------------------------------------------- tournaments
def free_deal_list_visible(user: UserLike | None) -> list[FreeDealTournament]:
    """The tournaments ``user`` may see (newest first, at most :data:`INDEX_LIMIT`)."""
    return list(visible_to(user, FreeDealTournament)[:INDEX_LIMIT])


def free_deal_list_directed(user: UserLike | None) -> list[FreeDealTournament]:
    """The tournaments ``user`` directs (newest first)."""
    return list(directed_by(user, FreeDealTournament))


def free_deal_creator_clubs(user: UserLike | None) -> QuerySet[Club]:
    """The clubs in which ``user`` may create a tournament (those he organises)."""
    return clubs_directed_by(user)


def free_deal_may_create(user: UserLike | None) -> bool:
    return clubs_directed_by(user).exists()


# --------------------------------------------------------------------------- players
def free_deal_entries(tournament: FreeDealTournament) -> dict[int, FreeDealPlayer]:
    """Registered players by number."""
    return {
        entry.number: entry
        for entry in tournament.players.select_related("player", "player__club").order_by("number")
    }


def free_deal_entry(tournament: FreeDealTournament, number: int) -> FreeDealPlayer | None:
    """The registered player ``number``, or None."""
    return tournament.players.select_related("player").filter(number=number).first()


def free_deal_names(tournament: FreeDealTournament) -> dict[int, str]:
    """Each registered player's name by number."""
    return {number: str(entry.player) for number, entry in free_deal_entries(tournament).items()}


def free_deal_registrable_players(tournament: FreeDealTournament) -> QuerySet[Player]:
    """The active players of the club's register not registered yet (the registration form's
    choices)."""
    taken = FreeDealPlayer.objects.filter(tournament=tournament).values("player")
    return register_active_players(tournament.club_id).exclude(pk__in=taken)


def free_deal_previous_players(
    tournament: FreeDealTournament,
) -> tuple[FreeDealTournament | None, list[Player]]:
    """The club's latest other free-deal tournament (by date, then creation) not later than
    ``tournament`` and with players, and those of them still active on the register and not
    registered in ``tournament`` yet, in French order."""
    previous = (
        FreeDealTournament.objects.filter(
            club=tournament.club_id, date__lte=tournament.date, players__isnull=False
        )
        .exclude(pk=tournament.pk)
        .order_by("-date", "-pk")
        .first()
    )
    if previous is None:
        return None, []
    players = free_deal_registrable_players(tournament).filter(
        free_deal_entries__tournament=previous
    )
    return previous, list(players)


# --------------------------------------------------------------------------- ranking
def counted_parties(tournament: FreeDealTournament) -> int:
    """Parties the ranking shows: every party once finished, else those begun."""
    if tournament.status == FreeDealTournament.Status.DRAFT:
        return 0
    if tournament.status == FreeDealTournament.Status.FINISHED:
        return tournament.parties
    return min(tournament.parties, tournament.closed_parties + 1)


def free_deal_party_marks(tournament: FreeDealTournament) -> dict[int, list[int]]:
    """Each player's marks per counted party (sum over his deals), from the stored results."""
    parties = counted_parties(tournament)
    numbers = tournament.players.order_by("number").values_list("number", flat=True)
    marks = {number: [0] * parties for number in numbers}
    for result in FreeDealResult.objects.filter(tournament=tournament, party__lte=parties):
        for number, mark in result.marks.items():
            marks[int(number)][result.party - 1] += int(mark)
    return marks


@dataclass
class Ranking:
    tournament: FreeDealTournament
    rows: list[RankingRow[int]]
    entries: dict[int, FreeDealPlayer]
    parties: int
    deals_entered: int
    deals_total: int


def free_deal_ranking(tournament: FreeDealTournament) -> Ranking:
    """The ranking as it stands (see the module docstring)."""
    marks = free_deal_party_marks(tournament)
    rows = rank_by_marks(marks, tournament.tie_break) if marks and all(marks.values()) else []
    tables = tournament.tables.count()
    return Ranking(
        tournament=tournament,
        rows=rows,
        entries=free_deal_entries(tournament),
        parties=counted_parties(tournament),
        deals_entered=FreeDealResult.objects.filter(tournament=tournament).count(),
        deals_total=tables * tournament.parties * tournament.deals_per_party,
    )


# --------------------------------------------------------------------------- player card
@dataclass
class PartyCard:
    party: int
    table: int
    players: list[FreeDealPlayer]
    results: list[FreeDealResult]
    mark: int
    missing: int = 0
    deals: list[dict[str, Any]] = field(default_factory=list)


def table_of(tournament: FreeDealTournament, party: int, number: int) -> int | None:
    """The table where player ``number`` sits in ``party`` (None before the start)."""
    for index, table in enumerate(tournament.seating[party - 1] if tournament.seating else []):
        if number in table:
            return index + 1
    return None


def role_of(result: FreeDealResult, number: int) -> str:
    if result.passed:
        return ""
    if result.taker == number:
        return "taker"
    if result.partner == number:
        return "partner"
    return "defence"


def free_deal_player_card(tournament: FreeDealTournament, number: int) -> list[PartyCard]:
    """A player's parties: his table, the others at it, each deal and his mark."""
    if not tournament.seating:
        return []
    by_number = free_deal_entries(tournament)
    results: dict[tuple[int, int], list[FreeDealResult]] = defaultdict(list)
    for result in FreeDealResult.objects.filter(tournament=tournament).select_related("table"):
        results[(result.party, result.table.number)].append(result)
    cards = []
    for party in range(1, tournament.parties + 1):
        table = table_of(tournament, party, number)
        if table is None:
            continue
        seated = tournament.table_players(party, table)
        played = sorted(results[(party, table)], key=lambda r: r.deal)
        cards.append(
            PartyCard(
                party=party,
                table=table,
                players=[by_number[n] for n in seated],
                results=played,
                mark=sum(r.mark_of(number) for r in played),
                missing=tournament.deals_per_party - len(played),
                deals=[
                    {
                        "result": r,
                        "mark": r.mark_of(number),
                        "taker": by_number.get(r.taker) if r.taker else None,
                        "partner": by_number.get(r.partner) if r.partner else None,
                        "role": role_of(r, number),
                    }
                    for r in played
                ],
            )
        )
    return cards


# --------------------------------------------------------------------------- seating
def free_deal_seating(tournament: FreeDealTournament) -> list[dict[str, Any]]:
    """Party by party, who sits at each table (the seating page)."""
    by_number = free_deal_entries(tournament)
    return [
        {
            "party": index + 1,
            "tables": [
                {"number": t + 1, "players": [by_number[n] for n in table]}
                for t, table in enumerate(party)
            ],
        }
        for index, party in enumerate(tournament.seating or [])
    ]


# --------------------------------------------------------------------------- director
def free_deal_tables(tournament: FreeDealTournament) -> list[FreeDealTable]:
    return list(tournament.tables.order_by("number"))


def free_deal_table_by_number(tournament: FreeDealTournament, number: int) -> FreeDealTable | None:
    return tournament.tables.filter(number=number).first()


def free_deal_missing_deals(tournament: FreeDealTournament, party: int) -> list[tuple[int, int]]:
    """(table number, deal) pairs of ``party`` without a result."""
    entered = set(
        FreeDealResult.objects.filter(tournament=tournament, party=party).values_list(
            "table__number", "deal"
        )
    )
    return [
        (table, deal)
        for table in tournament.tables.order_by("number").values_list("number", flat=True)
        for deal in range(1, tournament.deals_per_party + 1)
        if (table, deal) not in entered
    ]


def free_deal_open_party_missing(tournament: FreeDealTournament) -> list[tuple[int, int]]:
    """The missing deals of the open party (none when no party is open)."""
    party = tournament.open_party
    return free_deal_missing_deals(tournament, party) if party else []


def free_deal_progress(tournament: FreeDealTournament) -> list[dict[str, Any]]:
    """Per party, per table: the deals entered (for the organiser's page)."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for party, table in FreeDealResult.objects.filter(tournament=tournament).values_list(
        "party", "table__number"
    ):
        counts[(party, table)] += 1
    tables = free_deal_tables(tournament)
    return [
        {
            "party": party,
            "closed": party <= tournament.closed_parties,
            "open": party == tournament.open_party,
            "tables": [{"table": t, "entered": counts[(party, t.number)]} for t in tables],
            "complete": all(
                counts[(party, t.number)] >= tournament.deals_per_party for t in tables
            ),
        }
        for party in range(1, tournament.parties + 1)
    ]


def free_deal_results_grid(tournament: FreeDealTournament) -> list[dict[str, Any]]:
    """Per party begun, per table: each deal's result (or None), for the director's grid."""
    tables = free_deal_tables(tournament)
    results = {
        (r.party, r.table_id, r.deal): r
        for r in FreeDealResult.objects.filter(tournament=tournament)
    }
    names = free_deal_names(tournament)
    last = tournament.open_party or tournament.parties
    return [
        {
            "party": party,
            "tables": [
                {
                    "table": t,
                    "players": [
                        (n, names.get(n, "")) for n in tournament.table_players(party, t.number)
                    ],
                    "deals": [
                        (deal, results.get((party, t.pk, deal)))
                        for deal in range(1, tournament.deals_per_party + 1)
                    ],
                }
                for t in tables
            ],
        }
        for party in range(1, last + 1)
    ]


def free_deal_result(table: FreeDealTable, party: int, deal: int) -> FreeDealResult | None:
    """The stored result of ``deal`` of ``party`` at ``table``, or None."""
    return (
        FreeDealResult.objects.select_related("table")
        .filter(table=table, party=party, deal=deal)
        .first()
    )


def free_deal_result_history(result: FreeDealResult | None) -> list[FreeDealChange]:
    """The append-only history of a result, oldest first (empty without a result)."""
    if result is None:
        return []
    return list(result.history.select_related("actor").order_by("at", "pk"))


# --------------------------------------------------------------------------- table phone
def free_deal_table_for_code(request: HttpRequest | Any, code: str) -> FreeDealTable:
    """The table of ``code`` through the kernel's one lookup (unknown: ``UnknownCode``, one
    failure counted for the address; too many: ``CodeThrottled``)."""
    queryset = FreeDealTable.objects.select_related("tournament__club")
    return phone_code_lookup(request, queryset, code)


def free_deal_table_queryset() -> QuerySet[FreeDealTable]:
    """What the table-phone API looks codes up in (``PhoneCodeAPIView.phone_queryset``)."""
    return FreeDealTable.objects.select_related("tournament__club")


@dataclass(frozen=True)
class TableDeal:
    """One deal of a table's party: its dealer and its stored result (None: not entered)."""

    number: int
    dealer: int
    dealer_name: str
    result: FreeDealResult | None


@dataclass(frozen=True)
class TablePage:
    """What a table phone reads: the open party at its table (``party`` None when none is)."""

    tournament: FreeDealTournament
    table: FreeDealTable
    party: int | None
    seated: tuple[int, ...]
    names: dict[int, str]
    deals: list[TableDeal]

    @property
    def players(self) -> list[tuple[int, str]]:
        return [(n, self.names.get(n, "")) for n in self.seated]

    @property
    def totals(self) -> list[tuple[int, str, int]]:
        """Each player's marks over the party's entered deals."""
        return [
            (n, name, sum(d.result.mark_of(n) for d in self.deals if d.result is not None))
            for n, name in self.players
        ]

    def marks(self, result: FreeDealResult) -> list[tuple[int, str, int]]:
        return [(n, name, result.mark_of(n)) for n, name in self.players]


def free_deal_table_page(table: FreeDealTable) -> TablePage:
    """The open party at ``table``: its players, its deals and their results."""
    tournament = table.tournament
    party = tournament.open_party
    names = free_deal_names(tournament)
    if party is None:
        return TablePage(tournament, table, None, (), names, [])
    seated = tournament.table_players(party, table.number)
    results = {r.deal: r for r in FreeDealResult.objects.filter(table=table, party=party)}
    deals = [
        TableDeal(
            number=deal,
            dealer=default_dealer(seated, deal),
            dealer_name=names.get(default_dealer(seated, deal), ""),
            result=results.get(deal),
        )
        for deal in range(1, tournament.deals_per_party + 1)
    ]
    return TablePage(tournament, table, party, seated, names, deals)
