"""How every imported file's bytes become text (``clubs.uploads.decode_bytes``): never mojibake.

A UTF-8 file with one stray Windows-1252 byte keeps its accented names (the stray line is read
alone), a line mixing both is refused naming the line and the byte, a Windows-1252 file is read
as such, UTF-16 is read with or without its byte-order mark; the same rule for the register
import, a section's results import and the archives."""

from __future__ import annotations

import codecs
import json

import pytest

from archives.format import ArchiveError, parse_archive
from clubs import register
from clubs.errors import DomainError
from clubs.models import Player
from clubs.uploads import decode_bytes
from tests.builders import running_event
from tests.factories import ClubFactory
from tournaments.services.imports import section_results_import

pytestmark = pytest.mark.django_db

REGISTER = "Nom;Prénom;Licence\nGUÉRIN;Chloé;100\nŒUVRAY;Zoé;101\n"


def _names() -> set[tuple[str, str]]:
    return set(Player.objects.values_list("last_name", "first_name"))


def test_a_stray_byte_keeps_the_accented_names_of_the_other_lines() -> None:
    # Line 4 was pasted from a Windows-1252 file: its "é" is one byte, the rest is UTF-8.
    content = REGISTER.encode() + b"Dupont;J\xe9r\xf4me;102\n"
    report = register.register_import_csv(club=ClubFactory(), file=content)
    assert report.ok and len(report.created) == 3
    assert _names() == {("GUÉRIN", "Chloé"), ("ŒUVRAY", "Zoé"), ("Dupont", "Jérôme")}


def test_a_line_mixing_utf8_and_a_stray_byte_is_named_with_its_byte() -> None:
    content = REGISTER.encode() + "Dupré;J".encode() + b"\xe9r\xf4me;102\n"
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=ClubFactory(), file=content)
    assert (refused.value.code, refused.value.field) == ("file_encoding", "file")
    assert refused.value.message.startswith("Line 4: the byte 0xE9 (character 8) is not UTF-8")
    assert not Player.objects.exists()


def test_a_windows_1252_file_is_read_as_such() -> None:
    report = register.register_import_csv(club=ClubFactory(), file=REGISTER.encode("cp1252"))
    assert report.ok and _names() == {("GUÉRIN", "Chloé"), ("ŒUVRAY", "Zoé")}


def test_a_byte_undefined_in_windows_1252_is_named_with_its_line() -> None:
    content = REGISTER.encode("cp1252") + b"Dupont;Jean\x81;102\n"
    with pytest.raises(DomainError) as refused:
        register.register_import_csv(club=ClubFactory(), file=content)
    assert refused.value.code == "file_encoding"
    assert refused.value.message == (
        "Line 4: the byte 0x81 is neither UTF-8 nor Windows-1252 text."
    )


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be", "utf-16"])
def test_utf16_with_or_without_its_mark_and_a_french_header(encoding: str) -> None:
    content = REGISTER.encode(encoding)
    assert content.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)) == (encoding == "utf-16")
    report = register.register_import_csv(club=ClubFactory(), file=content)
    assert report.ok and _names() == {("GUÉRIN", "Chloé"), ("ŒUVRAY", "Zoé")}


def test_a_truncated_utf16_file_names_its_line() -> None:
    with pytest.raises(DomainError) as refused:
        decode_bytes(REGISTER.encode("utf-16") + b"\x00")
    assert refused.value.code == "file_encoding"
    assert refused.value.message.startswith("Line 4: the bytes at offset")


def test_a_section_results_file_follows_the_same_rule() -> None:
    event = running_event(tables=3)
    content = b"table;donne;contrat;bouts;points;petit au bout\n" + (
        "1;1;Garde;2;46;défense".encode() + b"\xe9\n"
    )
    with pytest.raises(DomainError) as refused:
        section_results_import(section=event, file=content, actor=None)
    assert refused.value.code == "file_encoding"
    assert refused.value.message.startswith("Line 2: the byte 0xE9")


def test_an_archive_follows_the_same_rule() -> None:
    document = {"schema": "duplitarot-event-archive", "name": "Coupe de l'Œuf"}
    text = json.dumps(document, ensure_ascii=False, indent=1)
    assert parse_archive(text.encode("utf-16-le")) == document
    mixed = text.replace("Œuf", "Œuf\udce9").encode("utf-8", "surrogateescape")
    with pytest.raises(ArchiveError) as refused:
        parse_archive(mixed)
    assert "Line 3: the byte 0xE9" in refused.value.describe()
