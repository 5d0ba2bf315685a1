"""What a club's instance keeps about itself in its data folder (``instance.json``), outside the
database (so that it can still be written when the database cannot):

- ``public_url``: the address printed on the table cards, to warn when it changed (``serve``);
- ``serving``: the server's start and its processes, the ones that died since
  (``instance.health``, for the director's status box);
- ``backup_failure``: the last backup that could not be written, until one is
  (``instance.backups``).

The first serving process and the commands write it; every serving process reads it.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from instance.datadir import STATE_FILE

logger = logging.getLogger(__name__)

_lock = threading.Lock()


def read(data_dir: Path) -> dict[str, Any]:
    try:
        value = json.loads((data_dir / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return value if isinstance(value, dict) else {}


def write(data_dir: Path, state: dict[str, Any]) -> None:
    path = data_dir / STATE_FILE
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(state, indent=2, sort_keys=True), encoding="utf-8")
    temporary.replace(path)


def update(data_dir: Path, change: Callable[[dict[str, Any]], None]) -> None:
    """Read the state, ``change`` it in place, write it back; one thread of the process at a
    time. A state that cannot be written (a full disk) is logged, never raised: it only feeds
    the status box."""
    with _lock:
        state = read(data_dir)
        change(state)
        try:
            write(data_dir, state)
        except OSError as error:
            logger.warning("cannot write %s in %s: %s", STATE_FILE, data_dir, error)
