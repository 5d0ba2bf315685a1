"""The one writer of who entered a result and of its history, for every kind of competition.

A duplicate table's result, a cup room's and a free-deal deal's carry the same "entered by"
(:class:`clubs.models.EnteredBy`: the account, the name shown, the path) and keep the same
history lines (:class:`clubs.models.ChangeRecord`: action, who, when, why, before and after).
Each kind's services say who writes (an :class:`Author`), stamp the result with
:func:`entered_by_set` when they write its outcome, and add the history line with
:func:`history_write` (or build it with :func:`history_line` to write many at once).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from clubs.models import ChangeRecord, EnteredBy, EnteredVia

__all__ = ["Author", "EnteredVia", "entered_by_set", "history_line", "history_write"]

#: The longest name kept (``EnteredBy.entered_by_label``, ``ChangeRecord.actor_label``).
LABEL_LENGTH = 120

Line = TypeVar("Line", bound=ChangeRecord)


@dataclass(frozen=True)
class Author:
    """Who writes: a signed-in account (the director), else a label (a table's or a room's
    phone, a defender's seat), and by which path (:class:`EnteredVia`)."""

    user: Any = None
    label: str = ""
    via: str = EnteredVia.TABLE

    @property
    def account(self) -> Any:
        """The account kept, or None (an anonymous phone)."""
        if self.user is not None and getattr(self.user, "is_authenticated", False):
            return self.user
        return None

    @property
    def name(self) -> str:
        """The name shown: the account's, else (an anonymous phone, a nameless account) the
        label."""
        account = self.account
        if account is not None and str(account.get_username()):
            return str(account.get_username())[:LABEL_LENGTH]
        return str(self.label)[:LABEL_LENGTH]

    def fields(self) -> dict[str, Any]:
        """The :class:`EnteredBy` fields of a result this author writes."""
        return {"entered_by": self.account, "entered_by_label": self.name,
                "entered_via": str(self.via)}  # fmt: skip


def entered_by_set(result: EnteredBy, author: Author) -> None:
    """Stamp ``result`` (saved by the caller) as last written by ``author``."""
    for name, value in author.fields().items():
        setattr(result, name, value)


def history_line(
    model: type[Line],
    *,
    result: Any,
    action: str,
    author: Author,
    after: Mapping[str, Any] | None,
    before: Mapping[str, Any] | None = None,
    reason: str = "",
    **owner: Any,
) -> Line:
    """An unsaved line of ``model``'s history (``owner``: the kind's other fields, such as the
    event or the tournament)."""
    return model(
        result=result,
        action=action,
        actor=author.account,
        actor_label=author.name,
        reason=reason,
        before=None if before is None else dict(before),
        after=None if after is None else dict(after),
        **owner,
    )


def history_write(
    model: type[Line],
    *,
    result: Any,
    action: str,
    author: Author,
    after: Mapping[str, Any] | None,
    before: Mapping[str, Any] | None = None,
    reason: str = "",
    **owner: Any,
) -> Line:
    """Add a line to ``model``'s history of ``result``: who, why, before and after."""
    line = history_line(
        model, result=result, action=action, author=author, after=after, before=before,
        reason=reason, **owner,
    )  # fmt: skip
    line.save(force_insert=True)
    return line
