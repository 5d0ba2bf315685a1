"""Players of equal rank are listed in French order of their names, then by id, by both paths
of the core (``scoring.core.tie_order``), and teams by their names alike."""

from __future__ import annotations

import pytest

from rules.names import sort_key
from scoring.core import (
    Team,
    TournamentInput,
    compute_standings_reference,
    compute_standings_vectorised,
)
from tests.scoring.core.helpers import artificial

#: Entrant ids in the order a plain sort by id gives (the order ties had before).
TIED = {"e1": ("ROUX", "Rémi"), "e2": ("BÉRARD", "Anne"), "e3": ("DUPRÉ", "Léa"),
        "e4": ("GARÇON", "Luc")}  # fmt: skip
NAMES = {ident: sort_key(*name) for ident, name in TIED.items()}


@pytest.mark.parametrize("compute", [compute_standings_reference, compute_standings_vectorised])
def test_equal_ranks_follow_the_names_in_french_order(compute: object) -> None:
    seats = [*artificial(1, 1, "e1 e2 e3 e4", "50 50 50 50"),
             *artificial(1, 2, "e5 e6 e7 e8", "60 40 60 40")]  # fmt: skip
    tournament = TournamentInput.from_results(seats, names=NAMES)
    standings = compute(tournament)  # type: ignore[operator]
    tied = [row.entrant for row in standings.individual if row.rank == 3]
    assert [TIED[ident][0] for ident in tied] == ["BÉRARD", "DUPRÉ", "GARÇON", "ROUX"]
    # without names (an input that gives none), by id as before
    plain = compute(TournamentInput.from_results(seats))  # type: ignore[operator]
    assert [row.entrant for row in plain.individual if row.rank == 3] == ["e1", "e2", "e3", "e4"]


@pytest.mark.parametrize("compute", [compute_standings_reference, compute_standings_vectorised])
def test_equal_teams_follow_their_names_in_french_order(compute: object) -> None:
    seats = [*artificial(1, 1, "e1 e2 e3 e4", "50 50 50 50")]
    teams = [Team("t1", ("e1", "e2"), name="Zèbres"), Team("t2", ("e3", "e4"), name="Écureuils")]
    standings = compute(TournamentInput.from_results(seats, teams=teams))  # type: ignore[operator]
    assert [row.name for row in standings.teams] == ["Écureuils", "Zèbres"]
