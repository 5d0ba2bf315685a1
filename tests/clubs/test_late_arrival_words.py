"""A late arrival's outcome reads as the director's words, not as the values the form sends."""

from __future__ import annotations

from types import SimpleNamespace

from django.utils import translation

from clubs.late_arrivals import LateRow


def test_the_outcome_sent_reads_in_french_words() -> None:
    arrival = SimpleNamespace(
        outcome={"d3-contract": "garde_sans", "d3-taker": "W", "d3-points": "46"}
    )
    row = LateRow(arrival=arrival, where="Table 1", fix_url="/f/", handled_url="/h/")
    with translation.override("fr"):
        values = [value for _name, value in row.fields]
    assert "Garde sans" in values and "Ouest" in values and "46" in values
    assert "garde_sans" not in values and "W" not in values
