"""Production settings: safe by default, and ``check --deploy`` clean with the documented ones.

``config.settings`` is loaded in a subprocess with an environment built from scratch (nothing of
the test run's ``DJANGO_DEBUG``, ``DATABASE_URL``...) and ``DJANGO_ENV_FILE`` naming the file
under test: ``.env.example`` with a fresh secret key is the documented production environment
(docs/deployment.md, "Production settings").
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest

from config.settings_base import proxy_ssl_header

BASE_DIR = Path(__file__).resolve().parent.parent
EXAMPLE = BASE_DIR / ".env.example"
REFUSED = "DJANGO_SECRET_KEY is missing, empty or a published example value, and DEBUG is off"
LOAD_SETTINGS = "from django.conf import settings; settings.DEBUG"
PRINT_SETTINGS = (
    "import json, django; django.setup(); from django.conf import settings as s; print(json.dumps("
    "{name: getattr(s, name) for name in ('DEBUG', 'SECURE_SSL_REDIRECT', 'SECURE_HSTS_SECONDS',"
    " 'SECURE_HSTS_INCLUDE_SUBDOMAINS', 'SECURE_HSTS_PRELOAD', 'SESSION_COOKIE_SECURE',"
    " 'CSRF_COOKIE_SECURE', 'SECURE_PROXY_SSL_HEADER', 'TRUSTED_PROXY_COUNT',"
    " 'AXES_FAILURE_LIMIT')}))"
)


def example_lines() -> list[str]:
    """The settings lines of .env.example (comments and blank lines left out)."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    return [line for line in lines if line.strip() and not line.lstrip().startswith("#")]


def env_file(tmp_path: Path, lines: list[str], **overrides: str | None) -> Path:
    """A .env file: ``lines`` with each named variable replaced (None: removed)."""
    kept = [line for line in lines if line.split("=", 1)[0].strip() not in overrides]
    kept += [f"{name}={value}" for name, value in overrides.items() if value is not None]
    path = tmp_path / "settings.env"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


def production_file(tmp_path: Path) -> Path:
    """The documented production environment: .env.example with a key of one's own."""
    return env_file(tmp_path, example_lines(), DJANGO_SECRET_KEY=secrets.token_urlsafe(50))


def run(args: list[str], file: Path, **extra: str) -> subprocess.CompletedProcess[str]:
    """Python in the project directory with only ``file`` (and ``extra``) as its settings."""
    environ = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DJANGO_ENV_FILE": str(file),
        "PYTHONDONTWRITEBYTECODE": "1",
        **extra,
    }
    return subprocess.run(
        [sys.executable, *args],
        cwd=BASE_DIR,
        env=environ,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def loaded_settings(file: Path, **extra: str) -> dict[str, object]:
    done = run(["-c", PRINT_SETTINGS], file, **extra)
    assert done.returncode == 0, done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_the_documented_production_environment_passes_check_deploy(tmp_path: Path) -> None:
    done = run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"], production_file(tmp_path)
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_the_documented_production_environment_is_https_only(tmp_path: Path) -> None:
    assert loaded_settings(production_file(tmp_path)) == {
        "DEBUG": False,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": ["HTTP_X_FORWARDED_PROTO", "https"],
        "TRUSTED_PROXY_COUNT": 1,
        "AXES_FAILURE_LIMIT": 5,
    }


def test_plain_http_settings_are_reported_by_check_deploy(tmp_path: Path) -> None:
    """The documented LAN-without-TLS variant is allowed, and check --deploy says what it costs
    (so the clean check above is not a check that passes whatever the settings)."""
    file = env_file(
        tmp_path,
        example_lines(),
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SECURE_PROXY_SSL_HEADER="",
        DJANGO_TRUSTED_PROXY_COUNT="0",
    )
    done = run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], file)
    assert done.returncode != 0
    for warning in ("security.W008", "security.W012", "security.W016"):
        assert warning in done.stderr


