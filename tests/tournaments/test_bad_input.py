"""Bad uploads on the organiser pages: a clear French form error and a 400, never a 500, and
nothing stored. Every page that accepts a file is exercised through the test client on its
French URL: the players' CSV, the movement (JSON), the deals (text), a section's results (CSV
or JSON). Files in the encodings and separators French spreadsheets write are accepted."""

from __future__ import annotations

import codecs
import json
import random

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape
from django.utils.translation import gettext

from clubs.models import Club, Membership, Player
from tests.builders import running_event
from tests.factories import ClubFactory, EventFactory, OrganiserFactory, PlayerFactory
from tournaments import services
from tournaments.models import Entrant, Event, ResultChange, TableResult
from tournaments.services import imports
from tournaments.services.registration import MAX_IMPORT_LINE_CHARS, MAX_IMPORT_LINES

pytestmark = pytest.mark.django_db

HEADER = "last_name;first_name;licence;club;series\n"


@pytest.fixture
def organiser():
    return OrganiserFactory(clubs=[ClubFactory(name="Tarot Club de Lyon")])


@pytest.fixture
def client_in(organiser) -> Client:
    client = Client()
    client.force_login(organiser)
    return client


def url(name: str, *args: object) -> str:
    """The French URL: pages answer in French, the product's default language."""
    with translation.override("fr"):
        return reverse(name, args=args)


def french(msgid: str, **params: object) -> str:
    """``msgid`` as the French page shows it (translated, then HTML-escaped)."""
    with translation.override("fr"):
        text = gettext(msgid)
    return escape(text % params if params else text)


def upload(content: bytes, name: str = "f.csv") -> SimpleUploadedFile:
    return SimpleUploadedFile(name, content, content_type="application/octet-stream")


def post_file(client: Client, name: str, event: Event, content: bytes, **data: object):
    return client.post(url(name, event.pk), {"file": upload(content), **data})


# --- players' CSV ----------------------------------------------------------------------------

BIG = 2 * 1024 * 1024 + 1
TOO_LONG_LINE = HEADER + "Dupont;" + "J" * MAX_IMPORT_LINE_CHARS + ";;;\n"
TOO_MANY_LINES = HEADER + "Dupont;Jean;;;\n" * MAX_IMPORT_LINES


@pytest.mark.parametrize(
    ("content", "msgid", "params"),
    [
        (
            (HEADER + "Dupont;Je\x00an;;;\n").encode(),
            "The file contains NUL bytes: it is not a text file.",
            {},
        ),
        (
            b"\x89PNG\r\n\x1a\n\x01\x02\x03",
            "The file contains control characters: it is not a text file.",
            {},
        ),
        (b" \n\n  \n", "The file is empty.", {}),
        (b"", "The submitted file is empty.", {}),
        (HEADER.encode() + b"x" * BIG, "The file is larger than %(size)s MB.", {"size": "2"}),
        (
            TOO_LONG_LINE.encode(),
            "Line %(line)s has %(length)s characters; a line has at most %(max)s.",
            {"line": 2, "length": MAX_IMPORT_LINE_CHARS + 10, "max": MAX_IMPORT_LINE_CHARS},
        ),
        (
            TOO_MANY_LINES.encode(),
            "The file has %(count)s lines; at most %(max)s are imported at once.",
            {"count": MAX_IMPORT_LINES + 1, "max": MAX_IMPORT_LINES},
        ),
        (
            (HEADER + '"Dupont;Jean;;;\n').encode(),
            "Line %(line)s cannot be read as CSV (an unclosed quote?).",
            {"line": 2},
        ),
        (
            b"nom_complet;age\nDupont Jean;42\n",
            "Line 1 must be a header naming the columns Last name, First name, and if you have "
            "them Licence, Club, Series (in French or English).",
            {},
        ),
        (
            (HEADER + "Dupont;Jean;" + "9" * 500 + ";;\n").encode(),
            "A licence number is 1 to 20 letters, digits, '.', '/' or '-'.",
            {},
        ),
        (
            (HEADER + "Dupont;Jean;;;" + "9" * 300 + "\n").encode(),
            "“%(value)s” is not a series: write 1, 2, 3 or 4 (1st to 4th series) or P "
            "(Promotion), or leave it empty.",
            {"value": "9" * 40},
        ),
    ],
    ids=[
        "nul",
        "binary",
        "blank",
        "zero-bytes",
        "too-large",
        "line-too-long",
        "too-many-lines",
        "unclosed-quote",
        "no-header",
        "huge-licence",
        "huge-series",
    ],
)
def test_bad_players_file_is_a_400_with_the_reason_and_registers_nobody(
    client_in, organiser, content: bytes, msgid: str, params: dict[str, object]
) -> None:
    event = EventFactory(club=organiser.clubs.first())
    players, clubs = Player.objects.count(), Club.objects.count()
    response = post_file(client_in, "organiser:players_import", event, content)
    assert response.status_code == 400
    assert french(msgid, **params) in response.text
    assert not event.entrants.exists()
    assert (Player.objects.count(), Club.objects.count()) == (players, clubs)


