"""The one error convention of the tournaments services.

Every refused operation raises :class:`TournamentError` (or a subclass) carrying:

- ``code``: a stable snake_case identifier (API clients and tests match on it, never on text);
- ``message``: the message, already translated in the active language;
- ``field``: the input at fault (``"points"``, ``"licence"``...) or ``None`` for the request as
  a whole;
- ``details``: further translated lines (for example every problem preventing a start).

A refusal of the pure ``rules`` (a :class:`~rules.errors.RuleError`) becomes one with
:meth:`TournamentError.from_rule`, keeping its code. Nothing stored changes when one is
raised. Views attach it to their form (:func:`tournaments.forms.add_error`), the API answers
400 with ``code``/``field``/``message``, or 409 for a :class:`ResultConflict` (200 for its
subclass :class:`ResultReplay`, the same outcome sent again).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from rules.errors import RuleError, field_label

if TYPE_CHECKING:
    from tournaments.models import TableResult


class TournamentError(Exception):
    """A refused operation; see the module docstring."""

    def __init__(
        self, code: str, message: str, field: str | None = None, details: Sequence[str] = ()
    ) -> None:
        self.code = code
        self.message = message
        self.field = field
        self.details = tuple(details)
        super().__init__(self.describe())

    @classmethod
    def from_rule(cls, error: RuleError, *, field: str | None = None) -> TournamentError:
        """``error`` translated, with its code; ``field`` replaces the one it names."""
        return cls(error.code, error.translated(_), field=field or error.field)

    @property
    def messages(self) -> list[str]:
        """The message followed by its details."""
        return [self.message, *self.details]

    def describe(self) -> str:
        """The message naming its field (translated): ``points: 95 is outside 0..91``."""
        return f"{field_label(self.field, _)}: {self.message}" if self.field else self.message


class ResultConflict(TournamentError):
    """A result for that deal and table is already stored; ``result`` is the stored one."""

    def __init__(self, result: TableResult) -> None:
        self.result = result
        super().__init__(
            "result_exists",
            _("a result for deal %(deal)s at table %(table)s is already stored")
            % {"deal": result.deal.number, "table": result.table.number},
            field="deal",
        )


class ResultReplay(ResultConflict):
    """The very outcome stored for that deal and table was sent again (a retry, a resend):
    nothing was written; ``result`` is the stored one.

    A subclass of :class:`ResultConflict`, so a caller that does not tell them apart still never
    stores a result twice; the API (200) and the table page answer it as a success.
    """

    def __init__(self, result: TableResult) -> None:
        self.result = result
        TournamentError.__init__(
            self,
            "result_replay",
            _("this result for deal %(deal)s at table %(table)s is already stored (identical)")
            % {"deal": result.deal.number, "table": result.table.number},
            field="deal",
        )
