"""Run ``duplitarot serve`` in a subprocess on a data folder of the test, as a director would."""

from __future__ import annotations

import http.cookiejar
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BANNER_END = "Stop with Ctrl+C."


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def clean_environment(**extra: str) -> dict[str, str]:
    """A club laptop's environment: nothing of the test run's settings."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "DUPLITAROT_"))
    }
    env["PYTHONUNBUFFERED"] = "1"
    env.update(extra)
    return env


@dataclass
class Served:
    process: subprocess.Popen[str]
    port: int
    log: Path
    banner: str
    opener: urllib.request.OpenerDirector = field(init=False)

    def __post_init__(self) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(
            urllib.request.HTTPCookieProcessor(self.jar), _NoRedirect()
        )

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def setup_code(self) -> str | None:
        found = re.search(r"setup code\s+([A-Z0-9]{4}(?:-[A-Z0-9]{4}){3})", self.banner)
        return found[1] if found else None

    def get(self, path: str) -> tuple[int, dict[str, str], str]:
        return self._open(urllib.request.Request(self.url + path))

    def post(self, path: str, data: dict[str, str]) -> tuple[int, dict[str, str], str]:
        token = next((c.value for c in self.jar if c.name == "csrftoken"), "")
        body = urllib.parse.urlencode({**data, "csrfmiddlewaretoken": token or ""}).encode()
        request = urllib.request.Request(
            self.url + path, data=body, headers={"Referer": self.url + path}
        )
        return self._open(request)

    def _open(self, request: urllib.request.Request) -> tuple[int, dict[str, str], str]:
        try:
            with self.opener.open(request, timeout=30) as response:
                return response.status, dict(response.headers), response.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, dict(error.headers), error.read().decode(errors="replace")

    def stop(self) -> int:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=30)
        return int(self.process.returncode)


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args: object, **kwargs: object) -> None:
        return None


def serve(
    data_dir: Path,
    *,
    command: list[str] | None = None,
    port: int | None = None,
    env: dict[str, str] | None = None,
    timeout: float = 300,
    cwd: Path = ROOT,
    extra: tuple[str, ...] = (),
    name_the_folder: bool = True,
) -> Served:
    """Start ``duplitarot serve`` (by default ``python -m instance`` of this checkout) and wait
    until it answers; on ``data_dir``, named with ``--data-dir`` unless ``name_the_folder`` is
    false (then ``data_dir`` must be the folder it finds by itself)."""
    port = port or free_port()
    log = data_dir.parent / f"serve-{port}.log"
    program = command or [sys.executable, "-m", "instance"]
    with log.open("w") as out:
        process = subprocess.Popen(
            [
                *program,
                *(["--data-dir", str(data_dir)] if name_the_folder else []),
                "serve",
                "--port",
                str(port),
                "--host",
                "127.0.0.1",
                *extra,
            ],
            cwd=cwd,
            env=env or clean_environment(),
            stdout=out,
            stderr=subprocess.STDOUT,
            text=True,
        )
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        text = log.read_text()
        if process.poll() is not None:
            raise AssertionError(f"serve stopped ({process.returncode}): {text[-3000:]}")
        if BANNER_END in text:
            served = Served(process, port, log, text)
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    return served
            except OSError:
                pass
        time.sleep(0.2)
    process.kill()
    raise AssertionError(f"serve did not start in {timeout} s: {log.read_text()[-3000:]}")


def run_command(
    data_dir: Path, *args: str, timeout: float = 600, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "instance", "--data-dir", str(data_dir), *args],
        cwd=ROOT,
        env=env or clean_environment(),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
