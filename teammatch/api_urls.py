"""REST API v1 routes of the teammatch app (included in the ``api`` namespace)."""

urlpatterns: list = []