@pytest.mark.parametrize(
    ("encoding", "separator"),
    [
        ("utf-8", ";"),
        ("utf-8-sig", ","),
        ("cp1252", ";"),
        ("latin-1", ","),
        ("utf-16", "\t"),
    ],
)
def test_players_file_in_any_spreadsheet_encoding_and_separator(
    client_in, organiser, encoding: str, separator: str
) -> None:
    event = EventFactory(club=organiser.clubs.first())
    rows = [
        ["Nom", "Prénom", "Licence", "Club", "Série"],
        ["Dupré", "Éloïse", "123456", "Tarot Club de Lyon", "2"],
        ["Lefèvre", "Jérôme", "", "Club de Sète", ""],
    ]
    text = "\r\n".join(separator.join(row) for row in rows) + "\r\n"
    response = post_file(client_in, "organiser:players_import", event, text.encode(encoding))
    assert response.status_code == 200
    names = [
        (e.player.last_name, e.player.first_name) for e in event.entrants.select_related("player")
    ]
    assert names == [("Dupré", "Éloïse"), ("Lefèvre", "Jérôme")]
    # The event's club is the newcomer's home club; another club's newcomer has none.
    assert Player.objects.get(licence="123456").club == event.club
    assert Player.objects.get(last_name="Lefèvre").club is None
    assert not Club.objects.filter(name="Club de Sète").exists()


def test_a_byte_undefined_in_windows_1252_is_refused_naming_its_line(client_in, organiser) -> None:
    event = EventFactory(club=organiser.clubs.first())
    content = HEADER.encode() + b"Dupont;Jean\x81;;;\n"
    response = post_file(client_in, "organiser:players_import", event, content)
    assert response.status_code == 400
    with translation.override("fr"):
        reason = gettext("the byte 0x%(byte)02X is neither UTF-8 nor Windows-1252 text.")
        message = gettext("Line %(line)s: %(reason)s") % {
            "line": 2,
            "reason": reason % {"byte": 0x81},
        }
    assert escape(message) in response.text
    assert not event.entrants.exists()


# --- movement (JSON) -------------------------------------------------------------------------


def movement_event(organiser) -> Event:
    event = EventFactory(club=organiser.clubs.first())
    for _ in range(12):
        services.entrant_register(event=event, player=PlayerFactory())
    return event


def nested(depth: int) -> bytes:
    return ('{"a": ' * depth + "1" + "}" * depth).encode()


