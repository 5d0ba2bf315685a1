"""The kernel every competition builds on: clubs, their player register, organiser access, the
competition base (club, name, date, public flag, status), the domain error and its API form,
change records, phone codes and their throttle, and the export helpers.

It imports no feature app (``tournaments``, ``scoring``, ``teammatch``, ``freedeal``,
``series``, ``demo``): those build on it (import contracts in pyproject.toml enforce it).
"""
