"""``manage.py restore_event FILE --club CLUB [--keep-table-codes]``: restore an event archive.

``manage.py restore`` restricted to event archives (see it): CLUB is the club's id or name;
the file is checked entirely before anything is written; every table gets a new entry code
unless ``--keep-table-codes``. A bad file, an unknown club or codes already in use exit with
code 2 and one line on stderr.
"""

from __future__ import annotations

from archives.management.commands.restore import Command as RestoreCommand


class Command(RestoreCommand):
    help = "Restore an event archive into a club (new table codes unless asked to keep them)."
    kinds = ("event",)
