"""Real processes for the integration tests: private Redis and PostgreSQL servers, gunicorn and
Celery workers, each in its own process group on loopback, always stopped by the caller's
finalizer (``stop``), and SIGTERMed by the kernel if pytest itself dies (``PR_SET_PDEATHSIG``).

- :class:`RedisServer`: ``redis-server`` on a free loopback port, nothing on disk; ``kill`` and
  ``start`` again on the same port (a broker and cache outage).
- :class:`PostgresServer`: ``initdb`` in a temporary directory, ``pg_ctl`` on a free loopback
  port (as the ``postgres`` user when the tests run as root: PostgreSQL refuses root), with
  ``restart`` (fast or immediate shutdown, a pause, start again).
- :func:`app_environment`: the environment of the production settings (``config.settings``,
  debug off, so the error handlers of ``config.errors`` answer) for a given database, Redis and
  broker, whatever the test run's own environment says.
- :func:`start_gunicorn`, :func:`start_worker`: the web server and a Celery worker (optionally
  with its embedded beat) on that environment; :func:`stop` ends a process group (SIGTERM, a
  bounded wait, SIGKILL), :func:`kill_group` SIGKILLs one at once (a crash).

Every wait is bounded in time (:func:`wait_until`).
"""

from __future__ import annotations

import contextlib
import glob
import http.client
import json
import os
import pwd
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from bench.loadtest import free_port, stop_with_parent

ROOT = Path(__file__).resolve().parents[2]
STOP_SECONDS = 15.0


def wait_until(predicate: Callable[[], Any], *, seconds: float, interval: float = 0.2) -> Any:
    """Poll ``predicate`` until it returns something true, at most ``seconds``; returns its last
    value (false on timeout). At most ``seconds / interval + 1`` calls."""
    deadline = time.monotonic() + seconds
    for _ in range(int(seconds / interval) + 2):
        value = predicate()
        if value or time.monotonic() >= deadline:
            return value
        time.sleep(interval)
    return predicate()


def spawn(argv: list[str], *, env: Mapping[str, str], log: Path) -> subprocess.Popen[bytes]:
    """Start ``argv`` as the leader of a new process group, output appended to ``log``."""
    with log.open("ab") as out:
        return subprocess.Popen(
            argv,
            cwd=ROOT,
            env=dict(env),
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=stop_with_parent,
        )


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGKILL the whole process group at once (parent and pool children): a crash."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=STOP_SECONDS)


def stop(process: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM the process group, wait (bounded), then SIGKILL whatever is left of it."""
    if process is None:
        return
    if process.poll() is None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=STOP_SECONDS)
    kill_group(process)


def log_tail(path: Path, characters: int = 3000) -> str:
    try:
        return path.read_text(errors="replace")[-characters:]
    except OSError:
        return ""


# ---------------------------------------------------------------------------------- Redis


class RedisServer:
    """A private ``redis-server`` on 127.0.0.1 (a free port), nothing saved on disk."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory
        self.port = free_port()
        self.log = directory / "redis.log"
        self.process: subprocess.Popen[bytes] | None = None

    def url(self, db: int = 0) -> str:
        return f"redis://127.0.0.1:{self.port}/{db}"

    def ping(self) -> bool:
        import redis

        client = redis.Redis(
            host="127.0.0.1", port=self.port, socket_timeout=1, socket_connect_timeout=1
        )
        try:
            return bool(client.ping())
        except redis.RedisError:
            return False
        finally:
            client.close()

    def start(self) -> None:
        """Start (again, on the same port) and wait until it answers (bounded)."""
        binary = shutil.which("redis-server")
        if binary is None:
            raise RuntimeError("redis-server is not installed")
        self.process = spawn(
            [
                binary,
                "--bind",
                "127.0.0.1",
                "--port",
                str(self.port),
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.directory),
                "--daemonize",
                "no",
            ],
            env=os.environ,
            log=self.log,
        )
        if not wait_until(lambda: self.process.poll() is not None or self.ping(), seconds=20):
            raise RuntimeError(f"redis-server did not answer: {log_tail(self.log)}")
        if self.process.poll() is not None:
            raise RuntimeError(f"redis-server exited: {log_tail(self.log)}")

    def kill(self) -> None:
        """SIGKILL: Redis is gone at once, with every queued message (nothing is saved)."""
        if self.process is not None:
            kill_group(self.process)
            self.process = None

    def stop(self) -> None:
        stop(self.process)
        self.process = None


