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

Debian's Chromium, headless, driven by Playwright's sync API against pytest-django's
``live_server``; every wait is bounded by the page's default timeout (conftest).
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from django.utils import timezone

from scoring.models import HandScore, RankingEntry
from tests.browser.conftest import answered
from tests.browser.test_charts import chart_state
from tests.browser.test_control_room import deals_at
from tests.browser.test_organiser_setup import players_csv
from tests.factories import DEFAULT_PASSWORD, ClubFactory, EventFactory, OrganiserFactory
from tournaments.models import Deal, Entrant, Event, ResultChange, TableResult

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

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


def log_in(page: Any, base: str, username: str) -> None:
    page.goto(f"{base}/login/?next=/organiser/")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.fill("#id_username", username)
    page.fill("#id_password", DEFAULT_PASSWORD)
    page.locator("#login-form button[type=submit]").click()
    page.wait_for_url(re.compile(r"/organiser/$"))


def enter_deal(phone: Any, deal: Deal, outcome: tuple[str, int, int], button: str) -> None:
    """One-tap contract and bouts, the points typed, then ``button``."""
    contract, oudlers, points = outcome
    prefix = f"#id_d{deal.number}"
    phone.locator(f"{prefix}-contract-{contract}").check()
    phone.locator(f"{prefix}-oudlers-{oudlers}").check()
    phone.fill(f"{prefix}-points", str(points))
    phone.locator(f"#deal-{deal.number}").get_by_role("button", name=button, exact=True).click()


def enter_round(phone: Any, code: str, deal: Deal, outcome: tuple[str, int, int]) -> None:
    """The table's phone enters its deal of the open round; the round is over at the table."""
    enter_deal(phone, deal, outcome, "Enregistrer")
    phone.wait_for_url(re.compile(rf"/table/{code}/(\?round=\d+)?#next-places$"))
    assert phone.get_by_text(f"Donne {deal.number} enregistrée.").is_visible()
    assert phone.locator("#next-places").is_visible()


def control_round(director: Any, base: str, event: Event, round_number: int) -> None:
    director.goto(f"{base}/organiser/events/{event.pk}/control/?round={round_number}")
    assert director.get_by_role("heading", name=re.compile("Salle de contrôle")).is_visible()


def cell_state(director: Any, table: int, deal: Deal) -> str:
    classes = director.locator(f"#cell-t{table}-d{deal.number}").get_attribute("class") or ""
    return next(s for s in ("entered", "missing", "unconfirmed") if s in classes.split())


