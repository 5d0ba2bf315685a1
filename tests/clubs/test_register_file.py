"""The register import reads what a federation export holds (``clubs.register``): the columns
it does not read are named in the report, a header holding "licence" is the licence, the
series is imported in one stored form (shown and edited on the register, carried into the
results file), an Excel workbook is read (another workbook: "save it as CSV"), and a licence
given twice under two names says so."""

from __future__ import annotations

import io
import zipfile

import openpyxl
import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse
from django.utils import translation
from openpyxl.styles import Font

from clubs import register, uploads
from clubs.errors import DomainError
from clubs.models import Club, Membership, Player
from scoring.results_file import results_document
from tests.factories import ClubFactory, OrganiserFactory
from tests.scoring import results_file_world as world

pytestmark = pytest.mark.django_db

FFT_EXPORT = (
    "Licence FFT;NOM;Prénom;Date de naissance;Série;Téléphone\r\n"
    "0100001;GUÉRIN;Chloé;1970-02-03;1ère série;0600000000\r\n"
    "0100002;ROUX;Paul;1981-04-05;S2;\r\n"
    "0100003;BÉRARD;Anne;1990-06-07;Promotion;\r\n"
    "0100004;DUPRÉ;Marc;1960-08-09;;\r\n"
)


def _series() -> dict[str, str]:
    return dict(Player.objects.values_list("licence", "series"))


def test_a_federation_export_keeps_its_licences_and_series_and_names_what_it_ignores() -> None:
    club = ClubFactory()
    report = register.register_import_csv(club=club, file=FFT_EXPORT.encode())
    assert report.ok and [line.line for line in report.created] == [2, 3, 4, 5]
    assert report.ignored_columns == ["Date de naissance", "Téléphone"]
    assert _series() == {"0100001": "1", "0100002": "2", "0100003": "P", "0100004": ""}
    assert not Player.objects.filter(licence__isnull=True).exists()


@pytest.mark.parametrize(
    ("header", "ignored"),
    [
        ("N° de licencié;nom;PRENOM;serie", []),
        ("Type de licence;Licence;Nom;Prénom", ["Type de licence"]),
        ("Nom;Prénom;Nom;Licence", ["Nom"]),
    ],
)
def test_headers_are_matched_ignoring_case_and_accents(header: str, ignored: list[str]) -> None:
    columns = register.csv_columns(
        header.split(";"), register.REGISTER_COLUMNS, ("last_name", "first_name")
    )
    assert "licence" in columns.index and columns.ignored == ignored
    if "Type de licence" in header:
        assert columns.index["licence"] == 1


@pytest.mark.parametrize(
    ("written", "stored"),
    [
        ("1", "1"), ("S1", "1"), ("1re", "1"), ("1ère série", "1"), ("Première série", "1"),
        ("2ème", "2"), ("2e série", "2"), ("Série 3", "3"), ("3", "3"), ("4ème série", "4"),
        ("Promotion", "P"), ("P", "P"), ("NC", ""), ("", ""),
        ("Excellence", None), ("5", None), ("1ère série Trèfle", None),
    ],
)  # fmt: skip
def test_the_written_forms_of_a_series(written: str, stored: str | None) -> None:
    assert register.series_code(written) == stored


def test_a_line_whose_series_is_not_one_is_rejected_with_the_forms_to_write() -> None:
    content = "Nom;Prénom;Série\nMartin;Anne;Excellence\nRoux;Paul;2\n".encode()
    report = register.register_import_csv(club=ClubFactory(), file=content)
    assert [line.line for line in report.rejected] == [2]
    assert "“Excellence” is not a series: write 1, 2, 3 or 4" in report.rejected[0].message
    assert list(Player.objects.values_list("last_name", "series")) == [("Roux", "2")]


