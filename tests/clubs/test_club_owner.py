"""The club's owner: the co-organisers cannot remove him, he cannot leave before passing the
ownership on, the instance's superuser may pass any club's ownership (the way out when the
owner is gone), and every change is recorded and shown on the organisers page."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs import invitations, services
from clubs.errors import DomainError
from clubs.models import Club, ClubOwnerChange
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


def _club_with_co_organiser() -> tuple[Club, object, object]:
    founder = UserFactory(username="marie")
    club = services.club_create(name="Tarot Club de Sète", city="Sète", organiser=founder)
    co = UserFactory(username="paul")
    _invitation, token = invitations.organiser_invitation_create(club=club, by=founder)
    invitations.organiser_invitation_accept(token=token, user=co)
    return club, founder, co


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


def test_a_co_organiser_cannot_remove_the_founder_and_take_the_club_over() -> None:
    club, founder, co = _club_with_co_organiser()
    response = _client(co).post(f"/en/organiser/clubs/{club.pk}/organisers/{founder.pk}/remove/")
    assert response.status_code == 409
    assert "owner cannot be removed" in response.content.decode()
    club.refresh_from_db()
    assert club.owner == founder
    assert set(club.organisers.all()) == {founder, co}
    # Nor can he make himself the owner.
    response = _client(co).post(f"/en/organiser/clubs/{club.pk}/owner/", {"owner": co.pk})
    assert response.status_code == 403
    club.refresh_from_db()
    assert club.owner == founder
    assert list(ClubOwnerChange.objects.filter(club=club).values_list("reason", flat=True)) == [
        "created"
    ]
    # The page shows no remove button for the owner, and no passing form to a co-organiser.
    page = _client(co).get(f"/en/organiser/clubs/{club.pk}/organisers/").content.decode()
    assert f"/organisers/{founder.pk}/remove/" not in page
    assert f"/organisers/{co.pk}/remove/" in page
    assert "/owner/" not in page


def test_the_owner_leaves_only_after_passing_the_ownership_on() -> None:
    club, founder, co = _club_with_co_organiser()
    with pytest.raises(DomainError) as refused:
        services.club_organiser_remove(club=club, user=founder)
    assert refused.value.code == "club_owner"
    owner = _client(founder)
    page = owner.get(f"/en/organiser/clubs/{club.pk}/organisers/").content.decode()
    assert f'action="/en/organiser/clubs/{club.pk}/owner/"' in page
    response = owner.post(f"/en/organiser/clubs/{club.pk}/owner/", {"owner": co.pk})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.owner == co
    # Now a co-organiser himself, the founder may leave (or be removed).
    response = owner.post(f"/en/organiser/clubs/{club.pk}/organisers/{founder.pk}/remove/")
    assert response.status_code == 302
    assert list(club.organisers.all()) == [co]
    change = ClubOwnerChange.objects.filter(club=club).first()
    assert change is not None
    assert (change.reason, change.by, change.previous, change.owner) == (
        "passed",
        founder,
        founder,
        co,
    )
    assert (change.by_name, change.previous_name, change.owner_name) == ("marie", "marie", "paul")


def test_the_ownership_passes_only_to_an_organiser_of_the_club() -> None:
    club, founder, _co = _club_with_co_organiser()
    stranger = UserFactory(username="intrus")
    with pytest.raises(DomainError) as refused:
        services.club_owner_pass(club=club, to=stranger, by=founder)
    assert refused.value.code == "not_an_organiser"
    response = _client(founder).post(
        f"/en/organiser/clubs/{club.pk}/owner/", {"owner": stranger.pk}
    )
    assert response.status_code == 400
    with pytest.raises(DomainError) as same:
        services.club_owner_pass(club=club, to=founder, by=founder)
    assert same.value.code == "already_owner"
    club.refresh_from_db()
    assert club.owner == founder


def test_the_superuser_passes_the_ownership_when_the_owner_is_gone() -> None:
    club, founder, co = _club_with_co_organiser()
    founder.delete()  # type: ignore[attr-defined]
    club.refresh_from_db()
    assert club.owner is None
    admin = UserFactory(username="admin", is_superuser=True, is_staff=True)
    page = _client(admin).get(f"/en/organiser/clubs/{club.pk}/organisers/").content.decode()
    assert "has no owner any more" in page
    response = _client(admin).post(f"/en/organiser/clubs/{club.pk}/owner/", {"owner": co.pk})
    assert response.status_code == 302
    club.refresh_from_db()
    assert club.owner == co
    lines = list(ClubOwnerChange.objects.filter(club=club).order_by("pk"))
    assert [line.reason for line in lines] == ["created", "administrator"]
    # The founder's account is gone; his name stays on the record.
    assert (lines[0].owner, lines[0].owner_name, lines[0].by_name) == (None, "marie", "marie")
    assert (lines[1].by, lines[1].previous_name, lines[1].owner) == (admin, "", co)
    page = _client(co).get(f"/en/organiser/clubs/{club.pk}/organisers/").content.decode()
    assert "owner: paul" in page and "passed on by the administrator" in page
    assert "(by admin)" in page and "owner: marie" in page and "club created" in page


def test_the_superuser_passes_any_club_s_ownership_and_it_is_shown_in_french() -> None:
    club, founder, co = _club_with_co_organiser()
    admin = UserFactory(username="admin", is_superuser=True)
    services.club_owner_pass(club=club, to=co, by=admin)
    club.refresh_from_db()
    assert club.owner == co
    page = _client(founder).get(f"/organiser/clubs/{club.pk}/organisers/").content.decode()
    assert "de marie à paul" in page
    assert "transmission par l&#x27;administrateur" in page
    assert "propriétaire" in page


def test_the_account_that_sets_the_instance_up_owns_its_club() -> None:
    from instance.setup import instance_setup, setup_code_issue

    code = setup_code_issue()
    assert code is not None
    user, club = instance_setup(
        code=code,
        address="127.0.0.1",
        club_name="Tarot Club de Sète",
        city="Sète",
        username="marie",
        password="une phrase de passe",
    )
    club.refresh_from_db()
    assert club.owner == user
    change = ClubOwnerChange.objects.get(club=club)
    assert (change.reason, change.by, change.owner) == ("created", user, user)
