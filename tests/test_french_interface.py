"""French is the default interface: tarot and seat vocabulary as a French director reads it."""

from django.utils import translation

from tournaments.presentation import card_label
from tournaments.templatetags.seats import seat_letter


def test_seat_letters_follow_the_language() -> None:
    with translation.override("fr"):
        assert [seat_letter(s) for s in "NESW"] == ["N", "E", "S", "O"]
    with translation.override("en"):
        assert [seat_letter(s) for s in "NESW"] == ["N", "E", "S", "W"]


def test_card_ranks_follow_the_language() -> None:
    with translation.override("fr"):
        assert [card_label(label) for label in ("K", "Q", "C", "J", "10")] == [
            "R", "D", "C", "V", "10"
        ]  # fmt: skip
    with translation.override("en"):
        assert [card_label(label) for label in ("K", "Q", "C", "J")] == ["K", "Q", "C", "J"]


def test_contract_names_keep_their_french_tarot_terms() -> None:
    from tournaments.models import Contract

    with translation.override("fr"):
        assert [str(c.label) for c in Contract] == [
            "Prise", "Garde", "Garde sans", "Garde contre"
        ]  # fmt: skip
