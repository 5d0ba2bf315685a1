"""Domain errors of the tarot rules.

Every rule violation raises :class:`RuleError`, a ``ValueError`` carrying:

- ``code``: a stable snake_case identifier (API clients and tests match on it, never on text);
- ``template``: an English message with ``%(name)s`` placeholders, marked for translation with
  :func:`rules.i18n.gettext_noop`;
- ``params``: the values substituted into the template; a value may be a
  :class:`~rules.i18n.PluralText` (:func:`rules.i18n.ngettext_lazy`), a count-dependent fragment
  ("1 oudler", "2 oudlers") translated with ``ngettext``;
- ``field``: the input field at fault (``"points"``, ``"poignees[1].size"``...) or ``None``.

Django code shows it translated with ``err.translated(gettext, ngettext)`` (Django's). Every
message is one language: the template, the side names and the plural fragments are all
translated together.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping

from rules.i18n import PluralText, gettext_noop

Gettext = Callable[[str], str]
Ngettext = Callable[[str, str, int], str]

# Parameters that name a side of the table: their values ("attack", "defence") are words of
# the message and are translated with it.
SIDE_PARAMS = frozenset({"side", "other"})
# Parameters named ``*_word`` (``seat_word``: "North"...) are marked words too, translated with it.
WORD_PARAM_SUFFIX = "_word"
# Parameters named ``*_words`` are tuples of marked words, each translated, joined by ", ".
WORDS_PARAM_SUFFIX = "_words"
SIDE_WORDS = (gettext_noop("attack"), gettext_noop("defence"))


class RuleError(ValueError):
    """A tarot rule or an input shape was violated."""

    code: str
    template: str
    params: dict[str, object]
    field: str | None

    def __init__(
        self,
        code: str,
        template: str,
        params: Mapping[str, object] | None = None,
        field: str | None = None,
    ) -> None:
        self.code = code
        self.template = template
        self.params = dict(params or {})
        self.field = field
        super().__init__(self.message)

    @property
    def message(self) -> str:
        """The English message with its parameters substituted."""
        if not self.params:
            return self.template
        params = {
            name: value.english()
            if isinstance(value, PluralText)
            else _joined(value)
            if name.endswith(WORDS_PARAM_SUFFIX)
            else value
            for name, value in self.params.items()
        }
        return self.template % params

    def translated(self, gettext: Gettext, ngettext: Ngettext | None = None) -> str:
        """The message translated by ``gettext`` and ``ngettext`` (e.g. Django's).

        Without ``ngettext``, the ``ngettext`` of the module defining ``gettext`` is used (so
        ``translated(django.utils.translation.gettext)`` translates plurals too); failing that,
        the English plural form chosen by the count is passed through ``gettext``.
        """
        translated = gettext(self.template)
        if not self.params:
            return translated
        plural = ngettext or _sibling_ngettext(gettext)
        params: dict[str, object] = {}
        for name, value in self.params.items():
            if isinstance(value, PluralText):
                if plural is not None:
                    params[name] = value.translated(plural)
                else:
                    form = value.singular if value.count == 1 else value.plural
                    params[name] = gettext(form) % {"number": value.number}
            elif isinstance(value, str) and (
                name in SIDE_PARAMS or name.endswith(WORD_PARAM_SUFFIX)
            ):
                params[name] = gettext(value)
            elif name.endswith(WORDS_PARAM_SUFFIX):
                params[name] = _joined(value, gettext)
            else:
                params[name] = value
        return translated % params

    def describe(self) -> str:
        """One line for command-line output: ``[code] field: message``."""
        where = f" {self.field}:" if self.field else ""
        return f"[{self.code}]{where} {self.message}"

    def to_dict(self) -> dict[str, object]:
        """A JSON-friendly form (code, field, message, params)."""
        return {
            "code": self.code,
            "field": self.field,
            "message": self.message,
            "params": {
                name: value.number
                if isinstance(value, PluralText)
                else list(value)
                if name.endswith(WORDS_PARAM_SUFFIX) and isinstance(value, tuple | list)
                else value
                for name, value in self.params.items()
            },
        }

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, field={self.field!r}, message={self.message!r})"


def _joined(value: object, gettext: Gettext | None = None) -> str:
    """A ``*_words`` parameter: its words (each translated by ``gettext``), joined by ", "."""
    if isinstance(value, str) or not isinstance(value, tuple | list):
        return str(value)
    return ", ".join(gettext(str(word)) if gettext else str(word) for word in value)


# The name of each input field in messages (the field keys of an error keep their identifiers):
# ``oudlers`` is "bouts" in French. An indexed field (``poignees[1]``) names its item.
FIELD_LABELS = {
    "players": gettext_noop("players"),
    "contract": gettext_noop("contract"),
    "oudlers": gettext_noop("oudlers"),
    "points": gettext_noop("points"),
    "petit_au_bout": gettext_noop("petit au bout"),
    "poignees": gettext_noop("poignées"),
    "side": gettext_noop("side"),
    "size": gettext_noop("size"),
    "chelem": gettext_noop("chelem"),
    "announced": gettext_noop("announced"),
    "made_by": gettext_noop("made by"),
    "made": gettext_noop("made"),
    "partner": gettext_noop("partner"),
    "chien": gettext_noop("chien"),
    "petit_chelem": gettext_noop("petit chelem"),
    "taker_seat": gettext_noop("taker seat"),
    "ruleset": gettext_noop("rules"),
    "outcome": gettext_noop("outcome"),
    "ecart": gettext_noop("écart"),
}
ITEM_LABELS = {
    "poignees": gettext_noop("poignée %(number)s"),
    "tricks": gettext_noop("trick %(number)s"),
}


def field_label(field: str, gettext: Gettext | None = None) -> str:
    """``field`` (``"oudlers"``, ``"poignees[1].size"``) as a message names it, translated by
    ``gettext``: "bouts", "poignée 2, taille" in French. Unknown names (a client's unknown key)
    are shown as they are."""

    def tr(text: str) -> str:
        return gettext(text) if gettext else text

    parts: list[str] = []
    for part in field.split("."):
        name, bracket, rest = part.partition("[")
        index = rest.rstrip("]")
        if bracket and index.isdigit() and name in ITEM_LABELS:
            parts.append(tr(ITEM_LABELS[name]) % {"number": int(index) + 1})
        elif not bracket and part in FIELD_LABELS:
            parts.append(tr(FIELD_LABELS[part]))
        else:
            parts.append(part)
    return ", ".join(parts)


def _sibling_ngettext(gettext: Gettext) -> Ngettext | None:
    """The ``ngettext`` defined next to ``gettext`` (Django's ``django.utils.translation``)."""
    module = sys.modules.get(getattr(gettext, "__module__", None) or "")
    found = getattr(module, "ngettext", None) if module is not None else None
    return found if callable(found) else None
