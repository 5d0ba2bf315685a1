#!/usr/bin/env python
"""Django's command-line utility for duplitarot."""

import os
import sys
from pathlib import Path


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    # The demo works on its own database, chosen before Django reads its settings.
    from demo.database import choose_demo_database

    choose_demo_database(sys.argv, os.environ, Path(__file__).resolve().parent)
    from django.core.exceptions import ImproperlyConfigured
    from django.core.management import execute_from_command_line

    try:
        execute_from_command_line(sys.argv)
    except ImproperlyConfigured as error:
        # A configuration refused at start (e.g. no secret key outside debug): one line, exit 2.
        sys.stderr.write(f"manage.py: {error}\n")
        sys.exit(2)


if __name__ == "__main__":
    main()
