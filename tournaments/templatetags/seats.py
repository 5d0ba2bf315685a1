"""Seat letters for display: data keeps N/E/S/W, a French page shows N/E/S/O."""

from django import template

from tournaments import presentation

register = template.Library()


@register.filter
def seat_letter(seat: object) -> str:
    """The one-letter label of a seat code in the active language (W is "O" in French)."""
    return presentation.seat_letter(seat)
