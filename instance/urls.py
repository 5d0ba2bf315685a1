from django.urls import path

from instance import views

app_name = "instance"

urlpatterns = [
    path("setup/", views.setup, name="setup"),
]
