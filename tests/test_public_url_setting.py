"""``DUPLITAROT_PUBLIC_URL`` (issue 11 #7): read from the environment, an address that is not
http(s) refuses the start in one line (exit code 2), and the example file documents it."""

from __future__ import annotations

import json

import pytest

from tests.test_settings_deploy import EXAMPLE, env_file, run

PRINT_PUBLIC_URL = (
    "import json, django; django.setup(); from django.conf import settings; "
    "print(json.dumps(settings.DUPLITAROT_PUBLIC_URL))"
)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("", ""),
        ("http://192.168.1.20:8000/", "http://192.168.1.20:8000"),
        (" https://tarot.example.org ", "https://tarot.example.org"),
    ],
)
def test_the_public_url_comes_from_the_environment(tmp_path, value: str, expected: str) -> None:
    file = env_file(tmp_path, ["DJANGO_DEBUG=1"], DUPLITAROT_PUBLIC_URL=value)
    done = run(["-c", PRINT_PUBLIC_URL], file)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == expected


def test_a_public_url_without_its_scheme_refuses_the_start_in_one_line(tmp_path) -> None:
    file = env_file(tmp_path, ["DJANGO_DEBUG=1"], DUPLITAROT_PUBLIC_URL="192.168.1.20:8000")
    done = run(["manage.py", "check"], file)
    assert done.returncode == 2
    assert "DUPLITAROT_PUBLIC_URL must start with http:// or https://" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_example_file_documents_it() -> None:
    assert "\nDUPLITAROT_PUBLIC_URL=\n" in EXAMPLE.read_text(encoding="utf-8")
