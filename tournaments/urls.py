from django.urls import path

from tournaments import api

app_name = "tournaments"

base = "clubs/<slug:club_slug>/tournaments/"
one = f"{base}<int:tournament_id>/"
entry = f"{one}entries/<int:entry_id>/"

urlpatterns = [
    path(
        "clubs/<slug:club_slug>/players/<int:player_id>/merge/",
        api.PlayerMergeApi.as_view(),
        name="player-merge",
    ),
    path(base, api.TournamentListApi.as_view(), name="tournament-list"),
    path(one, api.TournamentDetailApi.as_view(), name="tournament-detail"),
    path(f"{one}entries/", api.EntryListApi.as_view(), name="entry-list"),
    path(f"{entry}check-in/", api.EntryCheckInApi.as_view(), name="entry-check-in"),
    path(f"{entry}withdraw/", api.EntryWithdrawApi.as_view(), name="entry-withdraw"),
    path(f"{entry}paid/", api.EntryPaidApi.as_view(), name="entry-paid"),
    path(f"{entry}unpaid/", api.EntryUnpaidApi.as_view(), name="entry-unpaid"),
    path(f"{one}signup/", api.SignupSettingsApi.as_view(), name="tournament-signup-settings"),
    path(f"{entry}disqualify/", api.EntryDisqualifyApi.as_view(), name="entry-disqualify"),
    path(f"{entry}reinstate/", api.EntryReinstateApi.as_view(), name="entry-reinstate"),
    path(f"{entry}rebuy/", api.EntryRebuyApi.as_view(), name="entry-rebuy"),
    path(f"{one}start/", api.StartApi.as_view(), name="tournament-start"),
    path(f"{one}cancel/", api.CancelApi.as_view(), name="tournament-cancel"),
    path(f"{one}rounds/<int:number>/swap/", api.RoundSwapApi.as_view(), name="round-swap"),
    path(f"{one}rounds/<int:number>/release/", api.RoundReleaseApi.as_view(), name="round-release"),
    path(f"{one}rounds/<int:number>/links/", api.RoundLinksApi.as_view(), name="round-links"),
    path(f"{one}rounds/<int:number>/unwind/", api.RoundUnwindApi.as_view(), name="round-unwind"),
]
