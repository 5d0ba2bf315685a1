"""The database engine of a club's instance: Django's SQLite, its writers queued in the process
(see :mod:`instance.sqlite.base`)."""
