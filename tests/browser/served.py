"""The browser tests' server: the real served instance, as a club runs it.

``duplitarot serve`` (``python -m instance serve``, the code path of the installed command) in a
subprocess, on a data folder of its own: debug off, its static files collected under their
hashed names and served by WhiteNoise, SQLite in WAL mode, the first-run page passed with the
setup code it prints (the club "Tarot Club de Lyon", its organiser ``marie``). The phones open
their pages through ``club.test`` (mapped to 127.0.0.1 in Chromium: a name that is not loopback,
an insecure origin as the room's Wi-Fi is); only the service worker's test uses
``http://localhost``, the one secure context a laptop has without a certificate.

The instance has its own database, whatever the test run's (PostgreSQL in CI): a test builds its
data and reads what was stored **through the instance's own command line**, a helper process
``duplitarot --data-dir <folder> shell`` kept open beside the server (another process on the
same file, as a director's command would be). :meth:`ServedInstance.call` runs a module-level
function of the tests there and hands back its JSON answer; so the test process never opens
the instance's database itself.
"""

from __future__ import annotations

import importlib
import json
import subprocess
import sys
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tests.instance.serving import ROOT, Served, clean_environment, free_port, serve
from tests.instance.test_serve import _set_up

PHONE_HOST = "club.test"
#: Chromium's argument that maps the phones' host name to this machine.
PHONE_HOST_RULE = f"--host-resolver-rules=MAP {PHONE_HOST} 127.0.0.1"
ORGANISER = "marie"
ORGANISER_PASSWORD = "le-petit-au-bout"
ANSWER = "SERVED-HELPER "


class ServedInstance:
    """A served instance on a free port, and its helper process."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.server = self._serve()
        assert self.server.setup_code is not None, self.server.banner
        _set_up(self.server, self.server.setup_code)
        self._helper = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "instance",
                "--data-dir",
                str(data),
                "shell",
                "-c",
                "from tests.browser.served import helper_main; helper_main()",
            ],
            cwd=ROOT,
            # The helper's tasks (a recompute after a save) run in it, before it answers.
            env=clean_environment(DUPLITAROT_BACKGROUND="eager"),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=None,
            text=True,
        )

    def _serve(self) -> Served:
        return serve(
            self.data, port=self.port, extra=("--public-url", f"http://{PHONE_HOST}:{self.port}")
        )

    @property
    def url(self) -> str:
        """The director's address (the laptop itself)."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def phone_url(self) -> str:
        """The phones' address: a name that is not loopback (an insecure origin)."""
        return f"http://{PHONE_HOST}:{self.port}"

    @property
    def secure_url(self) -> str:
        """``http://localhost``: a secure context (service workers register there)."""
        return f"http://localhost:{self.port}"

    def call(self, function: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """``function(*args, **kwargs)`` run by the helper process on the instance's database
        (a module-level function; arguments and answer in JSON)."""
        assert self._helper.stdin is not None and self._helper.stdout is not None
        request = {
            "module": function.__module__,
            "name": function.__qualname__,
            "args": args,
            "kwargs": kwargs,
        }
        self._helper.stdin.write(json.dumps(request) + "\n")
        self._helper.stdin.flush()
        while True:
            line = self._helper.stdout.readline()
            if not line:
                raise AssertionError(f"the helper stopped ({self._helper.poll()})")
            if line.startswith(ANSWER):
                break
        answer = json.loads(line[len(ANSWER) :])
        if "error" in answer:
            name = function.__qualname__
            raise AssertionError(f"{name} failed in the helper:\n{answer['error']}")
        return answer["value"]

    def stop_server(self) -> None:
        """Stop the server, as Ctrl+C does."""
        assert self.server.stop() == 0, self.server.log.read_text()[-3000:]

    def start_server(self) -> None:
        """Start the server again, on the same port."""
        self.server = self._serve()

    def ensure_serving(self) -> None:
        if self.server.process.poll() is not None:
            self.start_server()

    def close(self) -> None:
        try:
            if self._helper.stdin is not None:
                self._helper.stdin.close()
            try:
                self._helper.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._helper.kill()
                self._helper.wait(timeout=30)
            if self._helper.stdout is not None:
                self._helper.stdout.close()
        finally:
            if self.server.process.poll() is None:
                self.stop_server()


def helper_main() -> None:
    """The helper's loop (run by ``duplitarot shell -c``): one JSON request a line on its
    input, one answer a line on its output; what the functions print goes to the error
    output."""
    answers = sys.stdout
    sys.stdout = sys.stderr
    from django.db import close_old_connections

    for line in sys.stdin:
        request = json.loads(line)
        try:
            target: Any = importlib.import_module(request["module"])
            for part in request["name"].split("."):
                target = getattr(target, part)
            answer = {"value": target(*request["args"], **request["kwargs"])}
        except BaseException:
            answer = {"error": traceback.format_exc()}
        finally:
            close_old_connections()
        answers.write(ANSWER + json.dumps(answer, default=str) + "\n")
        answers.flush()
