"""Series: a club's or a league's season grouping events, ranked over their final rankings.

``series.core`` is the pure computation (no Django); ``selectors`` reads each counted event's
final published ranking through ``scoring.selectors`` (never recomputing it) and calls the core;
``services`` validates and writes. See docs/series.md.
"""
