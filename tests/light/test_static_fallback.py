"""Without a manifest (``collectstatic`` never ran where the server runs) a static file keeps its
own name: the page renders, it never fails with a 500; with one, a name it lacks is still an
error, as WhiteNoise expects (``config.staticfiles``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from config.staticfiles import StaticStorage


def test_a_file_missing_from_the_manifest_keeps_its_own_name(tmp_path: Path) -> None:
    storage = StaticStorage(location=str(tmp_path), base_url="/static/")
    assert storage.url("favicon.svg") == "/static/favicon.svg"
    assert storage.url("css/site.css") == "/static/css/site.css"


def test_with_a_manifest_a_name_it_lacks_is_still_an_error(tmp_path: Path) -> None:
    (tmp_path / "css").mkdir()
    (tmp_path / "css" / "site.abc123.css").write_text("body{}")
    manifest = {"paths": {"css/site.css": "css/site.abc123.css"}, "version": "1.1"}
    (tmp_path / "staticfiles.json").write_text(json.dumps(manifest))
    storage = StaticStorage(location=str(tmp_path), base_url="/static/")
    assert storage.url("css/site.css") == "/static/css/site.abc123.css"
    with pytest.raises(ValueError):
        storage.url("css/other.css")
