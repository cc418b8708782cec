"""The federation's pages: public lists, their projector and a player's page, the officer's
queue, and a member club's pages of its federations."""

from django.urls import path

from federation import club_views, views

base = "f/<slug:federation_slug>/"
club = "clubs/<slug:club_slug>/federations/"
member = f"{club}<slug:federation_slug>/"

urlpatterns = [
    path(f"{base}", views.ranking_page, name="federation-ranking"),
    path(f"{base}projector/", views.projector_page, name="federation-projector"),
    path(f"{base}ratings/", views.ratings_page, name="federation-ratings"),
    path(f"{base}ratings/<int:index>/", views.ratings_page, name="federation-ratings-period"),
    path(f"{base}ratings/preview/", views.preview_page, name="federation-ratings-preview"),
    path(f"{base}players/<int:player_id>/", views.player_page, name="federation-player"),
    path(f"{base}queue/", views.queue_page, name="federation-queue"),
    path(f"{base}queue/decide/", views.queue_decide, name="federation-queue-decide"),
    path(club, club_views.club_federations, name="club-federations"),
    path(f"{member}", club_views.club_federation, name="club-federation"),
    path(f"{member}answer/", club_views.club_answer, name="club-federation-answer"),
    path(f"{member}events/", club_views.club_sanction_ask, name="club-federation-ask"),
    path(
        f"{member}events/<int:event_id>/submit/",
        club_views.club_event_submit,
        name="club-federation-submit",
    ),
    path(f"{member}players/", club_views.club_link_propose, name="club-federation-propose"),
]
