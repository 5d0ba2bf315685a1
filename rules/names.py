"""Players' names as a French reader compares them (pure): searched ignoring case, accents and
punctuation, listed in French dictionary order, the same in Python and in any database.

- :func:`fold`: a name as it is searched and compared: its letters and digits only, in lower
  case, without accents, ligatures spelt out and other scripts transliterated (anyascii):
  ``GUÉRIN`` → ``guerin``, ``ŒUVRAY`` → ``oeuvray``, ``d'Harcourt`` → ``dharcourt``,
  ``Le Gall`` → ``legall``. Two names are *the same name* when their folds are equal.
- :func:`query_words`: the folded words of a search (``"Chloé GUÉRIN"`` → ``chloe``,
  ``guerin``); a name matches when each word is contained in its folded last or first name.
- :func:`sort_key` (a player: last name, then first name) and :func:`text_sort_key` (any one
  name, e.g. a team's): a string whose plain code-point order is French order. It compares in
  three levels, as French dictionaries and the Unicode collation do: first the letters alone
  (case, accents and punctuation ignored: ``Gaillard`` < ``GIRAUD``, ``ÉTIENNE`` < ``VIDAL``,
  ``d'Harcourt`` between ``Deschamps`` and ``Dubois``, ``Le Gall`` beside ``LEGALL``), then the
  accents letter by letter from the start (none < acute < grave < circumflex < diaeresis <
  cedilla < any other mark or ligature: ``DUPRE`` < ``Dupré``), then the case letter by letter
  (lower before upper: ``Le Gall`` < ``LEGALL``). A player's key takes the last name, then the
  first name, at each level. Names equal at the three levels (``Le Gall`` and ``Le-Gall``)
  share a key: the caller breaks the tie (by id).

The key is written with ``0-9`` and ``a-z`` only, so that every database collation orders it as
Python does (SQLite's binary order, PostgreSQL's C or any language collation, ICU): nothing in
it is ignorable or case-folded. Digits of a name sort before its letters; ``0`` separates the
parts. Keys are at most :data:`SORT_KEY_LENGTH` characters and folds :data:`FOLD_LENGTH` (a
longer name is cut: only absurd names lose their last letters' accents or case). Players
store both (``clubs.models.Player``): a change of :func:`fold` or of the key needs a data
migration that fills them again, as ``clubs`` migration 0006 first did.
"""

from __future__ import annotations

import unicodedata

from anyascii import anyascii

#: The longest key and fold stored (names are at most 80 characters).
SORT_KEY_LENGTH = 255
FOLD_LENGTH = 160

#: Secondary weights: no mark, then the French accents in dictionary order, then anything
#: else (another mark, several marks, a ligature or a letter transliterated from another
#: script).
_PLAIN = "a"
_ACCENTS = {"\u0301": "b", "\u0300": "c", "\u0302": "d", "\u0308": "e", "\u0327": "f"}
_OTHER = "g"
_LOWER, _UPPER = "a", "b"
_SEPARATOR = "0"


def _letters(text: str) -> list[tuple[str, str, str]]:
    """(primary, secondary, tertiary) weights of each letter or digit of ``text``, in order;
    spaces, punctuation and symbols have none."""
    weights: list[tuple[str, str, str]] = []
    clusters: list[list[str]] = []
    for char in unicodedata.normalize("NFKD", text):
        if unicodedata.combining(char) and clusters:
            clusters[-1].append(char)
        else:
            clusters.append([char])
    for base, *marks in clusters:
        spelt = "".join(c for c in anyascii(base).lower() if c.isascii() and c.isalnum())
        if not spelt:
            continue
        if base.isascii():
            accent = _ACCENTS.get(marks[0], _OTHER) if len(marks) == 1 else _OTHER
            accent = _PLAIN if not marks else accent
        else:
            accent = _OTHER
        case = _UPPER if base != base.lower() else _LOWER
        for char in spelt:
            primary = "1" + char if char.isdigit() else char
            weights.append((primary, accent * len(primary), case * len(primary)))
    return weights


def fold(text: str) -> str:
    """``text`` as it is searched and compared (see the module docstring)."""
    return "".join(primary[-1] for primary, _s, _t in _letters(text))[:FOLD_LENGTH]


def query_words(query: str, limit: int = 5) -> list[str]:
    """The folded words of a search query (at most ``limit``; words without a letter or digit
    are dropped)."""
    words = (fold(word) for word in query.split())
    return [word for word in words if word][:limit]


def _key(*parts: str) -> str:
    letters = [_letters(part) for part in parts]
    levels = [
        _SEPARATOR.join("".join(weight[level] for weight in part) for part in letters)
        for level in range(3)
    ]
    return _SEPARATOR.join(levels)[:SORT_KEY_LENGTH]


def sort_key(last_name: str, first_name: str) -> str:
    """A player's key: last name, then first name, in French order (module docstring)."""
    return _key(last_name, first_name)


def text_sort_key(text: str) -> str:
    """One name's key (a team's name...), in French order (module docstring)."""
    return _key(text)
