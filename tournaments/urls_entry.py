"""Table entry (phone at the table, reached by the table code) and the organiser entry grid."""

urlpatterns: list = []
