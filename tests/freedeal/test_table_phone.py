"""The free-deal table phone's pages: the open party on the kernel's skeleton, the live preview
of the marks, one entry semantics (saved, replay, conflict), the explicit correction, and the
refusals (4xx, never a 500, nothing stored)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from freedeal import services
from freedeal.models import FreeDealChange, FreeDealResult, FreeDealTable, FreeDealTournament
from tests.factories import RunningFreeDealFactory

pytestmark = pytest.mark.django_db


def page_url(table: FreeDealTable) -> str:
    return "/en" + reverse("freedeal:table", args=[table.code]).removeprefix("/en")


def deal_url(table: FreeDealTable, deal: int, action: str = "") -> str:
    return page_url(table) + f"deal/{deal}/" + (f"{action}/" if action else "")


def form(deal: int, party: int | None = 1, **fields: Any) -> dict[str, Any]:
    data = {f"d{deal}-{name}": value for name, value in fields.items()}
    if party is not None:
        data["party"] = party
    return data


def garde(seated: tuple[int, ...], deal: int = 1, taker: int = 0, **more: Any) -> dict[str, Any]:
    return form(deal, contract="garde", taker=seated[taker], oudlers="2", points="46", **more)


def snapshot(table: FreeDealTable) -> tuple[list[Any], list[Any]]:
    results = list(
        FreeDealResult.objects.filter(table=table)
        .order_by("pk")
        .values_list("pk", "party", "deal", "taker", "contract", "outcome", "marks", "updated_at")
    )
    history = list(FreeDealChange.objects.order_by("pk").values_list("pk", "action", "after"))
    return results, history


@pytest.fixture
def tournament() -> FreeDealTournament:
    return RunningFreeDealFactory(parties=3)


@pytest.fixture
def table(tournament: FreeDealTournament) -> FreeDealTable:
    return tournament.tables.get()


@pytest.fixture
def seated(tournament: FreeDealTournament) -> tuple[int, ...]:
    return tournament.table_players(1, 1)


@pytest.fixture
def phone() -> Client:
    return Client()


# --------------------------------------------------------------------------- the page
def test_the_page_has_one_card_per_deal_of_the_open_party(phone, table, seated) -> None:
    response = phone.get(page_url(table))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Table 1 · Party 1" in page
    for deal in range(1, 5):
        assert f'id="deal-{deal}"' in page and f'id="form-{deal}"' in page
        assert f'hx-post="{deal_url(table, deal, "preview")}"' in page
        assert f'id="preview-{deal}"' in page
    assert page.count('name="party" value="1"') == 4
    assert "Everybody passed" in page and "Called King" not in page  # a table of 4
    for card in response.context["cards"]:
        assert card.save_url == deal_url(table, card.number) and not card.correcting


def test_an_entered_deal_shows_its_result_and_a_correct_link(phone, table, seated) -> None:
    services.free_deal_result_enter(
        table=table, deal=2, data={"contract": "garde", "taker": seated[1], "oudlers": 2,
                                   "points": 46}
    )  # fmt: skip
    page = phone.get(page_url(table)).content.decode()
    assert 'id="form-2"' not in page and 'id="form-1"' in page
    assert f'href="{page_url(table)}?correct=2#deal-2" id="correct-2"' in page
    assert "180" in page and "-60" in page  # the stored marks
    card = phone.get(page_url(table)).context["cards"][1]
    assert card.done and card.result.deal == 2 and card.form is None


def test_correct_parameter_opens_the_correction_form_with_the_stored_outcome(
    phone, table, seated
) -> None:
    services.free_deal_result_enter(
        table=table, deal=1, data={"contract": "garde_sans", "taker": seated[2], "oudlers": 1,
                                   "points": 55}
    )  # fmt: skip
    response = phone.get(page_url(table) + "?correct=1")
    page = response.content.decode()
    assert f'action="{deal_url(table, 1, "correct")}#deal-1"' in page
    assert 'class="deal-form correction"' in page
    assert f'value="{seated[2]}" id="id_d1-taker-{seated[2]}" checked' in page
    assert 'value="garde_sans" id="id_d1-contract-garde_sans" checked' in page
    assert 'value="55"' in page
    # a deal not entered has nothing to correct: its entry form stays
    assert phone.get(page_url(table) + "?correct=3").context["cards"][2].correcting is False


def test_the_page_once_every_party_is_closed(phone) -> None:
    tournament = RunningFreeDealFactory(parties=1)
    services.free_deal_party_close(tournament=tournament, confirm=True)
    response = phone.get(page_url(tournament.tables.get()))
    assert response.status_code == 200 and response.context["cards"] == []
    main = response.content.decode().split("<main")[1].split("</main>")[0]
    assert 'id="no-open-party"' in main and "No party is open" in main and "<form" not in main


def test_an_unknown_code_is_a_404(phone) -> None:
    assert phone.get("/en/free-deal/table/NOPE/").status_code == 404
    assert phone.post("/en/free-deal/table/NOPE/deal/1/", {}).status_code == 404


def test_the_code_is_the_credential_even_for_a_private_tournament(phone) -> None:
    tournament = RunningFreeDealFactory(public=False)
    assert phone.get(f"/en/free-deal/{tournament.pk}/").status_code == 404
    assert phone.get(page_url(tournament.tables.get())).status_code == 200


# --------------------------------------------------------------------------- the preview
def test_the_preview_answers_each_players_mark_and_stores_nothing(phone, table, seated) -> None:
    response = phone.post(deal_url(table, 1, "preview"), garde(seated))
    assert response.status_code == 200
    scored = response.context["scored"]
    assert scored["marks"] == {str(seated[0]): 180, **{str(n): -60 for n in seated[1:]}}
    html = response.content.decode()
    assert "180" in html and html.count(">-60<") == 3 and "Deal value: 60" in html
    assert not FreeDealResult.objects.exists() and not FreeDealChange.objects.exists()


def test_the_preview_is_what_the_save_stores(phone) -> None:
    five = RunningFreeDealFactory(players=5, ruleset={"name": "traditional"})
    table = five.tables.get()
    seated = five.table_players(1, 1)
    data = form(3, contract="pousse", taker=seated[1], partner=seated[4], oudlers="1",
                points="52.5", poignee_1_side="attack", poignee_1_size="simple")  # fmt: skip
    preview = phone.post(deal_url(table, 3, "preview"), data)
    assert preview.status_code == 200
    assert phone.post(deal_url(table, 3), data).status_code == 302
    assert FreeDealResult.objects.get().marks == preview.context["scored"]["marks"]


def test_the_preview_of_a_passed_deal(phone, table, seated) -> None:
    response = phone.post(deal_url(table, 2, "preview"), form(2, contract="passed"))
    assert response.status_code == 200
    assert set(response.context["scored"]["marks"].values()) == {0}
    assert "Everybody passed" in response.content.decode()


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"contract": "garde", "oudlers": "2", "points": "95"}, "Taker"),
        ({"contract": "garde", "taker": "SEAT0", "oudlers": "2", "points": "95"},
         "Points of the attack"),
        ({"contract": "garde", "taker": "SEAT0", "oudlers": "2", "points": "abc"},
         "Points of the attack"),
        ({"contract": "nope", "taker": "SEAT0", "oudlers": "2", "points": "46"}, "Contract"),
        ({"contract": "garde", "taker": "9", "oudlers": "2", "points": "46"}, "Taker"),
    ],
)  # fmt: skip
def test_the_preview_names_the_fields_in_error_with_422(phone, table, seated, fields, named):
    fields = {k: str(seated[0]) if v == "SEAT0" else v for k, v in fields.items()}
    response = phone.post(deal_url(table, 1, "preview"), form(1, **fields))
    assert response.status_code == 422
    errors = response.context["errors"]
    assert errors and any(line.startswith(f"{named}: ") for line in errors), errors
    assert 'class="errorlist"' in response.content.decode()
    assert not FreeDealResult.objects.exists()


def test_the_preview_of_an_unknown_deal_or_without_an_open_party(phone, tournament, table):
    response = phone.post(deal_url(table, 9, "preview"), form(9, contract="passed"))
    assert response.status_code == 422 and "deals 1 to 4" in response.context["errors"][0]
    for _ in range(3):
        services.free_deal_party_close(tournament=tournament, confirm=True)
    response = phone.post(deal_url(table, 1, "preview"), form(1, party=None, contract="passed"))
    assert response.status_code == 422 and "Every party is closed" in response.content.decode()


def test_the_preview_is_post_only(phone, table) -> None:
    assert phone.get(deal_url(table, 1, "preview")).status_code == 405


# --------------------------------------------------------------------------- entry
def test_a_deal_is_saved_then_shown(phone, table, seated) -> None:
    response = phone.post(deal_url(table, 1), garde(seated))
    assert response.status_code == 302
    assert response["Location"] == page_url(table) + "#deal-1"
    result = FreeDealResult.objects.get()
    assert (result.party, result.deal, result.taker, result.value) == (1, 1, seated[0], 60)
    page = phone.get(response["Location"])
    assert "Deal 1 saved." in page.content.decode()
    line = FreeDealChange.objects.get()
    assert (line.action, line.actor_label) == ("create", "Table 1")


def test_the_same_entry_again_is_a_replay_saying_so(phone, table, seated) -> None:
    assert phone.post(deal_url(table, 1), garde(seated)).status_code == 302
    before = snapshot(table)
    again = phone.post(deal_url(table, 1), garde(seated))
    assert again.status_code == 302 and again["Location"] == page_url(table) + "#deal-1"
    assert "Deal 1 received: the same entry was already saved." in phone.get(
        again["Location"]).content.decode()  # fmt: skip
    assert snapshot(table) == before


def test_a_different_entry_of_an_entered_deal_is_a_conflict_changing_nothing(
    phone, table, seated
) -> None:
    assert phone.post(deal_url(table, 1), garde(seated)).status_code == 302
    before = snapshot(table)
    response = phone.post(deal_url(table, 1), garde(seated, taker=2))
    assert response.status_code == 409
    page = response.content.decode()
    assert "already entered with another outcome: your entry was not saved" in page
    assert response.context["result"].taker == seated[0]  # the stored one is shown
    assert f'href="{page_url(table)}?correct=1#deal-1" id="correct-stored"' in page
    assert snapshot(table) == before


def test_a_conflict_in_a_closed_party_sends_to_the_director(phone, tournament, table, seated):
    assert phone.post(deal_url(table, 1), garde(seated)).status_code == 302
    services.free_deal_party_close(tournament=tournament, confirm=True)
    before = snapshot(table)
    response = phone.post(deal_url(table, 1), garde(seated, taker=1))
    assert response.status_code == 409
    page = response.content.decode()
    assert "only the director can correct it" in page and 'id="correct-stored"' not in page
    assert snapshot(table) == before


def test_a_deal_of_a_closed_party_is_refused_with_403(phone, tournament, table, seated) -> None:
    services.free_deal_party_close(tournament=tournament, confirm=True)
    response = phone.post(deal_url(table, 2), garde(seated, deal=2))
    assert response.status_code == 403
    assert "Party 1 is closed" in response.content.decode()
    assert not FreeDealResult.objects.exists()
    # the open party's page is shown, ready for party 2
    assert response.context["party"] == 2


def test_an_invalid_entry_is_shown_on_its_form(phone, table, seated) -> None:
    data = garde(seated) | {"d1-points": "95"}
    response = phone.post(deal_url(table, 1), data)
    assert response.status_code == 400
    card = response.context["cards"][0]
    assert card.refused and card.focus == "points"
    page = response.content.decode()
    assert 'class="deal refused" id="deal-1"' in page and "autofocus" in page
    assert not FreeDealResult.objects.exists()


@pytest.mark.parametrize(
    ("deal", "data", "status"),
    [
        (9, {"d9-contract": "passed", "party": "1"}, 400),  # no deal 9 in a party
        (1, {"d1-contract": "garde", "d1-taker": "77", "party": "1"}, 400),
        (1, {"party": "1"}, 400),  # no contract
        (1, {"d1-contract": "passed", "party": "x"}, 302),  # a party that says nothing: open
    ],
)
def test_bad_entries_are_4xx_and_store_nothing(phone, table, deal, data, status) -> None:
    response = phone.post(deal_url(table, deal), data)
    assert response.status_code == status
    assert FreeDealResult.objects.count() == (1 if status == 302 else 0)


def test_entry_is_post_only(phone, table) -> None:
    assert phone.get(deal_url(table, 1)).status_code == 405
    assert phone.get(deal_url(table, 1, "correct")).status_code == 405


# --------------------------------------------------------------------------- correction
@pytest.fixture
def entered(phone, table, seated) -> FreeDealResult:
    assert phone.post(deal_url(table, 1), garde(seated)).status_code == 302
    return FreeDealResult.objects.get()


def test_the_table_corrects_its_entry(phone, table, seated, entered) -> None:
    response = phone.post(deal_url(table, 1, "correct"), garde(seated, taker=3))
    assert response.status_code == 302 and response["Location"] == page_url(table) + "#deal-1"
    entered.refresh_from_db()
    assert entered.taker == seated[3]
    line = FreeDealChange.objects.order_by("pk").last()
    assert line is not None and (line.action, line.actor_label) == ("correct", "Table 1")
    assert line.before["taker"] == seated[0] and line.after["taker"] == seated[3]
    assert "Deal 1 corrected." in phone.get(response["Location"]).content.decode()


def test_a_correction_to_the_same_outcome_changes_nothing(phone, table, seated, entered):
    before = snapshot(table)
    response = phone.post(deal_url(table, 1, "correct"), garde(seated))
    assert response.status_code == 302
    page = phone.get(response["Location"]).content.decode()
    assert "Deal 1 received: the same entry was already saved." in page  # nothing changed
    assert snapshot(table) == before


def test_an_invalid_correction_keeps_its_form_open(phone, table, seated, entered) -> None:
    before = snapshot(table)
    response = phone.post(deal_url(table, 1, "correct"), garde(seated) | {"d1-oudlers": "7"})
    assert response.status_code == 400
    card = response.context["cards"][0]
    assert card.correcting and card.refused and card.focus == "oudlers"
    assert card.save_url == deal_url(table, 1, "correct")
    assert snapshot(table) == before


def test_the_correction_of_a_deal_not_entered_enters_it(phone, table, seated) -> None:
    """As in every kind: the phone's first save never arrived, its correction is the entry."""
    response = phone.post(deal_url(table, 2, "correct"), garde(seated, deal=2))
    assert response.status_code == 302
    stored = FreeDealResult.objects.get()
    assert (stored.party, stored.deal) == (1, 2)
    assert stored.history.get().actor_label == "Table 1"


def test_a_closed_party_cannot_be_corrected_at_the_table(
    phone, tournament, table, seated, entered
) -> None:
    services.free_deal_party_close(tournament=tournament, confirm=True)
    before = snapshot(table)
    response = phone.post(deal_url(table, 1, "correct"), garde(seated, taker=1))
    assert response.status_code == 403
    assert "Party 1 is closed" in response.content.decode()
    assert snapshot(table) == before