@pytest.mark.parametrize(
    ("content", "msgid", "params"),
    [
        (b"[" * 50_000, "The file is nested too deeply (at most %(depth)s levels).", {"depth": 16}),
        (nested(200), "The file is nested too deeply (at most %(depth)s levels).", {"depth": 16}),
        (
            b'{"schema": "duplitarot-movement/1", "tables": ' + b"9" * 5000 + b"}",
            "The file holds a number of more than %(digits)s digits.",
            {"digits": 30},
        ),
        (
            b'{"tables": 1e999}',
            "The file holds a number of more than %(digits)s digits.",
            {"digits": 30},
        ),
        (b'{"tables": NaN}', "The file holds NaN or Infinity, which are not JSON numbers.", {}),
        (b"[1, 2, 3]", "The file is not a movement document.", {}),
        (b'"duplitarot-movement/1"', "The file is not a movement document.", {}),
        (b"{not json", "The file is not a JSON document.", {}),
        (b'{"a": "\x00"}', "The file contains NUL bytes: it is not a text file.", {}),
        (b"   ", "The file is empty.", {}),
        (
            b"{" + b" " * (2 * 1024 * 1024) + b"}",
            "The file is larger than %(size)s MB.",
            {"size": "2"},
        ),
    ],
    ids=[
        "nested-50000",
        "nested-200-objects",
        "5000-digits",
        "float-overflow",
        "nan",
        "array",
        "string",
        "malformed",
        "nul",
        "blank",
        "too-large",
    ],
)
def test_bad_movement_file_is_a_400_with_the_reason_and_stores_nothing(
    client_in, organiser, content: bytes, msgid: str, params: dict[str, object]
) -> None:
    event = movement_event(organiser)
    response = post_file(client_in, "organiser:movement_import", event, content)
    assert response.status_code == 400
    assert french(msgid, **params) in response.text
    event.refresh_from_db()
    assert event.movement is None and not event.tables.exists()


@pytest.mark.parametrize(
    "change",
    [
        lambda doc: doc["schedule"][0]["tables"][0].update(table=10**25),
        lambda doc: doc["schedule"][0]["tables"][0].update(table="un"),
        lambda doc: doc["schedule"][0]["tables"][0].update(deal_set=-(10**20)),
        lambda doc: doc["schedule"][0]["tables"][0]["seats"].update(N=10**29),
        lambda doc: doc.update(tables=10**29),
        lambda doc: doc.update(entrants=[{"id": 10**29}]),
        lambda doc: doc.update(schedule={"round": 1}),
    ],
    ids=[
        "huge-table",
        "table-text",
        "huge-deal-set",
        "huge-entrant",
        "huge-tables",
        "huge-entrant-id",
        "schedule-object",
    ],
)
def test_movement_with_wrong_numbers_is_refused(client_in, organiser, change) -> None:
    event = movement_event(organiser)
    document = services.event_movement_build(event=event, tables=3)
    change(document)
    content = json.dumps(document).encode()
    response = post_file(client_in, "organiser:movement_import", event, content)
    assert response.status_code == 400
    assert 'class="errorlist' in response.text or "error" in response.text
    event.refresh_from_db()
    assert event.movement is None and not event.tables.exists()


# --- deals (text) ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("content", "msgid"),
    [
        (b"N: 1C 2C\x00\n", "The file contains NUL bytes: it is not a text file."),
        (
            b"N: " + b"1C " * 1000 + b"\n",
            "Line %(line)s has %(length)s characters; a line has at most %(max)s.",
        ),
        (b"\n \n", "The file is empty."),
    ],
    ids=["nul", "line-too-long", "blank"],
)
def test_bad_deals_file_is_a_400_with_the_reason(
    client_in, organiser, content: bytes, msgid: str
) -> None:
    event = running_event(tables=3, club=organiser.clubs.first(), status=Event.Status.DRAFT)
    deals = list(event.deals.values_list("pk", "cards"))
    response = post_file(client_in, "organiser:deals_import", event, content)
    assert response.status_code == 400
    params = {"line": 1, "length": len(content) - 1, "max": 1000} if "%(" in msgid else {}
    assert french(msgid, **params) in response.text
    assert list(event.deals.values_list("pk", "cards")) == deals


# --- a section's results (CSV or JSON) -------------------------------------------------------

RESULTS_HEADER = "Table;Donne;Contrat;Bouts;Points\n"


@pytest.fixture
def started(organiser) -> Event:
    return running_event(tables=3, club=organiser.clubs.first())