# ----------------------------------------------------------------------------- PostgreSQL


def postgres_bin() -> Path | None:
    """The newest ``/usr/lib/postgresql/<version>/bin`` holding ``pg_ctl`` and ``initdb``."""
    found = [
        Path(path).parent
        for path in glob.glob("/usr/lib/postgresql/*/bin/pg_ctl")
        if Path(path).with_name("initdb").exists()
    ]
    found.sort(key=lambda path: [int(p) for p in path.parent.name.split(".") if p.isdigit()])
    return found[-1] if found else None


def postgres_available() -> str:
    """Why a private PostgreSQL cannot be run here ('' when it can)."""
    if postgres_bin() is None:
        return "no PostgreSQL server binaries under /usr/lib/postgresql/*/bin"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a postgres user to run PostgreSQL as"
        if shutil.which("runuser") is None:
            return "running as root without runuser"
    return ""


class PostgresServer:
    """A private PostgreSQL cluster (``initdb``) on 127.0.0.1, a free port, trust auth."""

    def __init__(self) -> None:
        binaries = postgres_bin()
        if binaries is None:
            raise RuntimeError(postgres_available())
        self.bin = binaries
        # Not under pytest's 0700 temporary tree: the postgres user must reach it.
        self.directory = Path(tempfile.mkdtemp(prefix="duplitarot-faults-pg-"))
        self.data = self.directory / "data"
        self.log = self.directory / "postgres.log"
        self.port = free_port()
        self.as_root = os.geteuid() == 0
        if self.as_root:
            user = pwd.getpwnam("postgres")
            os.chown(self.directory, user.pw_uid, user.pw_gid)

    def url(self, database: str) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{database}"

    def _run(self, tool: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
        argv = [str(self.bin / tool), *args]
        if self.as_root:
            argv = ["runuser", "-u", "postgres", "--", *argv]
        return subprocess.run(
            argv, cwd=self.directory, capture_output=True, text=True, timeout=timeout, check=False
        )

    def _check(self, done: subprocess.CompletedProcess[str], what: str) -> None:
        if done.returncode != 0:
            raise RuntimeError(
                f"{what} failed: {done.stderr.strip() or done.stdout.strip()} "
                f"{log_tail(self.log, 1500)}"
            )

    def init(self) -> None:
        done = self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            "postgres",
            "--auth=trust",
            "--encoding=UTF8",
            "--no-sync",
        )
        self._check(done, "initdb")

    def start(self) -> None:
        options = (
            f"-c port={self.port} -c listen_addresses=127.0.0.1 "
            f"-c unix_socket_directories={self.directory} -c max_connections=50"
        )
        done = self._run(
            "pg_ctl",
            "start",
            "-D",
            str(self.data),
            "-l",
            str(self.log),
            "-o",
            options,
            "-w",
            "-t",
            "60",
            timeout=90,
        )
        self._check(done, "pg_ctl start")

    def stop(self, mode: str = "fast") -> None:
        done = self._run(
            "pg_ctl", "stop", "-D", str(self.data), "-m", mode, "-w", "-t", "60", timeout=90
        )
        self._check(done, f"pg_ctl stop -m {mode}")

    def running(self) -> bool:
        return self._run("pg_ctl", "status", "-D", str(self.data)).returncode == 0

    def destroy(self) -> None:
        """Stop (immediate) whatever runs and remove the cluster: for finalizers."""
        with contextlib.suppress(Exception):
            if self.data.exists() and self.running():
                self._run(
                    "pg_ctl",
                    "stop",
                    "-D",
                    str(self.data),
                    "-m",
                    "immediate",
                    "-w",
                    "-t",
                    "30",
                    timeout=40,
                )
        with contextlib.suppress(Exception):  # a postmaster pg_ctl could not stop
            pid = int((self.data / "postmaster.pid").read_text().split()[0])
            os.kill(pid, signal.SIGKILL)
        shutil.rmtree(self.directory, ignore_errors=True)


# ----------------------------------------------------------------------- the application


def shared_database_url() -> str:
    """``DATABASE_URL`` naming pytest-django's test database (for processes started by a test
    that must see what it wrote)."""
    from django.conf import settings

    parts = urlsplit(os.environ.get("DATABASE_URL", ""))
    return urlunsplit(parts._replace(path="/" + settings.DATABASES["default"]["NAME"]))


