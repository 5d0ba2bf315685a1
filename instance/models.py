"""What an instance keeps about itself in its database.

:class:`SetupCode`: the one-time code of the first run (``instance.setup``), stored as a digest;
at most one exists, none once an account exists.
"""

from __future__ import annotations

from django.db import models


class SetupCode(models.Model):
    digest = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    #: Wrong codes tried since it was issued: past ``setup.MAX_FAILURES`` it is dead.
    failures = models.PositiveIntegerField(default=0)

    def __str__(self) -> str:
        return f"setup code of {self.created_at:%Y-%m-%d %H:%M}"
