"""French pages say things in French (issue #11, defect 6): no raw codes, French seat letters,
plural forms, French typography, localized dates, a working movement import card, the event's
club by default, translated movement warnings, and CSV exports a French spreadsheet reads.

Browser-only checks (flash message styles, the penalty form's layout, the favicon) are in
``tests/browser/test_french_wording.py``. Pages under ``/`` are French, under ``/en/`` English.
"""

from __future__ import annotations

import csv
import io
import re
from decimal import Decimal

import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.utils import translation

from clubs import typography
from tests.builders import GARDE_46, first_play, running_event, scored_event
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import presentation, services
from tournaments.models import Event, TableResult

pytestmark = pytest.mark.django_db

NNBSP = "\u202f"  # narrow no-break space: French typography before % and :
ISO_DATE = re.compile(r"\b20\d\d-\d\d-\d\d\b")


def main_of(response) -> str:
    """The page's ``<main>``: what the reader sees, without the header or hidden inputs."""
    html = response.content.decode()
    start = html.index("<main")
    return html[start : html.index("</main>", start)]


def logged_in(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


@pytest.fixture
def corrected() -> tuple[Event, Client, str]:
    """A running event whose first result (a Garde, 2 oudlers, 46 points) was corrected to
    1 oudler and 36 points (value -80), then turned into artificial scores."""
    event = running_event(tables=5, rounds=2)
    client = logged_in(event)
    table, deal, _play = first_play(event)
    services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    url = f"/organiser/events/{event.pk}/entry/table/{table.number}/deal/{deal.number}/"
    correction = {
        "action": "correct",
        "correct-taker_seat": deal.taker_seat,
        "correct-contract": "garde",
        "correct-oudlers": "1",
        "correct-points": "36",
        "correct-reason": "miscount",
    }
    assert client.post(url, correction).status_code == 302
    assert TableResult.objects.get().value == -80
    return event, client, url


# ---------------------------------------------------------------- history and results


def test_the_history_shows_results_in_words_with_french_dates(corrected) -> None:
    event, client, _url = corrected
    deal = TableResult.objects.get().deal
    html = main_of(client.get(f"/organiser/events/{event.pk}/entry/history/"))
    assert "played" not in html
    with translation.override("fr"):
        taker = presentation.seat_letter(deal.taker_seat)
    assert f"Garde · preneur {taker} · " in html
    assert "Valeur 60" in html and "Valeur -80" in html
    assert "36 points" in html and "46 points" in html
    assert not ISO_DATE.search(html)
    assert re.search(r"\d\d/\d\d/20\d\d \d\d:\d\d", html)  # SHORT_DATETIME_FORMAT in French


def test_the_history_names_artificial_scores_by_french_seat_letters(corrected) -> None:
    event, client, url = corrected
    artificial = {
        "action": "artificial",
        "artificial-N": "60",
        "artificial-E": "40",
        "artificial-S": "60",
        "artificial-W": "40",
        "artificial-reason": "fouled",
    }
    assert client.post(url, artificial).status_code == 302
    html = main_of(client.get(f"/organiser/events/{event.pk}/entry/history/"))
    shares = f"N 60,00{NNBSP}% · E 40,00{NNBSP}% · S 60,00{NNBSP}% · O 40,00{NNBSP}%"
    assert f"Scores ajustés{NNBSP}: {shares}" in html
    assert " W " not in html
    # The result page shows them the same way.
    html = main_of(client.get(url))
    assert f"O 40,00{NNBSP}%" in html and "W 40" not in html


def test_oudlers_take_the_plural_only_from_two(corrected) -> None:
    event, client, url = corrected
    english = " ".join(main_of(client.get(f"/en{url}")).split())
    assert "· 1 oudler ·" in english and "1 oudlers" not in english
    history = main_of(client.get(f"/en/organiser/events/{event.pk}/entry/history/"))
    assert "1 oudler ·" in history and "2 oudlers ·" in history
    assert "1 oudlers" not in history
    with translation.override("en"):
        assert [presentation.oudlers_text(n) for n in (0, 1, 2, 3)] == [
            "0 oudlers", "1 oudler", "2 oudlers", "3 oudlers"
        ]  # fmt: skip


def test_the_new_wording_reads_in_french(corrected) -> None:
    event, client, url = corrected
    page = " ".join(main_of(client.get(url)).split())
    assert "· 1 bout ·" in page and " oudler" not in page
    history = main_of(client.get(f"/organiser/events/{event.pk}/entry/history/"))
    assert "· 1 bout ·" in history and "· 2 bouts ·" in history and "oudler" not in history
    draft = EventFactory(club=event.club)
    for _ in range(13):
        services.entrant_register(event=draft, player=PlayerFactory())
    movement = main_of(client.get(f"/organiser/events/{draft.pk}/movement/"))
    assert "Une paire de joueurs peut se rencontrer jusqu" in movement
    assert "A pair of players" not in movement


# ---------------------------------------------------------------- typography


def test_percentages_and_colons_follow_french_typography() -> None:
    with translation.override("fr"):
        assert presentation.percent_text(Decimal("12.5")) == f"12,5{NNBSP}%"
        assert presentation.percent_text(50) == f"50{NNBSP}%"
        assert presentation.percent_text(None) == ""
        assert typography.colon() == f"{NNBSP}:"
    with translation.override("en"):
        assert presentation.percent_text(Decimal("12.5")) == "12.5%"
        assert typography.colon() == ":"


def test_a_penalty_error_names_its_field_with_a_french_colon() -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    client = logged_in(event)
    response = client.post(
        f"/organiser/events/{event.pk}/entry/penalties/", {"points": "1", "reason": "retard"}
    )
    assert response.status_code == 400
    html = main_of(response)
    assert f"Joueur{NNBSP}: " in html and "Joueur: " not in html


# ---------------------------------------------------------------- organiser pages


def test_organiser_pages_show_french_dates_not_iso_ones() -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)  # 5 December 2026
    client = logged_in(event)
    for path in (
        "/organiser/",
        f"/organiser/events/{event.pk}/",
        f"/organiser/events/{event.pk}/players/",
        f"/organiser/events/{event.pk}/print/tables/",
        f"/organiser/events/{event.pk}/print/routes/",
    ):
        response = client.get(path)
        assert response.status_code == 200, path
        html = main_of(response)
        assert "5 décembre 2026" in html, path
        assert not ISO_DATE.search(html), path
    english = main_of(client.get(f"/en/organiser/events/{event.pk}/"))
    assert "Dec. 5, 2026" in english and "2026-12-05" not in english


