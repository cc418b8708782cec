"""The archive's download, beside the club's settings page it is offered on."""

from django.urls import path

from archive import views

urlpatterns = [
    path(
        "clubs/<slug:club_slug>/settings/archive.jsonl",
        views.club_archive_download,
        name="club-archive-download",
    ),
]
