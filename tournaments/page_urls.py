"""Tournament pages (the API's routes are in ``tournaments/urls.py``)."""

from django.urls import path

from tournaments import desk_registration, player_link, public_views, views

club = "clubs/<slug:club_slug>/tournaments/"
one = f"{club}<int:tournament_id>/"
public = "p/<slug:club_slug>/tournaments/<int:tournament_id>/"

urlpatterns = [
    path(club, views.tournament_list_page, name="tournament-list-page"),
    path(f"{club}prizes/", views.prize_preview, name="tournament-prize-preview"),
    path(one, views.tournament_page, name="tournament-page"),
    path(f"{one}grid/", views.tournament_grid, name="tournament-grid"),
    path(f"{one}entries/", views.entry_add_page, name="tournament-entry-add"),
    path(
        f"{one}entries/<int:entry_id>/check-in/",
        views.entry_check_in_page,
        name="tournament-entry-check-in",
    ),
    path(
        f"{one}entries/<int:entry_id>/withdraw/",
        views.entry_withdraw_page,
        name="tournament-entry-withdraw",
    ),
    path(
        f"{one}entries/<int:entry_id>/reinstate/",
        views.entry_reinstate_page,
        name="tournament-entry-reinstate",
    ),
    path(
        f"{one}entries/<int:entry_id>/rebuy/", views.entry_rebuy_page, name="tournament-entry-rebuy"
    ),
    path(f"{one}start/", views.start_page, name="tournament-start-page"),
    path(f"{one}cancel/", views.cancel_page, name="tournament-cancel-page"),
    path(f"{one}rounds/<int:number>/swap/", views.swap_page, name="tournament-swap"),
    path(f"{one}rounds/<int:number>/release/", views.release_page, name="tournament-release"),
    path(f"{one}rounds/<int:number>/clock/", views.round_clock_page, name="tournament-clock"),
    path(f"{one}rounds/<int:number>/unwind/", views.unwind_page, name="tournament-unwind"),
    path(f"{one}rounds/<int:number>/cards/", views.table_cards, name="tournament-cards"),
    path(f"{one}rounds/<int:number>/links/", views.round_links_page, name="tournament-links"),
    path(
        f"{one}entries/bulk/", desk_registration.entries_bulk_page, name="tournament-entries-bulk"
    ),
    path(
        f"{one}entries/paste/",
        desk_registration.entries_paste_page,
        name="tournament-entries-paste",
    ),
    path(
        f"{one}entries/<int:entry_id>/unpaid/",
        desk_registration.entry_unpaid_page,
        name="tournament-entry-unpaid",
    ),
    path(
        f"{one}entries/<int:entry_id>/link/",
        desk_registration.entry_link_page,
        name="tournament-entry-link",
    ),
    path(
        f"{one}signup/", desk_registration.signup_settings_page, name="tournament-signup-settings"
    ),
    path(public, public_views.public_tournament, name="public-tournament"),
    path(f"{public}signup/", player_link.signup_page, name="tournament-signup"),
    path(f"{public}check-in/", player_link.check_in_page, name="tournament-check-in"),
    path(f"{public}me/<str:token>/", player_link.player_link_page, name="tournament-player-link"),
    path(
        f"{public}me/<str:token>/live/",
        player_link.player_link_live,
        name="tournament-player-live",
    ),
    path(f"{public}forget/", player_link.player_forget_page, name="tournament-player-forget"),
    path(f"{public}live/", public_views.public_tournament_live, name="public-tournament-live"),
    path(
        f"{public}projector/",
        public_views.public_tournament_projector,
        name="public-tournament-projector",
    ),
]
