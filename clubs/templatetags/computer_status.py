"""``{% computer_status %}``: the computer's status box (``clubs.status``) on a director's page."""

from __future__ import annotations

from typing import Any

from django import template

from clubs.status import computer_status as status_lines

register = template.Library()


@register.inclusion_tag("clubs/_computer_status.html")
def computer_status() -> dict[str, Any]:
    """The box, or nothing when no source has a line to say."""
    return {"status_lines": status_lines()}
