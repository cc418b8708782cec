from django.urls import path

from clubs import api
from clubs.club_stream import ClubStreamApi
from clubs.signin import api as signin_api

app_name = "clubs"

urlpatterns = [
    path("clubs/", api.ClubListApi.as_view(), name="club-list"),
    path("clubs/<slug:club_slug>/", api.ClubDetailApi.as_view(), name="club-detail"),
    path("clubs/<slug:club_slug>/stream/", ClubStreamApi.as_view(), name="club-stream"),
    path("clubs/<slug:club_slug>/members/", api.MemberListApi.as_view(), name="member-list"),
    path(
        "clubs/<slug:club_slug>/members/<int:membership_id>/",
        api.MemberDetailApi.as_view(),
        name="member-detail",
    ),
    path("clubs/<slug:club_slug>/players/", api.PlayerListApi.as_view(), name="player-list"),
    path(
        "clubs/<slug:club_slug>/players/import/preview/",
        api.PlayerImportPreviewApi.as_view(),
        name="player-import-preview",
    ),
    path(
        "clubs/<slug:club_slug>/players/import/",
        api.PlayerImportApi.as_view(),
        name="player-import",
    ),
    path(
        "clubs/<slug:club_slug>/players/<int:player_id>/",
        api.PlayerDetailApi.as_view(),
        name="player-detail",
    ),
    path(
        "clubs/<slug:club_slug>/tombstones/",
        api.TombstoneListApi.as_view(),
        name="tombstone-list",
    ),
    path("invitations/", api.InvitationReceivedListApi.as_view(), name="invitation-received-list"),
    path(
        "invitations/<int:invitation_id>/accept/",
        api.InvitationAcceptApi.as_view(),
        name="invitation-accept",
    ),
    path(
        "invitations/<int:invitation_id>/decline/",
        api.InvitationDeclineApi.as_view(),
        name="invitation-decline",
    ),
    path("tokens/", signin_api.ApiTokenListApi.as_view(), name="token-list"),
    path("tokens/<int:token_id>/", signin_api.ApiTokenDetailApi.as_view(), name="token-detail"),
]
