"""A club's own evening from an empty data folder, in Chromium, on the serve command.

``duplitarot serve`` starts on a folder of the test → the first-run page (a wrong setup code
refused) → the club and its organiser created → 12 players imported into the club's register →
an individual event set up from the register and started → round 1 entered from three phones →
the event finished → the server restarted: everything there → the last backup restored into
another empty folder, served: the same rankings.
"""

from __future__ import annotations

import json
import random
import re
import sqlite3
import time
from pathlib import Path
from typing import Any

import pytest

from clubs.outcomes import prepared_hands
from rules.enums import Contract
from rules.feasibility import feasible_points
from rules.hand_checks import fitting_outcome
from tests.instance.serving import Served, run_command, serve
from tournaments.models import SEATS

pytestmark = [pytest.mark.browser, pytest.mark.integration, pytest.mark.xdist_group("services")]

PASSWORD = "le-petit-au-bout"
PHONE = {"width": 390, "height": 844}


def _rows(database: Path, sql: str, *params: Any) -> list[tuple[Any, ...]]:
    with sqlite3.connect(f"file:{database}?mode=ro", uri=True, timeout=30) as db:
        rows = db.execute(sql, params).fetchall()
    db.close()
    return rows


def _register_csv(path: Path) -> Path:
    lines = ["Nom;Prénom;Licence;Catégorie;Actif"]
    lines += [f"Joueur{n:02d};Prénom{n:02d};{7_100_000 + n};Senior;oui" for n in range(1, 13)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8-sig")
    return path


def _outcome(rng: random.Random, cards: str, taker_seat: str) -> dict[str, Any]:
    """A Garde the deal's cards allow (no petit au bout: what two taps and the points give)."""

    def draw() -> dict[str, Any]:
        reachable = feasible_points(4, Contract("garde"), 1, None, None)
        oudlers = rng.choice([count for count in range(4) if reachable[count]])
        points = rng.choice(sorted(h for h in reachable[oudlers] if h % 2 == 0)) // 2
        return {"contract": "garde", "oudlers": oudlers, "points": points}

    return fitting_outcome(draw, prepared_hands(cards), SEATS.index(taker_seat))


def _log_in(page: Any, base: str) -> None:
    page.goto(f"{base}/login/")
    page.fill("#id_username", "marie")
    page.fill("#id_password", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_url(re.compile(r"/organiser/$"))


def _rankings(page: Any, base: str, event_id: int) -> Any:
    """The event's rankings once its standings are up to date (the runner recomputes them off
    the request: within seconds)."""
    deadline = time.monotonic() + 60
    while True:
        response = page.request.get(f"{base}/api/v1/events/{event_id}/rankings/")
        assert response.status == 200, response.text()
        body = response.json()
        if body["status"]["state"] != "behind" or time.monotonic() > deadline:
            # When they were computed is no figure (a restored backup may predate the last
            # recompute: the server recomputes at start, from the same results).
            body["status"].pop("computed_at")
            return body
        time.sleep(0.2)


def test_a_club_evening_from_an_empty_data_folder(new_page: Any, tmp_path: Path) -> None:
    data = tmp_path / "club"
    served: Served | None = serve(data)
    assert served is not None and served.setup_code
    database = data / "duplitarot.sqlite3"
    base = served.url
    page = new_page(locale="fr-FR", viewport={"width": 1366, "height": 900})
    try:
        # First run: every page leads there; a wrong code is refused, the right one works.
        page.goto(f"{base}/")
        page.wait_for_url(re.compile(r"/setup/$"))
        page.fill("#id_setup_code", "AAAA-BBBB-CCCC-DDDD")
        page.fill("#id_club_name", "Tarot Club de Lyon")
        page.fill("#id_city", "Lyon")
        page.fill("#id_username", "marie")
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("#setup-form button[type=submit]")
        assert "n’est pas le code d’installation" in page.inner_text("#setup-form")
        assert _rows(database, "SELECT count(*) FROM auth_user") == [(0,)]
        page.fill("#id_setup_code", served.setup_code.lower())
        page.fill("#id_password1", PASSWORD)
        page.fill("#id_password2", PASSWORD)
        page.click("#setup-form button[type=submit]")
        page.wait_for_url(re.compile(r"/organiser/$"))
        [(club_id,)] = _rows(database, "SELECT id FROM clubs_club")

        # The register: 12 players from a CSV file.
        page.goto(f"{base}/organiser/clubs/{club_id}/register/import/")
        page.set_input_files("input[type=file]", str(_register_csv(tmp_path / "joueurs.csv")))
        page.locator("main form button[type=submit]").click()
        page.wait_for_selector("#import-report")
        assert _rows(database, "SELECT count(*) FROM clubs_membership") == [(12,)]

        # An individual event on 3 tables, its players from the register (the same file:
        # known licences, nobody created twice), 2 rounds of 2 deals, started.
        page.goto(f"{base}/organiser/events/new/")
        page.fill("#id_name", "Tournoi du vendredi")
        page.fill("#id_date", "2026-11-27")
        page.select_option("#id_club", str(club_id))
        page.select_option("#id_format", "individual")
        page.fill("#id_deals_per_round", "2")
        page.click("#event-form button[type=submit]")
        page.wait_for_url(re.compile(r"/players/$"))
        [(event_id,)] = _rows(database, "SELECT id FROM tournaments_event")
        page.set_input_files("#import-form input[type=file]", str(tmp_path / "joueurs.csv"))
        page.click("#import-form button[type=submit]")
        page.wait_for_selector("#import-report")
        assert _rows(database, "SELECT count(*) FROM clubs_player") == [(12,)]
        entrants = "SELECT count(*) FROM tournaments_entrant WHERE event_id = ?"
        assert _rows(database, entrants, event_id) == [(12,)]
        page.goto(f"{base}/organiser/events/{event_id}/movement/?tables=3&rounds=2&seed=1")
        page.click("#movement-form button[type=submit]")
        page.wait_for_url(re.compile(r"/deals/$"))
        page.fill("#deals-generate-form #id_seed", "2026")
        page.click("#deals-generate-form button[type=submit]")
        page.wait_for_url(re.compile(rf"/organiser/events/{event_id}/$"))
        page.get_by_role("button", name="Lancer le tournoi").click()
        page.wait_for_selector("#finish-event")

        # Round 1 from three phones, one per table.
        rng = random.Random(11)
        tables = _rows(
            database, "SELECT number, code FROM tournaments_table WHERE event_id = ?", event_id
        )
        assert len(tables) == 3
        for _number, code in sorted(tables):
            phone = new_page(locale="fr-FR", viewport=PHONE, is_mobile=True, has_touch=True)
            phone.goto(f"{base}/table/{code}/")
            numbers = [
                int(str(section.get_attribute("id")).removeprefix("deal-"))
                for section in phone.locator("section[id^='deal-']").all()
            ]
            assert len(numbers) == 2
            for number in numbers:
                [(cards, taker)] = _rows(
                    database,
                    "SELECT cards, taker_seat FROM tournaments_deal "
                    "WHERE event_id = ? AND number = ?",
                    event_id,
                    number,
                )
                outcome = _outcome(rng, cards, taker)
                section = phone.locator(f"#deal-{number}")
                section.locator("label.segment", has_text=re.compile(r"^Garde$")).tap()
                section.locator(
                    "label.segment", has_text=re.compile(rf"^{outcome['oudlers']}$")
                ).tap()
                phone.locator(f"#id_d{number}-points").fill(str(outcome["points"]))
                section.get_by_role("button", name="Enregistrer").tap()
                phone.wait_for_url(re.compile(rf"(#deal-{number}|#next-places)$"))
            phone.context.close()
        results = "SELECT count(*) FROM tournaments_tableresult WHERE table_id IN "
        results += "(SELECT id FROM tournaments_table WHERE event_id = ?)"
        assert _rows(database, results, event_id) == [(6,)]

        # Finished (round 2 never played: the director confirms).
        page.goto(f"{base}/organiser/events/{event_id}/finish/")
        page.click("#confirm-finish")
        page.wait_for_url(re.compile(rf"/organiser/events/{event_id}/$"))
        status = "SELECT status FROM tournaments_event WHERE id = ?"
        assert _rows(database, status, event_id) == [("finished",)]
        before = _rankings(page, base, event_id)
        assert before["status"]["state"] != "behind", before["status"]
        assert json.dumps(before).count('"deals_played": 2') == 12

        # Restarted: everything is there.
        assert served.stop() == 0
        served = serve(data)
        assert served.setup_code is None
        base = served.url
        assert _rankings(page, base, event_id) == before
        page.goto(f"{base}/organiser/events/{event_id}/")
        assert "Tournoi du vendredi" in page.inner_text("main")
    finally:
        if served is not None:
            served.stop()

    # The backup taken when the event finished, restored into another empty folder, serves
    # the same rankings (a new secret key there: the organiser logs in again).
    finished = sorted((data / "backups").glob("duplitarot-*-finished.sqlite3"))
    assert finished, sorted(p.name for p in (data / "backups").iterdir())
    other = tmp_path / "other laptop"
    restored = run_command(other, "restore_backup", str(finished[-1]))
    assert restored.returncode == 0, restored.stderr
    elsewhere = serve(other)
    try:
        assert elsewhere.setup_code is None
        fresh = new_page(locale="fr-FR")
        _log_in(fresh, elsewhere.url)
        assert _rankings(fresh, elsewhere.url, event_id) == before
        assert "Tournoi du vendredi" in fresh.inner_text("main")
    finally:
        elsewhere.stop()
