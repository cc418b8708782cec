"""The series' API routes."""

from django.urls import path

from series import api

app_name = "series"

base = "clubs/<slug:club_slug>/series/"

urlpatterns = [
    path(base, api.SeriesListApi.as_view(), name="series-list"),
    path(f"{base}<int:series_id>/", api.SeriesDetailApi.as_view(), name="series-detail"),
    path(f"{base}<int:series_id>/events/", api.SeriesEventListApi.as_view(), name="series-events"),
    path(
        f"{base}<int:series_id>/events/<int:event_id>/",
        api.SeriesEventDetailApi.as_view(),
        name="series-event",
    ),
    path(f"{base}<int:series_id>/table/", api.SeriesTableApi.as_view(), name="series-table"),
]
