"""The refusals of free-deal result entry (the kernel's :mod:`clubs.errors` semantics).

A table phone sending an outcome for a deal its table already entered in that party gets a
:class:`ResultConflict` carrying the stored result (409 on the API, the stored result on the
page) when the outcome differs, a :class:`ResultReplay` (its subclass) when it is the very
outcome stored: nothing is written (200 on the API, "already saved" on the page). Changing an
entry is an explicit correction (``freedeal.services.free_deal_result_table_correct``).

:class:`PartyNotOpen`: a table code wrote outside the open party (the tournament not running,
or that party closed meanwhile); nothing stored (403 on the API and the page).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext as _

from clubs.errors import EntryConflict, EntryReplay, StageNotOpen

if TYPE_CHECKING:
    from freedeal.models import FreeDealResult


def _where(result: FreeDealResult) -> dict[str, int]:
    return {"deal": result.deal, "table": result.table.number, "party": result.party}


class ResultConflict(EntryConflict):
    """A result for that deal, table and party is already stored; ``result`` is the stored
    one."""

    def __init__(self, result: FreeDealResult) -> None:
        self.result = result
        super().__init__(
            result,
            _(
                "Deal %(deal)s of party %(party)s at table %(table)s is already entered with "
                "another outcome: your entry was not saved."
            )
            % _where(result),
        )


class ResultReplay(ResultConflict, EntryReplay):
    """The very outcome stored for that deal was sent again (a double tap, a resend after a lost
    answer): nothing was written; ``result`` is the stored one."""

    def __init__(self, result: FreeDealResult) -> None:
        self.result = result
        EntryReplay.__init__(
            self,
            result,
            _(
                "Deal %(deal)s of party %(party)s at table %(table)s is already saved "
                "(identical): nothing changed."
            )
            % _where(result),
        )


class PartyNotOpen(StageNotOpen):
    """A table code wrote outside the open party: the tournament is not running, or ``party``
    is closed (or not begun)."""

    def __init__(self, *, party: int | None, open_party: int | None, running: bool) -> None:
        self.party = party
        self.open_party = open_party
        if not running:
            code = "free_deal_not_running"
            message = _("The tournament is not running: results cannot be entered.")
        elif party is None:
            code = "party_closed"
            message = _(
                "Every party is closed: results can no longer be entered or corrected at the "
                "table. Ask the director."
            )
        elif open_party is None or party < open_party:
            code = "party_closed"
            message = _(
                "Party %(party)s is closed: its results can no longer be entered or corrected "
                "at the table. Ask the director."
            ) % {"party": party}
        else:
            code = "party_not_open"
            message = _("Party %(party)s has not started yet.") % {"party": party}
        super().__init__(code, message, field="party")
