from django.urls import path

from scoring import api

# No app_name: config/urls.py names the namespace "scoring", which the standings' routes share.

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(f"{club}tables/<int:table_id>/links/", api.TableLinkApi.as_view(), name="table-links"),
    path(
        f"{club}table-links/<int:link_id>/revoke/",
        api.TableLinkRevokeApi.as_view(),
        name="table-link-revoke",
    ),
    # Reached with a table link's token, no other credential (scoring.table_links).
    path("table/<str:token>/", api.TableApi.as_view(), name="table-api"),
    path("table/<str:token>/deals/", api.TableDealApi.as_view(), name="table-deals"),
    path(
        "table/<str:token>/entries/<int:submission_id>/",
        api.TableEntryApi.as_view(),
        name="table-entry",
    ),
    path(
        "table/<str:token>/entries/<int:submission_id>/confirm/",
        api.TableConfirmApi.as_view(),
        name="table-entry-confirm",
    ),
    path(
        "table/<str:token>/entries/<int:submission_id>/dispute/",
        api.TableDisputeApi.as_view(),
        name="table-entry-dispute",
    ),
    path(f"{club}presets/", api.PresetListApi.as_view(), name="preset-list"),
    path(f"{club}sessions/", api.SessionListApi.as_view(), name="session-list"),
    path(f"{club}seasons/", api.SeasonListApi.as_view(), name="season-list"),
    path(
        f"{club}players/<int:player_id>/history/",
        api.PlayerHistoryApi.as_view(),
        name="player-history",
    ),
    path(
        f"{club}sessions/<int:session_id>/", api.SessionDetailApi.as_view(), name="session-detail"
    ),
    path(
        f"{club}sessions/<int:session_id>/reopen/",
        api.SessionReopenApi.as_view(),
        name="session-reopen",
    ),
    path(
        f"{club}sessions/<int:session_id>/transfers/paid/",
        api.TransferPaidApi.as_view(),
        name="session-transfer-paid",
    ),
    path(
        f"{club}sessions/<int:session_id>/close/",
        api.SessionCloseApi.as_view(),
        name="session-close",
    ),
    path(f"{club}sessions/<int:session_id>/tables/", api.TableListApi.as_view(), name="table-list"),
    path(
        f"{club}sessions/<int:session_id>/scoreboard/",
        api.ScoreboardApi.as_view(),
        name="session-scoreboard",
    ),
    path(
        f"{club}sessions/<int:session_id>/settlement/",
        api.SettlementApi.as_view(),
        name="session-settlement",
    ),
    path(f"{club}tables/<int:table_id>/games/", api.GameListApi.as_view(), name="game-list"),
    path(f"{club}games/", api.ClubGameListApi.as_view(), name="club-game-list"),
    path(f"{club}games/<int:game_id>/", api.GameDetailApi.as_view(), name="game-detail"),
    path(f"{club}games/<int:game_id>/seats/", api.SeatListApi.as_view(), name="seat-list"),
    path(
        f"{club}games/<int:game_id>/seats/<int:player_id>/",
        api.SeatDetailApi.as_view(),
        name="seat-detail",
    ),
    path(f"{club}games/<int:game_id>/state/", api.GameStateApi.as_view(), name="game-state"),
    path(f"{club}games/<int:game_id>/finish/", api.GameFinishApi.as_view(), name="game-finish"),
    path(f"{club}games/<int:game_id>/rejoin/", api.RejoinApi.as_view(), name="pool-rejoin"),
    path(f"{club}games/<int:game_id>/split/", api.SplitApi.as_view(), name="pool-split"),
    path(f"{club}games/<int:game_id>/deals/", api.DealListApi.as_view(), name="deal-list"),
    path(f"{club}deals/", api.ClubDealListApi.as_view(), name="club-deal-list"),
    path(f"{club}deals/<int:deal_id>/", api.DealDetailApi.as_view(), name="deal-detail"),
    path(f"{club}deals/<int:deal_id>/void/", api.DealVoidApi.as_view(), name="deal-void"),
    path(
        f"{club}deals/<int:deal_id>/submissions/",
        api.SubmissionListApi.as_view(),
        name="submission-list",
    ),
    path(f"{club}submissions/", api.ClubSubmissionListApi.as_view(), name="club-submission-list"),
    path(
        f"{club}submissions/<int:submission_id>/",
        api.SubmissionDetailApi.as_view(),
        name="submission-detail",
    ),
    path(
        f"{club}submissions/<int:submission_id>/confirm/",
        api.SubmissionConfirmApi.as_view(),
        name="submission-confirm",
    ),
]
