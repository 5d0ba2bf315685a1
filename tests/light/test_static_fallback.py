"""A static file the manifest does not know (``collectstatic`` not run since it was added) keeps
its own name: the page renders, it never fails with a 500 (``config.staticfiles``)."""

from __future__ import annotations

from pathlib import Path

from config.staticfiles import StaticStorage


def test_a_file_missing_from_the_manifest_keeps_its_own_name(tmp_path: Path) -> None:
    storage = StaticStorage(location=str(tmp_path), base_url="/static/")
    assert storage.url("favicon.svg") == "/static/favicon.svg"
    assert storage.url("css/site.css") == "/static/css/site.css"
