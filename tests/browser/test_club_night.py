"""A whole club night in a browser, in French (issue #11 acceptance).

12 players, 3 tables, the smallest movement for them (2 rounds) with 1 deal per round:

- the director logs in at 1366×768, creates the event through the organiser pages (the
  proposed deal seed kept: not 0, shown on the deals page), imports the 12 players, takes a
  2-round movement, generates the deals and starts;
- three phones at 390×844, one per table (codes read from the table cards), enter round 1;
  table 1 corrects its own entry (the correction is in the history); the control screen shows
  table 3 missing before it enters, then the whole round entered; the director closes the
  round; round 2 the same way; the director finishes the event (confirmation page);
- an anonymous visitor reads the final public ranking (checked against the published
  RankingEntry rows, the HandScore marks and the marks computed here from the outcomes
  entered), a score card with its chart and its total, and a frequency sheet with every
  table's result of a deal.

Debian's Chromium, headless, driven by Playwright's sync API against the served instance
(``tests.browser.served``: its club is the first run's), the phones on
``club.test``; every wait is bounded by the page's default timeout (conftest).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import HandScore, RankingEntry
from tests.browser import world
from tests.browser.conftest import answered
from tests.browser.served import ServedInstance
from tests.browser.test_charts import chart_state
from tests.browser.test_organiser_setup import players_csv
from tests.factories import DEFAULT_PASSWORD, EventFactory, OrganiserFactory
from tournaments.models import Entrant, Event, ResultChange, TableResult

pytestmark = [pytest.mark.browser]

DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
FRENCH = {"locale": "fr-FR"}
TABLES = 3
ROUNDS = 2  # the fewest a movement allows (hands must be compared)

#: What each table plays: (round, table) -> (contract, oudlers, points of the taker). The deals
#: come from a random seed and entries are checked against their cards: 1 or 2 oudlers fit
#: (almost) any hands, 0 or 3 often do not (the 21 cannot change side outside a chelem).
OUTCOMES = {
    (1, 1): ("garde", 2, 46),
    (1, 2): ("garde_contre", 1, 40),
    (1, 3): ("garde", 1, 45),
    (2, 1): ("garde", 1, 60),
    (2, 2): ("garde_sans", 2, 35),
    (2, 3): ("garde", 2, 38),
}
#: Table 1's correction of its round-1 entry.
CORRECTED = ("garde_sans", 2, 50)
TARGETS = {0: 56, 1: 51, 2: 41, 3: 36}
MULTIPLIERS = {"garde": 2, "garde_sans": 4, "garde_contre": 6}


def value(contract: str, oudlers: int, points: int) -> int:
    """The signed value of a plain contract (no bonus), by the FFT rules: the taker's side."""
    margin = points - TARGETS[oudlers]
    base = (25 + abs(margin)) * MULTIPLIERS[contract]
    return base if margin >= 0 else -base


# ----------------------------------------------------- read in the instance (its helper process)


def event_facts(name: str) -> dict[str, Any]:
    """The last event named ``name``: what the director's pages made of it."""
    event = Event.objects.filter(name=name).order_by("pk").last()
    assert event is not None
    return {
        "pk": event.pk,
        "club": event.club_id,
        "public": event.public,
        "date": event.date.isoformat(),
        "status": event.status,
        "movement": [event.movement.get("tables"), event.movement.get("rounds")]
        if event.movement
        else None,
        "seed": event.seed,
        "deals": event.deals.count(),
    }


def stored_result(event_id: int, table: int, deal: int) -> dict[str, Any]:
    """Table ``table``'s result of deal ``deal``, and who corrected it."""
    result = TableResult.objects.get(event_id=event_id, table__number=table, deal__number=deal)
    corrections = ResultChange.objects.filter(result=result, action="correct")
    return {
        "contract": result.contract,
        "oudlers": result.oudlers,
        "points_half": result.points_half,
        "value": result.value,
        "corrected_by": [change.actor_label for change in corrections],
    }


def seated(event_id: int, table: int, round_number: int) -> dict[str, int]:
    """Who sits where at table ``table``, position ``round_number``: seat -> entrant."""
    event = Event.objects.get(pk=event_id)
    play = event.schedule.play(table=table, round=round_number)
    assert play is not None
    return {
        seat: Entrant.objects.get(event=event, slot=slot).pk for seat, slot in play.seats.items()
    }


