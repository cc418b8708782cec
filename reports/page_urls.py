"""The reports' pages: beside the night's and the tournament's pages they belong to."""

from django.urls import path

from reports import views

night = "clubs/<slug:club_slug>/sessions/<int:session_id>/"
desk = "clubs/<slug:club_slug>/tournaments/<int:tournament_id>/"
game = "clubs/<slug:club_slug>/games/<int:game_id>/"
public = "p/<slug:club_slug>/tournaments/<int:tournament_id>/"

urlpatterns = [
    path(f"{night}report.pdf", views.night_report, name="night-report"),
    path(f"{night}share.txt", views.night_share, name="night-share"),
    path(f"{night}standings.png", views.night_image, name="night-image"),
    path(f"{game}sheet.pdf", views.game_sheet, name="game-sheet"),
    path(f"{desk}report.pdf", views.tournament_report, name="tournament-report"),
    path(f"{desk}share.txt", views.tournament_share, name="tournament-share"),
    path(f"{desk}standings.png", views.tournament_image, name="tournament-image"),
    path(f"{public}report.pdf", views.public_report, name="public-tournament-report"),
    path(f"{public}share.txt", views.public_share, name="public-tournament-share"),
    path(f"{public}standings.png", views.public_image, name="public-tournament-image"),
]
