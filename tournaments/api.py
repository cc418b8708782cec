"""Tournaments over HTTP. Organisers create and run them; players of the club read; everyone
else gets 404. Results go in through the deal endpoints of each table's game."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs import selectors as club_selectors
from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.serializers import PlayerOutput
from config.api_input import input_valid
from config.errors import InvalidInput
from config.filters import filtered
from config.openapi import PAGE_PARAMETERS, api_operation, page_of
from config.pagination import page_response
from scoring import selectors as scoring_selectors
from scoring.api.table_links import link_body
from scoring.serializers import TableLinkOutput
from tournaments import selectors
from tournaments.filters import EntryFilterSet, TournamentFilterSet
from tournaments.kinds.chips.rebuys import entry_rebuy
from tournaments.serializers import (
    EntryInput,
    EntryOutput,
    PlayerMergeInput,
    RemarksInput,
    RoundOutput,
    SignupSettingsInput,
    StartInput,
    SwapInput,
    TournamentCreateInput,
    TournamentDetailOutput,
    TournamentOutput,
    UnwindInput,
)
from tournaments.services.corrections import rounds_unwind
from tournaments.services.draws import round_release, round_swap
from tournaments.services.entries import (
    entry_add,
    entry_check_in,
    entry_reinstate,
    entry_withdraw,
)
from tournaments.services.fees import entries_mark_paid, entry_unmark_paid
from tournaments.services.links import round_links_ensure
from tournaments.services.merge import player_merge
from tournaments.services.setup import tournament_cancel, tournament_create, tournament_start
from tournaments.services.signup import signup_settings_set


class TournamentListApi(ClubScopedAPIView):
    @api_operation(
        operation_id="tournaments_list",
        filterset=TournamentFilterSet,
        parameters=PAGE_PARAMETERS,
        responses=page_of(TournamentOutput),
    )
    def get(self, request: Request, club_slug: str) -> Response:
        found = selectors.tournament_list(club=self.club)
        found = filtered(TournamentFilterSet, request.query_params, found)
        return page_response(request, found, TournamentOutput)

    @api_operation(
        operation_id="tournaments_create",
        request=TournamentCreateInput,
        responses={201: TournamentOutput},
        description="A tournament open for entries (its session and purse are made with it).",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(TournamentCreateInput, request.data)
        data["preset"] = scoring_selectors.preset_get(club=self.club, preset_id=data["preset"])
        final = data.pop("final_preset", None)
        if final is not None:
            data["final_preset"] = scoring_selectors.preset_get(club=self.club, preset_id=final)
        tournament = tournament_create(club=self.club, actor=request.user, **data)
        return Response(TournamentOutput(tournament).data, status=status.HTTP_201_CREATED)


class TournamentDetailApi(ClubScopedAPIView):
    @api_operation(operation_id="tournaments_retrieve", responses=TournamentDetailOutput)
    def get(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        tournament = selectors.tournament_get(club=self.club, tournament_id=tournament_id)
        return Response(
            TournamentDetailOutput(selectors.tournament_view(tournament=tournament)).data
        )


class _TournamentAction(ClubScopedAPIView):
    def tournament(self, tournament_id: int) -> Any:
        return selectors.tournament_get(club=self.club, tournament_id=tournament_id)


class EntryListApi(_TournamentAction):
    @api_operation(operation_id="tournaments_entries_list", filterset=EntryFilterSet,
                   parameters=PAGE_PARAMETERS, responses=page_of(EntryOutput))  # fmt: skip
    def get(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        tournament = self.tournament(tournament_id)
        found = filtered(
            EntryFilterSet, request.query_params, selectors.entry_query(tournament=tournament)
        )
        entries = selectors.entry_list(tournament=tournament, entries=found)
        return page_response(request, entries, EntryOutput)

    @api_operation(operation_id="tournaments_entries_create", request=EntryInput,
                   responses={201: EntryOutput})  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        data = input_valid(EntryInput, request.data)
        player = club_selectors.player_get(club=self.club, player_id=data["player"])
        entry = entry_add(
            tournament=self.tournament(tournament_id), actor=request.user, player=player,
            affiliation=data.get("affiliation", ""), paid=data["paid"],
        )  # fmt: skip
        return Response(EntryOutput(entry).data, status=status.HTTP_201_CREATED)


class EntryCheckInApi(_TournamentAction):
    @api_operation(operation_id="tournaments_entries_check_in", request=None,
                   responses=EntryOutput)  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        entry = entry_check_in(
            tournament=self.tournament(tournament_id), actor=request.user, entry_id=entry_id
        )
        return Response(EntryOutput(entry).data)


class EntryPaidApi(_TournamentAction):
    @api_operation(operation_id="tournaments_entries_paid", request=None, responses=EntryOutput,
                   description="The entry's fee marked paid (into the purse); marked already: "
                   "as it is.")  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        (entry,) = entries_mark_paid(
            tournament=self.tournament(tournament_id), actor=request.user, entry_ids=[entry_id]
        )
        return Response(EntryOutput(entry).data)


class EntryUnpaidApi(_TournamentAction):
    @api_operation(operation_id="tournaments_entries_unpaid", request=None, responses=EntryOutput,
                   description="The paid mark taken off: the fee goes back out of the purse "
                   "(a refund) and is due again.")  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        entry = entry_unmark_paid(
            tournament=self.tournament(tournament_id), actor=request.user, entry_id=entry_id
        )
        return Response(EntryOutput(entry).data)


class SignupSettingsApi(_TournamentAction):
    @api_operation(operation_id="tournaments_signup_settings", request=SignupSettingsInput,
                   responses=TournamentOutput,
                   description="Open (or close) the players' own sign-up on the public page, "
                   "with an optional closing time.")  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        data = input_valid(SignupSettingsInput, request.data)
        tournament = signup_settings_set(
            tournament=self.tournament(tournament_id), actor=request.user,
            open=data["signup_open"], closes_at=data.get("signup_closes_at"),
        )  # fmt: skip
        return Response(TournamentOutput(tournament).data)


class EntryWithdrawApi(_TournamentAction):
    disqualify = False

    @api_operation(operation_id="tournaments_entries_withdraw", request=RemarksInput,
                   responses=EntryOutput)  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        data = input_valid(RemarksInput, request.data or {})
        entry = entry_withdraw(
            tournament=self.tournament(tournament_id), actor=request.user, entry_id=entry_id,
            disqualify=self.disqualify, remarks=data.get("remarks", ""),
        )  # fmt: skip
        return Response(EntryOutput(entry).data)


class EntryDisqualifyApi(EntryWithdrawApi):
    disqualify = True

    @api_operation(operation_id="tournaments_entries_disqualify", request=RemarksInput,
                   responses=EntryOutput)  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        return super().post(request, club_slug, tournament_id, entry_id)


class EntryReinstateApi(_TournamentAction):
    @api_operation(operation_id="tournaments_entries_reinstate", request=None,
                   responses=EntryOutput)  # fmt: skip
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        entry = entry_reinstate(
            tournament=self.tournament(tournament_id), actor=request.user, entry_id=entry_id
        )
        return Response(EntryOutput(entry).data)


class EntryRebuyApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_entries_rebuy",
        request=None,
        responses=EntryOutput,
        description="A chip-level tournament: a player knocked out at the end of the last level "
        "buys back in (the rebuy's price into the purse, its chips to the player), where the "
        "tournament's rules allow it, while the next round is drawn and not released; seated "
        "in it. 409 says why not (`no_rebuys`, `rebuy_closed`, `rebuy_not_allowed`, "
        "`rebuy_too_small`).",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int, entry_id: int) -> Response:
        tournament = self.tournament(tournament_id)
        entry_rebuy(tournament=tournament, actor=request.user, entry_id=entry_id)
        view = selectors.tournament_view(tournament=tournament)
        return Response(EntryOutput(next(e for e in view.entries if e.pk == entry_id)).data)


class StartApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_start",
        request=StartInput,
        responses=RoundOutput,
        description="Close the entries, seed the field, draw round 1 (a draft).",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        data = input_valid(StartInput, request.data or {})
        tournament = self.tournament(tournament_id)
        tournament_start(tournament=tournament, actor=request.user, seeds=data.get("seeds"))
        view = selectors.tournament_view(tournament=tournament)
        return Response(RoundOutput(view.rounds[0]).data)


class CancelApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_cancel",
        request=None,
        responses=TournamentOutput,
        description="Call the tournament off: every entry fee goes back.",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int) -> Response:
        tournament = tournament_cancel(
            tournament=self.tournament(tournament_id), actor=request.user
        )
        return Response(TournamentOutput(tournament).data)


def _round_out(tournament: Any, number: int) -> dict[str, Any]:
    view = selectors.tournament_view(tournament=tournament)
    found = next((r for r in view.rounds if r.number == number), None)
    if found is None:
        raise InvalidInput(_("no round %(number)s") % {"number": number})
    return dict(RoundOutput(found).data)


class RoundSwapApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_rounds_swap",
        request=SwapInput,
        responses=RoundOutput,
        description="Swap two entrants of a drawn round (between tables or a bye).",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int, number: int) -> Response:
        data = input_valid(SwapInput, request.data)
        tournament = self.tournament(tournament_id)
        round_swap(
            tournament=tournament, actor=request.user, number=number, first=data["first"],
            second=data["second"],
        )  # fmt: skip
        return Response(_round_out(tournament, number))


class RoundReleaseApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_rounds_release",
        request=None,
        responses=RoundOutput,
        description="Release a drawn round: its tables become games to play.",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int, number: int) -> Response:
        tournament = self.tournament(tournament_id)
        round_release(tournament=tournament, actor=request.user, number=number)
        return Response(_round_out(tournament, number))


class RoundLinksApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_rounds_links",
        request=None,
        responses=TableLinkOutput(many=True),
        description="Every table of the round being played gets its table link (those that "
        "have one keep it), in the mode of the tournament's table entry setting (or its "
        "club's); made by themselves at release when that setting is on.",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int, number: int) -> Response:
        tournament = self.tournament(tournament_id)
        links = round_links_ensure(tournament=tournament, actor=request.user, number=number)
        return Response([link_body(request, link) for link in links])


class RoundUnwindApi(_TournamentAction):
    @api_operation(
        operation_id="tournaments_rounds_unwind",
        request=UnwindInput,
        responses=RoundOutput,
        description="Take the rounds played after this one out of the tournament, so that one of "
        "its tables can be corrected (409 `confirm_required` naming them unless `confirm`).",
    )
    def post(self, request: Request, club_slug: str, tournament_id: int, number: int) -> Response:
        data = input_valid(UnwindInput, request.data or {})
        tournament = self.tournament(tournament_id)
        rounds_unwind(
            tournament=tournament, actor=request.user, number=number, confirm=data["confirm"]
        )
        return Response(_round_out(tournament, number))


class PlayerMergeApi(ClubScopedAPIView):
    @api_operation(
        operation_id="players_merge",
        request=PlayerMergeInput,
        responses={200: PlayerOutput},
        description=(
            "Merge this player (a duplicate roster entry) into `into`: seats, ledger lines, "
            "results, standings, ratings and tournament entries become theirs; nothing is "
            "reposted. 409 names every reason it cannot be done yet. Answers the kept player."
        ),
    )
    def post(self, request: Request, club_slug: str, player_id: int) -> Response:
        data = input_valid(PlayerMergeInput, request.data)
        source = club_selectors.player_get(club=self.club, player_id=player_id)
        target = club_selectors.player_get(club=self.club, player_id=data["into"])
        kept = player_merge(source=source, target=target, actor=request.user)
        return Response(PlayerOutput(kept).data)
