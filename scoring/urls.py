from django.urls import path

from scoring.api import batch, deals, games, nights, table_links

# No app_name: config/urls.py names the namespace "scoring", which the standings' routes share.

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(
        f"{club}tables/<int:table_id>/links/",
        table_links.TableLinkApi.as_view(),
        name="table-links",
    ),
    path(
        f"{club}table-links/<int:link_id>/revoke/",
        table_links.TableLinkRevokeApi.as_view(),
        name="table-link-revoke",
    ),
    # Reached with a table link's token, no other credential (scoring.table_links).
    path("table/<str:token>/", table_links.TableApi.as_view(), name="table-api"),
    path("table/<str:token>/deals/", table_links.TableDealApi.as_view(), name="table-deals"),
    path(
        "table/<str:token>/entries/<int:submission_id>/",
        table_links.TableEntryApi.as_view(),
        name="table-entry",
    ),
    path(
        "table/<str:token>/entries/<int:submission_id>/confirm/",
        table_links.TableConfirmApi.as_view(),
        name="table-entry-confirm",
    ),
    path(
        "table/<str:token>/entries/<int:submission_id>/dispute/",
        table_links.TableDisputeApi.as_view(),
        name="table-entry-dispute",
    ),
    path(f"{club}presets/", nights.PresetListApi.as_view(), name="preset-list"),
    path(f"{club}sessions/", nights.SessionListApi.as_view(), name="session-list"),
    path(f"{club}seasons/", nights.SeasonListApi.as_view(), name="season-list"),
    path(
        f"{club}players/<int:player_id>/history/",
        nights.PlayerHistoryApi.as_view(),
        name="player-history",
    ),
    path(
        f"{club}sessions/<int:session_id>/",
        nights.SessionDetailApi.as_view(),
        name="session-detail",
    ),
    path(
        f"{club}sessions/<int:session_id>/reopen/",
        nights.SessionReopenApi.as_view(),
        name="session-reopen",
    ),
    path(
        f"{club}sessions/<int:session_id>/transfers/paid/",
        nights.TransferPaidApi.as_view(),
        name="session-transfer-paid",
    ),
    path(
        f"{club}sessions/<int:session_id>/close/",
        nights.SessionCloseApi.as_view(),
        name="session-close",
    ),
    path(
        f"{club}sessions/<int:session_id>/tables/", nights.TableListApi.as_view(), name="table-list"
    ),
    path(
        f"{club}sessions/<int:session_id>/scoreboard/",
        nights.ScoreboardApi.as_view(),
        name="session-scoreboard",
    ),
    path(
        f"{club}sessions/<int:session_id>/settlement/",
        nights.SettlementApi.as_view(),
        name="session-settlement",
    ),
    path(f"{club}tables/<int:table_id>/games/", games.GameListApi.as_view(), name="game-list"),
    path(f"{club}games/", games.ClubGameListApi.as_view(), name="club-game-list"),
    path(f"{club}games/<int:game_id>/", games.GameDetailApi.as_view(), name="game-detail"),
    path(f"{club}games/<int:game_id>/seats/", games.SeatListApi.as_view(), name="seat-list"),
    path(
        f"{club}games/<int:game_id>/seats/<int:player_id>/",
        games.SeatDetailApi.as_view(),
        name="seat-detail",
    ),
    path(f"{club}games/<int:game_id>/state/", games.GameStateApi.as_view(), name="game-state"),
    path(f"{club}games/<int:game_id>/finish/", games.GameFinishApi.as_view(), name="game-finish"),
    path(f"{club}games/<int:game_id>/rejoin/", games.RejoinApi.as_view(), name="pool-rejoin"),
    path(f"{club}games/<int:game_id>/split/", games.SplitApi.as_view(), name="pool-split"),
    path(f"{club}games/<int:game_id>/deals/", deals.DealListApi.as_view(), name="deal-list"),
    path(
        f"{club}games/<int:game_id>/deals/batch/",
        batch.DealBatchApi.as_view(),
        name="deal-batch",
    ),
    path(f"{club}deals/", deals.ClubDealListApi.as_view(), name="club-deal-list"),
    path(f"{club}deals/<int:deal_id>/", deals.DealDetailApi.as_view(), name="deal-detail"),
    path(f"{club}deals/<int:deal_id>/void/", deals.DealVoidApi.as_view(), name="deal-void"),
    path(
        f"{club}deals/<int:deal_id>/submissions/",
        deals.SubmissionListApi.as_view(),
        name="submission-list",
    ),
    path(f"{club}submissions/", deals.ClubSubmissionListApi.as_view(), name="club-submission-list"),
    path(
        f"{club}submissions/<int:submission_id>/",
        deals.SubmissionDetailApi.as_view(),
        name="submission-detail",
    ),
    path(
        f"{club}submissions/<int:submission_id>/confirm/",
        deals.SubmissionConfirmApi.as_view(),
        name="submission-confirm",
    ),
]
