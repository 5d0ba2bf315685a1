"""Words and typography of the pages in the reader's language (see tournaments.presentation).

``{{ value|percent }}``: "12,5 %" in French (a narrow no-break space), "12.5%" in English;
``{% colon %}``: the colon after a label ("Donneur : N", "Dealer: N");
``{{ value|oudlers }}``: "1 bout", "2 bouts"; ``{{ change.before|result_state }}``: a result as
the history keeps it, in words; ``{{ value|signed }}``: "+12", "−12" (a minus sign), "0".
"""

from typing import Any

from django import template

from clubs import typography
from tournaments import presentation

register = template.Library()


@register.filter
def percent(value: object) -> str:
    return presentation.percent_text(value)


@register.filter
def signed(value: object) -> str:
    try:
        return presentation.signed(None if value is None or value == "" else int(str(value)))
    except ValueError:
        return str(value)


@register.simple_tag
def colon() -> str:
    return typography.colon()


@register.filter
def oudlers(count: object) -> str:
    try:
        return presentation.oudlers_text(int(str(count)))
    except ValueError:
        return ""


@register.filter
def result_state(state: Any) -> str:
    return presentation.result_state_text(state)