def app_environment(
    *, database_url: str, redis_url: str = "", broker_url: str = "", **extra: str
) -> dict[str, str]:
    """The production settings on the given services (nothing read from the run's own
    environment that would choose others): debug off, plain HTTP on loopback."""
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("DJANGO_", "CELERY_", "REDIS_", "DATABASE_", "STANDINGS_"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DJANGO_ENV_FILE=os.devnull,
        DJANGO_DEBUG="false",
        DJANGO_SECRET_KEY=secrets.token_urlsafe(50),
        DJANGO_SECURE_SSL_REDIRECT="false",
        DJANGO_SECURE_COOKIES="false",
        DJANGO_SECURE_HSTS_SECONDS="0",
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        CELERY_BROKER_URL=broker_url or redis_url or "memory://localhost/",
        CELERY_TASK_ALWAYS_EAGER="false",
        PYTHONUNBUFFERED="1",
        PYTHONWARNINGS="ignore",
    )
    env.update(extra)
    return env


def start_gunicorn(env: Mapping[str, str], log: Path) -> tuple[subprocess.Popen[bytes], int]:
    """gunicorn (2 workers × 4 threads) on a free loopback port; waits until it serves."""
    port = free_port()
    process = spawn(
        [
            sys.executable,
            "-m",
            "gunicorn",
            "config.wsgi:application",
            "--bind",
            f"127.0.0.1:{port}",
            "--workers",
            "2",
            "--worker-class",
            "gthread",
            "--threads",
            "4",
            "--timeout",
            "60",
            "--graceful-timeout",
            "5",
            "--log-level",
            "warning",
        ],
        env=env,
        log=log,
    )

    def ready() -> bool:
        if process.poll() is not None:
            return True
        return request(port, "GET", "/api/v1/events/?limit=1")[0] == 200

    if not wait_until(ready, seconds=60) or process.poll() is not None:
        stop(process)
        raise RuntimeError(f"gunicorn did not serve: {log_tail(log)}")
    return process, port


def start_worker(
    env: Mapping[str, str], log: Path, *, name: str, beat_schedule: Path | None = None
) -> subprocess.Popen[bytes]:
    """A Celery worker (prefork, one child, as in production) consuming the default queue,
    with its embedded beat when ``beat_schedule`` is given; waits for "ready" in its log."""
    argv = [
        sys.executable,
        "-m",
        "celery",
        "-A",
        "config",
        "worker",
        "--pool",
        "prefork",
        "--concurrency",
        "1",
        "-n",
        f"{name}@127.0.0.1",
        "--without-gossip",
        "--without-mingle",
        "--loglevel",
        "INFO",
    ]
    if beat_schedule is not None:
        argv += ["--beat", "--schedule", str(beat_schedule)]
    start = log.stat().st_size if log.exists() else 0
    process = spawn(argv, env=env, log=log)

    def ready() -> bool:
        return process.poll() is not None or " ready." in log_tail_from(log, start)

    if not wait_until(ready, seconds=90) or process.poll() is not None:
        stop(process)
        raise RuntimeError(f"the Celery worker did not start: {log_tail(log)}")
    return process


def log_tail_from(path: Path, start: int) -> str:
    try:
        with path.open("rb") as handle:
            handle.seek(start)
            return handle.read().decode(errors="replace")
    except OSError:
        return ""


# ------------------------------------------------------------------------------- HTTP


def request(
    port: int,
    method: str,
    path: str,
    body: Any = None,
    *,
    timeout: float = 30,
    headers: Mapping[str, str] | None = None,
) -> tuple[int | None, dict[str, str], bytes]:
    """One request to 127.0.0.1:``port`` on a new connection: (status, headers, body); the
    status is ``None`` when no answer came (refused, reset, timeout)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout)
    sent = {"Accept": "application/json"} if path.startswith("/api/") else {}
    sent.update(headers or {})
    data = None
    if body is not None:
        data = json.dumps(body).encode()
        sent["Content-Type"] = "application/json"
    try:
        connection.request(method, path, body=data, headers=sent)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    except (OSError, http.client.HTTPException):
        return None, {}, b""
    finally:
        connection.close()