@pytest.mark.parametrize(
    ("content", "msgid", "params"),
    [
        (
            (RESULTS_HEADER + "1;1;garde;2;4\x006\n").encode(),
            "The file contains NUL bytes: it is not a text file.",
            {},
        ),
        (b"[" * 50_000, "The file is nested too deeply (at most %(depth)s levels).", {"depth": 16}),
        (
            b'{"deals": [], "results": [' + b"1" * 5000 + b"]}",
            "The file holds a number of more than %(digits)s digits.",
            {"digits": 30},
        ),
        (
            b'{"deals": [], "results": [NaN]}',
            "The file holds NaN or Infinity, which are not JSON numbers.",
            {},
        ),
        (b"[1, 2]", "The file is not a score_event document (a JSON object).", {}),
        (
            (RESULTS_HEADER + "1;" + "9" * 2000 + ";garde;2;46\n").encode(),
            "Line %(line)s has %(length)s characters; a line has at most %(max)s.",
            {"line": 2, "length": 2013, "max": 1000},
        ),
        (b"", "The submitted file is empty.", {}),
        (b"x" * (8 * 1024 * 1024 + 1), "The file is larger than %(size)s MB.", {"size": "8"}),
    ],
    ids=["nul", "nested", "5000-digits", "nan", "array", "line-too-long", "empty", "too-large"],
)
def test_bad_results_file_is_a_400_with_the_reason_and_stores_nothing(
    client_in, started: Event, content: bytes, msgid: str, params: dict[str, object]
) -> None:
    response = post_file(client_in, "organiser:results_import", started, content)
    assert response.status_code == 400
    assert french(msgid, **params) in response.text
    assert not TableResult.objects.filter(event=started).exists()
    assert not ResultChange.objects.filter(event=started).exists()


@pytest.mark.parametrize(
    ("line", "needle"),
    [
        ("1;" + "9" * 500 + ";garde;2;46", "deal"),
        ("1;1;garde;²;46", "oudlers"),
        ("1;1;garde;" + "9" * 500 + ";46", "oudlers"),
        ("1;1;garde;2;" + "9" * 500, "points"),
        ("1;1;garde;2;1e999", "points"),
        ("1;1;garde;2;quarante", "points"),
        ("un;1;garde;2;46", "table"),
        ("1;-1;garde;2;46", "deal"),
    ],
)
def test_results_csv_with_wrong_numbers_reports_the_line_and_stores_nothing(
    client_in, started: Event, line: str, needle: str
) -> None:
    content = (RESULTS_HEADER + line + "\n").encode("cp1252")
    response = post_file(client_in, "organiser:results_import", started, content)
    assert response.status_code == 400
    assert needle in response.text
    assert not TableResult.objects.filter(event=started).exists()


def test_results_csv_from_a_french_spreadsheet_is_imported(client_in, started: Event) -> None:
    """Windows-1252 with accented headers, ``;``, a decimal comma and CRLF: stored."""
    play = started.schedule.rounds[0].tables[0]
    deal = started.deals.filter(deal_set=play.deal_set).order_by("number").first()
    assert deal is not None
    header = "Table;Donne;Contrat;Bouts;Points;Poignée attaque;Chelem annoncé\r\n"
    content = (header + f"{play.table};{deal.number};Garde;2;46,0;;non\r\n").encode("cp1252")
    response = post_file(client_in, "organiser:results_import", started, content)
    assert response.status_code == 200
    assert TableResult.objects.filter(event=started, deal=deal).count() == 1


