"""A club's instance serves light pages (issue 23): gzip-compressed HTML, static files under
hashed names with a far-future ``Cache-Control`` and their gzip copies, collected into the data
folder at the first start and not again while the package's files are unchanged."""

from __future__ import annotations

import gzip
import re
import urllib.request
from pathlib import Path

import pytest

from tests.instance.serving import serve

pytestmark = [pytest.mark.integration, pytest.mark.xdist_group("services")]

TEN_YEARS = "max-age=315360000"


def fetch(url: str) -> tuple[int, dict[str, str], bytes]:
    request = urllib.request.Request(url, headers={"Accept-Encoding": "gzip"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.status, dict(response.headers), response.read()


def test_hashed_static_files_cached_for_ever_and_pages_compressed(tmp_path: Path) -> None:
    data = tmp_path / "club"
    served = serve(data)
    try:
        status, headers, body = fetch(served.url + "/setup/")
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert "Accept-Encoding" in headers["Vary"]
        html = gzip.decompress(body).decode()
        assert len(body) < len(html) / 2
        hashed = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', html)
        assert hashed, "the stylesheet is not linked by its hashed name"
        status, headers, body = fetch(served.url + hashed.group(1))
        assert status == 200 and headers["Content-Encoding"] == "gzip"
        assert TEN_YEARS in headers["Cache-Control"] and "immutable" in headers["Cache-Control"]
        assert b".site-header" in gzip.decompress(body)
        # The file's own name still answers (a bookmarked URL), cached briefly only.
        status, headers, _body = fetch(served.url + "/static/css/site.css")
        assert status == 200 and TEN_YEARS not in headers.get("Cache-Control", "")
    finally:
        assert served.stop() == 0
    fingerprint = data / "static" / ".fingerprint"
    assert fingerprint.is_file()
    collected_at = fingerprint.stat().st_mtime_ns
    # A second start: nothing changed in the package, nothing collected again.
    again = serve(data)
    try:
        status, _headers, _body = fetch(again.url + hashed.group(1))
        assert status == 200
    finally:
        assert again.stop() == 0
    assert fingerprint.stat().st_mtime_ns == collected_at
    assert not (data / "static.new").exists() and not (data / "static.old").exists()
