"""Invitations to organise a club: a single-use link, valid :data:`VALIDITY`.

An organiser creates one (:func:`organiser_invitation_create`) and sends its link by any means
(no mail server on a club laptop): the link carries a random token of 256 bits, of which only
the SHA-256 is stored, so the link is shown once. Whoever opens it joins the club's organisers
(:func:`organiser_invitation_accept`), with the account he is logged in with or one he creates
there (:func:`organiser_invitation_accept_new_user`). A token unknown, expired, already used
or revoked is refused (``invitation_unknown``, ``invitation_expired``, ``invitation_used``,
``invitation_revoked``) and changes nothing.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.errors import DomainError
from clubs.models import Club, OrganiserInvitation

VALIDITY = timedelta(days=7)
#: Random bytes of a token (256 bits; the brief asks at least 128).
TOKEN_BYTES = 32


def token_hash(token: str) -> str:
    """What is stored of ``token``."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def organiser_invitation_create(*, club: Club, by: Any) -> tuple[OrganiserInvitation, str]:
    """A new invitation to organise ``club`` and its token (shown once, never stored)."""
    token = secrets.token_urlsafe(TOKEN_BYTES)
    invitation = OrganiserInvitation.objects.create(
        club=club,
        token_hash=token_hash(token),
        created_by=by if getattr(by, "pk", None) else None,
        expires_at=timezone.now() + VALIDITY,
    )
    return invitation, token


def organiser_invitation_revoke(*, invitation: OrganiserInvitation) -> None:
    """Revoke a pending invitation (refused when already used, revoked or expired)."""
    with transaction.atomic():
        locked = OrganiserInvitation.objects.select_for_update().get(pk=invitation.pk)
        invitation_check(locked)
        locked.revoked_at = timezone.now()
        locked.save(update_fields=["revoked_at"])


def invitation_check(invitation: OrganiserInvitation | None) -> OrganiserInvitation:
    """``invitation`` if it may still be accepted, else the refusal saying why."""
    if invitation is None:
        raise DomainError("invitation_unknown", _("This invitation link is not valid."))
    if invitation.revoked_at is not None:
        raise DomainError("invitation_revoked", _("This invitation was withdrawn."))
    if invitation.accepted_at is not None:
        raise DomainError("invitation_used", _("This invitation has already been used."))
    if invitation.expires_at <= timezone.now():
        raise DomainError("invitation_expired", _("This invitation has expired."))
    return invitation


def invitation_by_token(token: str) -> OrganiserInvitation | None:
    """The invitation of ``token`` (its club loaded), or None."""
    if not token or len(token) > 100:
        return None
    return (
        OrganiserInvitation.objects.select_related("club").filter(token_hash=token_hash(token))
    ).first()


def _accept(token: str, user: Any) -> OrganiserInvitation:
    found = invitation_by_token(token)
    invitation = invitation_check(
        None
        if found is None
        else OrganiserInvitation.objects.select_for_update().select_related("club").get(pk=found.pk)
    )
    invitation.club.organisers.add(user)
    invitation.accepted_at = timezone.now()
    invitation.accepted_by = user
    invitation.save(update_fields=["accepted_at", "accepted_by"])
    return invitation


def organiser_invitation_accept(*, token: str, user: Any) -> Club:
    """``user`` (logged in) joins the organisers of the club ``token`` invites to; the
    invitation is used up (also when he already organised it)."""
    with transaction.atomic():
        return _accept(token, user).club


def organiser_invitation_accept_new_user(*, token: str, username: str, password: str) -> Any:
    """A new account (``username``, ``password``: validated by the caller's form) that joins
    the organisers of the club ``token`` invites to; nothing is created when it is refused."""
    with transaction.atomic():
        invitation_check(invitation_by_token(token))
        users = get_user_model()._default_manager
        if users.filter(username__iexact=username).exists():
            raise DomainError(
                "username_taken", _("This username is already taken."), field="username"
            )
        user = get_user_model().objects.create_user(username=username, password=password)
        _accept(token, user)
    return user
