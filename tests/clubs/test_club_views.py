"""The club's pages: organisers of the club only (another club's organiser: 404; anonymous:
to the login page), the register, the import report, co-organisers and the invitation link."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from clubs.models import Club, Membership, OrganiserInvitation, Player
from tests.factories import OrganiserFactory, PlayerFactory

pytestmark = pytest.mark.django_db


def _client(user: object) -> Client:
    client = Client()
    client.force_login(user)  # type: ignore[arg-type]
    return client


@pytest.fixture
def director() -> object:
    return OrganiserFactory()


@pytest.fixture
def club(director: object) -> Club:
    return director.clubs.get()  # type: ignore[attr-defined, no-any-return]


PAGES = ["clubs:club", "clubs:register", "clubs:import", "clubs:organisers"]


@pytest.mark.parametrize("name", PAGES)
def test_pages_are_for_the_club_s_organisers(director: object, club: Club, name: str) -> None:
    target = reverse(name, args=[club.pk])
    assert _client(director).get(target).status_code == 200
    assert _client(OrganiserFactory()).get(target).status_code == 404
    anonymous = Client().get(target)
    assert anonymous.status_code == 302 and reverse("login") in anonymous["Location"]


def test_another_club_s_organiser_cannot_post(club: Club) -> None:
    other = _client(OrganiserFactory())
    line = Membership.objects.create(club=club, player=PlayerFactory(club=None))
    posts = [
        reverse("clubs:register_add", args=[club.pk]),
        reverse("clubs:register_line_active", args=[club.pk, line.pk]),
        reverse("clubs:invite", args=[club.pk]),
    ]
    for target in posts:
        assert other.post(target, {"last_name": "X", "first_name": "Y"}).status_code == 404
    assert Membership.objects.get(pk=line.pk).active
    assert not OrganiserInvitation.objects.exists()


def test_home_links_the_club_page(director: object, club: Club) -> None:
    home = _client(director).get(reverse("organiser:home"))
    assert reverse("clubs:list") in home.text
    assert _client(director).get(reverse("clubs:list"))["Location"] == reverse(
        "clubs:club", args=[club.pk]
    )


def test_register_add_search_edit_and_deactivate(director: object, club: Club) -> None:
    client = _client(director)
    response = client.post(
        reverse("clubs:register_add", args=[club.pk]),
        {"last_name": "Martin", "first_name": "Anne", "licence": "123", "category": "Senior"},
    )
    assert response.status_code == 302
    line = Membership.objects.get(club=club, player__licence="123")
    page = client.get(reverse("clubs:register", args=[club.pk]), {"q": "mart"})
    assert "MARTIN" in page.text
    assert "MARTIN" not in client.get(reverse("clubs:register", args=[club.pk]), {"q": "zz"}).text
    response = client.post(
        reverse("clubs:register_line", args=[club.pk, line.pk]),
        {"last_name": "Martin", "first_name": "Annie", "category": "Vétéran", "active": "on"},
    )
    assert response.status_code == 302
    assert Player.objects.get(licence="123").first_name == "Annie"
    client.post(reverse("clubs:register_line_active", args=[club.pk, line.pk]), {"active": "0"})
    assert not Membership.objects.get(pk=line.pk).active
    inactive = client.get(reverse("clubs:register", args=[club.pk]), {"active": "1"})
    assert f'id="line-{line.pk}"' not in inactive.text
    refused = client.post(reverse("clubs:register_add", args=[club.pk]), {"last_name": "Seul"})
    assert refused.status_code == 400


def test_import_shows_the_report(director: object, club: Club) -> None:
    content = "Nom;Prénom;Licence;Actif\nMartin;Anne;1;oui\n;Sans;2;oui\n".encode("cp1252")
    upload = SimpleUploadedFile("registre.csv", content, content_type="text/csv")
    page = _client(director).post(reverse("clubs:import", args=[club.pk]), {"file": upload})
    assert page.status_code == 200
    assert 'id="import-report"' in page.text and "last name" in page.text
    bad = SimpleUploadedFile("photo.csv", b"\x89PNG\x00\x00", content_type="text/csv")
    page = _client(director).post(reverse("clubs:import", args=[club.pk]), {"file": bad})
    assert page.status_code == 400 and "not a text file" in page.text


def _invite(director: object, club: Club) -> str:
    page = _client(director).post(reverse("clubs:invite", args=[club.pk]))
    assert page.status_code == 200
    prefix = (
        "http://testserver/en/invitation/"
        if "/en/" in page.text
        else "http://testserver/invitation/"
    )
    start = page.text.index(prefix)
    link = page.text[start : page.text.index('"', start)]
    return link.removeprefix("http://testserver")


def test_an_invitee_creates_his_account_and_joins_once(director: object, club: Club) -> None:
    link = _invite(director, club)
    visitor = Client()
    assert visitor.get(link).status_code == 200
    mismatch = visitor.post(
        link, {"username": "camille", "password1": "une phrase", "password2": "autre phrase"}
    )
    assert mismatch.status_code == 400 and not get_user_model().objects.filter(username="camille")
    joined = visitor.post(
        link,
        {"username": "camille", "password1": "Une Phrase 2026", "password2": "Une Phrase 2026"},
    )
    assert joined.status_code == 302
    assert club.organisers.filter(username="camille").exists()
    assert visitor.get(reverse("clubs:club", args=[club.pk])).status_code == 200
    assert Client().get(link).status_code == 410  # used


def test_a_logged_in_user_joins_and_bad_links_are_404_or_410(director: object, club: Club) -> None:
    link = _invite(director, club)
    other = OrganiserFactory()
    assert _client(other).post(link).status_code == 302
    assert club.organisers.filter(pk=other.pk).exists()
    assert Client().get("/invitation/not-a-token/").status_code == 404
    expired = _invite(director, club)
    OrganiserInvitation.objects.filter(accepted_at__isnull=True).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    assert Client().get(expired).status_code == 410
    assert Client().post(expired, {"username": "x"}).status_code == 410


def test_revoke_and_never_remove_the_last_organiser(director: object, club: Club) -> None:
    link = _invite(director, club)
    invitation = OrganiserInvitation.objects.get()
    client = _client(director)
    client.post(reverse("clubs:invitation_revoke", args=[club.pk, invitation.pk]))
    assert Client().get(link).status_code == 410
    me = reverse("clubs:organiser_remove", args=[club.pk, director.pk])  # type: ignore[attr-defined]
    assert client.post(me).status_code == 409
    assert club.organisers.count() == 1


def test_the_invitation_link_uses_the_rooms_address(
    director: object, club: Club, settings: Any
) -> None:
    """The organiser browses on localhost; the co-organiser's phone needs the room's address,
    as the table cards print it."""
    settings.DUPLITAROT_PUBLIC_URL = "http://192.168.1.20:8000"
    page = _client(director).post(reverse("clubs:invite", args=[club.pk]))
    assert page.status_code == 200
    assert 'value="http://192.168.1.20:8000/' in page.text
    assert "http://testserver/" not in page.text