def test_only_the_home_club_changes_a_series() -> None:
    lyon, sete = ClubFactory(), ClubFactory()
    register.register_import_csv(club=lyon, file=FFT_EXPORT.encode())
    again = FFT_EXPORT.replace("1ère série", "2ème série").replace("S2;", "S3;").encode()
    report = register.register_import_csv(club=lyon, file=again)
    assert [line.line for line in report.updated] == [2, 3] and not report.warnings
    assert _series()["0100001"] == "2" and _series()["0100002"] == "3"
    other = "Licence;Nom;Prénom;Série\n0100001;GUÉRIN;Chloé;4\n0100004;DUPRÉ;Marc;\n".encode()
    report = register.register_import_csv(club=sete, file=other)
    assert [line.line for line in report.linked] == [2, 3]
    assert [line.line for line in report.warnings] == [2]
    assert "keeps his series (2nd series)" in report.warnings[0].message
    assert _series()["0100001"] == "2"


def test_a_licence_given_twice_under_two_names_asks_to_check_it() -> None:
    content = (
        "Licence;Nom;Prénom\n0100001;Martin;Anne\n0100001;Martin;Paul\n0100001;MARTIN;anne\n"
    ).encode()
    report = register.register_import_csv(club=ClubFactory(), file=content)
    reasons = {line.line: line.message for line in report.rejected}
    assert reasons[3] == (
        "Licence 0100001 is also that of line 2 (Martin Anne): this line is ignored; check the "
        "licence of both lines."
    )
    assert reasons[4] == "Same player as line 2: this line is ignored."


# --------------------------------------------------------------------------- workbooks


def _workbook(rows: list[list[object]]) -> bytes:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    stream = io.BytesIO()
    book.save(stream)
    return stream.getvalue()


def test_an_excel_workbook_is_read() -> None:
    content = _workbook(
        [
            ["Licence FFT", "Nom", "Prénom", "Série", "Actif"],
            [100001, "GUÉRIN", "Chloé", "1ère série", "oui"],
            [],
            [100002, "ŒUVRAY", "Zoé", 3, "non"],
            [None, None, "Sans nom", None, None],
        ]
    )
    report = register.register_import_csv(club=ClubFactory(), file=content)
    assert [line.line for line in report.created] == [2, 4]
    assert [line.line for line in report.rejected] == [5]
    assert _series() == {"100001": "1", "100002": "3"}
    assert not Membership.objects.get(player__licence="100002").active


@pytest.mark.parametrize(
    "content",
    [
        b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600,  # an .xls (OLE2) workbook
        b"PK\x03\x04" + b"\x00" * 60,  # a damaged ZIP
    ],
)
def test_another_workbook_is_asked_as_csv_not_refused_as_nul_bytes(content: bytes) -> None:
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=ClubFactory(), file=content)
    assert refused.value.code == "file_workbook"
    assert "CSV" in refused.value.message and "NUL" not in refused.value.message


def test_a_damaged_excel_workbook_is_refused_clearly() -> None:
    stream = io.BytesIO()
    with zipfile.ZipFile(stream, "w") as archive:
        archive.writestr("[Content_Types].xml", "<Types/>")
        archive.writestr("xl/workbook.xml", "<not a workbook")
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=ClubFactory(), file=stream.getvalue())
    assert refused.value.code == "file_workbook"
    assert "cannot be read" in refused.value.message


def test_a_huge_workbook_is_refused_before_it_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    rows = [["Nom", "Prénom"], *([f"Nom{i}", "Prénom"] for i in range(2_000))]
    content = _workbook(rows)
    monkeypatch.setattr(uploads, "MAX_WORKBOOK_UNPACKED", 50_000)
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=ClubFactory(), file=content)
    assert refused.value.code == "file_too_large" and "unpacked" in refused.value.message
    assert not Player.objects.exists()


