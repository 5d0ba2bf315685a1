"""The table code typed on the home page: the fallback of a phone that cannot scan the card's
QR code. A code of any kind (a duplicate table's, a cup room's, a free-deal table's), in any
case, with or without spaces, opens that phone's page; an unknown code says so and counts one
failure in the kernel's code throttle (``clubs.phone_codes``); a valid code is never throttled.

Here, at the top of the house, because only the site knows the three kinds of phone.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from clubs.phone_codes import CodeThrottled, UnknownCode, phone_code_find
from freedeal.models import FreeDealTable
from teammatch.models import MatchRoom
from teammatch.selectors import rooms
from tournaments.models import Table
from tournaments.selectors import phone_tables

#: Longer than any code ever printed; what is typed beyond is not read.
MAX_TYPED = 40


def typed_code(raw: str) -> str:
    """The code as typed, without its spaces and dashes (the card prints it in one block, a
    player may copy it in groups)."""
    return "".join(ch for ch in raw[: MAX_TYPED * 2] if not ch.isspace() and ch != "-")[:MAX_TYPED]


def phone_address(found: object) -> str:
    """The phone page of what a code opened."""
    if isinstance(found, Table):
        return reverse("table:entry", args=[found.code])
    if isinstance(found, MatchRoom):
        return reverse("teammatch:room", args=[found.code])
    assert isinstance(found, FreeDealTable), found
    return reverse("freedeal:table", args=[found.code])


@require_GET
def phone_code(request: HttpRequest) -> HttpResponse:
    """``GET /code/?code=…``: the phone page of the code, or this page saying it is unknown."""
    code = typed_code(request.GET.get("code", ""))
    if not code:
        return HttpResponseRedirect(reverse("public:home"))
    try:
        found = phone_code_find(
            request, [phone_tables(), rooms(), FreeDealTable.objects.all()], code
        )
    except UnknownCode:
        context = {"code": code, "error": _("No table has this code: check it on the card.")}
        return render(request, "phone_code.html", context, status=404)
    except CodeThrottled as throttled:
        response = render(
            request, "clubs/phone_throttled.html", {"message": throttled.message}, status=429
        )
        response["Retry-After"] = str(throttled.retry_after)
        return response
    return HttpResponseRedirect(phone_address(found))
