"""The federation's API routes: its own, and a member club's."""

from django.urls import path

from federation import api, exchange_api

app_name = "federation"

base = "federations/<slug:federation_slug>/"
club = "clubs/<slug:club_slug>/federations/<slug:federation_slug>/"

urlpatterns = [
    path(f"{base}ranking/", api.RankingApi.as_view(), name="ranking"),
    path(f"{base}ratings/", api.RatingListApi.as_view(), name="ratings"),
    path(f"{base}ratings/preview/", api.RatingPreviewApi.as_view(), name="ratings-preview"),
    path(f"{base}ratings/publish/", api.PublishApi.as_view(), name="publish"),
    path(f"{base}players/<int:player_id>/", api.PlayerApi.as_view(), name="player"),
    path(f"{base}queue/", api.QueueApi.as_view(), name="queue"),
    path(f"{base}links/<int:link_id>/decide/", api.LinkDecideApi.as_view(), name="link-decide"),
    path(
        f"{base}events/<int:event_id>/sanction/",
        api.SanctionDecideApi.as_view(),
        name="sanction-decide",
    ),
    path(f"{base}events/<int:event_id>/release/", api.ReleaseApi.as_view(), name="release"),
    path(f"{base}events/<int:event_id>/return/", api.ReturnApi.as_view(), name="return"),
    path(f"{base}merges/", api.MergeApi.as_view(), name="merges"),
    path(f"{base}merges/<int:merge_id>/undo/", api.UnmergeApi.as_view(), name="unmerge"),
    path(f"{club}answer/", api.AnswerApi.as_view(), name="club-answer"),
    path(f"{club}players/", api.LinkProposeApi.as_view(), name="club-players"),
    path(f"{club}events/", api.SanctionRequestApi.as_view(), name="club-events"),
    path(f"{club}events/<int:event_id>/submit/", api.SubmitApi.as_view(), name="club-submit"),
    # The event exchange: the federation's instance gives a key and imports a signed export;
    # the club's own instance downloads one.
    path(f"{club}export-key/", exchange_api.ExportKeyApi.as_view(), name="club-export-key"),
    path(
        f"{club}events/<int:event_id>/import/",
        exchange_api.ImportApi.as_view(),
        name="club-import",
    ),
    path(
        "clubs/<slug:club_slug>/federation-export/",
        exchange_api.ExportApi.as_view(),
        name="club-export",
    ),
]
