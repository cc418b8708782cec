"""The API of table links: made and revoked by the club's scorers; used by whoever holds one
(``scoring.table_links``), with no other credential."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs import selectors as club_selectors
from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Role
from config.api_input import input_valid
from config.openapi import (
    PAGE_PARAMETERS,
    api_operation,
    page_of,
)
from config.pagination import page_response
from scoring import selectors, table_links
from scoring.api.common import result_payload
from scoring.formats import format_tagged
from scoring.formats.reads import rejected_new_deal
from scoring.models import Submission, TableLink
from scoring.serializers import (
    TableAtLinkOutput,
    TableDisputeInput,
    TableEntryInput,
    TableEntryOutput,
    TableLinkCreateInput,
    TableLinkOutput,
    TableSeatInput,
)


def link_body(request: Request, link: TableLink) -> dict[str, Any]:
    token = table_links.link_token(link)
    return {
        "id": link.pk, "table": link.table_id, "mode": link.mode, "token": token,
        "url": request.build_absolute_uri(table_links.link_path(link)),
        "api_url": request.build_absolute_uri(reverse("scoring:table-api", args=[token])),
        "created_at": link.created_at, "revoked_at": link.revoked_at,
    }  # fmt: skip


class TableLinkApi(ClubScopedAPIView):
    write_role = Role.SCORER
    read_role = Role.SCORER

    @api_operation(
        operation_id="table_links_list",
        parameters=PAGE_PARAMETERS,
        responses=page_of(TableLinkOutput),
        description="The table's live link, if it has one (a table has one at a time).",
    )
    def get(self, request: Request, club_slug: str, table_id: int) -> Response:
        table = table_links.table_get(club=self.club, table_id=table_id)
        live = table_links.table_links_live(tables=[table.pk]).get(table.pk)
        links = [link_body(request, live)] if live is not None else []
        return page_response(request, links, TableLinkOutput)

    @api_operation(
        operation_id="table_links_create",
        request=TableLinkCreateInput,
        responses={201: TableLinkOutput},
        description="The table's link (its live one when it has one): whoever holds its token "
        "enters and confirms that table's deals, and nothing else. Refused (409 "
        "table_entry_off) when the club has table entry off and no mode is given.",
    )
    def post(self, request: Request, club_slug: str, table_id: int) -> Response:
        data = input_valid(TableLinkCreateInput, request.data)
        table = table_links.table_get(club=self.club, table_id=table_id)
        mode = data.get("mode") or table_links.night_table_entry(club=self.club)
        (link,) = table_links.table_links_ensure(tables=[table], actor=request.user, mode=mode)
        return Response(link_body(request, link), status=status.HTTP_201_CREATED)


class TableLinkRevokeApi(ClubScopedAPIView):
    write_role = Role.SCORER

    @api_operation(
        operation_id="table_links_revoke",
        request=None,
        responses=TableLinkOutput,
        description="The link stops working at once: its token is then unknown (404).",
    )
    def post(self, request: Request, club_slug: str, link_id: int) -> Response:
        link = table_links.table_link_get(club=self.club, link_id=link_id)
        link = table_links.table_link_revoke(link=link, actor=request.user)
        return Response(link_body(request, link))


class TableLinkScopedApi(APIView):
    """Reached with a table link's token in the path and nothing else: the token is the only
    credential (no login, no API token), and grants that table only. Unknown or revoked: 404;
    the table's game over or its night closed: 410; too many requests: 429."""

    authentication_classes: list[Any] = []
    permission_classes = [AllowAny]
    link: TableLink
    device: str = ""
    device_signed: str = ""

    def initial(self, request: Request, *args: Any, **kwargs: Any) -> None:
        super().initial(request, *args, **kwargs)
        self.link = table_links.table_link_resolve(
            token=kwargs["token"],
            client_address=request.META.get("REMOTE_ADDR", ""),
            cookies=request.COOKIES,
        )
        # The caller's device, as on the table's page: a cookie of its own, scoped to the
        # link's API (``table_links.device_of``).
        self.device, self.device_signed = table_links.device_of(
            link=self.link, signed=request.COOKIES.get(table_links.device_cookie(self.link))
        )

    def finalize_response(
        self, request: Request, response: Response, *args: Any, **kwargs: Any
    ) -> Response:
        response = super().finalize_response(request, response, *args, **kwargs)
        if self.device_signed:
            response.set_cookie(
                table_links.device_cookie(self.link), self.device_signed,
                max_age=table_links.DEVICE_MAX_AGE, samesite="Lax", httponly=True,
                path=reverse("scoring:table-api", args=[kwargs["token"]]),
            )  # fmt: skip
        return response