def test_debug_is_off_and_https_on_unless_the_environment_says_otherwise(tmp_path: Path) -> None:
    # Only a key: everything else takes its default.
    file = env_file(tmp_path, [], DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    assert loaded_settings(file) == {
        "DEBUG": False,
        "SECURE_SSL_REDIRECT": True,
        "SECURE_HSTS_SECONDS": 31536000,
        "SECURE_HSTS_INCLUDE_SUBDOMAINS": True,
        "SECURE_HSTS_PRELOAD": True,
        "SESSION_COOKIE_SECURE": True,
        "CSRF_COOKIE_SECURE": True,
        "SECURE_PROXY_SSL_HEADER": None,
        "TRUSTED_PROXY_COUNT": 0,
        "AXES_FAILURE_LIMIT": 5,
    }


def test_debug_needs_no_key_and_serves_plain_http(tmp_path: Path) -> None:
    """What ./dev and the test settings do: DJANGO_DEBUG=1 and nothing else."""
    settings = loaded_settings(env_file(tmp_path, []), DJANGO_DEBUG="1")
    assert settings["DEBUG"] is True
    assert settings["SECURE_SSL_REDIRECT"] is False
    assert settings["SECURE_HSTS_SECONDS"] == 0
    assert settings["SESSION_COOKIE_SECURE"] is False


@pytest.mark.parametrize(
    "key",
    [
        None,  # missing
        "",  # empty
        "   ",  # blank
        "change-me-to-a-long-random-string",  # the example file's
        "dev-only-insecure-key-change-me-in-production",  # the old built-in default
    ],
)
def test_startup_is_refused_without_a_key_of_ones_own(tmp_path: Path, key: str | None) -> None:
    file = env_file(tmp_path, example_lines(), DJANGO_SECRET_KEY=key)
    done = run(["-c", LOAD_SETTINGS], file)
    assert done.returncode != 0
    assert "ImproperlyConfigured" in done.stderr
    assert REFUSED in done.stderr
    assert "secrets.token_urlsafe(50)" in done.stderr


def test_the_example_file_copied_as_it_is_refuses_to_start() -> None:
    done = run(["manage.py", "check"], EXAMPLE)
    assert done.returncode == 2  # one line, no traceback: the command-line rule
    assert REFUSED in done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_the_environment_wins_over_the_file(tmp_path: Path) -> None:
    """docker compose passes .env in the environment and forces DJANGO_DEBUG=false over it."""
    file = env_file(tmp_path, example_lines(), DJANGO_DEBUG="true")
    key = secrets.token_urlsafe(50)
    assert loaded_settings(file, DJANGO_DEBUG="false", DJANGO_SECRET_KEY=key)["DEBUG"] is False


@pytest.mark.parametrize(
    ("name", "value", "message"),
    [
        ("DJANGO_LOGIN_FAILURE_LIMIT", "0", "DJANGO_LOGIN_FAILURE_LIMIT must be at least 1."),
        ("DJANGO_LOGIN_COOLOFF_MINUTES", "-1", "DJANGO_LOGIN_COOLOFF_MINUTES must be 0"),
        ("DJANGO_TRUSTED_PROXY_COUNT", "-1", "DJANGO_TRUSTED_PROXY_COUNT must be 0"),
    ],
)
def test_throttle_settings_out_of_range_are_refused(
    tmp_path: Path, name: str, value: str, message: str
) -> None:
    file = env_file(tmp_path, example_lines(), DJANGO_SECRET_KEY=secrets.token_urlsafe(50))
    done = run(["-c", LOAD_SETTINGS], file, **{name: value})
    assert done.returncode != 0
    assert message in done.stderr


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("", None),
        ("  ", None),
        ("X-Forwarded-Proto", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("x-forwarded-proto", ("HTTP_X_FORWARDED_PROTO", "https")),
        ("HTTP_X_FORWARDED_PROTO", ("HTTP_X_FORWARDED_PROTO", "https")),
        (" X-Scheme ", ("HTTP_X_SCHEME", "https")),
    ],
)
def test_the_proxy_header_is_named_as_on_the_wire_or_as_django_names_it(
    name: str, expected: tuple[str, str] | None
) -> None:
    assert proxy_ssl_header(name) == expected
