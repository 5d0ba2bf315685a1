"""The static files' storage outside debug: hashed names and precompressed copies.

``collectstatic`` writes each file under a name carrying a hash of its content
(``css/site.3f2a9c1b.css``) plus its gzip copy, and a manifest that ``{% static %}`` reads:
WhiteNoise serves a hashed name with a far-future ``Cache-Control`` (``immutable``, ten years),
so that a phone fetches htmx and the stylesheets once, and the gzip copy to every browser that
accepts it. A new version of a file is a new name: no stale cache.

In debug (the developer's checkout, the tests) the plain storage serves the files by their own
names from the apps and ``config/static``: nothing to collect.
"""

from __future__ import annotations

import logging

from django.contrib.staticfiles.storage import HashedFilesMixin
from whitenoise.storage import CompressedManifestStaticFilesStorage

logger = logging.getLogger(__name__)


class StaticStorage(CompressedManifestStaticFilesStorage):  # type: ignore[misc]
    """WhiteNoise's compressed manifest storage, leaving the scripts' source map comments alone:
    the vendored scripts name source maps that are not shipped (vendor/chartjs/README.md), and a
    reference to a missing file would fail the collection. The stylesheets' ``url()`` and
    ``@import`` references are still rewritten to the hashed names."""

    patterns = tuple(pattern for pattern in HashedFilesMixin.patterns if pattern[0] != "*.js")

    def stored_name(self, name: str) -> str:
        """The hashed name. With no manifest at all (``collectstatic`` never ran where this
        server runs) every file keeps its own name, said once in the log, instead of failing
        every page with a 500. With a manifest, a name it lacks is still a ``ValueError``
        (WhiteNoise asks so to tell hashed names from plain ones)."""
        if not self.hashed_files:
            if not StaticStorage._said_uncollected:
                StaticStorage._said_uncollected = True
                logger.warning("no static files manifest: run collectstatic; own names served")
            return name
        return str(super().stored_name(name))

    _said_uncollected = False
