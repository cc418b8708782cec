"""The pages that compose several apps: a club's home and what is posted from it, a player's
page, the club's settings."""

from django.urls import path

from pages import views

club = "clubs/<slug:club_slug>/"

urlpatterns = [
    path(club, views.club_home, name="club-home"),
    path(f"{club}players/add/", views.player_add, name="player-add"),
    path(f"{club}players/<int:player_id>/", views.player_page, name="player-page"),
    path(f"{club}members/add/", views.member_add, name="member-add"),
    path(f"{club}sessions/new/", views.session_create, name="session-create"),
    path(f"{club}settings/", views.club_settings, name="club-settings"),
    path(
        f"{club}settings/standings-order/",
        views.standings_order_set,
        name="standings-order-set",
    ),
    path(f"{club}settings/public/", views.public_standings_set, name="public-standings-set"),
]
