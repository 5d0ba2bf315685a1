"""Derived views: table cards, route cards, deal-set routes and the text rendering."""

from __future__ import annotations

from tournaments.movements import (
    deal_set_routes,
    generate_individual,
    generate_quadrette,
    render_text,
    route_cards,
    table_cards,
)


def test_table_cards_list_every_round_of_every_table() -> None:
    doc = generate_individual(tables=7)
    cards = table_cards(doc)
    assert [c["table"] for c in cards] == list(range(1, 8))
    assert all(len(c["rounds"]) == 7 for c in cards)
    assert cards[0]["rounds"][0] == {
        "round": 1,
        "seats": {"N": 1, "E": 8, "S": 15, "W": 22},
        "deal_set": 1,
        "copy": 1,
        "played": True,
    }


def test_route_cards_follow_each_entrant_and_mark_sit_outs() -> None:
    doc = generate_individual(tables=8, players=29)
    cards = {c["entrant"]: c for c in route_cards(doc)}
    assert len(cards) == 32
    real = [c for c in cards.values() if not c["phantom"]]
    assert len(real) == 29
    for card in real:
        assert [item["round"] for item in card["rounds"]] == list(range(1, doc["rounds"] + 1))
    assert sum(item["bye"] for c in real for item in c["rounds"]) == doc["rounds"]
    quad = route_cards(generate_quadrette(teams=5))
    assert sum(item["table"] is None for c in quad for item in c["rounds"]) == 5 * 4


def test_deal_set_routes_show_where_each_etui_goes() -> None:
    doc = generate_individual(tables=7)
    routes = deal_set_routes(doc)
    assert [r["deal_set"] for r in routes] == list(range(1, 8))
    # Deal sets move one table down each round.
    tables = [item["table"] for item in routes[0]["rounds"]]
    assert tables == [1, 7, 6, 5, 4, 3, 2]


def test_text_rendering_mentions_every_round() -> None:
    text = render_text(generate_individual(tables=8, players=30))
    assert "Round 7" in text and "sit-out" in text and "(31)" in text
