"""The API's JSON parser and error bodies: a malformed body is a 4xx with a ``code``, never a 500.

DRF's ``JSONParser`` turns a ``ValueError`` into a 400, but not what the standard library
raises on a body nested thousands of levels deep (``RecursionError``); it accepts
``NaN``/``Infinity`` and numbers of thousands of digits (which overflow the database's
integers further on). DRF reads a JSON body through Django's ``request.body``, so a body larger
than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` raises Django's ``RequestDataTooBig`` before any parser
runs: Django's plain 400 page, or 413 JSON with :func:`api_exception_handler`.
:class:`SafeJSONParser` answers:

- **413** ``request_too_large``: a body larger than ``DATA_UPLOAD_MAX_MEMORY_SIZE`` reaching it
  by another way (read no further than that; no limit when the setting is None);
- **400** ``invalid_encoding``: not text in the declared charset (UTF-8 by default);
- **400** ``json_too_deep``: nested deeper than :data:`MAX_DEPTH` (or than the interpreter can);
- **400** ``invalid_number``: an integer of more than :data:`MAX_DIGITS` digits (every integer
  then fits a 64-bit column), a float of more than 30 digits or out of range, ``NaN`` or
  ``Infinity``;
- **400** ``invalid_json``: not JSON;
- **400** ``not_an_object``: JSON whose top level is not an object (every request of the API is
  one).

Each is answered as problem details with its ``code`` by the API's one exception handler,
:func:`clubs.api.exception_handler` (DRF's ``EXCEPTION_HANDLER``), which also answers a body
past Django's limits while reading a form or multipart body (``RequestDataTooBig``: 413
``request_too_large``; too many fields or files: 400 ``too_many_fields``) instead of Django's
HTML 400 page.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import JSONParser

# No request of the API nests deeper than an outcome inside a result (3 levels); leave room.
MAX_DEPTH = 20
# Digits of an integer: 18 fit any 64-bit integer column (deal and table numbers are looked up).
MAX_DIGITS = 18


class RequestTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "request_too_large"

    def __init__(self, limit: int) -> None:
        message = _("The request body is larger than %(size)s bytes.") % {"size": limit}
        super().__init__({"code": self.default_code, "detail": message})


def max_body_bytes() -> int | None:
    limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    return None if limit is None else int(limit)


def _parse_error(code: str, message: str) -> ParseError:
    return ParseError({"code": code, "detail": message})


class SafeJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        # Here, not at the top: DRF imports this module while the apps' views are imported.
        from clubs.uploads import JSONLimitError, bounded_json_loads

        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = max_body_bytes()
        raw = b"" if stream is None else stream.read() if limit is None else stream.read(limit + 1)
        if limit is not None and len(raw) > limit:
            raise RequestTooLarge(limit)
        try:
            text = codecs.decode(raw, encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise _parse_error(
                "invalid_encoding",
                _("The request body is not valid %(encoding)s text.") % {"encoding": encoding},
            ) from exc
        try:
            data = bounded_json_loads(text, max_depth=MAX_DEPTH, max_digits=MAX_DIGITS)
        except JSONLimitError as exc:
            if exc.kind == "depth":
                raise _parse_error(
                    "json_too_deep",
                    _("The JSON body is nested too deeply (at most %(depth)s levels).")
                    % {"depth": MAX_DEPTH},
                ) from exc
            raise _parse_error(
                "invalid_number",
                _(
                    "The JSON body holds a number of more than %(digits)s digits, out of range, "
                    "NaN or Infinity."
                )
                % {"digits": MAX_DIGITS},
            ) from exc
        except ValueError as exc:
            raise _parse_error(
                "invalid_json", _("The request body is not valid JSON: %(error)s") % {"error": exc}
            ) from exc
        if not isinstance(data, dict):
            raise _parse_error(
                "not_an_object",
                _("The request body must be a JSON object, not %(kind)s.")
                % {"kind": _json_kind(data)},
            )
        return data


def _json_kind(value: Any) -> str:
    if isinstance(value, list):
        return _("an array")
    if isinstance(value, str):
        return _("a string")
    if value is None:
        return "null"
    if isinstance(value, bool):
        return json.dumps(value)
    return _("a number")
