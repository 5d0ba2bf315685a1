"""The table's phone page (issue #11, "at the table"): one-tap segmented choices, a numeric
keypad for the points, where each player goes after the round's last deal, the round-closed
notice, and a refused entry that brings the page back to its deal's form."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from tests.builders import GARDE_46, running_event
from tournaments import services
from tournaments.models import Deal, Entrant, Event, Table, TableResult
from tournaments.services import events as event_services

pytestmark = pytest.mark.django_db


def deals_at(event: Event, table_number: int, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=table_number, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


def form_data(deal: Deal, **values: str) -> dict[str, str]:
    base = {"contract": "garde", "oudlers": "2", "points": "46", "petit_au_bout": ""}
    base.update(values)
    return {f"d{deal.number}-{key}": value for key, value in base.items()}


def expected_next(event: Event, slot: int, after: int) -> tuple[int, int | None, str | None]:
    """(round, table, seat) of ``slot`` in the round after ``after``, read from the movement
    itself (table None: a bye, not seated or seated with a phantom)."""
    rnd = event.schedule.round(after + 1)
    assert rnd is not None
    for play in rnd.tables:
        for seat, seated in play.seats.items():
            if seated == slot:
                return rnd.number, (None if play.sits_out else play.table), seat
    assert slot in rnd.byes
    return rnd.number, None, None


def next_rows(html: str) -> dict[int, str]:
    """The "where to go next" rows by entrant pk: their text, tags removed."""
    block = re.search(r'<section class="next-places".*?</section>', html, re.S)
    assert block is not None, "no where-to-go-next block"
    rows = re.findall(
        r'<li class="next-place" data-entrant="(\d+)"(.*?)</li>', block.group(0), re.S
    )
    return {int(pk): re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)) for pk, body in rows}


def test_contract_and_bouts_are_segmented_radio_groups_and_points_a_keypad(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    deal = deals_at(event, 1, 1)[0]
    html = client.get(f"/en/table/{table.code}/").content.decode()
    prefix = f"d{deal.number}"
    contracts = re.findall(rf'<input type="radio" name="{prefix}-contract" value="(\w+)"', html)
    assert contracts == ["garde", "garde_sans", "garde_contre"]
    bouts = re.findall(rf'<input type="radio" name="{prefix}-oudlers" value="(\w*)"', html)
    assert bouts == ["0", "1", "2", "3"]
    assert f'<select name="{prefix}-contract"' not in html
    assert f'<select name="{prefix}-oudlers"' not in html
    # Garde is preset, the bouts wait for a tap (required: no silent default).
    assert re.search(
        rf'name="{prefix}-contract" value="garde" id="id_{prefix}-contract-garde" checked required',
        html,
    )
    assert not re.search(rf'name="{prefix}-oudlers" value="\d" [^>]*checked', html)
    assert re.search(rf'name="{prefix}-oudlers" value="0" [^>]*required', html)
    # Each group is a fieldset with its legend, each choice a label wrapping its radio.
    assert re.search(
        rf'<fieldset class="segmented" id="id_{prefix}-contract">\s*<legend>Contract</legend>', html
    )
    assert re.search(
        rf'<label class="segment"><input type="radio" name="{prefix}-oudlers" value="3"'
        r"[^>]*><span>3</span></label>",
        html,
    )
    points = re.search(rf'<input type="text" name="{prefix}-points"[^>]*>', html)
    assert points is not None
    assert 'inputmode="decimal"' in points.group(0)  # half points exist: 40.5
    assert "required" in points.group(0)
    assert "css/table.css" in html


def test_an_imposed_contract_is_the_only_segment(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    deal = deals_at(event, 1, 1)[0]
    Deal.objects.filter(pk=deal.pk).update(imposed_contract="garde_contre")
    html = client.get(f"/en/table/{table.code}/").content.decode()
    contracts = re.findall(rf'name="d{deal.number}-contract" value="(\w+)"[^>]*checked', html)
    assert contracts == ["garde_contre"]


def test_the_segmented_form_saves_and_previews_as_posted_by_a_browser(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    deal = deals_at(event, 1, 1)[0]
    html = client.get(f"/en/table/{table.code}/").content.decode()
    form = re.search(rf'<form [^>]*id="form-{deal.number}".*?</form>', html, re.S)
    assert form is not None
    # What a browser sends: the checked radio of each group (the taps), the typed points.
    radios = re.findall(r'<input type="radio" name="([\w-]+)" value="(\w*)"', form.group(0))
    groups = {name for name, _ in radios}
    assert groups == {f"d{deal.number}-{n}" for n in ("contract", "oudlers", "petit_au_bout")}
    taps = {"contract": "garde_sans", "oudlers": "2", "petit_au_bout": ""}
    posted = {f"d{deal.number}-{name}": value for name, value in taps.items()}
    assert all((name, value) in radios for name, value in posted.items())
    posted[f"d{deal.number}-points"] = "48"
    preview = client.post(f"/en/table/{table.code}/deal/{deal.number}/preview/", posted)
    assert preview.status_code == 200 and "128" in preview.content.decode()
    response = client.post(f"/en/table/{table.code}/deal/{deal.number}/", {**posted, "round": "1"})
    assert response.status_code == 302
    assert response["Location"].endswith(f"#deal-{deal.number}")  # another deal is still due
    assert TableResult.objects.get(table=table, deal=deal).contract == "garde_sans"


def test_after_the_rounds_last_deal_each_player_sees_next_table_and_seat(client: Client) -> None:
    event = running_event(tables=3, rounds=3, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    first, last = deals_at(event, 1, 1)
    url = f"/en/table/{table.code}/"
    assert 'id="next-places"' not in client.get(url).content.decode()
    client.post(f"{url}deal/{first.number}/", {**form_data(first), "round": "1"})
    assert 'id="next-places"' not in client.get(url + "?round=1").content.decode()

    response = client.post(f"{url}deal/{last.number}/", {**form_data(last), "round": "1"})
    assert response.status_code == 302
    assert response["Location"] == f"{url}?round=1#next-places"
    html = client.get(response["Location"]).content.decode()
    rows = next_rows(html)
    play = event.schedule.play(table=1, round=1)
    assert play is not None
    seated = Entrant.objects.filter(event=event, slot__in=play.seats.values())
    assert sorted(rows) == sorted(e.pk for e in seated)
    seat_names = {"N": "North", "E": "East", "S": "South", "W": "West"}
    for entrant in seated:
        round_number, next_table, seat = expected_next(event, entrant.slot, 1)
        assert next_table is not None and seat is not None  # 12 players: nobody sits out
        assert (
            f"Round {round_number} · Table {next_table} · Seat {seat_names[seat]}"
            in rows[entrant.pk]
        ), rows[entrant.pk]
        assert str(entrant) in rows[entrant.pk]
        assert f'data-entrant="{entrant.pk}" data-table="{next_table}" data-seat="{seat}"' in html
    # The block comes before the deals, where the phone opens.
    assert html.index('id="next-places"') < html.index(f'id="deal-{first.number}"')


def test_in_french_the_next_place_reads_position_table_place(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    table = Table.objects.get(event=event, number=2)
    (deal,) = deals_at(event, 2, 1)
    response = client.post(
        f"/table/{table.code}/deal/{deal.number}/", {**form_data(deal), "round": "1"}
    )
    assert response["Location"].endswith("#next-places")
    html = client.get(response["Location"]).content.decode()
    play = event.schedule.play(table=2, round=1)
    assert play is not None
    north = Entrant.objects.get(event=event, slot=play.seats["N"])
    _, next_table, seat = expected_next(event, north.slot, 1)
    seat_fr = {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"}[seat or ""]
    assert f"Position 2 · Table {next_table} · Place {seat_fr}" in next_rows(html)[north.pk]


def test_the_last_round_thanks_the_players(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    table = Table.objects.get(event=event, number=1)
    for round_number in (1, 2):
        (deal,) = deals_at(event, 1, round_number)
        services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    html = client.get(f"/en/table/{table.code}/?round=2").content.decode()
    assert 'id="next-places"' in html
    assert "Last round: thank you!" in html
    assert 'class="next-place"' not in html  # nowhere to go: one message for the table


def test_a_phantom_table_and_a_bye_show_where_to_go_after_the_bye(client: Client) -> None:
    # 11 players on 3 tables: a phantom sits at one table each round, its three players rest.
    event = running_event(tables=3, rounds=3, deals_per_round=1, players=11)
    schedule = event.schedule
    phantoms = schedule.phantom_slots
    found = None
    for rnd in schedule.rounds[:-1]:
        for play in rnd.tables:
            if play.sits_out:
                continue
            for slot in play.seats.values():
                _, table_after, _ = expected_next(event, slot, rnd.number)
                if table_after is None and slot not in phantoms:
                    found = (rnd.number, play.table, slot)
                    break
            if found:
                break
        if found:
            break
    assert found is not None, "the movement gives nobody a bye after a played round"
    round_number, table_number, slot = found
    table = Table.objects.get(event=event, number=table_number)
    for deal in deals_at(event, table_number, round_number):
        services.table_result_enter(table=table, deal=deal, outcome=GARDE_46)
    html = client.get(f"/en/table/{table.code}/?round={round_number}").content.decode()
    entrant = Entrant.objects.get(event=event, slot=slot)
    row = next_rows(html)[entrant.pk]
    assert f"Round {round_number + 1} · Bye" in row
    after = expected_next(event, slot, round_number + 1) if round_number + 2 <= 3 else None
    if after is not None and after[1] is not None:
        assert f"then Round {after[0]} · Table {after[1]} ·" in row

    # The players of the phantom's table see where to go too, the phantom is not listed.
    rnd = schedule.round(round_number)
    assert rnd is not None
    sit_out = next(play for play in rnd.tables if play.sits_out)
    rest_table = Table.objects.get(event=event, number=sit_out.table)
    html = client.get(f"/en/table/{rest_table.code}/?round={round_number}").content.decode()
    rows = next_rows(html)
    real = Entrant.objects.filter(event=event, slot__in=sit_out.seats.values(), phantom=False)
    assert sorted(rows) == sorted(e.pk for e in real)


def test_a_refused_entry_returns_to_its_deal_form_with_the_error(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=2)
    table = Table.objects.get(event=event, number=1)
    first, second = deals_at(event, 1, 1)
    html = client.get(f"/en/table/{table.code}/").content.decode()
    # The form posts to its own deal's anchor: a refused entry opens there, not at the top.
    assert f'action="/en/table/{table.code}/deal/{second.number}/#deal-{second.number}"' in html

    response = client.post(
        f"/en/table/{table.code}/deal/{second.number}/",
        {**form_data(second, points="95"), "round": "1"},
    )
    assert response.status_code == 400
    html = response.content.decode()
    section = re.search(
        rf'<section class="deal refused" id="deal-{second.number}">.*?</section>', html, re.S
    )
    assert section is not None
    points = re.search(
        rf'<input type="text" name="d{second.number}-points"[^>]*>', section.group(0)
    )
    assert points is not None
    assert "autofocus" in points.group(0) and 'aria-invalid="true"' in points.group(0)
    assert 'value="95"' in points.group(0)
    assert "91" in section.group(0)  # the error, on the field
    assert html.count("autofocus") == 1
    # The page is served at the deal's address: its links must not be relative to it.
    assert 'href="?round=' not in html

    # A missing choice focuses its group.
    response = client.post(
        f"/en/table/{table.code}/deal/{first.number}/",
        {**form_data(first, oudlers=""), "round": "1"},
    )
    assert response.status_code == 400
    assert re.search(
        rf'<fieldset class="segmented invalid" id="id_d{first.number}-oudlers" '
        r'tabindex="-1" autofocus>',
        response.content.decode(),
    )


def test_a_closed_round_says_so_at_the_top(client: Client) -> None:
    event = running_event(tables=3, rounds=2, deals_per_round=1)
    table = Table.objects.get(event=event, number=1)
    event_services.round_close(event=event, round_number=1, confirm=True)
    html = client.get(f"/en/table/{table.code}/?round=1").content.decode()
    notice = re.search(
        r'<div class="notice closed" role="status" id="round-closed">.*?</div>', html, re.S
    )
    assert notice is not None
    assert "This round is closed: ask the director." in notice.group(0)
    assert "can no longer be entered or corrected at the table" in notice.group(0)
    assert f'href="/en/table/{table.code}/?round=2"' in notice.group(0)
    # At the top: right under the title, before the players and the deals.
    assert html.index('id="round-closed"') < html.index("<h2")
    (deal,) = deals_at(event, 1, 1)
    refused = client.post(
        f"/en/table/{table.code}/deal/{deal.number}/", {**form_data(deal), "round": "1"}
    )
    assert refused.status_code == 403
    assert "this round is closed, ask the director" in refused.content.decode()
    assert not TableResult.objects.filter(table=table).exists()
