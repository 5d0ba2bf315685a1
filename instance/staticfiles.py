"""A club's instance collects its static files into its data folder, when it starts serving.

The hashed names and the gzip copies that make the phone pages light (``config.staticfiles``)
are what ``collectstatic`` writes, with the manifest that ``{% static %}`` reads. An installed
package (the wheel) holds the source files only: building the collection into the wheel would
need Django inside the wheel's build environment and a build step of its own, and a wheel
installed by another version of WhiteNoise or Django would then serve a stale manifest. So the
instance collects at start, into ``<data folder>/static`` (``settings.STATIC_ROOT``):

- only when the package's static files changed: a fingerprint of every file the finders list
  (name, size, modification time) and of the storage is kept beside the collection, the same
  fingerprint skips the work (a few milliseconds at each start);
- into a fresh folder next to it, swapped in whole once complete: an interrupted collection
  leaves the previous one served, and is made again at the next start; a failed one (a full
  disk) is removed at once.

``config.wsgi`` calls :func:`static_collected` before the WSGI application (WhiteNoise reads the
folder when it starts), so ``duplitarot serve`` and ``duplitarot demo`` alike serve it.
"""

from __future__ import annotations

import hashlib
import io
import shutil
from pathlib import Path

FINGERPRINT_FILE = ".fingerprint"


def static_fingerprint() -> str:
    """What the collection depends on: the files the finders list and the storage's class."""
    from django.conf import settings
    from django.contrib.staticfiles.finders import get_finders

    digest = hashlib.sha256(str(settings.STORAGES["staticfiles"]["BACKEND"]).encode())
    entries: list[str] = []
    for finder in get_finders():
        for path, storage in finder.list(["CVS", ".*", "*~"]):
            stat = Path(storage.path(path)).stat()
            entries.append(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}")
    for entry in sorted(entries):
        digest.update(entry.encode())
        digest.update(b"\n")
    return digest.hexdigest()


def static_collected(root: Path | None = None) -> bool:
    """Collect the static files into ``root`` (``settings.STATIC_ROOT``) unless the collection
    there is current; True when it collected."""
    from django.conf import settings
    from django.contrib.staticfiles.management.commands.collectstatic import (
        Command as Collect,
    )
    from django.utils.module_loading import import_string

    root = Path(root if root is not None else settings.STATIC_ROOT)
    fingerprint = static_fingerprint()
    kept = root / FINGERPRINT_FILE
    if kept.is_file() and kept.read_text(encoding="ascii").strip() == fingerprint:
        return False
    fresh = root.with_name(root.name + ".new")
    old = root.with_name(root.name + ".old")
    for leftover in (fresh, old):
        shutil.rmtree(leftover, ignore_errors=True)
    fresh.mkdir(parents=True)
    storage_class = import_string(settings.STORAGES["staticfiles"]["BACKEND"])
    collect = Collect(stdout=io.StringIO(), stderr=io.StringIO())
    collect.storage = storage_class(location=str(fresh), base_url=settings.STATIC_URL)
    try:
        collect.handle(
            interactive=False,
            verbosity=0,
            link=False,
            clear=False,
            dry_run=False,
            ignore_patterns=[],
            use_default_ignore_patterns=True,
            post_process=True,
        )
        (fresh / FINGERPRINT_FILE).write_text(fingerprint + "\n", encoding="ascii")
    except BaseException:
        # A full disk (or Ctrl+C) midway: nothing half-collected is left to take the room.
        shutil.rmtree(fresh, ignore_errors=True)
        raise
    if root.exists():
        root.rename(old)
    fresh.rename(root)
    shutil.rmtree(old, ignore_errors=True)
    return True
