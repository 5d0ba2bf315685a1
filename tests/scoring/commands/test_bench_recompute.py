"""``manage.py bench_recompute``: refuses anything but PostgreSQL; on PostgreSQL, the JSON report.

The PostgreSQL run is an integration test (skipped unless ``DATABASE_URL`` names PostgreSQL):
a tiny size, one run, the shape of the document checked, never the timings.
"""

from __future__ import annotations

import json
import os
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db import connection

from tournaments.models import Event, Player

DATABASE_URL = os.environ.get("DATABASE_URL", "")
ON_POSTGRESQL = DATABASE_URL.startswith(("postgres://", "postgresql://"))


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
    (size,) = document["sizes"]
    assert size["tables"] == 3 and size["deals"] == 8 and size["rounds"] == 2
    assert size["results"] == 3 * 8
    assert size["hand_rows"] == 4 * size["results"]
    assert size["ranking_rows"] >= 12  # every player ranked (line rankings may add rows)
    assert size["runs"] == 1
    for key in ("full_s", "change_s", "floor_s"):
        assert size[key] > 0
        assert len(size["samples"][key]) == 1
    assert size["ratios"]["full"] == pytest.approx(size["full_s"] / size["floor_s"], rel=0.01)
    assert size["ratios"]["change"] == pytest.approx(size["change_s"] / size["floor_s"], rel=0.01)
    pages = document["pages"]
    for name in ("ranking", "scorecard", "deal_sheet"):
        assert pages[name]["status"] == 200 and pages[name]["median_s"] is not None
    # The events are deleted afterwards (players too), and no scratch table is left.
    assert not Event.objects.exists() and not Player.objects.exists()
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_tables WHERE tablename LIKE 'bench_floor_%%'")
        assert cursor.fetchone() == (0,)
