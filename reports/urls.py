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
]
