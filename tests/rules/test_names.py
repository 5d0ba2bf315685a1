"""Names folded for searching and keyed for French order (``rules.names``), without a database."""

from __future__ import annotations

import locale
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.names import FOLD_LENGTH, SORT_KEY_LENGTH, fold, query_words, sort_key, text_sort_key


@pytest.mark.parametrize(
    ("name", "folded"),
    [
        ("GUÉRIN", "guerin"),
        ("guérin", "guerin"),
        ("Guerin", "guerin"),
        ("Chloé", "chloe"),
        ("ŒUVRAY", "oeuvray"),
        ("Lætitia", "laetitia"),
        ("GARÇON", "garcon"),
        ("d'Harcourt", "dharcourt"),
        ("d’Harcourt", "dharcourt"),
        ("Le Gall", "legall"),
        ("Saint-Exupéry", "saintexupery"),
        ("Strauß", "strauss"),
        ("Øster", "oster"),
        ("Łukasz", "lukasz"),
        ("Иванов", "ivanov"),
        ("Louis 14", "louis14"),
        ("  ", ""),
    ],
)
def test_a_name_folds_to_its_plain_letters(name: str, folded: str) -> None:
    assert fold(name) == folded


def test_a_query_folds_word_by_word() -> None:
    assert query_words("Chloé  GUÉRIN") == ["chloe", "guerin"]
    assert query_words("d'Harcourt - ’") == ["dharcourt"]
    assert query_words("a b c d e f g") == ["a", "b", "c", "d", "e"]


PLAYERS_IN_FRENCH_ORDER = [
    ("BÉRARD", "Anne"),
    ("Deschamps", "Paul"),
    ("d'Harcourt", "Jean"),
    ("Dubois", "Luc"),
    ("DUPRE", "Léa"),
    ("Dupré", "Léa"),
    ("ÉTIENNE", "Paul"),
    ("Gaillard", "Zoé"),
    ("GARÇON", "Marc"),
    ("GIRAUD", "Marc"),
    ("Le Gall", "Yann"),
    ("LEGALL", "Yann"),
    ("Legrand", "Eve"),
    ("ŒUVRAY", "Luc"),
    ("Ozanne", "Ana"),
    ("ROUX", "Pierre"),
    ("VIDAL", "Anne"),
]


def test_players_sort_in_french_order() -> None:
    shuffled = sorted(PLAYERS_IN_FRENCH_ORDER, key=lambda player: player[0].swapcase())
    assert sorted(shuffled, key=lambda p: sort_key(*p)) == PLAYERS_IN_FRENCH_ORDER


def test_code_points_would_not() -> None:
    """What the stored names sorted by before: capitals first, accented capitals last."""
    by_code_points = sorted(PLAYERS_IN_FRENCH_ORDER)
    assert by_code_points.index(("GIRAUD", "Marc")) < by_code_points.index(("Gaillard", "Zoé"))
    assert by_code_points.index(("VIDAL", "Anne")) < by_code_points.index(("ÉTIENNE", "Paul"))


def test_letters_then_accents_then_case() -> None:
    words = ["cote", "Cote", "coté", "côte", "côté", "COTÉ", "coter"]
    assert sorted(words, key=text_sort_key) == [
        "cote", "Cote", "coté", "COTÉ", "côte", "côté", "coter"
    ]  # fmt: skip
    # the last name first: every DUPRÉ before any DUPRÉS, whatever the first names
    assert sort_key("Dupré", "Zoé") < sort_key("DUPRES", "Anne")
    # the letters of both names before their accents: DUPRE Zoé after Dupré Anne
    assert sort_key("Dupré", "Anne") < sort_key("DUPRE", "Zoé")
    # a name before the same name with more letters; digits before letters
    assert sort_key("Du", "Anne") < sort_key("Dubois", "Anne") < sort_key("Dubois", "Anne 2")
    assert sort_key("Louis2", "A") < sort_key("Louisa", "A")


def test_ranking_ties_of_the_report_in_french_order() -> None:
    tied = [("ROUX", "A"), ("BÉRARD", "A"), ("DUPRÉ", "A"), ("GARÇON", "A")]
    assert [p[0] for p in sorted(tied, key=lambda p: sort_key(*p))] == [
        "BÉRARD", "DUPRÉ", "GARÇON", "ROUX"
    ]  # fmt: skip


CHARACTERS = st.characters(codec="utf-8", categories=["L", "M", "N", "P", "Zs"])
NAMES = st.text(alphabet=CHARACTERS, max_size=80)
SHORT_NAMES = st.text(alphabet=CHARACTERS, max_size=12)  # never cut
KEY_ALPHABET = set(string.digits + string.ascii_lowercase)


@given(NAMES, NAMES)
def test_keys_use_digits_and_lower_case_letters_only(last: str, first: str) -> None:
    """Every collation (SQLite's binary, PostgreSQL's C or a language's, ICU) orders such
    strings as Python does: nothing in them is ignorable, accented or cased."""
    key = sort_key(last, first)
    assert set(key) <= KEY_ALPHABET
    assert len(key) <= SORT_KEY_LENGTH
    assert set(fold(last)) <= KEY_ALPHABET and len(fold(last)) <= FOLD_LENGTH


@given(SHORT_NAMES, SHORT_NAMES, SHORT_NAMES, SHORT_NAMES)
def test_names_equal_but_for_case_accents_or_punctuation_share_the_first_level(
    a: str, b: str, c: str, d: str
) -> None:
    """The key's order agrees with the folds': a different fold decides by it alone."""
    if (fold(a), fold(b)) != (fold(c), fold(d)):
        assert (sort_key(a, b) < sort_key(c, d)) == ((fold(a), fold(b)) < (fold(c), fold(d)))


def test_a_language_collation_orders_the_keys_as_code_points() -> None:
    """The same as a locale's collation would, where the machine has a French or English one."""
    keys = sorted(sort_key(*player) for player in PLAYERS_IN_FRENCH_ORDER)
    for name in ("fr_FR.UTF-8", "en_US.UTF-8", "C.UTF-8"):
        try:
            previous = locale.setlocale(locale.LC_COLLATE, name)
        except locale.Error:
            continue
        try:
            assert sorted(keys, key=locale.strxfrm) == keys, name
        finally:
            locale.setlocale(locale.LC_COLLATE, previous)
