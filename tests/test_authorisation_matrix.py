"""Who may call what: every URL of ``config.urls`` × every role, against a table of outcomes.

The URL names come from the resolver itself (API operations included: their methods are read
from the DRF view classes), so a new URL, or a new method on an API view, that is not in
:data:`MATRIX` fails :func:`test_the_matrix_covers_every_url_and_api_method`: whoever adds a
URL says here who may call it. Skipped, with the reason: :data:`SKIPPED` (Django admin's own
model pages, the language switch).

Roles (:data:`ROLES`, one letter each in the table, in this order):

- ``anonymous``: no session;
- ``table_open``: the table code of table 1 of the event, aimed at a deal of its open round;
- ``table_later``: the same code, aimed at a deal of a later round (writes refused,
  ``tournaments.table_scope``; reads of the schedule allowed);
- ``table_other_event``: the code of a table of another event, aimed at a deal number that
  event does not have (a code only ever reaches its own event's deals);
- ``organiser``: an organiser of the event's club (he directs the event);
- ``other_organiser``: an organiser of another club;
- ``staff``: a superuser with admin access.

A table code is no session: off the table URLs the table roles are anonymous visitors (on the
table URLs the other roles use an unknown code). Outcome letters: ``A`` allowed (2xx, or a
redirect elsewhere than the login page), ``V`` let through but the input refused (400, 409,
422: authorisation passed, the data is wrong for it), ``D`` refused (401, 403, 404), ``L`` sent
to the login page, ``M`` method not allowed (405). Every request meets the event as the
fixture built it (each one is rolled back), and no answer may be a server error.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from clubs.invitations import organiser_invitation_create
from clubs.models import Membership
from tests.builders import GARDE_46, running_event
from tests.factories import OrganiserFactory, PlayerFactory, UserFactory
from tournaments import services
from tournaments.models import Deal, Event, Table

pytestmark = pytest.mark.django_db

ROLES = (
    "anonymous",
    "table_open",
    "table_later",
    "table_other_event",
    "organiser",
    "other_organiser",
    "staff",
)
TABLE_ROLES = {"table_open", "table_later", "table_other_event"}

# URL names left out, by prefix or name, with the reason.
SKIPPED = {
    "admin:": "Django admin's own model pages: the admin site checks is_staff and the model "
    "permissions itself; admin:index and admin:login stand for them below",
    "set_language": "the language switch (Django's i18n view): no data behind it",
}
KEPT_ADMIN = {"admin:index", "admin:login"}

# URL name -> {method: outcome letter per role, in ROLES order}.
MATRIX: dict[str, dict[str, str]] = {
    # The API schema and its documentation pages: public.
    "api_schema": {"GET": "AAAAAAA"},
    "api_docs": {"GET": "AAAAAAA"},
    "api_redoc": {"GET": "AAAAAAA"},
    # The API root (/api/v1/): its endpoints and documentation, public.
    "api_root": {"GET": "AAAAAAA"},
    # The phone pages' service worker, web app manifest and offline shell: public, no data.
    "phone_service_worker": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "phone_manifest": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "phone_offline": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "phone_code": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    # API reads of a public event: everybody; writes: the event's directors only.
    "api:events": {"GET": "AAAAAAA"},
    "api:event": {"GET": "AAAAAAA"},
    "api:event_entrants": {"GET": "AAAAAAA"},
    "api:event_movement": {"GET": "AAAAAAA"},
    "api:event_deals": {"GET": "AAAAAAA"},
    "api:event_results": {"GET": "AAAAAAA", "POST": "DDDDADA"},
    # Table code URLs: the code is the credential (an unknown code: 404), scoped to the open
    # round (a later round's deal: 403 round_not_open); the other event's code reaches only its
    # own event, which has no such deal (400 unknown_deal).
    "api:table": {"GET": "DAAADDD"},
    "api:table_results": {"GET": "DAAADDD", "POST": "DADVDDD"},
    "api:event_rankings": {"GET": "AAAAAAA"},
    # Deal 1 is still in play at other tables: only its directors see its hand scores.
    "api:deal_hand_scores": {"GET": "DDDDADA"},
    # Django admin: staff only.
    "admin:index": {"GET": "LLLLLLA", "POST": "LLLLLLA"},
    "admin:login": {"GET": "AAAAAAA", "POST": "AAAAAAA"},
    # Login and logout: anybody (logout only by POST).
    "login": {"GET": "AAAAAAA", "POST": "AAAAAAA"},
    "logout": {"GET": "MMMMMMM", "POST": "AAAAAAA"},
    # The first run (instance.setup): open only while no account exists; afterwards it sends
    # visitors to the login page and organisers to their home.
    "instance:setup": {"GET": "LLLLAAA", "POST": "LLLLAAA"},
    # Organiser screens: login first; then the event's directors only (404 for others, never
    # 403: an event one may not direct is not told to exist); home and creation pages are
    # every signed-in user's own.
    "organiser:home": {"GET": "LLLLAAA", "POST": "LLLLAAA"},
    "organiser:event_create": {"GET": "LLLLAAA", "POST": "LLLLAAA"},
    "organiser:simultaneous_create": {"GET": "LLLLAAA", "POST": "LLLLAAA"},
    "organiser:event": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:event_edit": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:event_start": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # Finishing: GET the confirmation page listing what is missing; a POST while results are
    # missing, without the confirmation, is refused with the list (409). Reopening a running
    # event: 409 (only a finished one reopens, with a reason).
    "organiser:event_finish": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "organiser:event_reopen": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    # The control room (GET only) and its printable list of missing results; closing round 1
    # (results missing, not confirmed: 409 with the list), reopening it (not closed: 409).
    "organiser:control": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "organiser:clock_action": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:control_missing": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "organiser:round_close": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:round_reopen": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # A late arrival is marked handled by the competition's directors only (POST); the same
    # for a cup's and a free-deal tournament's.
    "organiser:late_arrival_handled": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "organiser:players": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:player_add": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:player_register": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:players_import": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:entrant_withdraw": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # Late changes of a running event: the round and the substitute are missing (400).
    "organiser:entrant_substitute": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:entrant_forfeit": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:teams": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:teams_auto": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "organiser:team_delete": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "organiser:movement": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "organiser:movement_import": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:deals": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:deals_import": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "organiser:deal_seats": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # Simultaneous-only pages: the event here is an ordinary one, so a 404 for everybody.
    "organiser:section_add": {"GET": "LLLLMMM", "POST": "LLLLDDD"},
    "organiser:section_delete": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "organiser:simultaneous_deals": {"GET": "LLLLDDD", "POST": "LLLLDDD"},
    "organiser:simultaneous_deals_import": {"GET": "LLLLMMM", "POST": "LLLLDDD"},
    "organiser:results_import": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "organiser:print_tables": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_routes": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_deal_sets": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_hands": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_score_sheets_index": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_score_sheets": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:print_score_sheet": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:entry_grid": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:entry_result": {"GET": "LLLLADA", "POST": "LLLLADA"},
    "organiser:penalties": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "organiser:history": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    # Table phone pages: as the table code API. A preview validates a form and reads nothing
    # stored: any deal of the code's own event, whatever the round.
    "table:entry": {"GET": "DAAADDD", "POST": "MMMMMMM"},
    "table:clock": {"GET": "DAAADDD", "POST": "MMMMMMM"},
    "table:deal_save": {"GET": "MMMMMMM", "POST": "DADDDDD"},
    "table:deal_preview": {"GET": "MMMMMMM", "POST": "DAADDDD"},
    "table:deal_confirm": {"GET": "MMMMMMM", "POST": "DADDDDD"},
    # A correction: the open round's own entry (stored by the table) is corrected; round 3's
    # (entered ahead by the director, a later round) is refused, round_not_open.
    "table:deal_correct": {"GET": "MMMMMMM", "POST": "DADDDDD"},
    # Public pages of a public event: everybody (GET only); outcomes still in play are
    # hidden inside the pages (tests/scoring).
    "public:home": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:event": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:ranking": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:ranking_projector": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "clock:event": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:deals": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:deal": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:players": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:scorecard": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    # Team pages of an individual event: 404 for everybody.
    "public:teams": {"GET": "DDDDDDD", "POST": "MMMMMMM"},
    "public:matches": {"GET": "DDDDDDD", "POST": "MMMMMMM"},
    "public:movement": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:export_ranking": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "public:export_results": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    # Archive download: the event's directors; restore: any signed-in user, into a club he
    # organises (a form error otherwise).
    "public:organiser_archive": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    # Paper for the room: the ranking for the wall and the frequency sheets (organisers).
    "public:print_ranking": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "public:print_frequencies": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "public:organiser_restore": {"GET": "LLLLAAA", "POST": "LLLLVVV"},
    # The results file for the league: the event's directors; the event still runs (409).
    "public:organiser_results_file": {"GET": "LLLLVDV", "POST": "LLLLMMM"},
    # The archives of a cup, a free-deal tournament and a series (with its events): their
    # club's organisers only, like every organiser screen (404 for others).
    "archives:cup": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "archives:free_deal": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "archives:series": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    # Series (the event's club's, public, holding the event): its pages and export for
    # everybody; its organiser screens for the club's organisers (404 for others); an empty
    # POST shows the creation form (as for events), an empty formula or no event chosen is
    # a form error (400).
    "series:index": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "series:ranking": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "series:export": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "series:organiser_list": {"GET": "LLLLAAA", "POST": "LLLLMMM"},
    # The club's pages: its organisers (and staff); another club's organiser gets a 404. An
    # empty form is refused (V); the last organiser is never removed (409).
    "clubs:list": {"GET": "LLLLAAA", "POST": "LLLLMMM"},
    "clubs:club": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "clubs:register": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "clubs:register_add": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "clubs:register_line": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "clubs:register_line_active": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "clubs:import": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "clubs:organisers": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "clubs:invite": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "clubs:invitation_revoke": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "clubs:organiser_remove": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # Passing the ownership on: the owner or the superuser (the form refused here: no data).
    "clubs:owner_pass": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    # An invitation link (valid): public; joining needs an account (an empty one is refused).
    "clubs:invitation": {"GET": "AAAAAAA", "POST": "VVVVAAA"},
    "series:organiser_create": {"GET": "LLLLAAA", "POST": "LLLLAAA"},
    "series:organiser_edit": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "series:organiser_event_add": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "series:organiser_event_remove": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "series:organiser_delete": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "api:series_ranking": {"GET": "AAAAAAA"},
    # Free-deal tournaments: public pages of a public tournament for everybody; the table
    # phone for its own code only (a deal beyond the party: refused); the organiser's screens
    # for the club's organisers (another club's: not found).
    "freedeal:index": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "freedeal:organiser_action": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "freedeal:organiser_correct": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "freedeal:organiser_create": {"GET": "LLLLAAA", "POST": "LLLLVVV"},
    "freedeal:organiser_detail": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "freedeal:organiser_late_handled": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "freedeal:organiser_list": {"GET": "LLLLAAA", "POST": "LLLLMMM"},
    "freedeal:player": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "freedeal:ranking": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "freedeal:seating": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "freedeal:table": {"GET": "DAADDDD", "POST": "MMMMMMM"},
    "freedeal:table_deal": {"GET": "MMMMMMM", "POST": "DVVDDDD"},
    # The table phone's live preview (an empty form: 422 naming the fields) and its explicit
    # correction (an empty form: 400), for its own code only.
    "freedeal:table_preview": {"GET": "MMMMMMM", "POST": "DVVDDDD"},
    "freedeal:table_correct": {"GET": "MMMMMMM", "POST": "DVVDDDD"},
    "api:free_deal_ranking": {"GET": "AAAAAAA"},
    # The free-deal table API, by its code only: the open party; a passed deal 1 is entered
    # (deal 5 is beyond a party of 4: 400); a correction without an outcome is 400.
    "api:free_deal_table": {"GET": "DAADDDD"},
    "api:free_deal_table_results": {"POST": "DAVDDDD"},
    "api:free_deal_table_correct": {"POST": "DVVDDDD"},
    # Team-match cups: the same, the room phone for its own code (a deal of a later quarter:
    # refused).
    "teammatch:bracket": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "teammatch:index": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "teammatch:match": {"GET": "AAAAAAA", "POST": "MMMMMMM"},
    "teammatch:organiser_close_quarter": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "teammatch:organiser_create": {"GET": "LLLLAAA", "POST": "LLLLVVV"},
    "teammatch:organiser_cup": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "teammatch:organiser_finish_cup": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "teammatch:organiser_finish_match": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "teammatch:organiser_late_handled": {"GET": "LLLLMMM", "POST": "LLLLADA"},
    "teammatch:organiser_lineup": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "teammatch:organiser_list": {"GET": "LLLLAAA", "POST": "LLLLMMM"},
    "teammatch:organiser_match": {"GET": "LLLLADA", "POST": "LLLLMMM"},
    "teammatch:organiser_result": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "teammatch:organiser_start": {"GET": "LLLLMMM", "POST": "LLLLVDV"},
    "teammatch:organiser_team": {"GET": "LLLLADA", "POST": "LLLLVDV"},
    "teammatch:room": {"GET": "DAADDDD", "POST": "MMMMMMM"},
    "teammatch:room_deal": {"GET": "MMMMMMM", "POST": "DVVDDDD"},
    # The room's correction (an empty form: refused, 400) and its live preview (an empty
    # form: the errors, 422; a deal of a later quarter: 403, the hand checks speak of cards).
    "teammatch:room_deal_correct": {"GET": "MMMMMMM", "POST": "DVVDDDD"},
    "teammatch:room_deal_preview": {"GET": "MMMMMMM", "POST": "DVDDDDD"},
    "api:cup_bracket": {"GET": "AAAAAAA"},
    # The room phone's API: its own code only; a deal of quarter 1 is entered (201) or, by
    # the correction endpoint, entered as it was not yet (200); a deal of a later quarter is
    # not writable (403 deal_not_in_quarter).
    "api:cup_room": {"GET": "DAADDDD"},
    "api:cup_room_results": {"POST": "DADDDDD"},
    "api:cup_room_result_correct": {"POST": "DADDDDD"},
}


# --------------------------------------------------------------------------------- the URLs


@dataclass(frozen=True)
class Route:
    name: str | None
    pattern: str
    callback: Any


def _walk(patterns: list[Any], prefix: str = "", namespace: str | None = None) -> Iterator[Route]:
    for entry in patterns:
        if isinstance(entry, URLResolver):
            inner = namespace
            if entry.namespace:
                inner = f"{namespace}:{entry.namespace}" if namespace else entry.namespace
            yield from _walk(entry.url_patterns, prefix + str(entry.pattern), inner)
        elif isinstance(entry, URLPattern):
            name = entry.name
            if name is not None and namespace:
                name = f"{namespace}:{name}"
            yield Route(name, prefix + str(entry.pattern), entry.callback)


def routes() -> list[Route]:
    return list(_walk(get_resolver().url_patterns))


def skipped(name: str | None, pattern: str) -> bool:
    if name in KEPT_ADMIN:
        return False
    if name is None:
        # admin's redirects and catch-all (under the language prefix: "en/admin/...")
        return pattern.removeprefix("en/").startswith("admin/")
    return any(name == key or (key.endswith(":") and name.startswith(key)) for key in SKIPPED)


def api_methods(route: Route) -> set[str] | None:
    """The HTTP methods a DRF view implements (None for a plain Django view)."""
    view_class = getattr(route.callback, "cls", None)
    if view_class is None:
        return None
    actions = getattr(route.callback, "actions", None)
    if actions:
        # (DRF adds "head" to a viewset's actions at its first request: HEAD is GET's)
        return {method.upper() for method in actions if method not in ("head", "options")}
    return {
        method.upper()
        for method in ("get", "post", "put", "patch", "delete")
        if hasattr(view_class, method)
    }


# -------------------------------------------------------------------------------- the world


@dataclass
class World:
    """The event under test, the other event, the users and what each request aims at."""

    event: Event
    table: Table
    open_missing: Deal  # open round (1) of table 1, still to enter
    open_entered: Deal  # open round of table 1, entered by the table, awaiting confirmation
    later_missing: Deal  # round 3 of table 1, still to enter
    later_entered: Deal  # round 3 of table 1, entered ahead by the director
    other_code: str  # table 1 of another event
    absent_number: int  # a deal number of the event that the other event does not have
    entrant_id: int
    team_id: int
    sessions: dict[str, str]  # role -> session cookie
    series_id: int = 0  # a public series of the event's club, holding the event
    # A running public free-deal tournament of the event's club (4 players, one table) and a
    # running public team-match cup (two teams: one match, its first quarter lined up).
    free_deal_id: int = 0
    free_deal_code: str = ""
    cup_id: int = 0
    cup_team_id: int = 0
    match_id: int = 0
    room_code: str = ""
    match_deal: int = 0  # the match's first deal (quarter 1)
    later_match_deal: int = 0  # a deal of quarter 2
    # The event's club: a line of its register, a pending invitation (and its token), the
    # organiser of the event (its only organiser).
    club_line_id: int = 0
    invitation_id: int = 0
    invitation_token: str = ""
    organiser_id: int = 0
    # A late arrival of each kind (a refused entry kept offline): the event's table 1, the
    # cup's open room, the free-deal table 1.
    late_table_id: int = 0
    late_room_id: int = 0
    late_free_deal_id: int = 0


def _late_arrivals(table: Table, room: Any, free_table: Any) -> tuple[int, int, int]:
    from freedeal.models import FreeDealLateArrival
    from teammatch.models import RoomLateArrival
    from tournaments.models import TableLateArrival

    when = {"deal": 1, "code": "result_exists", "kept_since": "2026-11-27T19:02:11Z"}
    return (
        TableLateArrival.objects.create(holder=table, **when).pk,
        RoomLateArrival.objects.create(holder=room, **when).pk,
        FreeDealLateArrival.objects.create(holder=free_table, **when).pk,
    )


def _deals_at(event: Event, round_number: int) -> list[Deal]:
    play = event.schedule.play(table=1, round=round_number)
    assert play is not None and not play.sits_out
    return list(event.deals.filter(deal_set=play.deal_set).order_by("number"))


@pytest.fixture
def world() -> World:
    from series.services import series_create, series_event_add
    from tests.factories import TeamFactory

    event = running_event(tables=5, rounds=3, deals_per_round=2, opponent_confirmation=True)
    table = event.tables.get(number=1)
    organiser = OrganiserFactory(clubs=[event.club])
    other_organiser = OrganiserFactory()
    staff = UserFactory(is_staff=True, is_superuser=True)
    open_entered, open_missing = _deals_at(event, 1)
    later_entered, later_missing = _deals_at(event, 3)
    services.table_result_enter(table=table, deal=open_entered, outcome=GARDE_46)
    services.table_result_enter(
        table=table, deal=later_entered, outcome=GARDE_46, actor=organiser, via="organiser"
    )
    other = running_event(tables=5, rounds=2, deals_per_round=1)
    other_numbers = set(other.deals.values_list("number", flat=True))
    absent = max(set(event.deals.values_list("number", flat=True)) - other_numbers)
    sessions = {}
    for role, user in (
        ("organiser", organiser),
        ("other_organiser", other_organiser),
        ("staff", staff),
    ):
        client = Client()
        client.force_login(user)
        sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value
    entrant = event.entrants.filter(phantom=False).order_by("slot").first()
    assert entrant is not None
    series = series_create(club=event.club, name="Season", public=True, method="points",
                           points_table=[3, 2, 1], points_default=0, best_n=None,
                           min_events=1)  # fmt: skip
    series_event_add(series=series, event=event)
    free_deal, cup, match = _free_deal_and_cup(event)
    match_deals = list(match.deals.order_by("number").values_list("number", "quarter"))
    line = Membership.objects.create(club=event.club, player=PlayerFactory(club=None))
    invitation, token = organiser_invitation_create(club=event.club, by=organiser)
    late = _late_arrivals(table, match.rooms.get(room="open"), free_deal.tables.get(number=1))
    return World(
        event=event,
        table=table,
        open_missing=open_missing,
        open_entered=open_entered,
        later_missing=later_missing,
        later_entered=later_entered,
        other_code=other.tables.get(number=1).code,
        absent_number=absent,
        entrant_id=entrant.pk,
        team_id=TeamFactory(event=event).pk,
        sessions=sessions,
        series_id=series.pk,
        free_deal_id=free_deal.pk,
        free_deal_code=free_deal.tables.get(number=1).code,
        cup_id=cup.pk,
        cup_team_id=cup.teams.order_by("seed").first().pk,
        match_id=match.pk,
        room_code=match.rooms.get(room="open").code,
        match_deal=match_deals[0][0],
        later_match_deal=next(number for number, quarter in match_deals if quarter == 2),
        club_line_id=line.pk,
        invitation_id=invitation.pk,
        invitation_token=token,
        organiser_id=organiser.pk,
        late_table_id=late[0],
        late_room_id=late[1],
        late_free_deal_id=late[2],
    )


def _free_deal_and_cup(event: Event) -> tuple[Any, Any, Any]:
    from freedeal import services as free_deal_services
    from teammatch import services as cup_services
    from teammatch.models import CupMatch
    from tests.factories import PlayerFactory

    players = [PlayerFactory(club=event.club) for _ in range(8)]
    free_deal = free_deal_services.free_deal_create(
        club=event.club, name="Libres", date=event.date, public=True, seed=1
    )
    for player in players[:4]:
        free_deal_services.free_deal_player_register(tournament=free_deal, player=player)
    free_deal = free_deal_services.free_deal_start(tournament=free_deal)
    cup = cup_services.cup_create(club=event.club, name="Coupe", date=event.date, public=True,
                                  deals_per_quarter=2, deal_seed=1, tie_break_seed=1)  # fmt: skip
    cup_services.cup_team_add(cup=cup, name="A", players=players[:4])
    cup_services.cup_team_add(cup=cup, name="B", players=players[4:])
    cup = cup_services.cup_start(cup=cup)
    match = CupMatch.objects.get(cup=cup, round=1)
    a, b = players[:4], players[4:]
    seats = {"open_taker": a[0], "closed_taker": b[0]}
    for index in (1, 2, 3):
        seats[f"open_defender_{index}"] = b[index]
        seats[f"closed_defender_{index}"] = a[index]
    cup_services.match_lineup_set(match=match, quarter=1, seats=seats)
    return free_deal, cup, match


# ----------------------------------------------------------------------------- the requests


@dataclass(frozen=True)
class Call:
    path: str
    data: dict[str, Any]
    json: bool = False


def _defender(deal: Deal | None) -> str:
    return next(seat for seat in "NESW" if deal is None or seat != deal.taker_seat)


def _table_target(world: World, role: str, name: str) -> tuple[str, int, Deal | None]:
    """(code, deal number, deal) a role aims at on a table URL."""
    stored = name in ("table:deal_confirm", "table:deal_correct")
    if role == "table_open":
        deal = world.open_entered if stored else world.open_missing
        return world.table.code, deal.number, deal
    if role == "table_later":
        deal = world.later_entered if stored else world.later_missing
        return world.table.code, deal.number, deal
    if role == "table_other_event":
        return world.other_code, world.absent_number, None
    return "not-a-code", world.open_missing.number, world.open_missing


def build_call(world: World, route: Route, role: str) -> Call:
    """The path (kwargs filled for this role) and the POST body of one request."""
    name = route.name or ""
    code, number, deal = _table_target(world, role, name)
    values: dict[str, Any] = {
        "pk": world.event.pk,
        "event_id": world.event.pk,
        "entrant_pk": world.entrant_id,
        "entrant_id": world.entrant_id,
        "team_pk": world.team_id,
        "table_number": world.table.number,
        "deal_number": world.open_entered.number,
        "round_number": 1,
        "fmt": "csv",
        "code": code,
        "series_id": world.series_id,
        "series_pk": world.series_id,
        "event_pk": world.event.pk,
        "arrival": world.late_table_id,
    }
    if name.startswith(("table:", "api:table")):
        values["number"] = number
    elif name in ("organiser:entry_grid", "organiser:round_close", "organiser:round_reopen"):
        values["number"] = 1  # a round number
    else:
        values["number"] = world.open_entered.number
    if name.startswith(("freedeal:", "api:free_deal_")):
        # a free-deal tournament's pages: its table 1 in party 1 (a code of another event's
        # table for table_other_event, unknown for the others); deal 5 is beyond a party of 4
        values.update(pk=world.free_deal_id, number=1, party=1, table=1, action="finish",
                      arrival=world.late_free_deal_id)  # fmt: skip
        values["deal"] = 5 if role == "table_later" else 1
        if role in ("table_open", "table_later"):
            values["code"] = world.free_deal_code
    elif name.startswith(("teammatch:", "api:cup_")):
        # the cup's match: its open room's phone, aimed at quarter 1 (lined up, open) or at a
        # deal of quarter 2 for table_later
        values.update(cup_id=world.cup_id, team_id=world.cup_team_id, match_id=world.match_id,
                      quarter=1, room="open", arrival=world.late_room_id)  # fmt: skip
        values["number"] = world.later_match_deal if role == "table_later" else world.match_deal
        if role in ("table_open", "table_later"):
            values["code"] = world.room_code
    if name.startswith("clubs:"):
        values.update(pk=world.event.club_id, line_pk=world.club_line_id,
                      invitation_pk=world.invitation_id, token=world.invitation_token,
                      user_pk=world.organiser_id)  # fmt: skip
    if name.startswith("archives:"):
        # the archive downloads: the world's cup, free-deal tournament or series
        kind = name.removeprefix("archives:")
        values["pk"] = {"cup": world.cup_id, "free_deal": world.free_deal_id}.get(
            kind, world.series_id
        )
    path = "/" + route.pattern
    for key, value in values.items():
        for converter in ("int", "str", "path", "slug", ""):
            placeholder = f"<{converter}:{key}>" if converter else f"<{key}>"
            path = path.replace(placeholder, str(value))
    assert "<" not in path, f"no value for a parameter of {route.name}: {route.pattern}"
    if name == "table:entry" and role == "table_later":
        path += "?round=3"
    data: dict[str, Any] = {}
    if name in ("table:deal_save", "table:deal_preview", "table:deal_correct"):
        data = {
            f"d{number}-contract": "garde",
            f"d{number}-oudlers": "2",
            # a correction changes the stored Garde 46
            f"d{number}-points": "50" if name == "table:deal_correct" else "46",
            f"d{number}-petit_au_bout": "",
        }
    elif name == "table:deal_confirm":
        data = {"seat": _defender(deal)}
    elif name == "api:table_results":
        return Call(path, {"deal": number, "outcome": GARDE_46}, json=True)
    elif name in ("api:cup_room_results", "api:cup_room_result_correct"):
        return Call(path, {"deal": values["number"], "outcome": GARDE_46}, json=True)
    elif name == "api:event_results":
        body = {"deal": world.open_missing.number, "table": 1, "outcome": GARDE_46}
        return Call(path, body, json=True)
    elif name == "api:free_deal_table_results":
        return Call(path, {"deal": values["deal"], "outcome": {"contract": "passed"}}, json=True)
    return Call(path, data)


def letter(response: Any) -> str:
    status = response.status_code
    if status in (301, 302, 303):
        location = response["Location"]
        return "L" if "/login/" in location else "A"
    if status in (401, 403, 404):
        return "D"
    if status == 405:
        return "M"
    if status < 300:
        return "A"
    if status in (400, 409, 422):
        return "V"
    return f"?{status}"


def send(world: World, route: Route, role: str, method: str) -> tuple[str, int]:
    """One request, rolled back: (outcome letter, status)."""
    call = build_call(world, route, role)
    client = Client(raise_request_exception=False)
    if role in world.sessions:
        client.cookies[settings.SESSION_COOKIE_NAME] = world.sessions[role]
    with transaction.atomic():
        if method == "GET":
            response = client.get(call.path)
        elif call.json:
            response = client.post(call.path, call.data, content_type="application/json")
        else:
            response = client.post(call.path, call.data)
        transaction.set_rollback(True)
    cache.clear()  # rendered pages and the unknown-code throttle: each request on its own
    return letter(response), response.status_code


def methods_of(route: Route) -> tuple[str, ...]:
    found = api_methods(route)
    if found is None:
        return ("GET", "POST")
    return tuple(sorted(found))


# ------------------------------------------------------------------------------- the tests


def test_the_matrix_covers_every_url_and_api_method():
    """A URL name (or an API method) the matrix does not know fails: say who may call it."""
    found: dict[str, set[str]] = {}
    unnamed = []
    for route in routes():
        if skipped(route.name, route.pattern):
            continue
        if route.name is None:
            unnamed.append(route.pattern)
            continue
        found.setdefault(route.name, set()).update(methods_of(route))
    assert not unnamed, f"URLs without a name (name them, then add them to MATRIX): {unnamed}"
    missing = sorted(set(found) - set(MATRIX))
    assert not missing, f"URL names missing from MATRIX (say who may call them): {missing}"
    stale = sorted(set(MATRIX) - set(found))
    assert not stale, f"MATRIX names no URL any more: {stale}"
    for name, methods in found.items():
        assert set(MATRIX[name]) == methods, f"{name}: methods {sorted(methods)} to cover"
        for method, letters in MATRIX[name].items():
            assert len(letters) == len(ROLES), f"{name} {method}: one letter per role"


def test_every_role_on_every_url_gets_the_expected_answer(world):
    """Every (URL, method, role) of the matrix, each request rolled back: the expected outcome,
    and never a server error."""
    by_name = {route.name: route for route in routes() if route.name in MATRIX}
    wrong = []
    server_errors = []
    for name, methods in MATRIX.items():
        route = by_name[name]
        for method, expected in methods.items():
            for role, want in zip(ROLES, expected, strict=True):
                got, status = send(world, route, role, method)
                if status >= 500:
                    server_errors.append(f"{name} {method} as {role}: {status}")
                if got != want:
                    wrong.append(f"{name} {method} as {role}: {got} (HTTP {status}), not {want}")
    assert not server_errors, "\n".join(server_errors)
    assert not wrong, "\n".join(wrong)


def test_the_table_code_roles_are_what_they_claim(world):
    """The fixture's aims: the open round is 1, the later deal is in round 3, the other code
    belongs to another event without the absent deal number."""
    from tournaments.table_scope import TableScope

    scope = TableScope.of(world.table)
    assert scope.open_round == 1
    assert scope.round_of(world.open_missing) == scope.round_of(world.open_entered) == 1
    assert scope.round_of(world.later_missing) == scope.round_of(world.later_entered) == 3
    other = Table.objects.get(code=world.other_code)
    assert other.event_id != world.event.pk
    assert not Deal.objects.filter(event=other.event, number=world.absent_number).exists()
