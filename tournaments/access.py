"""Who may see and change what: the two access rules of the project, in one place.

- **Directing an event**: a user directs an event when he is one of ``Club.organisers`` of its
  club, or a superuser. Directors see and change everything of their events (setup, results,
  corrections) and see every outcome even while a deal is still in play. A *section* of a
  simultaneous is also directed by whoever directs its simultaneous (the organisers of the
  simultaneous's club): they direct every section, while a section's own club organisers
  direct that section only.
- **Seeing an event**: everybody sees a public event; a private one is visible to its
  directors only (a preview).

Views fetch events through these helpers so that an event somebody may not see is a 404,
never a 403 that would tell it exists. Table phones need no account: the table code is their
credential, scoped to the table's open round (``tournaments.table_scope``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from tournaments.models import Club, Event

UserLike = AbstractBaseUser | AnonymousUser

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponse)


def _is_superuser(user: Any) -> bool:
    return bool(getattr(user, "is_superuser", False))


def clubs_directed_by(user: UserLike) -> QuerySet[Club]:
    """The clubs whose events ``user`` directs (every club for a superuser)."""
    if not user.is_authenticated:
        return Club.objects.none()
    if _is_superuser(user):
        return Club.objects.all()
    return Club.objects.filter(organisers=user.pk)


def _directed(user: UserLike) -> Q:
    """Events of a club ``user`` organises, and the sections of such an event."""
    clubs = Club.objects.filter(organisers=user.pk).values("pk")
    return Q(club__in=clubs) | Q(simultaneous__club__in=clubs)


def events_directed_by(user: UserLike) -> QuerySet[Event]:
    """The events ``user`` directs (sees and changes as an organiser)."""
    if not user.is_authenticated:
        return Event.objects.none()
    events = Event.objects.select_related("club")
    if _is_superuser(user):
        return events
    return events.filter(_directed(user))


def user_directs(user: UserLike | None, event: Event) -> bool:
    """Whether ``user`` directs ``event``: an organiser of its club (or of its simultaneous's
    club, for a section), or a superuser."""
    if user is None or not user.is_authenticated:
        return False
    if _is_superuser(user):
        return True
    clubs = [event.club_id]
    if event.simultaneous_id is not None:
        clubs.append(
            Event.objects.filter(pk=event.simultaneous_id).values_list("club_id", flat=True)[0]
        )
    return Club.objects.filter(pk__in=clubs, organisers=user.pk).exists()


def events_visible_to(user: UserLike | None) -> QuerySet[Event]:
    """Public events, plus the events ``user`` directs."""
    events = Event.objects.select_related("club")
    if user is None or not user.is_authenticated:
        return events.filter(public=True)
    if _is_superuser(user):
        return events
    return events.filter(Q(public=True) | _directed(user))


def visible_event_or_404(request: HttpRequest, event_id: int) -> Event:
    """The event ``event_id`` if the visitor may see it, else 404."""
    return get_object_or_404(events_visible_to(request.user), pk=event_id)


def directed_event_or_404(request: HttpRequest, event_id: int) -> Event:
    """The event ``event_id`` if the visitor directs it, else 404."""
    return get_object_or_404(events_directed_by(request.user), pk=event_id)


def directs_event(
    view: Callable[Concatenate[HttpRequest, Event, P], R],
) -> Callable[..., R]:
    """Decorator: the view receives the event it directs instead of its ``pk`` (else 404).

    ``pk`` comes from the URL (Django passes it by keyword); put ``login_required`` and the
    method checks above it so that they answer first, as everywhere else.
    """

    @wraps(view)
    def wrapper(request: HttpRequest, pk: int, *args: P.args, **kwargs: P.kwargs) -> R:
        return view(request, directed_event_or_404(request, pk), *args, **kwargs)

    return wrapper
