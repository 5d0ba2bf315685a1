"""The club's player register (``clubs.register``): a licence links one player across clubs
and never renames him; guests; editing, deactivating; the CSV import and its report."""

from __future__ import annotations

import pytest

from clubs import register, selectors
from clubs.errors import DomainError
from clubs.models import Club, Membership, Player
from tests.factories import ClubFactory

pytestmark = pytest.mark.django_db


def _line(club: Club, player: Player) -> Membership:
    return Membership.objects.get(club=club, player=player)


def test_a_new_player_joins_the_register_active_with_the_club_as_home() -> None:
    club = ClubFactory()
    added = register.register_player_add(
        club=club, first_name=" Anne ", last_name="Martin", licence="0123456", category="Senior"
    )
    assert added.outcome == register.CREATED
    player = Player.objects.get(licence="0123456")
    assert (player.first_name, player.last_name, player.club) == ("Anne", "Martin", club)
    line = _line(club, player)
    assert (line.category, line.active) == ("Senior", True)


def test_a_known_licence_links_the_player_from_another_club_and_never_renames_him() -> None:
    lyon, sete = ClubFactory(name="Lyon"), ClubFactory(name="Sète")
    register.register_player_add(club=lyon, first_name="Anne", last_name="Martin", licence="42")
    added = register.register_player_add(
        club=sete, first_name="Annie", last_name="MARTINE", licence="42"
    )
    assert (added.outcome, added.name_differs) == (register.LINKED, True)
    player = Player.objects.get(licence="42")
    assert (player.first_name, player.last_name, player.club) == ("Anne", "Martin", lyon)
    assert Player.objects.count() == 1
    assert set(Membership.objects.values_list("club__name", flat=True)) == {"Lyon", "Sète"}


def test_guests_are_one_per_name_in_a_club_but_each_club_has_its_own() -> None:
    lyon, sete = ClubFactory(), ClubFactory()
    first = register.register_player_add(club=lyon, first_name="Zoé", last_name="Invitée")
    again = register.register_player_add(club=lyon, first_name="ZOÉ", last_name="invitée")
    other = register.register_player_add(club=sete, first_name="Zoé", last_name="Invitée")
    assert first.player.pk == again.player.pk and first.player.licence is None
    assert again.outcome == register.UNCHANGED
    assert other.player.pk != first.player.pk


@pytest.mark.parametrize(
    ("names", "code"),
    [
        ({"first_name": "", "last_name": "Martin"}, "first_name_required"),
        ({"first_name": "Anne", "last_name": " "}, "last_name_required"),
        ({"first_name": "Anne", "last_name": "M", "licence": "no spaces"}, "invalid_licence"),
        ({"first_name": "Anne", "last_name": "M", "category": "x" * 41}, "category_too_long"),
    ],
)
def test_add_refusals_change_nothing(names: dict[str, str], code: str) -> None:
    club = ClubFactory()
    with pytest.raises(DomainError) as refused:
        register.register_player_add(club=club, **names)
    assert refused.value.code == code
    assert not Player.objects.exists() and not Membership.objects.exists()


def test_deactivated_players_leave_the_pickers_and_adding_again_reactivates() -> None:
    club = ClubFactory()
    added = register.register_player_add(club=club, first_name="Anne", last_name="Martin")
    assert list(selectors.register_active_players(club)) == [added.player]
    register.register_line_activate(membership=added.membership, active=False)
    assert not selectors.register_active_players(club).exists()
    assert list(selectors.register_lines(club, active=False)) == [added.membership]
    again = register.register_player_add(club=club, first_name="Anne", last_name="Martin")
    assert again.outcome == register.UPDATED and _line(club, added.player).active


