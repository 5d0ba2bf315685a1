"""The API form of a refused operation (``clubs.errors.DomainError``), for every app's API."""

from __future__ import annotations

from rest_framework import serializers


class ErrorSerializer(serializers.Serializer):
    """4xx: ``detail``, a message; a refused entry (400) adds ``code`` and a message per faulty
    field (each message names its field). The framework's own answers (404 not found, 403, a
    body that is not JSON) carry ``detail`` alone."""

    code = serializers.CharField(required=False)
    detail = serializers.CharField()
    # The documented key shadows Serializer.errors; this serializer only describes the schema.
    errors = serializers.DictField(  # type: ignore[assignment]
        child=serializers.ListField(child=serializers.CharField()), required=False
    )
