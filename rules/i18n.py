"""Translation markers for the pure rules package.

``rules`` cannot import Django, yet its error messages are user-visible. Translation happens at
display time, on the Django side, through :meth:`rules.errors.RuleError.translated`; here the
English texts are only *marked* so that ``django-admin makemessages`` (xgettext) extracts them:

- :func:`gettext_noop` (a keyword of makemessages) returns a message unchanged;
- :func:`ngettext_lazy` (a keyword of makemessages for plurals, ``ngettext_lazy:1,2``) returns a
  :class:`PluralText`: a singular and a plural English form and the count choosing between
  them, translated later with ``ngettext`` so that every language gets its own plural rule
  (French says "0 bout", "1 bout", "2 bouts"; English "0 oudlers", "1 oudler").

A plural text is used as a *parameter* of a message (``"%(points)s is too few with
%(oudlers)s"`` with ``oudlers=ngettext_lazy("%(number)s oudler", "%(number)s oudlers", 2)``):
each form holds ``%(number)s``, the value shown (``40.5`` for points, the count otherwise).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


def gettext_noop(message: str) -> str:
    """Return ``message`` unchanged; only marks it for translation extraction."""
    return message


@dataclass(frozen=True, slots=True)
class PluralText:
    """A count-dependent fragment: English forms, the count, and the number to show."""

    singular: str
    plural: str
    count: int
    number: object

    def english(self) -> str:
        """The English fragment (singular for a count of 1)."""
        form = self.singular if self.count == 1 else self.plural
        return form % {"number": self.number}

    def translated(self, ngettext: Callable[[str, str, int], str]) -> str:
        """The fragment in the active language of ``ngettext`` (e.g. Django's)."""
        return ngettext(self.singular, self.plural, self.count) % {"number": self.number}

    def __str__(self) -> str:
        return self.english()


def ngettext_lazy(
    singular: str, plural: str, count: int, number: object | None = None
) -> PluralText:
    """Mark a plural fragment for extraction; translated when the message is shown.

    ``number`` is what ``%(number)s`` shows (``count`` when not given).
    """
    return PluralText(singular, plural, count, count if number is None else number)
