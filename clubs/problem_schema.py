"""The schema of a problem (:mod:`clubs.problems`) in the OpenAPI document: the serializer every
4xx and 5xx of the API declares. Its own module, below both the API's kernel (``clubs.api``)
and the phone codes' schema answers (``clubs.phone_codes``), which the kernel's save reaches.
"""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """Every 4xx and 5xx of the API: RFC 9457 problem details (``application/problem+json``),
    with ``code`` (the stable identifier) and ``errors`` (messages by field, each naming its
    field)."""

    type = serializers.CharField(
        help_text="A URI naming the problem (`tag:duplitarot.org,2026:problem:<code>`)."
    )
    title = serializers.CharField(help_text="The HTTP status' phrase.")
    status = serializers.IntegerField(help_text="The HTTP status code.")
    detail = serializers.CharField(help_text="What happened, translated.")
    code = serializers.CharField(help_text="The stable identifier clients match on.")
    # The documented key shadows Serializer.errors; this serializer only describes the schema.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()),
        help_text="Messages by field, each naming its field (`{}` when none).",
    )
