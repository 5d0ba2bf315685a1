"""The results file for the league (issue 24): an individual, a quadrette and a simultaneous
event with outcomes computed by hand (``results_file_world``), their files validated against
``docs/results-file.schema.json`` and compared with files written by hand
(``expected/results-*.json`` and ``.csv``; the ids of the database, ``generated_at`` and the
software version left out), and who may download them."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext
from jsonschema import Draft202012Validator

from scoring.results_file import CSV_COLUMNS, FORMAT_ID, results_document, software_version
from tests.builders import team_event
from tests.factories import OrganiserFactory, UserFactory
from tests.scoring import results_file_world as world
from tournaments.models import Event

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "docs" / "results-file.schema.json").read_text(encoding="utf-8"))
EXPECTED = Path(__file__).resolve().parent / "expected"
NOT_FINISHED = (
    "The results file exists once the event is finished: finish it from its page when every "
    "result is in."
)
SECTION_HAS_NONE = (
    "A section has no results file of its own: the league's file is the simultaneous's, which "
    "covers every section."
)


#: The club and the event as their file names name them (slugified: ASCII, no accents).
NAMES = {
    "individual": "tarot-club-de-lyon-individuel-de-decembre",
    "quadrette": "tarot-club-de-lyon-quadrettes-de-decembre",
    "simultaneous": "comite-du-lyonnais-simultane-du-comite",
}


def url(event: Event, fmt: str, language: str = "fr") -> str:
    prefix = "" if language == "fr" else f"/{language}"
    return f"{prefix}/organiser/events/{event.pk}/results-file.{fmt}"


def organiser_client(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def built(kind: str) -> Event:
    if kind == "individual":
        return world.individual_event()
    if kind == "quadrette":
        return world.quadrette_event()
    return world.simultaneous_event()[0]


def validate(document: dict[str, Any]) -> None:
    validator = Draft202012Validator(SCHEMA, format_checker=Draft202012Validator.FORMAT_CHECKER)
    errors = sorted(validator.iter_errors(document), key=lambda error: list(error.path))
    assert not errors, [f"{list(error.path)}: {error.message}" for error in errors]


def without_ids_and_times(document: dict[str, Any]) -> dict[str, Any]:
    """The document with what differs from one run to another neutralised: the database ids
    (0), generated_at and the software version (left out)."""
    document = json.loads(json.dumps(document))
    generated = dt.datetime.fromisoformat(document.pop("generated_at"))
    assert generated.utcoffset() == dt.timedelta(0)
    assert document["software"].pop("version") == software_version()
    document["event"]["id"] = 0
    for section in document["event"]["sections"]:
        section["id"] = 0
    return document


def french(message: str) -> str:
    """``message`` as the French pages show it (the catalogue's translation, once it has one)."""
    with translation.override("fr"):
        return gettext(message)


def expected_csv(kind: str, event: Event) -> str:
    text = (EXPECTED / f"results-{kind}.csv").read_text(encoding="utf-8")
    return text.replace("EVENT_ID", str(event.pk)).replace("\n", "\r\n")


@pytest.mark.parametrize("kind", ["individual", "quadrette", "simultaneous"])
def test_the_files_match_the_schema_and_the_hand_written_files(kind: str) -> None:
    event = built(kind)
    client = organiser_client(event)

    response = client.get(url(event, "json"))
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json; charset=utf-8"
    assert response["Content-Disposition"] == (
        f'attachment; filename="results-{NAMES[kind]}-2026-12-05.json"'
    )
    assert response["Cache-Control"] == "private, no-store"
    document = json.loads(response.content.decode("utf-8"))
    validate(document)
    assert document["format"] == FORMAT_ID
    expected = json.loads((EXPECTED / f"results-{kind}.json").read_text(encoding="utf-8"))
    assert without_ids_and_times(document) == expected
    assert document["event"]["id"] == event.pk

    response = client.get(url(event, "csv"))
    assert response.status_code == 200
    assert response["Content-Type"] == "text/csv; charset=utf-8; header=present"
    assert response["Content-Disposition"] == (
        f'attachment; filename="results-{NAMES[kind]}-2026-12-05.csv"'
    )
    text = response.content.decode("utf-8")
    assert not text.startswith("\ufeff")
    assert text == expected_csv(kind, event)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    assert rows[0] == list(CSV_COLUMNS)
    assert len(rows) == len(document["ranking"]) + 1
    assert {len(row) for row in rows} == {len(CSV_COLUMNS)}


def test_the_files_do_not_depend_on_the_language() -> None:
    event = world.individual_event()
    client = organiser_client(event)
    for fmt in ("csv", "json"):
        french = client.get(url(event, fmt, "fr")).content.decode("utf-8")
        english = client.get(url(event, fmt, "en")).content.decode("utf-8")
        if fmt == "json":
            french, english = (json.loads(text) for text in (french, english))
            for document in (french, english):
                document.pop("generated_at")
        assert french == english


def test_a_guest_has_a_null_licence_and_formula_like_names_are_quoted() -> None:
    event = world.individual_event()
    client = organiser_client(event)
    document = client.get(url(event, "json")).json()
    faure = next(row for row in document["ranking"] if row["last_name"] == "Faure")
    assert faure["licence"] is None and faure["club"] is None and faure["category"] == ""
    henry = next(row for row in document["ranking"] if row["first_name"] == "Hugo")
    assert henry["last_name"] == "=Henry"  # the JSON holds the name as it is
    rows = list(csv.DictReader(io.StringIO(client.get(url(event, "csv")).content.decode())))
    assert next(row for row in rows if row["first_name"] == "Émile")["licence"] == ""
    assert next(row for row in rows if row["first_name"] == "Hugo")["last_name"] == "'=Henry"


def test_only_the_event_organisers_download_it() -> None:
    event = world.individual_event()
    first = OrganiserFactory(clubs=[event.club])
    co_organiser = OrganiserFactory(clubs=[event.club])
    assert first.pk != co_organiser.pk
    for fmt in ("json", "csv"):
        anonymous = Client().get(url(event, fmt))
        assert anonymous.status_code == 302 and "/login/" in anonymous["Location"]
        other = Client()
        other.force_login(OrganiserFactory())  # an organiser of another club
        assert other.get(url(event, fmt)).status_code == 404
        signed_in = Client()
        signed_in.force_login(UserFactory())  # an account that organises nothing
        assert signed_in.get(url(event, fmt)).status_code == 404
        allowed = Client()
        allowed.force_login(co_organiser)
        assert allowed.get(url(event, fmt)).status_code == 200
        assert allowed.post(url(event, fmt)).status_code == 405
    assert organiser_client(event).get(url(event, "xlsx")).status_code == 404


def test_an_event_not_finished_has_no_file_yet() -> None:
    event = world.individual_event(finish=False)
    assert event.status == Event.Status.RUNNING
    client = organiser_client(event)
    for fmt in ("json", "csv"):
        response = client.get(url(event, fmt))
        assert response.status_code == 409
        assert response["Content-Type"].startswith("text/html")
        assert french(NOT_FINISHED) in response.text
    english = client.get(url(event, "csv", "en"))
    assert english.status_code == 409
    assert NOT_FINISHED in english.text
    page = client.get(f"/organiser/events/{event.pk}/")
    assert "results-file-csv" not in page.text


def test_standings_still_being_computed_have_no_file_yet() -> None:
    event = world.individual_event()
    Event.objects.filter(pk=event.pk).update(results_version=event.results_version + 1)
    response = organiser_client(event).get(url(event, "json"))
    assert response.status_code == 409
    assert french("The final rankings are still being computed: try again in a moment.") in (
        response.text
    )


def test_the_organiser_page_links_the_file_once_finished() -> None:
    event = world.individual_event()
    page = organiser_client(event).get(f"/organiser/events/{event.pk}/")
    assert page.status_code == 200
    assert french("Results file for the league") in page.text
    assert f'href="/organiser/events/{event.pk}/results-file.csv"' in page.text
    assert f'href="/organiser/events/{event.pk}/results-file.json"' in page.text


def test_a_section_points_to_its_simultaneous_file() -> None:
    parent, sections = world.simultaneous_event()
    section = sections[1]
    league = organiser_client(parent)  # directs the simultaneous and every section
    response = league.get(url(section, "csv"))
    assert response.status_code == 409
    assert french(SECTION_HAS_NONE) in response.text
    assert f'href="/organiser/events/{parent.pk}/results-file.csv"' in response.text
    page = league.get(f"/organiser/events/{parent.pk}/")
    assert f'href="/organiser/events/{parent.pk}/results-file.json"' in page.text
    section_page = league.get(f"/organiser/events/{section.pk}/")
    assert (
        french("Results file for the league: the simultaneous's, which covers every section.")
        in section_page.text
    )
    assert f"/organiser/events/{section.pk}/results-file." not in section_page.text
    assert f'href="/organiser/events/{parent.pk}/results-file.csv"' in section_page.text

    local = organiser_client(section)  # directs the section only
    response = local.get(url(section, "json"))
    assert response.status_code == 409
    assert "Comité du Lyonnais" in response.text
    assert f"/organiser/events/{parent.pk}/results-file" not in response.text
    assert local.get(url(parent, "json")).status_code == 404
    section_page = local.get(f"/organiser/events/{section.pk}/")
    assert "results-file" in section_page.text
    assert f"/organiser/events/{parent.pk}/results-file" not in section_page.text


def test_a_simultaneous_has_its_file_once_every_section_is_finished() -> None:
    parent, _ = world.simultaneous_event(finish_all=False)
    assert parent.status == Event.Status.RUNNING
    response = organiser_client(parent).get(url(parent, "json"))
    assert response.status_code == 409
    assert (
        french(
            "The results file exists once the simultaneous is finished, that is once every "
            "section is finished."
        )
        in response.text
    )


def test_the_schema_is_versioned_with_the_format() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["properties"]["format"] == {
        "description": SCHEMA["properties"]["format"]["description"],
        "const": FORMAT_ID,
    }
    assert SCHEMA["$id"].endswith(":" + FORMAT_ID.rsplit("/", 1)[1])
    documentation = (ROOT / "docs" / "results-file.md").read_text(encoding="utf-8")
    assert FORMAT_ID in documentation
    for column in CSV_COLUMNS:  # every CSV column is documented
        assert f"`{column}`" in documentation


def test_the_document_takes_a_bounded_number_of_queries(django_assert_max_num_queries) -> None:
    """No query per player: 7 queries for the 16 players of the simultaneous (as for 800)."""
    parent, _ = world.simultaneous_event()
    parent = Event.objects.select_related("club").get(pk=parent.pk)
    with django_assert_max_num_queries(8):
        document = results_document(parent)
    assert len(document["ranking"]) == 16


def test_a_triplette_file_ranks_the_teams_by_percentage_without_points_de_match() -> None:
    event = team_event(format=Event.Format.TRIPLETTE, teams=4)
    response = organiser_client(event).get(url(event, "json"))
    assert response.status_code == 200
    document = response.json()
    validate(document)
    assert document["event"]["team_ranking_by"] == "percentage"
    teams = document["team_ranking"]
    assert len(teams) == 4 and all(len(team["members"]) == 3 for team in teams)
    assert all(team["points_de_match"] is None for team in teams)
    percentages = [Decimal(team["percentage"]) for team in teams]
    assert percentages == sorted(percentages, reverse=True)
    ranks = {team["number"]: team["rank"] for team in teams}
    assert all(row["team_rank"] == ranks[row["team_number"]] for row in document["ranking"])
    assert len(document["ranking"]) == 12
