"""The French catalogue is complete and compiled: French is the default interface language.

Every msgid of config/locale/fr/LC_MESSAGES/django.po has a French translation, none is fuzzy,
and the compiled .mo answers each of them (so the committed .mo is in sync with the .po).
"""

from __future__ import annotations

import ast
from pathlib import Path

from django.utils import translation

PO = (
    Path(__file__).resolve().parent.parent
    / "config"
    / "locale"
    / "fr"
    / "LC_MESSAGES"
    / "django.po"
)


def _unquote(chunks: list[str]) -> str:
    return "".join(ast.literal_eval(chunk) for chunk in chunks)


def read_po(path: Path) -> list[dict[str, object]]:
    """A small .po reader: enough for msgctxt/msgid/msgid_plural/msgstr[n] and flags."""
    entries: list[dict[str, object]] = []
    current: dict[str, object] = {}
    key: str | None = None

    def flush() -> None:
        nonlocal current
        if "msgid" in current:
            entries.append(current)
        current = {}

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw.strip()
        if not line:
            flush()
            key = None
            continue
        if line.startswith("#,"):
            current.setdefault("flags", set()).update(  # type: ignore[union-attr]
                flag.strip() for flag in line[2:].split(",")
            )
            continue
        if line.startswith("#"):
            continue
        if line.startswith('"'):
            assert key is not None
            current.setdefault(key, []).append(line)  # type: ignore[union-attr]
            continue
        key, _, rest = line.partition(" ")
        current[key] = [rest]
    flush()
    return [
        {k: (_unquote(v) if isinstance(v, list) else v) for k, v in entry.items()}
        for entry in entries
    ]


ENTRIES = [e for e in read_po(PO) if e["msgid"]] if PO.exists() else []


def test_catalogue_exists_and_is_substantial() -> None:
    assert PO.exists(), "run makemessages -l fr and translate"
    assert len(ENTRIES) > 100


def test_every_message_is_translated_and_none_is_fuzzy() -> None:
    untranslated = [
        e["msgid"]
        for e in ENTRIES
        if not (e.get("msgstr") or e.get("msgstr[0]")) or "fuzzy" in e.get("flags", set())
    ]
    assert untranslated == []


def test_compiled_catalogue_answers_every_message() -> None:
    simple = [e for e in ENTRIES if "msgctxt" not in e and "msgid_plural" not in e]
    with translation.override("fr"):
        stale = [e["msgid"] for e in simple if translation.gettext(str(e["msgid"])) != e["msgstr"]]
    assert stale == [], "recompile: manage.py compilemessages -l fr"