def test_the_movement_import_card_shows_its_file_field_at_once() -> None:
    event = EventFactory()
    for _ in range(12):
        services.entrant_register(event=event, player=PlayerFactory())
    html = main_of(logged_in(event).get(f"/organiser/events/{event.pk}/movement/"))
    card = html[html.index('id="movement-import-form"') :]
    card = card[: card.index("</form>")]
    assert 'type="file"' in card and 'name="file"' in card


def test_a_new_player_joins_the_events_club_by_default() -> None:
    club = ClubFactory(name="Tarot Club de Brest")
    ClubFactory(name="Another club")
    event = EventFactory(club=club)
    html = main_of(logged_in(event).get(f"/organiser/events/{event.pk}/players/"))
    form = html[html.index('id="player-form"') :]
    form = form[: form.index("</form>")]
    clubs = form[form.index('name="club"') :]
    clubs = clubs[: clubs.index("</select>")]
    assert re.search(rf'<option value="{club.pk}" selected>Tarot Club de Brest</option>', clubs)
    assert clubs.count(" selected>") == 1


def test_the_movement_warning_for_13_players_is_translated() -> None:
    event = EventFactory()
    for _ in range(13):
        services.entrant_register(event=event, player=PlayerFactory())
    client = logged_in(event)
    english = main_of(client.get(f"/en/organiser/events/{event.pk}/movement/"))
    assert "the document allows" not in english
    assert "A pair of players may meet up to 2× (default for this movement: 1×)." in english
    french = main_of(client.get(f"/organiser/events/{event.pk}/movement/"))
    assert "the document allows" not in french


def test_every_movement_warning_code_has_its_sentence() -> None:
    cases = {
        "max_meetings_relaxed": (
            "the document allows 3 meetings per pair (default for a line movement: 1)",
            "A pair of players may meet up to 3× (default for this movement: 1×).",
        ),
        "bye_spread": ("byes per entrant range 0..2", "Byes per player range from 0 to 2."),
        "bye_order": (
            "round 4: an entrant sits out twice before everyone has sat out once",
            "Round 4: a player sits out a second time before every player has sat out once.",
        ),
        "bye_twice_in_a_row": (
            "entrant 7 sits out two rounds in a row",
            "Entrant 7 sits out two rounds in a row.",
        ),
        "something_new": ("a new check", "a new check"),
    }
    with translation.override("en"):
        for code, (message, sentence) in cases.items():
            assert presentation.movement_warning_text(code, message) == sentence


# ---------------------------------------------------------------- CSV exports


def read_csv(content: bytes, delimiter: str) -> list[list[str]]:
    text = content.decode("utf-8")
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text.removeprefix("\ufeff")), delimiter=delimiter))


def test_french_csv_uses_semicolons_decimal_commas_and_french_seat_letters() -> None:
    event = scored_event(tables=3, deals_per_round=1)
    client = Client()
    content = client.get(f"/events/{event.pk}/export/results.csv").content
    assert content.decode("utf-8").splitlines()[0].count(";") > 20
    header, *rows = read_csv(content, ";")
    assert header[3:7] == ["Joueur N", "Joueur E", "Joueur S", "Joueur O"]
    assert "Joueur W" not in header and "Marque O" in header and "Pourcentage O" in header
    column = {name: index for index, name in enumerate(header)}
    percentages = [row[column["Pourcentage O"]] for row in rows]
    assert percentages and all(re.fullmatch(r"\d+,\d+", p) for p in percentages), percentages
    assert {row[column["Place du preneur"]] for row in rows} <= {"N", "E", "S", "O"}
    ranking_header, *ranking = read_csv(
        client.get(f"/events/{event.pk}/export/ranking.csv").content, ";"
    )
    assert all(
        re.fullmatch(r"\d+,\d+", row[ranking_header.index("Pourcentage")]) for row in ranking
    )


def test_english_csv_keeps_commas_and_decimal_points() -> None:
    event = scored_event(tables=3, deals_per_round=1)
    header, *rows = read_csv(Client().get(f"/en/events/{event.pk}/export/results.csv").content, ",")
    assert header[3:7] == ["Player N", "Player E", "Player S", "Player W"]
    column = header.index("Percentage W")
    assert rows and all(re.fullmatch(r"\d+\.\d+", row[column]) for row in rows)


# ---------------------------------------------------------------- favicon


def test_every_page_links_a_favicon_served_with_the_app() -> None:
    html = Client().get("/").content.decode()
    link = re.search(r'<link rel="icon" href="/static/(?P<path>[^"]+)"', html)
    assert link, "base.html links no favicon"
    assert finders.find(link["path"]) is not None