def scores(event_id: int) -> dict[str, Any]:
    """The event's hand scores by entrant, its published ranking, whether any is unpublished."""
    hands: dict[str, list[int]] = {}
    for score in HandScore.objects.filter(event_id=event_id):
        marks, deals = hands.get(str(score.entrant_id), [0, 0])
        hands[str(score.entrant_id)] = [marks + (score.mark or 0), deals + 1]
    published = [
        {
            "rank": entry.rank,
            "entrant": entry.entrant_id,
            "name": str(entry.entrant),
            "percentage": str(entry.percentage),
            "marks_total": entry.marks_total,
            "deals_played": entry.deals_played,
        }
        for entry in RankingEntry.objects.filter(
            event_id=event_id, kind="individual", published=True
        )
        .select_related("entrant__player")
        .order_by("rank", "pk")
    ]
    unpublished = RankingEntry.objects.filter(event_id=event_id, published=False).exists()
    return {"hands": hands, "published": published, "unpublished": unpublished}


def standings_state(event_id: int) -> str:
    """The state of the event's standings (``scoring.selectors.standings_status``)."""
    from scoring.selectors import standings_status

    return standings_status(Event.objects.get(pk=event_id)).state


def first_deal_of(entrant_id: int) -> int:
    """The deal of the entrant's first hand score."""
    score = HandScore.objects.filter(entrant_id=entrant_id).order_by("round_number").first()
    assert score is not None
    return int(score.deal.number)


def deal_results(event_id: int, deal: int) -> list[dict[str, int]]:
    """Every table's result of deal ``deal``, by table."""
    return [
        {"table": result.table.number, "oudlers": result.oudlers, "value": result.value}
        for result in TableResult.objects.filter(event_id=event_id, deal__number=deal)
        .select_related("table")
        .order_by("table__number")
    ]


def a_draft_event() -> dict[str, Any]:
    """A draft event (its details can still be edited) and an organiser of its club."""
    event = EventFactory()
    organiser = OrganiserFactory(clubs=[event.club])
    return {"pk": event.pk, "date": event.date.isoformat(), "organiser": organiser.username}


# ------------------------------------------------------------------------------ the browser


def log_in(page: Any, base: str, username: str, password: str = DEFAULT_PASSWORD) -> None:
    page.goto(f"{base}/login/?next=/organiser/")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.locator("#login-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/organiser/$"))


def enter_deal(phone: Any, deal: int, outcome: tuple[str, int, int], button: str) -> None:
    """One-tap contract and bouts, the points typed, then ``button``."""
    contract, oudlers, points = outcome
    prefix = f"#id_d{deal}"
    phone.locator(f"{prefix}-contract-{contract}").check()
    phone.locator(f"{prefix}-oudlers-{oudlers}").check()
    phone.fill(f"{prefix}-points", str(points))
    phone.locator(f"#deal-{deal}").get_by_role("button", name=button, exact=True).click()


def enter_round(phone: Any, code: str, deal: int, outcome: tuple[str, int, int]) -> None:
    """The table's phone enters its deal of the open round; the round is over at the table."""
    enter_deal(phone, deal, outcome, "Enregistrer")
    phone.wait_for_url(re.compile(rf"/table/{code}/(\?round=\d+)?#next-places$"))
    assert phone.get_by_text(f"Donne {deal} enregistrée.").is_visible()
    assert phone.locator("#next-places").is_visible()


def control_round(director: Any, base: str, event: int, round_number: int) -> None:
    director.goto(f"{base}/organiser/events/{event}/control/?round={round_number}")
    assert director.get_by_role("heading", name=re.compile("Salle de contrôle")).is_visible()


def cell_state(director: Any, table: int, deal: int) -> str:
    classes = director.locator(f"#cell-t{table}-d{deal}").get_attribute("class") or ""
    return next(s for s in ("entered", "missing", "unconfirmed") if s in classes.split())


