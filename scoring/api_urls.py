"""REST API v1 routes (events, entrants, movement, deals, results, rankings)."""

urlpatterns: list = []