def test_only_the_home_club_edits_the_name() -> None:
    lyon, sete = ClubFactory(), ClubFactory()
    home = register.register_player_add(
        club=lyon, first_name="Anne", last_name="Martin", licence="7"
    )
    linked = register.register_player_add(
        club=sete, first_name="Anne", last_name="Martin", licence="7"
    )
    with pytest.raises(DomainError) as refused:
        register.register_line_update(
            membership=linked.membership,
            first_name="Anna",
            last_name="Martin",
            category="",
            active=True,
        )
    assert refused.value.code == "name_not_editable"
    line = register.register_line_update(
        membership=linked.membership,
        first_name="Anne",
        last_name="Martin",
        category="Vétéran",
        active=False,
    )
    assert (line.category, line.active) == ("Vétéran", False)
    register.register_line_update(
        membership=home.membership, first_name="Anna", last_name="Martin", category="", active=True
    )
    assert Player.objects.get(licence="7").first_name == "Anna"


def test_a_guest_without_home_club_is_renamed_by_any_register() -> None:
    club = ClubFactory()
    guest = Player.objects.create(first_name="Zoe", last_name="Invitee")
    line = Membership.objects.create(club=club, player=guest)
    register.register_line_update(
        membership=line, first_name="Zoé", last_name="Invitée", category="", active=True
    )
    assert Player.objects.get(pk=guest.pk).first_name == "Zoé"


# --------------------------------------------------------------------------- CSV import

FRENCH_EXCEL = (
    "Numéro de licence;Nom;Prénom;Catégorie;Actif\r\n"
    "1000001;Martin;Anne;Senior;oui\r\n"
    "1000002;Rivière;Zoé;Junior;non\r\n"
    ";Invité;Paul;;\r\n"
    ";invité;PAUL;;\r\n"
    "abc def;Faux;Numéro;;\r\n"
    "1000003;;Sans nom;;\r\n"
    "1000004;Petit;Jean;;peut-être\r\n"
    "1000001;Martin;Anne;;\r\n"
)


def test_import_a_french_excel_file_with_its_report() -> None:
    club = ClubFactory()
    report = register.register_import_csv(club=club, file=FRENCH_EXCEL.encode("cp1252"))
    assert [line.line for line in report.created] == [2, 3, 4]
    assert [line.line for line in report.rejected] == [5, 6, 7, 8, 9]
    reasons = {line.line: line.message for line in report.rejected}
    assert "line 4" in reasons[5] and "licence number" in reasons[6]
    assert "last name" in reasons[7] and "oui or non" in reasons[8] and "line 2" in reasons[9]
    zoe = Player.objects.get(licence="1000002")
    assert (zoe.last_name, _line(club, zoe).category, _line(club, zoe).active) == (
        "Rivière",
        "Junior",
        False,
    )
    assert Player.objects.filter(licence__isnull=True).count() == 1


def test_import_again_links_updates_and_reports_unchanged_lines() -> None:
    lyon, sete = ClubFactory(), ClubFactory()
    register.register_player_add(club=lyon, first_name="Anne", last_name="Martin", licence="1")
    register.register_player_add(club=sete, first_name="Paul", last_name="Roux", licence="2")
    register.register_player_add(club=sete, first_name="Zoé", last_name="Invitée")
    text = (
        "\ufefflicence,last_name,first_name,category,active\n"
        "1,MARTINEZ,Anne,,\n"
        "2,Roux,Paul,Senior,yes\n"
        ",Invitée,Zoé,,\n"
    )
    report = register.register_import_csv(club=sete, file=text.encode("utf-8"))
    assert [line.line for line in report.linked] == [2]
    assert [line.line for line in report.updated] == [3]
    assert [line.line for line in report.unchanged] == [4]
    assert [line.line for line in report.warnings] == [2]
    assert Player.objects.get(licence="1").last_name == "Martin"
    assert report.ok


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "file_binary"),
        (b"", "file_empty"),
        (b"Club;Ville\nLyon;Lyon\n", "csv_header"),
        (b"x" * (3 * 1024 * 1024), "file_too_large"),
    ],
)
def test_a_file_that_is_not_a_register_imports_nothing(content: bytes, code: str) -> None:
    club = ClubFactory()
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=club, file=content)
    assert (refused.value.code, refused.value.field) == (code, "file")
    assert not Player.objects.exists()
