"""REST API v1 routes of the freedeal app (included in the ``api`` namespace)."""

urlpatterns: list = []
