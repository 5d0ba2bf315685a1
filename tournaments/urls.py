"""Organiser screens and table entry (public standings pages live in ``scoring``).

URL names are namespaced and snake_case: ``organiser:<name>`` for the organiser's screens
(set-up, printouts, the entry grid and the director's actions, the control room, all under
``organiser/``) and ``table:<name>`` for the table phones (under ``table/``, reached by the
table code).
"""

from django.urls import include, path

from tournaments import urls_entry, urls_organiser
from tournaments.views import control, entry

# The director's control room and the round life cycle (``tournaments.views.control``).
control_urlpatterns = [
    path("events/<int:pk>/control/", control.control, name="control"),
    path("events/<int:pk>/control/missing/", control.missing, name="control_missing"),
    path(
        "events/<int:pk>/control/round/<int:number>/close/",
        control.round_close,
        name="round_close",
    ),
    path(
        "events/<int:pk>/control/round/<int:number>/reopen/",
        control.round_reopen,
        name="round_reopen",
    ),
    path("events/<int:pk>/reopen/", control.event_reopen, name="event_reopen"),
    path(
        "events/<int:pk>/late/<int:arrival>/handled/",
        control.late_arrival_handled,
        name="late_arrival_handled",
    ),
]

# A table corrects its own entry until the director closes the round.
table_correct_urlpatterns = [
    path("<str:code>/deal/<int:number>/correct/", entry.deal_correct, name="deal_correct"),
]

urlpatterns = [
    path(
        "organiser/",
        include(
            (
                urls_organiser.urlpatterns + urls_entry.organiser_urlpatterns + control_urlpatterns,
                "organiser",
            ),
            namespace="organiser",
        ),
    ),
    path(
        "table/",
        include((urls_entry.urlpatterns + table_correct_urlpatterns, "table"), namespace="table"),
    ),
]