def test_a_workbook_past_its_line_limit_is_refused_even_after_blank_rows() -> None:
    def rows_of(content: bytes) -> list[int]:
        read = uploads.table_rows(content, max_bytes=10**6, max_lines=10, max_line_chars=100)
        return [number for number, _cells in read]

    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Nom", "Prénom"])
    sheet.append(["A", "B"])
    sheet.cell(row=15, column=1).font = Font(bold=True)  # a formatted blank row past 10
    stream = io.BytesIO()
    book.save(stream)
    assert rows_of(stream.getvalue()) == [1, 2]
    sheet.cell(row=23, column=1, value="C")
    stream = io.BytesIO()
    book.save(stream)
    for content in (stream.getvalue(), _workbook([["Nom"], *([f"N{i}"] for i in range(10))])):
        with pytest.raises(DomainError) as refused:
            rows_of(content)
        assert refused.value.code == "file_too_long"


# --------------------------------------------------------------------------- the pages


def _director(club: Club) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[club]))
    return client


def test_the_french_report_names_the_columns_not_read() -> None:
    club = ClubFactory()
    upload = SimpleUploadedFile("registre.csv", FFT_EXPORT.encode(), content_type="text/csv")
    with translation.override("fr"):
        target = reverse("clubs:import", args=[club.pk])
    page = _director(club).post(target, {"file": upload})
    assert page.status_code == 200
    assert "Colonnes non lues : Date de naissance, Téléphone." in page.text
    assert "Série" in page.text and "classeur Excel" in page.text


def test_the_register_shows_and_edits_the_series() -> None:
    club = ClubFactory()
    register.register_import_csv(club=club, file=FFT_EXPORT.encode())
    client = _director(club)
    page = client.get(reverse("clubs:register", args=[club.pk]))
    assert "<th>Series</th>" in page.text and "<td>1st series</td>" in page.text
    line = Membership.objects.get(player__licence="0100004")
    target = reverse("clubs:register_line", args=[club.pk, line.pk])
    assert 'name="series"' in client.get(target).text
    data = {"last_name": "DUPRÉ", "first_name": "Marc", "series": "4", "active": "on"}
    assert client.post(target, data).status_code == 302
    assert Player.objects.get(licence="0100004").series == "4"
    # another club's register shows the series but may not change it
    other = ClubFactory()
    linked = register.register_player_add(
        club=other, first_name="Marc", last_name="DUPRÉ", licence="0100004"
    )
    target = reverse("clubs:register_line", args=[other.pk, linked.membership.pk])
    page = _director(other).get(target)
    assert 'name="series"' in page.text and "disabled" in page.text
    with pytest.raises(DomainError) as refused:
        register.register_line_update(
            membership=linked.membership,
            first_name="Marc",
            last_name="DUPRÉ",
            category="",
            active=True,
            series="1",
        )
    assert (refused.value.code, refused.value.field) == ("name_not_editable", "series")


def test_the_imported_series_reaches_the_results_file() -> None:
    event = world.individual_event()
    Player.objects.update(series="")
    content = (
        "Licence FFT;Nom;Prénom;Série\n"
        "0100004;Dumas;Denis;3ème série\n"
        "0100007;=Henry;Hugo;Promotion\n"
        "0100003;Caron;Chloé;1\n"  # Villeurbanne's: Lyon does not set her series
    ).encode()
    report = register.register_import_csv(club=event.club, file=content)
    assert [line.line for line in report.updated] == [2, 3]
    assert [line.line for line in report.warnings] == [4]
    series = {row["last_name"]: row["series"] for row in results_document(event)["ranking"]}
    assert (series["Dumas"], series["=Henry"], series["Caron"]) == ("3", "P", "")


def test_a_series_stored_before_its_one_form_is_kept_when_the_line_is_saved() -> None:
    club = ClubFactory()
    added = register.register_player_add(
        club=club, first_name="Anne", last_name="Martin", licence="9"
    )
    Player.objects.filter(pk=added.player.pk).update(series="Excellence")
    target = reverse("clubs:register_line", args=[club.pk, added.membership.pk])
    data = {"last_name": "Martin", "first_name": "Anne", "series": "Excellence", "category": "Dame"}
    assert _director(club).post(target, data).status_code == 302
    assert Player.objects.get(pk=added.player.pk).series == "Excellence"
    assert Membership.objects.get(pk=added.membership.pk).category == "Dame"
