"""RFC 9457 problem details: the one body of every API error (``application/problem+json``).

Pure (the standard library only), so that the server's own error pages (``config.errors``:
500, 503, an API address no route matches) answer the shape the API's exception handler does
(:func:`clubs.api.exception_handler`).
"""

from __future__ import annotations

from collections.abc import Mapping
from http import HTTPStatus
from typing import Any

PROBLEM_JSON = "application/problem+json"


def problem_type(code: str) -> str:
    """The ``type`` URI of the problems of ``code`` (a tag URI, RFC 4151: it names, it is not
    fetched)."""
    return f"tag:duplitarot.org,2026:problem:{code}"


def problem(
    status_code: int,
    code: str,
    detail: str,
    *,
    errors: Mapping[str, list[str]] | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """A problem: ``type``, ``title`` (the status' phrase), ``status``, ``detail`` (translated),
    ``code`` (the stable identifier clients match on), ``errors`` (messages by field) and any
    ``extra`` member (a conflict's ``result``)."""
    return {
        "type": problem_type(code),
        "title": HTTPStatus(status_code).phrase,
        "status": status_code,
        "detail": detail,
        "code": code,
        "errors": dict(errors or {}),
        **extra,
    }
