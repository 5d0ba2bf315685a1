"""``manage.py bench_recompute``: refuses anything but PostgreSQL; on PostgreSQL, the JSON report.

The PostgreSQL runs are integration tests (skipped unless ``DATABASE_URL`` names PostgreSQL):
tiny sizes, one run, the shape of the document checked, never the timings; one size is a
simultaneous of sections (``--sections-above``/``--section-tables`` lowered to make it tiny).
"""

from __future__ import annotations

import json
import os
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from clubs.models import Player
from tournaments.models import Event

DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRESQL = DATABASE_URL.startswith(("postgres://", "postgresql://"))
# Its measurements run one at a time with the tests that start services (pytest-xdist groups).
pytestmark = pytest.mark.xdist_group("services")


@pytest.mark.django_db
@pytest.mark.skipif(ON_POSTGRESQL, reason="the refusal is for other databases")
def test_refuses_sqlite_with_exit_2_and_one_line() -> None:
    assert connection.vendor == "sqlite"
    with pytest.raises(CommandError) as caught:
        call_command("bench_recompute", "--tables", "3", "--deals", "8", stdout=StringIO())
    assert caught.value.returncode == 2
    message = str(caught.value)
    assert "PostgreSQL" in message and "\n" not in message
    assert not Event.objects.exists()


@pytest.mark.integration
@pytest.mark.skipif(not ON_POSTGRESQL, reason="needs DATABASE_URL (PostgreSQL)")
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    "args",
    [
        ["--tables", "2"],
        ["--tables", "3,x"],
        ["--tables", "3", "--deals", "7"],  # not a multiple of 4 deals per round
        ["--tables", "3", "--runs", "0"],
        ["--tables", "110"],  # above 100: sections of 25 tables, so a multiple of 25
        ["--tables", "9", "--sections-above", "3", "--section-tables", "2"],
    ],
)
def test_bad_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(CommandError) as caught:
        call_command("bench_recompute", *args, stdout=StringIO())
    assert caught.value.returncode == 2 and "\n" not in str(caught.value)


@pytest.mark.integration
@pytest.mark.skipif(not ON_POSTGRESQL, reason="needs DATABASE_URL (PostgreSQL)")
@pytest.mark.django_db(transaction=True)
def test_json_report_on_postgresql() -> None:
    # 3 tables: the smallest individual movement (2 tables have none).
    out = StringIO()
    call_command("bench_recompute", "--tables", "3", "--deals", "8", "--runs", "1", "--json",
                 stdout=out)  # fmt: skip
    document = json.loads(out.getvalue())
    assert document["database"] == "postgresql"
    assert document["deals"] == 8 and document["runs"] == 1 and document["skipped"] == []
    assert len(document["load_average"]) == 3 and document["cpus"] >= 1
    (size,) = document["sizes"]
    assert size["tables"] == 3 and size["deals"] == 8 and size["rounds"] == 2
    assert size["sections"] == 0 and size["section_tables"] is None
    assert size["layout"] == "3 (one event)"
    assert size["results"] == 3 * 8
    assert size["hand_rows"] == 4 * size["results"]
    assert size["ranking_rows"] >= 12  # every player ranked (line rankings may add rows)
    assert size["runs"] == 1
    for key in ("full_s", "change_s", "floor_s"):
        assert size[key] > 0
        assert len(size["samples"][key]) == 1
    assert size["ratios"]["full"] == pytest.approx(size["full_s"] / size["floor_s"], rel=0.01)
    assert size["ratios"]["change"] == pytest.approx(size["change_s"] / size["floor_s"], rel=0.01)
    assert set(size["split"]["full"]) == {"read", "compute", "write"}
    assert set(size["split"]["change"]) == {"correct", "read", "compute", "write"}
    pages = document["pages"]
    assert pages["simultaneous"] is False and "section_ranking" not in pages
    for name in ("ranking", "scorecard", "deal_sheet"):
        assert pages[name]["status"] == 200 and pages[name]["median_s"] is not None
    # The events are deleted afterwards (players too), and no scratch table is left.
    assert not Event.objects.exists() and not Player.objects.exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'bench_floor_%%'")
        assert cursor.fetchone() == (0,)


@pytest.mark.integration
@pytest.mark.skipif(not ON_POSTGRESQL, reason="needs DATABASE_URL (PostgreSQL)")
@pytest.mark.django_db(transaction=True)
def test_large_sizes_are_a_simultaneous_of_sections() -> None:
    # Sizes above 3 tables are sections of 3 tables here (100 and 25 by default).
    out = StringIO()
    call_command("bench_recompute", "--tables", "3,9", "--deals", "8", "--runs", "1",
                 "--sections-above", "3", "--section-tables", "3", "--json",
                 stdout=out)  # fmt: skip
    document = json.loads(out.getvalue())
    single, simultaneous = document["sizes"]
    assert single["sections"] == 0
    assert simultaneous["tables"] == 9 and simultaneous["sections"] == 3
    assert simultaneous["section_tables"] == 3 and simultaneous["layout"] == "9 = 3 × 3"
    assert simultaneous["results"] == 9 * 8  # every section's results
    assert simultaneous["hand_rows"] == 4 * simultaneous["results"]
    # Overall ranking (36 players) plus each section's (12 each).
    assert simultaneous["ranking_rows"] == 36 + 3 * 12
    for key in ("full_s", "change_s", "floor_s"):
        assert simultaneous[key] > 0
    pages = document["pages"]
    assert pages["event"] == simultaneous["event"] and pages["simultaneous"] is True
    for name in ("ranking", "section_ranking", "scorecard", "deal_sheet"):
        assert pages[name]["status"] == 200, (name, pages[name])
    assert pages["section_ranking"]["url"] != pages["ranking"]["url"]
    assert not Event.objects.exists() and not Player.objects.exists()
