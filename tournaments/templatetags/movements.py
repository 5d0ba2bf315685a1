"""Movement words for display: the document's codes stay English, the page speaks French."""

from django import template
from django.utils.translation import gettext_lazy as _

from tournaments import presentation
from tournaments.movements import Schedule

register = template.Library()

KIND_LABELS = {
    "line": _("line movement"),
    "howell": _("Howell"),
    "pools": _("pools"),
    "matches": _("crossed matches"),
}


@register.filter
def movement_kind(kind: object) -> str:
    """The label of a movement ``kind`` (line, howell, pools, matches) in the active language."""
    return str(KIND_LABELS.get(str(kind), kind))


@register.filter
def movement_warning(warning: object) -> str:
    """A warning of the validator's report (``{"code", "message"}``) in the active language."""
    if isinstance(warning, dict):
        return presentation.movement_warning_text(warning.get("code"), warning.get("message"))
    return presentation.movement_warning_text(
        getattr(warning, "code", ""), getattr(warning, "message", warning)
    )


@register.filter
def etui_copies(document: object) -> str:
    """How many copies of each étui a movement (its document, or a ``Schedule``) needs."""
    if isinstance(document, Schedule):
        schedule = document
    elif isinstance(document, dict):
        schedule = Schedule.from_document(document)
    else:
        return ""
    return presentation.etui_copies_text(schedule.copies_per_deal_set())