def _entry_body(submission: Submission) -> dict[str, Any]:
    phones = table_links.device_names(link_id=submission.table_link_id or 0)
    return {
        "id": submission.pk, "deal": submission.deal_id, "number": submission.deal.number,
        "version": submission.version, "status": submission.status,
        "entered_seat": submission.entered_seat, "confirmed_seat": submission.confirmed_seat,
        "entered_device": phones.get(submission.entered_device),
        "confirmed_device": phones.get(submission.confirmed_device),
        "dispute": submission.dispute,
    }  # fmt: skip


class TableApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_retrieve",
        responses=TableAtLinkOutput,
        description="The table as its players see it: its seats, the entry waiting for a "
        "confirmation (with the points the rules computed) and the next deal's number.",
    )
    def get(self, request: Request, token: str) -> Response:
        at = table_links.table_view(link=self.link)
        waiting = at.waiting
        latest = selectors.deal_list(game=at.game).last()
        again = rejected_new_deal(at.game)
        next_deal = again.number if again else (latest.number + 1 if latest else 1)
        phones = table_links.device_names(link_id=self.link.pk)
        return Response({
            "table": self.link.table.name, "session": self.link.table.session.name,
            "game": at.game.pk, "format": at.game.format, "mode": self.link.mode,
            "seats": [{"seat": s.position, "player": s.player_id, "name": s.player.name}
                      for s in at.seats],
            "next_deal": next_deal, "can_enter": at.can_enter,
            "device": phones.get(self.device),
            "waiting": None if waiting is None else {
                "id": waiting.pk, "deal": waiting.deal_id, "number": waiting.deal.number,
                "entered_seat": waiting.entered_seat,
                "entered_device": phones.get(waiting.entered_device), "dispute": waiting.dispute,
                "disputed_seat": waiting.disputed_seat,
                "result": format_tagged(at.game.format, waiting.result),
            },
        })  # fmt: skip


class TableDealApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_deals_create",
        request=TableEntryInput,
        responses={202: TableEntryOutput},
        description="Enter the table's next deal as the seat given: validated in the "
        "background as any entry; with the link's mode 'confirm' it then waits for another "
        "seat. Send an Idempotency-Key: a retry gets the first answer.",
    )
    def post(self, request: Request, token: str) -> Response:
        data = input_valid(TableEntryInput, request.data)
        club = self.link.table.session.club
        dealer = (
            club_selectors.player_get(club=club, player_id=data["dealer"])
            if data.get("dealer")
            else None
        )
        payload = result_payload(data)
        assert payload is not None
        _deal, submission = table_links.table_deal_enter(
            link=self.link, seat=data["seat"], device=self.device, wild=data.get("wild", ""),
            dealer=dealer, payload=payload,
        )  # fmt: skip
        return Response(_entry_body(submission), status=status.HTTP_202_ACCEPTED)


class TableEntryApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_retrieve",
        responses=TableEntryOutput,
        description="An entry of this table's game (its status once validated).",
    )
    def get(self, request: Request, token: str, submission_id: int) -> Response:
        submission = table_links.table_entry_get(link=self.link, submission_id=submission_id)
        return Response(_entry_body(submission))


class TableConfirmApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_confirm",
        request=TableSeatInput,
        responses=TableEntryOutput,
        description="Another seat accepts the entry waiting for confirmation: it counts from "
        "then on. The seat that entered it is refused (403 confirmer_is_submitter), as is a "
        "disputed entry (403 entry_disputed: the director decides it), and, unless the link's "
        "mode is one_phone, the device that entered it (403 confirmer_is_entering_device; a "
        "caller's device is the table-device cookie this API sets).",
    )
    def post(self, request: Request, token: str, submission_id: int) -> Response:
        data = input_valid(TableSeatInput, request.data)
        submission = table_links.table_entry_confirm(
            link=self.link, submission_id=submission_id, seat=data["seat"], device=self.device
        )
        return Response(_entry_body(submission))


class TableDisputeApi(TableLinkScopedApi):
    @api_operation(
        operation_id="table_entries_dispute",
        request=TableDisputeInput,
        responses=TableEntryOutput,
        description="Another seat says the entry waiting for confirmation is wrong, with the "
        "reason: it stays uncounted until a director confirms, corrects or rejects it.",
    )
    def post(self, request: Request, token: str, submission_id: int) -> Response:
        data = input_valid(TableDisputeInput, request.data)
        submission = table_links.table_entry_dispute(
            link=self.link, submission_id=submission_id, seat=data["seat"],
            reason=data["reason"],
        )  # fmt: skip
        return Response(_entry_body(submission))
