"""Comparison of results and publication of standings.

``scoring.core`` is the pure comparison engine (no Django). The rest of this app adapts rows to
it: snapshot models, services that load results and persist standings, Celery tasks, and the
pages and API that publish rankings, frequency sheets and score cards.
"""
