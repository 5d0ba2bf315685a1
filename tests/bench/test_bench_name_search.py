"""``manage.py bench_name_search`` builds its register once and reports every read (the figures
themselves are for the note, never asserted)."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from clubs.models import Membership

pytestmark = pytest.mark.django_db


def test_it_reports_every_read_with_its_plan() -> None:
    out = StringIO()
    call_command("bench_name_search", "--players", "40", "--runs", "2", "--json", stdout=out)
    document = json.loads(out.getvalue())
    assert document["players"] == 40 and Membership.objects.count() == 40
    reads = document["reads"]
    assert reads["event search 'chloe guerin'"]["found"] >= 1
    assert reads["namesakes of 'Chloe Guerin'"]["found"] >= 1
    assert reads["register page, first 500 in French order"]["found"] == 40
    assert all(figures["plan"] for name, figures in reads.items() if "namesakes" not in name)
    call_command("bench_name_search", "--players", "40", "--runs", "1", stdout=StringIO())
    assert Membership.objects.count() == 40  # built once


@pytest.mark.parametrize("args", [["--players", "0"], ["--runs", "x"], ["--players", "10**9"]])
def test_bad_arguments_exit_2(args: list[str]) -> None:
    with pytest.raises(CommandError) as refused:
        call_command("bench_name_search", *args, stdout=StringIO())
    assert refused.value.returncode == 2
