"""The kernel's one writer of "entered by" and of result histories (``clubs.history``), used by
the three kinds: a duplicate table's result, a cup room's and a free-deal deal's are stamped
and their history lines written the same way."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser

from clubs.history import Author, EnteredVia, entered_by_set, history_line, history_write
from freedeal.models import FreeDealChange, FreeDealResult
from teammatch.models import RoomResult, RoomResultChange
from tests.factories import UserFactory
from tests.teammatch.worlds import running_match
from tournaments.models import ResultChange, TableResult


def test_an_anonymous_phone_is_its_label_and_a_signed_in_user_his_account() -> None:
    phone = Author(user=AnonymousUser(), label="table 3")
    assert (phone.account, phone.name, phone.via) == (None, "table 3", EnteredVia.TABLE)
    assert phone.fields() == {"entered_by": None, "entered_by_label": "table 3",
                              "entered_via": "table"}  # fmt: skip
    assert Author(label="x" * 200).name == "x" * 120


@pytest.mark.django_db
def test_a_director_is_named_by_his_account_whatever_the_label() -> None:
    director = UserFactory(username="arbitre")
    author = Author(user=director, label="Directeur", via=EnteredVia.ORGANISER)
    assert author.fields() == {"entered_by": director, "entered_by_label": "arbitre",
                               "entered_via": "organiser"}  # fmt: skip


@pytest.mark.django_db
def test_every_kind_is_stamped_and_its_history_written_by_the_same_writer() -> None:
    running = running_match()
    director = running.organiser
    _outcome, room_result = running.enter("open", 1)
    author = Author(user=director, via=EnteredVia.ORGANISER)
    entered_by_set(room_result, author)
    room_result.save()
    line = history_write(
        RoomResultChange, result=room_result, action="correct", author=author,
        before={"value": 1}, after={"value": 2}, reason="feuille",
    )  # fmt: skip
    line.refresh_from_db()
    assert (line.actor, line.actor_label, line.reason) == (director, director.username, "feuille")
    assert (line.before, line.after) == ({"value": 1}, {"value": 2})
    room_result.refresh_from_db()
    assert room_result.entered_by_director and room_result.entered_by == director
    # The same fields and the same lines on the other two kinds.
    for result_model, change_model in (
        (TableResult, ResultChange),
        (FreeDealResult, FreeDealChange),
    ):
        names = {field.name for field in result_model._meta.get_fields()}
        assert {"entered_by", "entered_by_label", "entered_via"} <= names
        unsaved = history_line(change_model, result=None, action="create",
                               author=Author(label="Table 1"), after={})  # fmt: skip
        assert (unsaved.actor, unsaved.actor_label, unsaved.before) == (None, "Table 1", None)
    assert RoomResult._meta.get_field("entered_via").choices == EnteredVia.choices
