"""Pages are valid HTML where browsers and checkers complained: htmx attributes written
``data-hx-*`` (a bare ``hx-*`` attribute is invalid HTML; htmx reads both), no ``<style>`` in
the body of the organiser's event pages, flash messages inside ``<main>``, no empty ``<th>``
(a column of buttons has a visually-hidden name), and no htmx listener on phone pages that load
no htmx."""

from __future__ import annotations

import datetime as dt
from html.parser import HTMLParser
from types import SimpleNamespace
from typing import Any

import pytest
from django.template.loader import render_to_string
from django.test import Client

from tests.builders import running_event
from tests.factories import ClubFactory, OrganiserFactory, PlayerFactory
from tournaments.models import Event, Table

pytestmark = pytest.mark.django_db

VOID = {
    "area",
    "base",
    "br",
    "col",
    "embed",
    "hr",
    "img",
    "input",
    "link",
    "meta",
    "source",
    "track",
    "wbr",
}


class Structure(HTMLParser):
    """What the checks need: bare hx-* attributes, <style> in <body>, the parents of the flash
    messages, the text of every <th>, the scripts' text and sources."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.hx: list[str] = []
        self.body_styles = 0
        self.messages_parents: list[list[str]] = []
        self.th_texts: list[str] = []
        self.scripts: list[str] = []
        self.script_sources: list[str] = []
        self._th: list[str] | None = None
        self._script: list[str] | None = None
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, Any]]) -> None:
        names = dict(attrs)
        self.hx += [name for name, _value in attrs if name.startswith("hx-")]
        if tag == "style" and "body" in self.stack:
            self.body_styles += 1
        if tag == "ul" and "messages" in str(names.get("class", "")).split():
            self.messages_parents.append(list(self.stack))
        if tag == "th":
            self._th = []
        if tag == "script":
            self._script = []
            if names.get("src"):
                self.script_sources.append(str(names["src"]))
        if tag not in VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag == "th" and self._th is not None:
            self.th_texts.append("".join(self._th).strip())
            self._th = None
        if tag == "script" and self._script is not None:
            self.scripts.append("".join(self._script))
            self._script = None
        if tag in self.stack:
            while self.stack.pop() != tag:
                pass

    def handle_data(self, data: str) -> None:
        if self._th is not None:
            self._th.append(data)
        if self._script is not None:
            self._script.append(data)


def organiser(event: Event) -> Client:
    client = Client()
    client.force_login(OrganiserFactory(clubs=[event.club]))
    return client


def test_the_parser_sees_what_it_checks() -> None:
    """The checks below can fail: the parser finds each fault in a page that has it."""
    page = Structure(
        '<html><body><ul class="messages"></ul><main><div hx-get="/x"></div><style></style>'
        "<table><tr><th></th></tr></table><script>x()</script></main></body></html>"
    )
    assert page.hx == ["hx-get"] and page.body_styles == 1
    assert page.messages_parents == [["html", "body"]]
    assert page.th_texts == [""] and page.scripts == ["x()"]


def test_the_organisers_event_pages_are_clean() -> None:
    event = running_event(tables=3, rounds=2)
    client = organiser(event)
    base = f"/organiser/events/{event.pk}/"
    for tail in (
        "",
        "players/",
        "deals/",
        "results/import/",
        "control/",
        "print/routes/",
        "print/score-sheets/",
        "print/ranking/",
        "print/frequencies/",
    ):
        response = client.get(base + tail)
        assert response.status_code == 200, (tail, response.status_code)
        page = Structure(response.content.decode())
        assert page.hx == [], (tail, page.hx)
        assert page.body_styles == 0, tail
        assert "" not in page.th_texts, tail


def test_the_register_names_its_buttons_column() -> None:
    club = ClubFactory()
    PlayerFactory(club=club)
    client = Client()
    client.force_login(OrganiserFactory(clubs=[club]))
    page = Structure(client.get(f"/organiser/clubs/{club.pk}/register/").content.decode())
    assert page.th_texts and "" not in page.th_texts
    assert "Actions" in page.th_texts


def test_the_late_arrivals_table_names_its_buttons_column() -> None:
    arrival = SimpleNamespace(
        pk=1,
        deal=3,
        kept_since=dt.datetime(2026, 11, 29, 20, 0, tzinfo=dt.UTC),
        arrived_at=dt.datetime(2026, 11, 29, 20, 5, tzinfo=dt.UTC),
        message="Refusé",
    )
    row = SimpleNamespace(
        arrival=arrival,
        where="Table 1",
        kept_since="20:00",
        arrived_at="20:05",
        fields=[],
        fix_url="/f/",
        handled_url="/h/",
    )
    late = SimpleNamespace(rows=[row], total=1, number=1, pages=1, previous_url=None, next_url=None)
    html = render_to_string("clubs/_late_arrivals.html", {"late": late})
    page = Structure(html)
    assert len(page.th_texts) == 7 and "" not in page.th_texts


def test_flash_messages_are_inside_main() -> None:
    html = render_to_string("base.html", {"messages": [SimpleNamespace(tags="success")]})
    page = Structure(html)
    assert page.messages_parents and all("main" in parents for parents in page.messages_parents)


def test_the_phone_page_has_no_htmx_listener_and_valid_attributes() -> None:
    event = running_event(tables=3, rounds=2)
    table = Table.objects.get(event=event, number=1)
    page = Structure(Client().get(f"/table/{table.code}/").content.decode())
    assert not any("htmx.min.js" in src for src in page.script_sources)
    assert not any("htmx:" in script for script in page.scripts)
    assert page.hx == []
    assert page.body_styles == 0


@pytest.mark.parametrize("path", ["/events/{pk}/", "/events/{pk}/ranking/", "/events/{pk}/deals/"])
def test_the_public_pages_have_valid_htmx_attributes_and_named_columns(path: str) -> None:
    event = running_event(tables=3, rounds=2)
    page = Structure(Client().get(path.format(pk=event.pk)).content.decode())
    assert page.hx == []
    assert "" not in page.th_texts
