"""The one error convention of every service.

Every refused operation raises :class:`DomainError` (or a subclass) carrying:

- ``code``: a stable snake_case identifier (API clients and tests match on it, never on text);
- ``message``: the message, already translated in the active language;
- ``field``: the input at fault (``"points"``, ``"licence"``...) or ``None`` for the request as
  a whole;
- ``details``: further translated lines (for example every problem preventing a start).

A refusal of the pure ``rules`` (a :class:`~rules.errors.RuleError`) becomes one with
:meth:`DomainError.from_rule`, keeping its code. Nothing stored changes when one is raised.
Views attach it to their form (:func:`clubs.forms.add_error`); the API raises it and its one
exception handler (:func:`clubs.api.exception_handler`) answers problem details with the
error's :attr:`~DomainError.http_status`: 400, 403 for a stage not open (:class:`StageNotOpen`)
or another's entry (:class:`NotOwnEntry`), 409 for a conflict (:class:`EntryConflict`, with the
stored result).

Phone entry (every phone: duplicate tables, cup rooms, free-deal tables) shares one semantics:
an outcome sent again for a deal already entered is an :class:`EntryReplay` when it is the
very outcome stored (a retry: nothing written, answered as a success, 200 on an API), an
:class:`EntryConflict` when it differs (409 with the stored result: changing an entry is an
explicit correction, kept in the history).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _

from rules.errors import RuleError, field_label


class DomainError(Exception):
    """A refused operation; see the module docstring."""

    #: The API's status for it (:func:`clubs.api.exception_handler`).
    http_status = 400

    def __init__(
        self, code: str, message: str, field: str | None = None, details: Sequence[str] = ()
    ) -> None:
        self.code = code
        self.message = message
        self.field = field
        self.details = tuple(details)
        super().__init__(self.describe())

    @classmethod
    def from_rule(cls, error: RuleError, *, field: str | None = None) -> DomainError:
        """``error`` translated, with its code; ``field`` replaces the one it names."""
        return cls(error.code, error.translated(_), field=field or error.field)

    @property
    def messages(self) -> list[str]:
        """The message followed by its details."""
        return [self.message, *self.details]

    def describe(self) -> str:
        """The message naming its field (translated): ``points: 95 is outside 0..91``."""
        return f"{field_label(self.field, _)}: {self.message}" if self.field else self.message


class EntryConflict(DomainError):
    """An entry for that deal is already stored with another outcome; ``stored`` is the stored
    result (the phone shows it; a correction is a separate, explicit action).

    The same answer in every stage of the competition, the round, quarter or party moved on or
    closed included: 409 with the stored result. ``hidden`` when the channel may not read the
    stored outcome yet (a duplicate table's earlier round whose deals other tables still play,
    ``tournaments.publication``): the API's ``result`` is then null, the page shows "entered".
    """

    http_status = 409

    def __init__(
        self, stored: Any, message: str, *, code: str = "result_exists", hidden: bool = False
    ) -> None:
        self.stored = stored
        self.hidden = hidden
        super().__init__(code, message, field="deal")


class EntryReplay(EntryConflict):
    """The very outcome stored for that deal was sent again (a retry, a resend): nothing was
    written; ``stored`` is the stored result.

    A subclass of :class:`EntryConflict`, so a caller that does not tell them apart still never
    stores a result twice; pages and APIs answer it as a success.
    """

    def __init__(self, stored: Any, message: str) -> None:
        super().__init__(stored, message, code="result_replay")


class StageNotOpen(DomainError):
    """A phone wrote outside the stage of the competition it may write now: a duplicate
    table's round, a cup room's quarter, a free-deal table's party (not open yet, moved on,
    closed); ``code`` says which. Nothing stored (403). A deal already entered there with
    another outcome is a conflict instead (:class:`EntryConflict`, 409 with the stored
    result), an identical one a replay."""

    http_status = 403


class NotOwnEntry(DomainError):
    """A phone tried to correct a result the director recorded: the director corrects it
    (``not_own_entry``; 403 on an API)."""

    http_status = 403

    def __init__(self, message: str | None = None) -> None:
        super().__init__(
            "not_own_entry",
            message or _("The director recorded this result: ask the director to correct it."),
            field="deal",
        )
