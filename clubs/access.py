"""Who may see and direct what: the two access rules of every competition, in one place.

- **Directing a competition** (an event, a section, a cup, a free-deal tournament, a series):
  a user directs it when he is one of ``Club.organisers`` of its club, or a superuser. A kind
  may widen the clubs (``directed_by_clubs`` / ``director_club_ids`` on the model: a section
  of a simultaneous is also directed by the simultaneous's club). Directors see and change
  everything of their competitions, including outcomes of deals still in play.
- **Seeing a competition**: everybody sees a public one; a private one is visible to its
  directors only (a preview).

Views fetch competitions through these helpers so that one somebody may not see is a 404,
never a 403 that would tell it exists. Phones need no account: their code is their credential
(``clubs.phone_codes``).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any, Concatenate, ParamSpec, Protocol, TypeVar

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Model, Q, QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404

from clubs.models import Club

UserLike = AbstractBaseUser | AnonymousUser

P = ParamSpec("P")
R = TypeVar("R", bound=HttpResponse)
C = TypeVar("C", bound=Model)


class Directed(Protocol):
    """What access needs of a kind of competition (``clubs.models.Competition`` has it)."""

    club_id: int

    @classmethod
    def directed_by_clubs(cls, clubs: Any) -> Q: ...

    def director_club_ids(self) -> list[int]: ...


def _is_superuser(user: Any) -> bool:
    return bool(getattr(user, "is_superuser", False))


def clubs_directed_by(user: UserLike | None) -> QuerySet[Club]:
    """The clubs whose competitions ``user`` directs (every club for a superuser)."""
    if user is None or not user.is_authenticated:
        return Club.objects.none()
    if _is_superuser(user):
        return Club.objects.all()
    return Club.objects.filter(organisers=user.pk)


def user_directs_a_club(user: UserLike | None) -> bool:
    """Whether ``user`` directs the competitions of some club (he may create one)."""
    return clubs_directed_by(user).exists()


def _directed_q(model: type[Any], user: UserLike) -> Q:
    clubs = Club.objects.filter(organisers=user.pk).values("pk")
    q: Q = model.directed_by_clubs(clubs)
    return q


def directed_by(user: UserLike | None, model: type[C]) -> QuerySet[C]:
    """The competitions of kind ``model`` that ``user`` directs."""
    objects: QuerySet[C] = model._default_manager.select_related("club")
    if user is None or not user.is_authenticated:
        return objects.none()
    if _is_superuser(user):
        return objects
    return objects.filter(_directed_q(model, user))


def visible_to(user: UserLike | None, model: type[C]) -> QuerySet[C]:
    """The competitions of kind ``model`` that ``user`` may see: public ones and his own."""
    objects: QuerySet[C] = model._default_manager.select_related("club")
    if user is None or not user.is_authenticated:
        return objects.filter(public=True)
    if _is_superuser(user):
        return objects
    return objects.filter(Q(public=True) | _directed_q(model, user))


def user_directs(user: UserLike | None, competition: Directed) -> bool:
    """Whether ``user`` directs ``competition`` (an organiser of one of its director clubs, or
    a superuser)."""
    if user is None or not user.is_authenticated:
        return False
    if _is_superuser(user):
        return True
    return Club.objects.filter(pk__in=competition.director_club_ids(), organisers=user.pk).exists()


def visible_or_404(request: HttpRequest, model: type[C], pk: int) -> C:
    """The competition ``pk`` of kind ``model`` if the visitor may see it, else 404."""
    return get_object_or_404(visible_to(request.user, model), pk=pk)


def directed_or_404(request: HttpRequest, model: type[C], pk: int) -> C:
    """The competition ``pk`` of kind ``model`` if the visitor directs it, else 404."""
    return get_object_or_404(directed_by(request.user, model), pk=pk)


def directs(
    model: type[C],
) -> Callable[[Callable[Concatenate[HttpRequest, C, P], R]], Callable[..., R]]:
    """Decorator: the view receives the competition of kind ``model`` it directs instead of
    its ``pk`` (else 404). ``pk`` comes from the URL (Django passes it by keyword); put
    ``login_required`` and the method checks above it so that they answer first."""

    def decorate(view: Callable[Concatenate[HttpRequest, C, P], R]) -> Callable[..., R]:
        @wraps(view)
        def wrapper(request: HttpRequest, pk: int, *args: P.args, **kwargs: P.kwargs) -> R:
            return view(request, directed_or_404(request, model, pk), *args, **kwargs)

        return wrapper

    return decorate


def club_directed_or_404(request: HttpRequest, pk: int) -> Club:
    """Club ``pk`` if the visitor organises it (or is a superuser), else 404."""
    return get_object_or_404(clubs_directed_by(request.user), pk=pk)
