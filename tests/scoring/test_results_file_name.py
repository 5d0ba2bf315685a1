"""The results file's download name names the club and the event, in safe characters."""

from __future__ import annotations

import datetime as dt
import re

import pytest

from scoring.views.results_file import _filename
from tests.factories import ClubFactory, EventFactory


@pytest.mark.django_db
def test_the_name_names_the_club_and_the_event_in_safe_characters() -> None:
    club = ClubFactory(name='Tarot Club "L\'Étoile" / Saint-Étienne')
    event = EventFactory(
        club=club, name="Tournoi de Noël: 2ᵉ manche\\..", date=dt.date(2026, 12, 5)
    )
    name = _filename(event, "json")
    assert (
        name == "results-tarot-club-letoile-saint-etienne-tournoi-de-noel-2e-manche-2026-12-05.json"
    )
    assert re.fullmatch(r"[a-z0-9-]+\.json", name)


@pytest.mark.django_db
def test_a_name_without_letters_still_gives_a_name() -> None:
    event = EventFactory(club=ClubFactory(name="!!!"), name="***", date=dt.date(2026, 12, 5))
    assert _filename(event, "csv") == "results-club-event-2026-12-05.csv"
