"""The standings pages: the club's, the public standings and their projector."""

from django.urls import path

from standings.views import pages, projector

club = "clubs/<slug:club_slug>/"
public = "p/<slug:club_slug>/"

urlpatterns = [
    path(f"{club}standings/", pages.club_standings, name="club-standings"),
    path(f"{public}standings/", pages.public_standings, name="public-standings"),
    path(f"{public}standings/projector/", projector.public_projector, name="public-projector"),
    path(f"{public}standings/live/", pages.public_standings_fragment, name="public-live"),
]
