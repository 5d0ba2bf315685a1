"""What the serve command remembers between starts in the data folder (``instance.json``):
the address printed on the table cards, to warn when it changed."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from instance.datadir import STATE_FILE


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
