"""The refusals of a cup room's result entry (the kernel's :mod:`clubs.errors` semantics).

- :class:`RoomResultConflict`: the deal is already entered in that room with another outcome;
  ``result`` is the stored one (409 on the API, the room page shows it). Changing an entry is
  an explicit correction (``teammatch.services.room_result_table_correct``), kept in the history.
- :class:`RoomResultReplay`: the very outcome stored was sent again (a double tap, a resend
  after a lost answer): nothing written, answered as a success (200 on the API).
- :class:`QuarterNotOpen`: the room phone wrote outside the quarter it may write (a later
  quarter, a closed one, one without its line-up): nothing stored, 403 on the API.
- :class:`NotOwnEntry`: the room phone tried to correct a result the director recorded.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from clubs.errors import EntryConflict, EntryReplay, NotOwnEntry, StageNotOpen

if TYPE_CHECKING:
    from teammatch.models import RoomResult


def _room_label(result: RoomResult) -> str:
    return str(result.get_room_display()).lower()


class RoomResultConflict(EntryConflict):
    """A result for that deal is already stored in that room; ``result`` is the stored one."""

    def __init__(self, result: RoomResult) -> None:
        self.result = result
        super().__init__(
            result,
            _("a result for deal %(deal)s in the %(room)s is already stored")
            % {"deal": result.deal.number, "room": _room_label(result)},
        )


class RoomResultReplay(RoomResultConflict, EntryReplay):
    """The very outcome stored for that deal in that room was sent again: nothing written."""

    def __init__(self, result: RoomResult) -> None:
        self.result = result
        EntryReplay.__init__(
            self,
            result,
            _("this result for deal %(deal)s in the %(room)s is already stored (identical)")
            % {"deal": result.deal.number, "room": _room_label(result)},
        )


class QuarterNotOpen(StageNotOpen):
    """A room phone wrote a deal outside the quarter it may write; ``code`` says why:
    ``deal_not_in_quarter``, ``no_lineup`` or ``quarter_closed``."""


__all__ = ["NotOwnEntry", "QuarterNotOpen", "RoomResultConflict", "RoomResultReplay"]
