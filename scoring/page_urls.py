"""Pages of club nights (the API's routes are in ``scoring/urls.py``)."""

from django.urls import path

from scoring.views import entry, games, offline, results, sessions, table

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path("sw.js", offline.service_worker, name="offline-worker"),
    path("manifest.webmanifest", offline.manifest, name="offline-manifest"),
    # A table's own page, behind its table link (scoring.table_links): no login.
    path("t/<str:token>/", table.table_page, name="table-link-page"),
    path("t/<str:token>/live/", table.table_live, name="table-link-live"),
    path("t/<str:token>/enter/", table.table_enter, name="table-link-enter"),
    path("t/<str:token>/enter/check/", table.table_enter_check, name="table-link-check"),
    path("t/<str:token>/enter/live/", table.table_enter_live, name="table-link-enter-live"),
    path(
        "t/<str:token>/confirm/<int:submission_id>/",
        table.table_confirm,
        name="table-link-confirm",
    ),
    path(
        "t/<str:token>/dispute/<int:submission_id>/",
        table.table_dispute,
        name="table-link-dispute",
    ),
    path(f"{club}sessions/<int:session_id>/", sessions.session_page, name="session-page"),
    path(
        f"{club}sessions/<int:session_id>/scoreboard/",
        sessions.session_scoreboard,
        name="session-scoreboard-live",
    ),
    path(f"{club}sessions/<int:session_id>/tables/", sessions.table_create, name="table-create"),
    path(
        f"{club}sessions/<int:session_id>/close/", sessions.session_close, name="session-close-page"
    ),
    path(
        f"{club}sessions/<int:session_id>/export.csv", sessions.session_export, name="session-csv"
    ),
    path(f"{club}tables/<int:table_id>/games/new/", games.game_new, name="game-new"),
    path(
        f"{club}tables/<int:table_id>/link/", table.table_link_create_page, name="table-link-create"
    ),
    path(
        f"{club}table-links/<int:link_id>/revoke/",
        table.table_link_revoke_page,
        name="table-link-revoke",
    ),
    path(
        f"{club}sessions/<int:session_id>/table-links/",
        table.session_links_page,
        name="session-table-links",
    ),
    path(
        f"{club}sessions/<int:session_id>/table-cards/",
        table.session_cards_page,
        name="session-table-cards",
    ),
    path(f"{club}games/<int:game_id>/", games.game_page, name="game-page"),
    path(f"{club}games/<int:game_id>/seats/", games.seat_add, name="seat-add-page"),
    path(f"{club}games/<int:game_id>/deals/new/", entry.deal_new, name="deal-new"),
    path(f"{club}games/<int:game_id>/deals/live/", entry.entry_live, name="deal-entry-live"),
    path(
        f"{club}games/<int:game_id>/deals/new/check/", entry.deal_new_check, name="deal-new-check"
    ),
    path(
        f"{club}games/<int:game_id>/deals/tiebreaker/",
        entry.deal_tiebreaker,
        name="deal-tiebreaker",
    ),
    path(
        f"{club}games/<int:game_id>/deals/tiebreaker/check/",
        entry.deal_tiebreaker_check,
        name="deal-tiebreaker-check",
    ),
    path(f"{club}games/<int:game_id>/rejoin/", games.pool_rejoin, name="pool-rejoin-page"),
    path(f"{club}games/<int:game_id>/split/", games.pool_split, name="pool-split-page"),
    path(f"{club}games/<int:game_id>/finish/", games.game_finish, name="game-finish-page"),
    path(f"{club}deals/<int:deal_id>/", results.deal_page, name="deal-page"),
    path(f"{club}deals/<int:deal_id>/live/", results.deal_fragment, name="deal-fragment"),
    path(f"{club}deals/<int:deal_id>/result/", entry.deal_result, name="deal-result"),
    path(
        f"{club}deals/<int:deal_id>/result/check/",
        entry.deal_result_check,
        name="deal-result-check",
    ),
    path(f"{club}deals/<int:deal_id>/void/", results.deal_void, name="deal-void-page"),
    path(f"{club}deals/<int:deal_id>/delete/", results.deal_delete, name="deal-delete-page"),
    path(f"{club}games/<int:game_id>/leave/", games.seat_remove, name="seat-remove-page"),
    path(f"{club}games/<int:game_id>/delete/", games.game_delete, name="game-delete-page"),
    path(
        f"{club}sessions/<int:session_id>/reopen/",
        sessions.session_reopen,
        name="session-reopen-page",
    ),
    path(
        f"{club}sessions/<int:session_id>/delete/",
        sessions.session_delete,
        name="session-delete-page",
    ),
    path(
        f"{club}sessions/<int:session_id>/tables/<int:table_id>/delete/",
        sessions.table_delete,
        name="table-delete-page",
    ),
    path(
        f"{club}sessions/<int:session_id>/transfers/paid/",
        sessions.transfer_paid,
        name="transfer-paid-page",
    ),
    path(
        f"{club}submissions/<int:submission_id>/confirm/",
        results.submission_confirm_view,
        name="submission-confirm-page",
    ),
    path(
        f"{club}submissions/<int:submission_id>/reject/",
        results.submission_reject_view,
        name="submission-reject-page",
    ),
]
