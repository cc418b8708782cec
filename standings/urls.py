"""The standings' and ratings' API routes. They keep the names they had in scoring
(``scoring:standings``, ``scoring:ratings``, ...): config/urls.py puts them in that namespace."""

from django.urls import path

from standings import api, import_api

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(f"{club}ratings/", api.RatingTableApi.as_view(), name="ratings"),
    path(f"{club}ratings/games/", api.RatedGameListApi.as_view(), name="rated-games"),
    path(
        f"{club}players/<int:player_id>/ratings/",
        api.PlayerRatingsApi.as_view(),
        name="player-ratings",
    ),
    path(
        f"{club}players/<int:player_id>/ratings/changes/",
        api.PlayerRatingChangesApi.as_view(),
        name="player-rating-changes",
    ),
    path(f"{club}standings/", api.StandingsApi.as_view(), name="standings"),
    path(f"{club}standings/metrics/", api.MetricListApi.as_view(), name="standings-metrics"),
    path(
        f"{club}results/import/preview/",
        import_api.ResultImportPreviewApi.as_view(),
        name="results-import-preview",
    ),
    path(f"{club}results/import/", import_api.ResultImportApi.as_view(), name="results-import"),
    path(
        f"{club}results/imports/<int:import_id>/",
        import_api.ResultImportStatusApi.as_view(),
        name="results-import-status",
    ),
    path(
        f"{club}results/imports/<int:import_id>/cancel/",
        import_api.ResultImportCancelApi.as_view(),
        name="results-import-cancel",
    ),
]
