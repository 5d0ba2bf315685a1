"""Labels of the cups that the pages, the API and the history show: a round's name (from its
distance to the final), how a match was decided and how a room's phone signs its entries.
Here rather than in ``teammatch.views`` so that the API, the services and other apps read them
without importing a views module.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from teammatch.models import CupMatch, MatchRoom


def round_name(number: int, count: int) -> str:
    left = count - number
    if left == 0:
        return pgettext("cup round", "Final")
    if left == 1:
        return _("Semi-finals")
    if left == 2:
        return _("Quarter-finals")
    return _("Round %(number)s") % {"number": number}


def decided_text(match: CupMatch) -> str:
    return {
        "pm": _("on points de match"),
        "net": _("drawn: decided on net marks"),
        "last_quarter": _("drawn: decided on the last quarter"),
        "coin": _("drawn: decided by the seeded draw"),
        "bye": _("bye"),
    }.get(match.decided_by, "")


def room_label(room: MatchRoom) -> str:
    """How a room's phone signs its entries in the history: "closed room phone"."""
    return _("%(room)s phone") % {"room": str(room.get_room_display()).lower()}
