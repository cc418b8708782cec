"""Pages of club nights and the public standings (the API's routes are in ``scoring/urls.py``)."""

from django.urls import path

from scoring import views

club = "clubs/<slug:club_slug>/"
public = "p/<slug:club_slug>/"

urlpatterns = [
    path(f"{club}sessions/new/", views.session_create, name="session-create"),
    path(f"{club}sessions/<int:session_id>/", views.session_page, name="session-page"),
    path(
        f"{club}sessions/<int:session_id>/scoreboard/",
        views.session_scoreboard,
        name="session-scoreboard-live",
    ),
    path(f"{club}sessions/<int:session_id>/tables/", views.table_create, name="table-create"),
    path(f"{club}sessions/<int:session_id>/close/", views.session_close, name="session-close-page"),
    path(f"{club}sessions/<int:session_id>/export.csv", views.session_export, name="session-csv"),
    path(f"{club}tables/<int:table_id>/games/new/", views.game_new, name="game-new"),
    path(f"{club}games/<int:game_id>/", views.game_page, name="game-page"),
    path(f"{club}games/<int:game_id>/seats/", views.seat_add, name="seat-add-page"),
    path(f"{club}games/<int:game_id>/deals/new/", views.deal_new, name="deal-new"),
    path(
        f"{club}games/<int:game_id>/deals/tiebreaker/",
        views.deal_tiebreaker,
        name="deal-tiebreaker",
    ),
    path(f"{club}games/<int:game_id>/rejoin/", views.pool_rejoin, name="pool-rejoin-page"),
    path(f"{club}games/<int:game_id>/split/", views.pool_split, name="pool-split-page"),
    path(f"{club}games/<int:game_id>/finish/", views.game_finish, name="game-finish-page"),
    path(f"{club}deals/<int:deal_id>/", views.deal_page, name="deal-page"),
    path(f"{club}deals/<int:deal_id>/live/", views.deal_fragment, name="deal-fragment"),
    path(f"{club}deals/<int:deal_id>/result/", views.deal_result, name="deal-result"),
    path(
        f"{club}submissions/<int:submission_id>/confirm/",
        views.submission_confirm_view,
        name="submission-confirm-page",
    ),
    path(f"{club}standings/", views.club_standings, name="club-standings"),
    path(f"{public}standings/", views.public_standings, name="public-standings"),
    path(f"{public}standings/projector/", views.public_projector, name="public-projector"),
    path(f"{public}standings/live/", views.public_standings_fragment, name="public-live"),
]
