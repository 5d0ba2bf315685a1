"""Free-deal tournaments (donnes libres): parties of random deals, players re-seated between
parties, ranked by the sum of their marks, under any ruleset of ``rules``.

The seating and the ranking are pure (``freedeal.seating``); this app stores the
tournament, takes each table's results and publishes the ranking. See docs/free-deal.md.
"""
