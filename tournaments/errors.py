"""The refusals of duplicate-event result entry (the kernel's :mod:`clubs.errors` semantics).

A result sent for a (deal, table) already entered is a :class:`ResultConflict` carrying the
stored result (409 on the API), or a :class:`ResultReplay` when it is the very outcome stored
(200, nothing written).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from clubs.errors import EntryConflict, EntryReplay

if TYPE_CHECKING:
    from tournaments.models import TableResult


class ResultConflict(EntryConflict):
    """A result for that deal and table is already stored; ``result`` is the stored one."""

    def __init__(self, result: TableResult, *, hidden: bool = False) -> None:
        self.result = result
        super().__init__(
            result,
            _("a result for deal %(deal)s at table %(table)s is already stored")
            % {"deal": result.deal.number, "table": result.table.number},
            hidden=hidden,
        )


class ResultReplay(ResultConflict, EntryReplay):
    """The very outcome stored for that deal and table was sent again (a retry, a resend):
    nothing was written; ``result`` is the stored one."""

    def __init__(self, result: TableResult) -> None:
        self.result = result
        EntryReplay.__init__(
            self,
            result,
            _("this result for deal %(deal)s at table %(table)s is already stored (identical)")
            % {"deal": result.deal.number, "table": result.table.number},
        )
