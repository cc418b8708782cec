"""The pages that compose several apps: a club's home and what is posted from it, a player's
page, the club's settings."""

from django.urls import path

from pages import club_admin, invitations, player_import, result_import, views, webhooks

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(club, views.club_home, name="club-home"),
    path(f"{club}players/", views.player_list_page, name="player-list-page"),
    path(f"{club}players/add/", views.player_add, name="player-add"),
    path(f"{club}players/import/", player_import.player_import_page, name="player-import-page"),
    path(f"{club}results/import/", result_import.result_import_page, name="result-import-page"),
    path(
        f"{club}results/import/<slug:layout>.<str:extension>",
        result_import.result_import_template,
        name="result-import-template",
    ),
    path(
        f"{club}results/imports/<int:import_id>/",
        result_import.result_import_status_page,
        name="result-import-status-page",
    ),
    path(f"{club}sessions/", views.session_list_page, name="session-list-page"),
    path(f"{club}members/", views.member_list_page, name="member-list-page"),
    path(f"{club}players/<int:player_id>/", views.player_page, name="player-page"),
    path(f"{club}members/add/", views.member_add, name="member-add"),
    path(f"{club}members/invite/", invitations.invite, name="member-invite"),
    path(
        f"{club}invitations/<int:invitation_id>/revoke/",
        invitations.invitation_revoke,
        name="invitation-revoke",
    ),
    path(f"{club}sessions/new/", views.session_create, name="session-create"),
    path(f"{club}settings/", views.club_settings, name="club-settings"),
    path(
        f"{club}settings/standings-order/",
        views.standings_order_set,
        name="standings-order-set",
    ),
    path(f"{club}settings/public/", views.public_standings_set, name="public-standings-set"),
    path(f"{club}settings/club/", club_admin.club_details, name="club-details-set"),
    path(f"{club}settings/webhooks/", webhooks.webhook_create, name="webhook-create-page"),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/enable/",
        webhooks.webhook_enable,
        name="webhook-enable-page",
    ),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/secret/",
        webhooks.webhook_secret,
        name="webhook-secret-page",
    ),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/delete/",
        webhooks.webhook_delete,
        name="webhook-delete-page",
    ),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/replay/",
        webhooks.webhook_replay,
        name="webhook-replay-page",
    ),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/ping/",
        webhooks.webhook_ping,
        name="webhook-ping-page",
    ),
    path(
        f"{club}settings/webhooks/<int:endpoint_id>/deliveries/<uuid:delivery_id>/redeliver/",
        webhooks.webhook_redeliver,
        name="webhook-redeliver-page",
    ),
    path(f"{club}settings/presets/", club_admin.preset_new, name="preset-new-page"),
    path(
        f"{club}settings/presets/preview/",
        club_admin.preset_preview,
        name="preset-preview",
    ),
    path(
        f"{club}members/<int:membership_id>/role/", club_admin.member_role, name="member-role-page"
    ),
    path(
        f"{club}members/<int:membership_id>/remove/",
        club_admin.member_remove,
        name="member-remove-page",
    ),
    path(f"{club}players/<int:player_id>/rename/", club_admin.player_rename, name="player-rename"),
    path(f"{club}players/<int:player_id>/retire/", club_admin.player_retire, name="player-retire"),
    path(
        f"{club}players/<int:player_id>/details/",
        club_admin.player_details,
        name="player-details",
    ),
    path(
        f"{club}players/<int:player_id>/payment/",
        club_admin.player_payment,
        name="player-payment",
    ),
    path(
        f"{club}players/<int:player_id>/merge/", club_admin.player_merge, name="player-merge-page"
    ),
]
