"""The API's JSON parser: a malformed body is a 400, whatever it holds.

DRF's ``JSONParser`` turns a ``ValueError`` into a 400, but not what the standard library
raises on a body nested thousands of levels deep (``RecursionError``), and it accepts
``NaN``/``Infinity`` and structures nested deeper than any of our requests. Here every such body
is a ``ParseError`` (400 with the translated message), so no body can reach a view as a 500.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

# No request of the API nests deeper than an outcome inside a result (3 levels); leave room.
MAX_DEPTH = 20


def _reject_constant(name: str) -> Any:
    raise ValueError(name)


def _depth_exceeds(value: Any, limit: int) -> bool:
    """Whether ``value`` nests lists/objects more than ``limit`` levels (iterative)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, Mapping):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if depth > limit:
            return True
        stack.extend((child, depth + 1) for child in children)
    return False


class SafeJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = codecs.getreader(encoding)(stream).read()
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding}
            ) from exc
        try:
            data = json.loads(text, parse_constant=_reject_constant)
        except RecursionError as exc:
            raise ParseError(_("The JSON body is nested too deeply.")) from exc
        except ValueError as exc:
            raise ParseError(
                _("The request body is not valid JSON: %(error)s") % {"error": exc}
            ) from exc
        if _depth_exceeds(data, MAX_DEPTH):
            raise ParseError(
                _("The JSON body is nested too deeply (at most %(depth)s levels).")
                % {"depth": MAX_DEPTH}
            )
        return data
