"""Seat letters for display: data keeps N/E/S/W, a French page shows N/E/S/O."""

from django import template
from django.utils.translation import pgettext

register = template.Library()


@register.filter
def seat_letter(seat: object) -> str:
    """The one-letter label of a seat code in the active language (W is "O" in French)."""
    letters = {
        "N": pgettext("seat letter", "N"),
        "E": pgettext("seat letter", "E"),
        "S": pgettext("seat letter", "S"),
        "W": pgettext("seat letter", "W"),
    }
    return letters.get(str(seat), str(seat))
