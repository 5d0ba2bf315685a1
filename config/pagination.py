"""The API's pagination: DRF's limit/offset with a bounded limit."""

from __future__ import annotations

from rest_framework.pagination import LimitOffsetPagination


class BoundedLimitOffsetPagination(LimitOffsetPagination):
    """``?limit=`` above ``max_limit`` is cut to it: unbounded, a limit past 2**63 reached the
    database as a number it cannot hold (a 500). A client asking for more gets 1000 rows and
    the link to the next page."""

    max_limit = 1000