def test_a_club_night_from_creation_to_the_final_ranking(
    live_server: Any, new_page: Any, tmp_path: Path
) -> None:
    base = live_server.url
    club = ClubFactory(name="Tarot Club de Lyon")
    organiser = OrganiserFactory(username="directeur", clubs=[club])
    director = new_page(viewport=DESKTOP, **FRENCH)

    # --- Set-up by the director -----------------------------------------------------------
    log_in(director, base, organiser.username)
    director.get_by_role("link", name="Créer un tournoi").click()
    director.wait_for_url(re.compile(r"/organiser/events/new/$"))
    # Proposed: today's date, the director's only club, public results.
    assert director.input_value("#id_date") == timezone.localdate().isoformat()
    assert director.input_value("#id_club") == str(club.pk)
    assert director.is_checked("#id_public")
    director.fill("#id_name", "Soirée du mardi")
    director.select_option("#id_format", "individual")
    director.fill("#id_deals_per_round", "1")
    director.get_by_role("button", name="Créer et inscrire les joueurs", exact=True).click()
    director.wait_for_url(re.compile(r"/players/$"))
    assert director.get_by_text("Tournoi créé. Inscrivez maintenant les joueurs.").is_visible()
    event = Event.objects.get(name="Soirée du mardi")
    assert (event.club, event.public, event.date) == (club, True, timezone.localdate())

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
    event.refresh_from_db()
    assert (event.movement["tables"], event.movement["rounds"]) == (TABLES, ROUNDS)

    # The deals: the proposed random seed is kept.
    proposed = director.input_value("#deals-generate-form #id_seed")
    assert proposed.isdigit() and int(proposed) != 0
    director.get_by_role("button", name="Générer les donnes", exact=True).click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event.pk}/$"))
    event.refresh_from_db()
    assert event.seed == int(proposed)
    assert event.deals.count() == ROUNDS  # 2 deal sets of 1 deal
    director.goto(f"{base}/organiser/events/{event.pk}/deals/")
    assert (
        director.inner_text("#deal-seed")
        == f"Ces donnes ont été générées avec la graine {proposed}."
    )

    director.goto(f"{base}/organiser/events/{event.pk}/")
    assert director.get_by_text("Tout est prêt.").is_visible()
    director.get_by_role("button", name="Lancer le tournoi", exact=True).click()
    director.wait_for_url(re.compile(rf"/organiser/events/{event.pk}/$"))
    assert director.get_by_text("Le tournoi a commencé.").is_visible()
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING

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
        phone.goto(f"{base}/table/{codes[table]}/")
        heading = phone.get_by_role("heading", name=re.compile(rf"Table {table} · Position 1"))
        assert heading.is_visible()

    # --- Round 1 ----------------------------------------------------------------------------
    deal_of = {
        (rnd, table): deals_at(event, table, rnd)[0]
        for rnd in range(1, ROUNDS + 1)
        for table in codes
    }
    enter_round(phones[1], codes[1], deal_of[1, 1], OUTCOMES[1, 1])

    # Table 1 corrects its own entry while the round is open.
    first = deal_of[1, 1]
    phones[1].goto(f"{base}/table/{codes[1]}/?round=1")
    phones[1].get_by_role("link", name="Corriger cette saisie").click()
    enter_deal(phones[1], first, CORRECTED, "Enregistrer la correction")
    answered(phones[1], first.number)
    corrected = TableResult.objects.get(event=event, table__number=1, deal=first)
    assert (corrected.contract, corrected.oudlers, corrected.points_half) == ("garde_sans", 2, 100)

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
        f"3\t{deal_of[1, 3].number}\tmanquant\t☐"
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
    director.goto(f"{base}/organiser/events/{event.pk}/entry/history/")
    rows = director.locator("table.history tbody tr", has_text="Corrigé")
    assert rows.count() == 1
    cells = rows.inner_text().split("\t")
    assert cells[1:5] == ["Corrigé", str(first.number), "1", "table 1"], cells
    before = f"46 points · Valeur {value(*OUTCOMES[1, 1])}"
    assert cells[6].startswith("Garde · ") and before in cells[6], cells
    after = f"50 points · Valeur {value(*CORRECTED)}"
    assert cells[7].startswith("Garde sans · ") and after in cells[7], cells
    change = ResultChange.objects.get(result=corrected, action="correct")
    assert change.actor_label == "table 1"

    # Round 1 is closed at the tables: no more correction there.
    phones[1].goto(f"{base}/table/{codes[1]}/?round=1")
    notice = phones[1].locator("#round-closed")
    assert notice.is_visible()
    assert "Cette position est close" in notice.inner_text()
    assert phones[1].get_by_role("link", name="Corriger cette saisie").count() == 0

    # --- The remaining rounds -------------------------------------------------------------
    for rnd in range(2, ROUNDS + 1):
        for table, phone in phones.items():
            phone.goto(f"{base}/table/{codes[table]}/")
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
    director.wait_for_url(re.compile(rf"/organiser/events/{event.pk}/$"))
    assert director.get_by_text("Le tournoi est terminé.").is_visible()
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED

    # --- The figures, computed here from what the tables entered ---------------------------
    entered = {**OUTCOMES, (1, 1): CORRECTED}
    expected_marks: Counter[int] = Counter()
    for (rnd, table), outcome in entered.items():
        deal = deal_of[rnd, table]
        play = event.schedule.play(table=table, round=rnd)
        assert play is not None
        signed = value(*outcome)
        stored = TableResult.objects.get(event=event, table__number=table, deal=deal)
        assert stored.value == signed
        for seat, slot in play.seats.items():
            entrant = Entrant.objects.get(event=event, slot=slot)
            expected_marks[entrant.pk] += 3 * signed if seat == deal.taker_seat else -signed
    hand_marks: Counter[int] = Counter()
    hand_deals: Counter[int] = Counter()
    for score in HandScore.objects.filter(event=event):
        hand_marks[score.entrant_id] += score.mark or 0
        hand_deals[score.entrant_id] += 1
    assert hand_marks == expected_marks
    published = list(
        RankingEntry.objects.filter(event=event, kind="individual", published=True)
        .select_related("entrant__player")
        .order_by("rank", "pk")
    )
    assert not RankingEntry.objects.filter(event=event, published=False).exists()
    assert len(published) == 12
    for entry in published:
        assert entry.marks_total == hand_marks[entry.entrant_id], entry.entrant
        assert entry.deals_played == hand_deals[entry.entrant_id] == ROUNDS

    # --- An anonymous visitor: the final ranking -------------------------------------------
    visitor = new_page(viewport=DESKTOP, **FRENCH)
    visitor.goto(f"{base}/events/{event.pk}/ranking/")
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
            str(entry.rank),
            str(entry.entrant),
            f"{entry.percentage}".replace(".", ","),
            str(entry.marks_total),
            str(entry.deals_played),
        ]
        for entry in published
    ]

    # A score card, from the ranking: its chart and its total.
    winner = published[0]
    visitor.get_by_role("link", name=str(winner.entrant)).first.click()
    visitor.wait_for_url(re.compile(rf"/players/{winner.entrant_id}/$"))
    assert visitor.get_by_text("Progression position par position").is_visible()
    state = chart_state(visitor, 'canvas[data-chart="progress-data"]')
    assert state["chart"] and state["type"] == "line" and state["points"] == ROUNDS
    assert state["width"] > 0 and state["height"] > 0
    total = visitor.locator("table.scorecard tfoot tr").inner_text().split("\t")
    assert total[0].strip() == "Total"
    assert int(total[-2].replace("\u2212", "-")) == winner.marks_total
    assert visitor.locator("table.scorecard tr.main").count() == ROUNDS
    summary = re.sub(r"\s+", " ", visitor.inner_text(".cards.summary"))
    percentage = f"{winner.percentage}".replace(".", ",")
    assert f"Rang 1 / 12 Pourcentage {percentage} % Marques {winner.marks_total}" in summary

    # A frequency sheet, from the score card: every table's result of the deal.
    score = HandScore.objects.filter(entrant_id=winner.entrant_id).order_by("round_number").first()
    assert score is not None
    deal = score.deal
    visitor.locator(f'table.scorecard td.num a[href$="/deals/{deal.number}/"]').click()
    visitor.wait_for_url(re.compile(rf"/deals/{deal.number}/$"))
    assert visitor.get_by_role("heading", name=re.compile(rf"Donne {deal.number}")).is_visible()
    results = TableResult.objects.filter(event=event, deal=deal).order_by("table__number")
    assert len(results) == TABLES  # the deal is played at every table over the event
    lines = visitor.locator("table.frequency tbody tr")
    assert lines.count() == TABLES
    for index, result in enumerate(results):
        cells = lines.nth(index).locator("td.num").all_inner_texts()
        # Table, round, oudlers, points, value.
        assert cells[0] == str(result.table.number)
        assert cells[2] == str(result.oudlers)
        assert cells[4] == str(result.value)
    assert visitor.get_by_role("heading", name="Fréquences").is_visible()
    state = chart_state(visitor, 'canvas[data-chart="distribution-data"]')
    assert state["chart"] and state["width"] > 0 and state["height"] > 0


@pytest.mark.parametrize("page_name", ["create", "edit"])
def test_the_date_field_shows_its_date_in_french(
    live_server: Any, new_page: Any, page_name: str
) -> None:
    """The new event's form proposes today; the details form shows the event's date."""
    event = EventFactory()  # a draft: its details can still be edited
    organiser = OrganiserFactory(clubs=[event.club])
    director = new_page(viewport=DESKTOP, **FRENCH)
    log_in(director, live_server.url, organiser.username)
    if page_name == "create":
        director.goto(f"{live_server.url}/organiser/events/new/")
        expected = timezone.localdate()
    else:
        director.goto(f"{live_server.url}/organiser/events/{event.pk}/edit/")
        expected = event.date
    assert director.input_value("#id_date") == expected.isoformat()