# --- request bodies past Django's limits on a page -------------------------------------------


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=10_000)
def test_a_form_body_past_the_upload_limit_is_a_400(client_in, organiser) -> None:
    event = EventFactory(club=organiser.clubs.first())
    response = client_in.post(
        url("organiser:player_add", event.pk),
        "last_name=" + "a" * 20_000,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    response = client_in.post(
        url("organiser:players_import", event.pk),
        {"note": "a" * 20_000, "file": upload((HEADER + "Dupont;Jean;;;\n").encode())},
    )
    assert response.status_code == 400
    assert not Entrant.objects.filter(event=event).exists()


def test_a_form_body_past_the_default_upload_limit_is_a_400(client_in, organiser) -> None:
    event = EventFactory(club=organiser.clubs.first())
    response = client_in.post(
        url("organiser:player_add", event.pk),
        "last_name=" + "a" * (3 * 1024 * 1024),
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 400
    assert not Entrant.objects.filter(event=event).exists()


def test_utf16_without_bom_is_read(client_in, organiser) -> None:
    event = EventFactory(club=organiser.clubs.first())
    content = (HEADER + "Dupré;Éloïse;;;\n").encode("utf-16-le")
    assert not content.startswith(codecs.BOM_UTF16_LE)
    response = post_file(client_in, "organiser:players_import", event, content)
    assert response.status_code == 200
    assert event.entrants.get().player.first_name == "Éloïse"


# --- a large players' file is imported in bulk -----------------------------------------------

BULK_LINES = 10_000


def test_ten_thousand_players_are_imported_in_bulk(django_assert_max_num_queries) -> None:
    """10,000 lines: new players (of the event's club or of others, some without licence), known
    licences, known unlicensed names in another case, repeats and bad lines. Bulk: a query per
    few hundred rows (SQLite inserts at most 999 values at once), never one per line; slots
    1..n in file order. No club is created, nobody joins another club's register."""
    lyon = ClubFactory(name="Tarot Club de Lyon")
    known = [PlayerFactory(licence=f"K{i:05d}", club=lyon) for i in range(50)]
    event = EventFactory()
    unlicensed = [  # guests of the register of the event's club
        PlayerFactory(licence=None, last_name=f"Sans{i}", first_name="Licence", club=event.club)
        for i in range(20)
    ]
    already = services.entrant_register(event=event, player=known[0]).player
    lines = [HEADER.rstrip("\n")]
    for i in range(BULK_LINES - 100):
        club = event.club.name.upper() if i % 3 == 0 else f"Cercle {i % 40}"
        licence = "" if i % 10 == 0 else f"N{i:06d}"
        lines.append(f"Nom{i};Prénom{i};{licence};{club};{i % 4 + 1}")
    lines += [f"Autre;Nom;K{i:05d};;" for i in range(50)]  # known licences (the first: entrant)
    lines += [f"SANS{i};licence;;;" for i in range(20)]  # known unlicensed players
    lines += ["Nom1;Prénom1;N000001;;"] * 5  # repeats of a line above
    lines += [";Sans nom;;;"] * 10 + ["Mauvaise;Licence;a b c;;"] * 15
    assert len(lines) == BULK_LINES + 1
    content = ("\n".join(lines) + "\n").encode("cp1252")
    # A player row has 8 columns (its folded names and sort key included): SQLite's 999 bound
    # variables insert ~120 players at once, so about 220 queries for 10,000 lines, never 10,000.
    with django_assert_max_num_queries(BULK_LINES // 40):
        report = services.players_import_csv(event=event, file=content)
    new = BULK_LINES - 100
    assert report.players_created == new
    assert report.players_matched == 49 + 20
    assert len(report.registered) == new + 69
    assert [error.line for error in report.errors] == [
        BULK_LINES - 100 + 2,  # the known player already registered
        *range(BULK_LINES - 28, BULK_LINES + 2),  # repeats, no last name, bad licence
    ]
    assert not Club.objects.filter(name__startswith="Cercle").exists()
    assert not Membership.objects.filter(club=lyon).exclude(player__in=known).exists()
    entrants = list(event.entrants.select_related("player", "player__club").order_by("slot"))
    assert [e.slot for e in entrants] == list(range(1, len(report.registered) + 2))
    assert entrants[0].player == already
    assert [e.player for e in entrants[1:]] == report.registered
    assert entrants[1].player.club == event.club and entrants[1].player.licence is None
    assert entrants[2].player.club is None and entrants[2].player.licence == "N000001"
    assert {e.player for e in entrants[-20:]} == set(unlicensed)
    assert Player.objects.count() == 50 + 20 + new


# --- mutated documents: never a 500, never stored --------------------------------------------

ODD_VALUES = [None, True, -1, 0, 10**17, 1.5, "", "x", "N", [], {}, [1], {"a": 1}]


def mutations(document: object, rng: random.Random, count: int) -> list[object]:
    """``count`` copies of ``document``, each with one value somewhere replaced by an odd one
    (a wrong type, a huge or negative number, an empty container), seeded."""
    paths: list[tuple[object, ...]] = []
    stack: list[tuple[object, tuple[object, ...]]] = [(document, ())]
    while stack and len(paths) < 5_000:
        value, path = stack.pop()
        paths.append(path)
        if isinstance(value, dict):
            stack.extend((child, (*path, key)) for key, child in value.items())
        elif isinstance(value, list):
            stack.extend((child, (*path, index)) for index, child in enumerate(value))
    found = []
    for _ in range(count):
        copy = json.loads(json.dumps(document))
        path = rng.choice(paths[1:])
        parent = copy
        for key in path[:-1]:
            parent = parent[key]
        parent[path[-1]] = rng.choice(ODD_VALUES)
        found.append(copy)
    return found


def test_mutated_movement_documents_are_refused_cleanly(client_in, organiser) -> None:
    event = movement_event(organiser)
    document = services.event_movement_build(event=event, tables=3)
    for mutated in mutations(document, random.Random(7), 40):
        tables = list(event.tables.values_list("pk", "number"))
        content = json.dumps(mutated).encode()
        response = post_file(client_in, "organiser:movement_import", event, content)
        assert response.status_code in (302, 400)
        event.refresh_from_db()
        if response.status_code == 400:
            assert event.movement is None
            assert list(event.tables.values_list("pk", "number")) == tables
        else:  # an odd value where it changes nothing (an unread key): stored, then undone
            assert event.movement is not None
            services.entrant_withdraw(entrant=event.entrants.filter(phantom=False).last())
            services.entrant_register(event=event, player=PlayerFactory())
            event.refresh_from_db()


def test_mutated_results_files_are_refused_cleanly(client_in, started: Event) -> None:
    plays = [
        (play.table, deal, play)
        for play in started.schedule.playing()
        if play.round == 1
        for deal in started.deals.filter(deal_set=play.deal_set).order_by("number")
    ]
    document = {
        "deals": [{"number": d.number, "taker_seat": d.taker_seat} for d in started.deals.all()],
        "results": [
            {
                "deal": deal.number,
                "table": table,
                "seats": {seat: f"p{slot}" for seat, slot in play.seats.items()},
                "outcome": {"contract": "garde", "oudlers": 2, "points": 46},
            }
            for table, deal, play in plays
        ],
    }
    for mutated in mutations(document, random.Random(11), 40):
        before = TableResult.objects.filter(event=started).count()
        content = json.dumps(mutated).encode()
        response = post_file(client_in, "organiser:results_import", started, content)
        assert response.status_code in (200, 400)
        if response.status_code == 400:  # all or nothing
            assert TableResult.objects.filter(event=started).count() == before


# --- the imports name their columns in the interface's language ------------------------------


def test_the_players_import_names_its_columns_in_french_and_reads_them(
    client_in, organiser
) -> None:
    event = EventFactory(club=organiser.clubs.first())
    page = client_in.get(url("organiser:players", event.pk))
    assert "en-tête : Nom, Prénom, Licence, Club, Série (les autres colonnes" in page.text
    content = (
        "Nom;Prénom;Licence;Club;Série;Téléphone\nDupré;Éloïse;123456;Club de Sète;2e série;06\n"
    )
    response = post_file(client_in, "organiser:players_import", event, content.encode())
    assert response.status_code == 200
    assert "Colonne non lue : Téléphone." in response.text
    player = event.entrants.get().player
    # Another club's newcomer: no home club, and no club created (clubs.newcomers).
    assert (player.licence, player.series, player.club) == ("123456", "2", None)
    assert not Club.objects.filter(name="Club de Sète").exists()


def test_results_csv_header_errors_name_the_columns_in_french(client_in, started: Event) -> None:
    content = b"Table;Donne;Contrat;Remarque\n1;1;Garde;x\n"
    response = post_file(client_in, "organiser:results_import", started, content)
    assert response.status_code == 400
    assert "colonnes inconnues : Remarque (colonnes : Table, Donne, Contrat, Bouts, Points, " in (
        response.text
    )
    content = b"Table;Donne;Contrat\n1;1;Garde\n"
    response = post_file(client_in, "organiser:results_import", started, content)
    assert "(manquantes : Bouts, Points ; facultatives : Petit au bout, " in response.text


@pytest.mark.parametrize("language", ["fr", "en"])
def test_the_column_names_the_messages_give_are_read(language: str) -> None:
    with translation.override(language):
        labels = [str(label) for label in imports.CSV_LABELS.values()]
    assert list(imports._csv_header(labels)) == list(imports.CSV_LABELS)
