"""The standings' and ratings' API routes. They keep the names they had in scoring
(``scoring:standings``, ``scoring:ratings``, ...): config/urls.py puts them in that namespace."""

from django.urls import path

from standings import api

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
]
