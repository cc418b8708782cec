"""The series pages: the club's, the public table, its projector, the CSV."""

from django.urls import path

from series import views

club = "clubs/<slug:club_slug>/series/"
public = "p/<slug:club_slug>/series/"

urlpatterns = [
    path(club, views.club_series_list, name="club-series-list"),
    path(f"{club}<int:series_id>/", views.club_series, name="club-series"),
    path(f"{club}<int:series_id>/edit/", views.club_series_edit, name="club-series-edit"),
    path(
        f"{club}<int:series_id>/events/", views.club_series_event_add, name="club-series-event-add"
    ),
    path(
        f"{club}<int:series_id>/events/<int:event_id>/remove/",
        views.club_series_event_remove,
        name="club-series-event-remove",
    ),
    path(f"{club}<int:series_id>/table.csv", views.club_series_csv, name="club-series-csv"),
    path(f"{public}<int:series_id>/", views.public_series, name="public-series"),
    path(
        f"{public}<int:series_id>/projector/",
        views.public_series_projector,
        name="public-series-projector",
    ),
]
