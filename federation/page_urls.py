"""The federation's pages: public lists and a player's page, the officer's queue."""

from django.urls import path

from federation import views

base = "f/<slug:federation_slug>/"

urlpatterns = [
    path(f"{base}", views.ranking_page, name="federation-ranking"),
    path(f"{base}ratings/", views.ratings_page, name="federation-ratings"),
    path(f"{base}ratings/<int:index>/", views.ratings_page, name="federation-ratings-period"),
    path(f"{base}ratings/preview/", views.preview_page, name="federation-ratings-preview"),
    path(f"{base}players/<int:player_id>/", views.player_page, name="federation-player"),
    path(f"{base}queue/", views.queue_page, name="federation-queue"),
    path(f"{base}queue/decide/", views.queue_decide, name="federation-queue-decide"),
]