def test_a_club_night_from_creation_to_the_final_ranking(
    served: ServedInstance, new_page: Any, tmp_path: Path
) -> None:
    base, phone_base = served.url, served.phone_url
    club = served.call(world.club_id)
    director = new_page(viewport=DESKTOP, **FRENCH)

    # --- Set-up by the director -----------------------------------------------------------
    log_in(director, base, served.call(world.club_organiser))
    director.get_by_role("link", name="Créer un tournoi").click()
    director.wait_for_url(re.compile(r"/organiser/events/new/$"))
    # Proposed: today's date, the director's only club, public results.
    assert director.input_value("#id_date") == timezone.localdate().isoformat()
    assert director.input_value("#id_club") == str(club)
    assert director.is_checked("#id_public")
    director.fill("#id_name", "Soirée du mardi")
    director.select_option("#id_format", "individual")
    director.fill("#id_deals_per_round", "1")
    director.get_by_role("button", name="Créer et inscrire les joueurs", exact=True).click()
    director.wait_for_url(re.compile(r"/players/$"))
    assert director.get_by_text("Tournoi créé. Inscrivez maintenant les joueurs.").is_visible()
    facts = served.call(event_facts, "Soirée du mardi")
    event = facts["pk"]
    today = timezone.localdate().isoformat()
    assert (facts["club"], facts["public"], facts["date"]) == (club, True, today)

    director.set_input_files(
        "#import-form input[type=file]", str(players_csv(tmp_path / "j.csv", 12))
    )
    director.locator("#import-form button[type=submit]").click()
    director.wait_for_selector("#import-report")
    assert "Toutes les lignes ont été importées." in director.inner_text("#import-report")
    assert director.inner_text("#entrant-count") == "(12)"

    # The movement: 3 tables; the fewest rounds (2) instead of the proposed Howell's 6.
    director.locator("#next-step").click()
    director.wait_for_selector("#movement-preview")
    director.fill("#id_rounds", str(ROUNDS))
    director.get_by_role("button", name="Aperçu", exact=True).click()
    director.wait_for_url(re.compile(rf"rounds={ROUNDS}"))
    preview = director.inner_text("#movement-preview")
    assert "3 tables" in preview and "2 positions" in preview, preview
    director.get_by_role("button", name="Utiliser ce mouvement", exact=True).click()
    director.wait_for_url(re.compile(r"/deals/$"))
    assert served.call(event_facts, "Soirée du mardi")["movement"] == [TABLES, ROUNDS]

    # The deals: the proposed random seed is kept.
    proposed = director.input_value("#deals-generate-form #id_seed")
    assert proposed.isdigit() and int(proposed) != 0
    director.get_by_role("button", name="Générer les donnes", exact=True).click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event}/$"))
    facts = served.call(event_facts, "Soirée du mardi")
    assert facts["seed"] == int(proposed)
    assert facts["deals"] == ROUNDS  # 2 deal sets of 1 deal
    director.goto(f"{base}/organiser/events/{event}/deals/")
    assert (
        director.inner_text("#deal-seed")
        == f"Ces donnes ont été générées avec la graine {proposed}."
    )

    director.goto(f"{base}/organiser/events/{event}/")
    assert director.get_by_text("Tout est prêt.").is_visible()
    director.get_by_role("button", name="Lancer le tournoi", exact=True).click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event}/$"))
    assert director.get_by_text("Le tournoi a commencé.").is_visible()
    assert served.call(event_facts, "Soirée du mardi")["status"] == "running"

    # The table codes, from the table cards.
    director.locator("#print-tables").click()
    director.wait_for_selector("section.table-card")
    codes = {
        table: director.inner_text(f"section.table-card[data-table='{table}'] .table-code .code")
        for table in range(1, TABLES + 1)
    }
    assert all(re.fullmatch(r"[A-Z2-9]{10}", code) for code in codes.values()), codes

    phones = {
        table: new_page(viewport=PHONE, is_mobile=True, has_touch=True, **FRENCH) for table in codes
    }
    for table, phone in phones.items():
        phone.goto(f"{phone_base}/table/{codes[table]}/")
        heading = phone.get_by_role("heading", name=re.compile(rf"Table {table} · Position 1"))
        assert heading.is_visible()

    # --- Round 1 ----------------------------------------------------------------------------
    deal_of = {
        (rnd, table): served.call(world.deals_at, event, table, rnd)[0]["number"]
        for rnd in range(1, ROUNDS + 1)
        for table in codes
    }
    taker_of = {
        (rnd, table): served.call(world.deals_at, event, table, rnd)[0]["taker_seat"]
        for rnd in range(1, ROUNDS + 1)
        for table in codes
    }
    enter_round(phones[1], codes[1], deal_of[1, 1], OUTCOMES[1, 1])

    # Table 1 corrects its own entry while the round is open.
    first = deal_of[1, 1]
    phones[1].goto(f"{phone_base}/table/{codes[1]}/?round=1")
    phones[1].get_by_role("link", name="Corriger cette saisie").click()
    enter_deal(phones[1], first, CORRECTED, "Enregistrer la correction")
    answered(phones[1], first)
    corrected = served.call(stored_result, event, 1, first)
    assert (corrected["contract"], corrected["oudlers"], corrected["points_half"]) == (
        "garde_sans",
        2,
        100,
    )

    enter_round(phones[2], codes[2], deal_of[1, 2], OUTCOMES[1, 2])

    # The control screen: table 3 is missing in round 1.
    control_round(director, base, event, 1)
    assert [cell_state(director, t, deal_of[1, t]) for t in codes] == [
        "entered",
        "entered",
        "missing",
    ]
    assert director.inner_text("#round-state") == "1 résultat à venir"
    assert director.inner_text("#total-entered") == f"2/{TABLES * ROUNDS}"
    director.get_by_role("link", name="Imprimer ce qui manque à cette position").click()
    director.wait_for_url(re.compile(r"/control/missing/\?round=1$"))
    assert director.locator("tr.missing-row").all_inner_texts() == [
        f"3\t{deal_of[1, 3]}\tmanquant\t☐"
    ]

    enter_round(phones[3], codes[3], deal_of[1, 3], OUTCOMES[1, 3])
    control_round(director, base, event, 1)
    assert [cell_state(director, t, deal_of[1, t]) for t in codes] == ["entered"] * TABLES
    assert director.inner_text("#round-state") == "terminée"
    director.get_by_role("button", name="Clore la position 1", exact=True).click()
    director.wait_for_url(re.compile(r"/control/\?round=1$"))
    assert director.get_by_text("La position 1 est close.").is_visible()
    assert director.inner_text("#round-state") == "close"

    # The correction is in the history, by table 1.
    director.goto(f"{base}/organiser/events/{event}/entry/history/")
    rows = director.locator("table.history tbody tr", has_text="Corrigé")
    assert rows.count() == 1
    cells = rows.inner_text().split("\t")
    assert cells[1:5] == ["Corrigé", str(first), "1", "table 1"], cells
    before = f"46 points · Valeur {value(*OUTCOMES[1, 1])}"
    assert cells[6].startswith("Garde · ") and before in cells[6], cells
    after = f"50 points · Valeur {value(*CORRECTED)}"
    assert cells[7].startswith("Garde sans · ") and after in cells[7], cells
    assert served.call(stored_result, event, 1, first)["corrected_by"] == ["table 1"]

    # Round 1 is closed at the tables: no more correction there.
    phones[1].goto(f"{phone_base}/table/{codes[1]}/?round=1")
    notice = phones[1].locator("#round-closed")
    assert notice.is_visible()
    assert "Cette position est close" in notice.inner_text()
    assert phones[1].get_by_role("link", name="Corriger cette saisie").count() == 0

    # --- The remaining rounds -------------------------------------------------------------
    for rnd in range(2, ROUNDS + 1):
        for table, phone in phones.items():
            phone.goto(f"{phone_base}/table/{codes[table]}/")
            heading = re.compile(rf"Table {table} · Position {rnd}")
            assert phone.get_by_role("heading", name=heading).is_visible()
            enter_round(phone, codes[table], deal_of[rnd, table], OUTCOMES[rnd, table])
        control_round(director, base, event, rnd)
        assert director.inner_text("#round-state") == "terminée"
        director.get_by_role("button", name=f"Clore la position {rnd}", exact=True).click()
        director.wait_for_url(re.compile(rf"/control/\?round={rnd}$"))
        assert director.get_by_text(f"La position {rnd} est close.").is_visible()
    assert director.inner_text("#total-entered") == f"{TABLES * ROUNDS}/{TABLES * ROUNDS}"

    # --- The director finishes the event ----------------------------------------------------
    director.locator("#finish-link").click()
    director.wait_for_url(re.compile(r"/finish/$"))
    assert director.inner_text("#all-entered") == "Tous les résultats sont saisis."
    director.get_by_role("button", name="Clore le tournoi", exact=True).click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event}/$"))
    assert director.get_by_text("Le tournoi est terminé.").is_visible()
    assert served.call(event_facts, "Soirée du mardi")["status"] == "finished"

    # --- The figures, computed here from what the tables entered ---------------------------
    entered = {**OUTCOMES, (1, 1): CORRECTED}
    expected_marks: Counter[int] = Counter()
    for (rnd, table), outcome in entered.items():
        deal = deal_of[rnd, table]
        signed = value(*outcome)
        assert served.call(stored_result, event, table, deal)["value"] == signed
        for seat, entrant in served.call(seated, event, table, rnd).items():
            expected_marks[entrant] += 3 * signed if seat == taker_of[rnd, table] else -signed
    figures = served.call(scores, event)
    hand_marks = Counter({int(e): marks for e, (marks, _deals) in figures["hands"].items()})
    hand_deals = {int(e): deals for e, (_marks, deals) in figures["hands"].items()}
    assert hand_marks == expected_marks
    published = figures["published"]
    assert not figures["unpublished"]
    assert len(published) == 12
    for entry in published:
        assert entry["marks_total"] == hand_marks[entry["entrant"]], entry
        assert entry["deals_played"] == hand_deals[entry["entrant"]] == ROUNDS

    # --- An anonymous visitor: the final ranking -------------------------------------------
    # Finishing the event is scored by the instance's runner, after the director's answer: the
    # ranking is final once it has (a few seconds at most; bounded).
    deadline = time.monotonic() + 60
    while served.call(standings_state, event) != "complete":
        assert time.monotonic() < deadline, "the finished event's ranking was never final"
        time.sleep(0.2)
    visitor = new_page(viewport=DESKTOP, **FRENCH)
    visitor.goto(f"{phone_base}/events/{event}/ranking/")
    assert visitor.get_by_role("heading", name=re.compile("Classement")).is_visible()
    assert visitor.locator(".status .badge").inner_text() == "Définitif"
    assert visitor.locator(".status.withheld").count() == 0  # every deal counted
    assert "6 résultats saisis sur 6" in visitor.inner_text(".status")
    shown = [
        [cell.strip().replace("\u2212", "-") for cell in row.split("\t")]
        for row in visitor.locator("#ranking-live table.ranking tbody tr").all_inner_texts()
    ]
    assert shown == [
        [
            str(entry["rank"]),
            entry["name"],
            entry["percentage"].replace(".", ","),
            str(entry["marks_total"]),
            str(entry["deals_played"]),
        ]
        for entry in published
    ]

    # A score card, from the ranking: its chart and its total.
    winner = published[0]
    visitor.get_by_role("link", name=winner["name"]).first.click()
    visitor.wait_for_url(re.compile(rf"/players/{winner['entrant']}/$"))
    assert visitor.get_by_text("Progression position par position").is_visible()
    state = chart_state(visitor, 'canvas[data-chart="progress-data"]')
    assert state["chart"] and state["type"] == "line" and state["points"] == ROUNDS
    assert state["width"] > 0 and state["height"] > 0
    total = visitor.locator("table.scorecard tfoot tr").inner_text().split("\t")
    assert total[0].strip() == "Total"
    assert int(total[-2].replace("\u2212", "-")) == winner["marks_total"]
    assert visitor.locator("table.scorecard tr.main").count() == ROUNDS
    summary = re.sub(r"\s+", " ", visitor.inner_text(".cards.summary"))
    percentage = winner["percentage"].replace(".", ",")
    assert f"Rang 1 / 12 Pourcentage {percentage} % Marques {winner['marks_total']}" in summary

    # A frequency sheet, from the score card: every table's result of the deal.
    deal = served.call(first_deal_of, winner["entrant"])
    visitor.locator(f'table.scorecard td.num a[href$="/deals/{deal}/"]').click()
    visitor.wait_for_url(re.compile(rf"/deals/{deal}/$"))
    assert visitor.get_by_role("heading", name=re.compile(rf"Donne {deal}")).is_visible()
    results = served.call(deal_results, event, deal)
    assert len(results) == TABLES  # the deal is played at every table over the event
    lines = visitor.locator("table.frequency tbody tr")
    assert lines.count() == TABLES
    for index, result in enumerate(results):
        cells = lines.nth(index).locator("td.num").all_inner_texts()
        # Table, round, oudlers, points, value.
        assert cells[0] == str(result["table"])
        assert cells[2] == str(result["oudlers"])
        assert cells[4] == str(result["value"])
    assert visitor.get_by_role("heading", name="Fréquences").is_visible()
    state = chart_state(visitor, 'canvas[data-chart="distribution-data"]')
    assert state["chart"] and state["width"] > 0 and state["height"] > 0


@pytest.mark.parametrize("page_name", ["create", "edit"])
def test_the_date_field_shows_its_date_in_french(
    served: ServedInstance, new_page: Any, page_name: str
) -> None:
    """The new event's form proposes today; the details form shows the event's date."""
    event = served.call(a_draft_event)
    director = new_page(viewport=DESKTOP, **FRENCH)
    log_in(director, served.url, event["organiser"])
    if page_name == "create":
        director.goto(f"{served.url}/organiser/events/new/")
        expected = timezone.localdate().isoformat()
    else:
        director.goto(f"{served.url}/organiser/events/{event['pk']}/edit/")
        expected = event["date"]
    assert director.input_value("#id_date") == expected
