"""Domain errors of the tarot rules.

Every rule violation raises :class:`RuleError`, a ``ValueError`` carrying:

- ``code``: a stable snake_case identifier (API clients and tests match on it, never on text);
- ``template``: an English message with ``%(name)s`` placeholders, marked for translation with
  :func:`rules.i18n.gettext_noop`;
- ``params``: the values substituted into the template;
- ``field``: the input field at fault (``"points"``, ``"poignees[1].size"``...) or ``None``.

Django code shows it translated with ``err.translated(django.utils.translation.gettext)``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from rules.i18n import gettext_noop

# Parameters that name a side of the table: their values ("attack", "defence") are words of
# the message and are translated with it.
SIDE_PARAMS = frozenset({"side", "other"})
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
        return self.template % self.params if self.params else self.template

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message translated by ``gettext`` (e.g. Django's), parameters substituted."""
        translated = gettext(self.template)
        if not self.params:
            return translated
        params = {
            name: gettext(value) if name in SIDE_PARAMS and isinstance(value, str) else value
            for name, value in self.params.items()
        }
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
            "params": dict(self.params),
        }

    def __repr__(self) -> str:
        return f"RuleError({self.code!r}, field={self.field!r}, message={self.message!r})"
