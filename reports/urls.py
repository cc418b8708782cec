from django.urls import path

from reports import api

app_name = "reports"

urlpatterns = [
    path(
        "clubs/<slug:club_slug>/sessions/<int:session_id>/report.pdf",
        api.SessionReportApi.as_view(),
        name="session-report",
    ),
    path(
        "clubs/<slug:club_slug>/tournaments/<int:tournament_id>/report.pdf",
        api.TournamentReportApi.as_view(),
        name="tournament-report",
    ),
    path(
        "clubs/<slug:club_slug>/games/<int:game_id>/sheet.pdf",
        api.GameSheetApi.as_view(),
        name="game-sheet",
    ),
    path(
        "clubs/<slug:club_slug>/sessions/<int:session_id>/share/",
        api.SessionShareApi.as_view(),
        name="session-share",
    ),
    path(
        "clubs/<slug:club_slug>/sessions/<int:session_id>/standings.png",
        api.SessionImageApi.as_view(),
        name="session-image",
    ),
    path(
        "clubs/<slug:club_slug>/tournaments/<int:tournament_id>/share/",
        api.TournamentShareApi.as_view(),
        name="tournament-share",
    ),
    path(
        "clubs/<slug:club_slug>/tournaments/<int:tournament_id>/standings.png",
        api.TournamentImageApi.as_view(),
        name="tournament-image",
    ),
]
