"""Clubs and their organisers: club_create, invitations (single use, expiry, revocation),
never removing the last organiser."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from clubs import invitations, services
from clubs.errors import DomainError
from clubs.models import Club, OrganiserInvitation
from tests.factories import ClubFactory, OrganiserFactory, UserFactory

pytestmark = pytest.mark.django_db


def test_club_create_makes_the_user_its_organiser_and_names_are_unique() -> None:
    user = UserFactory()
    club = services.club_create(name=" Tarot Club de Sète ", city="Sète", organiser=user)
    assert (club.name, list(club.organisers.all())) == ("Tarot Club de Sète", [user])
    with pytest.raises(DomainError) as refused:
        services.club_create(name="tarot club de sète", city="", organiser=user)
    assert refused.value.code == "club_name_taken"
    assert Club.objects.count() == 1


def test_club_update_refuses_another_club_s_name() -> None:
    ClubFactory(name="Lyon")
    club = ClubFactory(name="Sète")
    with pytest.raises(DomainError) as refused:
        services.club_update(club=club, name="LYON", city="")
    assert refused.value.code == "club_name_taken"
    services.club_update(club=club, name="Sète Tarot", city="Sète")
    assert Club.objects.get(pk=club.pk).name == "Sète Tarot"


def test_an_invitation_is_single_use_and_its_token_is_stored_hashed() -> None:
    director = OrganiserFactory()
    club = director.clubs.get()
    invitation, token = invitations.organiser_invitation_create(club=club, by=director)
    assert len(token) >= 22 and token not in invitation.token_hash
    assert invitation.token_hash == invitations.token_hash(token)
    user = UserFactory()
    assert invitations.organiser_invitation_accept(token=token, user=user) == club
    assert club.organisers.filter(pk=user.pk).exists()
    with pytest.raises(DomainError) as refused:
        invitations.organiser_invitation_accept(token=token, user=UserFactory())
    assert refused.value.code == "invitation_used"
    assert club.organisers.count() == 2


def test_a_new_account_joins_through_an_invitation() -> None:
    club = OrganiserFactory().clubs.get()
    _invitation, token = invitations.organiser_invitation_create(club=club, by=None)
    user = invitations.organiser_invitation_accept_new_user(
        token=token, username="camille", password="une phrase de passe"
    )
    assert user.check_password("une phrase de passe")
    assert club.organisers.filter(username="camille").exists()


@pytest.mark.parametrize("state", ["expired", "revoked", "unknown"])
def test_an_expired_revoked_or_unknown_token_changes_nothing(state: str) -> None:
    club = OrganiserFactory().clubs.get()
    invitation, token = invitations.organiser_invitation_create(club=club, by=None)
    if state == "expired":
        OrganiserInvitation.objects.filter(pk=invitation.pk).update(
            expires_at=timezone.now() - timedelta(seconds=1)
        )
    elif state == "revoked":
        invitations.organiser_invitation_revoke(invitation=invitation)
    else:
        token = token[:-2] + "xx"
    with pytest.raises(DomainError) as refused:
        invitations.organiser_invitation_accept_new_user(
            token=token, username="camille", password="une phrase de passe"
        )
    assert refused.value.code == f"invitation_{state}"
    assert not get_user_model().objects.filter(username="camille").exists()
    assert club.organisers.count() == 1


def test_an_invitation_lasts_seven_days() -> None:
    club = ClubFactory()
    invitation, _token = invitations.organiser_invitation_create(club=club, by=None)
    assert invitation.expires_at - invitation.created_at <= timedelta(days=7)
    assert invitation.expires_at - invitation.created_at > timedelta(days=6, hours=23)


def test_the_last_organiser_is_never_removed() -> None:
    director = OrganiserFactory()
    club = director.clubs.get()
    with pytest.raises(DomainError) as refused:
        services.club_organiser_remove(club=club, user=director)
    assert refused.value.code == "last_organiser"
    helper = UserFactory()
    club.organisers.add(helper)
    services.club_organiser_remove(club=club, user=director)
    assert list(club.organisers.all()) == [helper]
    with pytest.raises(DomainError) as again:
        services.club_organiser_remove(club=club, user=helper)
    assert again.value.code == "last_organiser"
