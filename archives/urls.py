"""Pages of the archives app (localised), all under ``organiser/``.

- :data:`urlpatterns` (namespace ``archives``): the archive downloads of cups, free-deal
  tournaments and series.
- :data:`public_urlpatterns`: the event archive download and the restore page, which keep
  their historical names ``public:organiser_archive`` and ``public:organiser_restore``
  (``config.urls`` adds them to the ``public`` namespace).
"""

from django.urls import path

from archives import views

app_name = "archives"

urlpatterns = [
    path("organiser/cups/<int:pk>/archive/", views.cup_archive, name="cup"),
    path("organiser/free-deal/<int:pk>/archive/", views.free_deal_archive, name="free_deal"),
    path("organiser/series/<int:pk>/archive/", views.series_archive, name="series"),
]

public_urlpatterns = [
    path("organiser/events/<int:pk>/archive/", views.organiser_archive, name="organiser_archive"),
    path("organiser/archive/restore/", views.organiser_restore, name="organiser_restore"),
]
