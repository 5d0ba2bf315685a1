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
            name: value.english() if isinstance(value, PluralText) else value
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
                name: value.number if isinstance(value, PluralText) else value
                for name, value in self.params.items()
            },
        }

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, field={self.field!r}, message={self.message!r})"


def _sibling_ngettext(gettext: Gettext) -> Ngettext | None:
    """The ``ngettext`` defined next to ``gettext`` (Django's ``django.utils.translation``)."""
    module = sys.modules.get(getattr(gettext, "__module__", None) or "")
    found = getattr(module, "ngettext", None) if module is not None else None
    return found if callable(found) else None
