"""Reading free-deal tournaments: who sees what, the ranking, a player's card, the progress.

Visibility follows ``clubs.access``: a public tournament for everybody, a private one for
the organisers of its club (and superusers) only; anybody else gets a 404.

The ranking (:func:`ranking`) is ``tournaments.movements.free_deal.free_deal_ranking`` over
each player's marks per party, summed from the stored results. With free deals nobody else
plays a table's deals, so every entered result counts at once; the ranking is provisional
until the tournament is finished.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from freedeal.models import FreeDealPlayer, FreeDealResult, FreeDealTournament
from tournaments.movements.free_deal import RankingRow, free_deal_ranking


def entries(tournament: FreeDealTournament) -> dict[int, FreeDealPlayer]:
    """Registered players by number."""
    return {
        entry.number: entry
        for entry in tournament.players.select_related("player", "player__club").order_by("number")
    }


def counted_parties(tournament: FreeDealTournament) -> int:
    """Parties the ranking shows: every party once finished, else those begun."""
    if tournament.status == FreeDealTournament.Status.DRAFT:
        return 0
    if tournament.status == FreeDealTournament.Status.FINISHED:
        return tournament.parties
    return min(tournament.parties, tournament.closed_parties + 1)


def party_marks(tournament: FreeDealTournament) -> dict[int, list[int]]:
    """Each player's marks per counted party (sum over his deals), from the stored results."""
    parties = counted_parties(tournament)
    marks = {number: [0] * parties for number in entries_numbers(tournament)}
    for result in FreeDealResult.objects.filter(tournament=tournament, party__lte=parties):
        for number, mark in result.marks.items():
            marks[int(number)][result.party - 1] += int(mark)
    return marks


def entries_numbers(tournament: FreeDealTournament) -> list[int]:
    return list(tournament.players.order_by("number").values_list("number", flat=True))


@dataclass
class Ranking:
    tournament: FreeDealTournament
    rows: list[RankingRow[int]]
    entries: dict[int, FreeDealPlayer]
    parties: int
    deals_entered: int
    deals_total: int

    @property
    def provisional(self) -> bool:
        return self.tournament.status != FreeDealTournament.Status.FINISHED


def ranking(tournament: FreeDealTournament) -> Ranking:
    marks = party_marks(tournament)
    rows = free_deal_ranking(marks, tournament.tie_break) if marks and all(marks.values()) else []
    tables = tournament.tables.count()
    return Ranking(
        tournament=tournament,
        rows=rows,
        entries=entries(tournament),
        parties=counted_parties(tournament),
        deals_entered=FreeDealResult.objects.filter(tournament=tournament).count(),
        deals_total=tables * tournament.parties * tournament.deals_per_party,
    )


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


def player_card(tournament: FreeDealTournament, number: int) -> list[PartyCard]:
    """A player's parties: his table, the others at it, each deal and his mark."""
    if not tournament.seating:
        return []
    by_number = entries(tournament)
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


def role_of(result: FreeDealResult, number: int) -> str:
    if result.passed:
        return ""
    if result.taker == number:
        return "taker"
    if result.partner == number:
        return "partner"
    return "defence"


def progress(tournament: FreeDealTournament) -> list[dict[str, Any]]:
    """Per party, per table: the deals entered (for the organiser's page)."""
    counts: dict[tuple[int, int], int] = defaultdict(int)
    for party, table in FreeDealResult.objects.filter(tournament=tournament).values_list(
        "party", "table__number"
    ):
        counts[(party, table)] += 1
    tables = list(tournament.tables.order_by("number"))
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
