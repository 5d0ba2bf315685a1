#!/usr/bin/env python
"""Django's command-line utility for duplitarot (a developer's checkout; ``instance.cli``)."""

import sys


def main() -> None:
    from instance.cli import run

    run(sys.argv[1:], installed=False)


if __name__ == "__main__":
    main()
