"""The file cache of a club's instance (``settings.CACHES`` with a data folder).

Django's ``FileBasedCache``, except that a write the disk has no room for leaves the key
uncached instead of failing the request: a ranking page whose fragment cannot be cached is
rendered all the same (the last published ranking), the cache being only a shortcut. The full
disk itself is said elsewhere (the saves' answers, the terminal, the director's status box).
"""

from __future__ import annotations

import logging
from typing import Any

from django.core.cache.backends.base import DEFAULT_TIMEOUT
from django.core.cache.backends.filebased import FileBasedCache

from runner.faults import NO_SPACE

logger = logging.getLogger(__name__)


class FileCache(FileBasedCache):
    def set(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> None:
        try:
            super().set(key, value, timeout, version)
        except OSError as error:
            if error.errno not in NO_SPACE:
                raise
            logger.debug("cache: no room on the disk for %s", key)

    def add(
        self, key: Any, value: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None
    ) -> bool:
        if self.has_key(key, version):
            return False
        try:
            super().set(key, value, timeout, version)  # not ours: a write with no room adds nothing
        except OSError as error:
            if error.errno not in NO_SPACE:
                raise
            return False
        return True

    def touch(self, key: Any, timeout: Any = DEFAULT_TIMEOUT, version: Any = None) -> bool:
        try:
            return super().touch(key, timeout, version)
        except OSError as error:
            if error.errno not in NO_SPACE:
                raise
            return False
