"""A club's webhooks over HTTP (organisers only): endpoints, a ping, the delivery log,
redelivery and replay. Parse, call one service or selector, render."""

from __future__ import annotations

from uuid import UUID

from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from clubs.models import Role
from clubs.signin import scopes as app_scopes
from config.api_input import input_valid
from config.filters import filtered
from config.openapi import CURSOR_PARAMETERS, PAGE_PARAMETERS, api_operation, page_of
from config.pagination import cursor_page_response, page_response
from webhooks import replay, selectors, services
from webhooks.filters import AttemptFilterSet
from webhooks.models import Delivery
from webhooks.serializers import (
    AttemptOutput,
    DeliveryQueuedOutput,
    EndpointCreatedOutput,
    EndpointCreateInput,
    EndpointOutput,
    EndpointSecretInput,
    EndpointUpdateInput,
    ReplayInput,
    ReplayQueuedOutput,
)


def _queued(delivery: Delivery) -> Response:
    body = {"delivery": delivery.delivery_id, "event": delivery.event_id, "status": "queued"}
    return Response(DeliveryQueuedOutput(body).data, status=status.HTTP_202_ACCEPTED)


class _WebhookView(ClubScopedAPIView):
    # Reading endpoints is managing them too: their URLs are the club's own business.
    read_scope = app_scopes.MANAGE
    read_role = Role.ORGANISER
    write_role = Role.ORGANISER


class EndpointListApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_list", parameters=PAGE_PARAMETERS, responses=page_of(EndpointOutput)
    )
    def get(self, request: Request, club_slug: str) -> Response:
        return page_response(request, selectors.endpoint_list(club=self.club), EndpointOutput)

    @api_operation(
        operation_id="webhooks_create",
        request=EndpointCreateInput,
        responses={201: EndpointCreatedOutput},
        description="A new endpoint; the answer carries its secret, shown this once.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(EndpointCreateInput, request.data)
        endpoint = services.endpoint_create(club=self.club, actor=request.user, **data)
        # A secret: kept by no cache, and not compressed (config/api_transfer.py).
        return Response(
            EndpointCreatedOutput(endpoint).data,
            status=status.HTTP_201_CREATED,
            headers={"Cache-Control": "no-store"},
        )


class EndpointDetailApi(_WebhookView):
    @api_operation(operation_id="webhooks_retrieve", responses=EndpointOutput)
    def get(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        endpoint = selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id)
        return Response(EndpointOutput(endpoint).data)

    @api_operation(
        operation_id="webhooks_update",
        request=EndpointUpdateInput,
        responses=EndpointOutput,
        description="Change the URL or events; `enabled: false` disables it, `true` enables it "
        "again and clears a failing state.",
    )
    def patch(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        changes = input_valid(EndpointUpdateInput, request.data)
        endpoint = services.endpoint_update(
            endpoint=selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id),
            actor=request.user,
            **changes,
        )
        return Response(EndpointOutput(endpoint).data)

    @api_operation(operation_id="webhooks_destroy", responses={204: None})
    def delete(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        services.endpoint_delete(
            endpoint=selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id),
            actor=request.user,
        )
        return Response(status=status.HTTP_204_NO_CONTENT)


class EndpointSecretApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_secret_set",
        request=EndpointSecretInput,
        responses=EndpointCreatedOutput,
        description="Give the endpoint a new secret, the one given or a new one (the answer "
        "carries it, shown this once), and enable it (unless `enable: false`): an endpoint "
        "restored from a club archive comes in disabled with a secret no one has seen.",
    )
    def post(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        data = input_valid(EndpointSecretInput, request.data)
        endpoint = services.endpoint_secret_set(
            endpoint=selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id),
            actor=request.user,
            **data,
        )
        # A secret: kept by no cache (as at the endpoint's creation).
        return Response(EndpointCreatedOutput(endpoint).data, headers={"Cache-Control": "no-store"})


class EndpointPingApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_ping",
        request=None,
        responses={202: DeliveryQueuedOutput},
        description="Send a `ping` event to this endpoint; see the delivery log for the answer.",
    )
    def post(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        endpoint = selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id)
        return _queued(services.ping_send(endpoint=endpoint, actor=request.user))


class AttemptLogApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_deliveries",
        filterset=AttemptFilterSet,
        parameters=CURSOR_PARAMETERS,
        responses=page_of(AttemptOutput),
        description="The endpoint's attempts, newest first (the last 100 are kept), by cursor: "
        "attempts made while a reader pages do not shift its pages.",
    )
    def get(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        endpoint = selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id)
        attempts = selectors.attempt_list(endpoint=endpoint)
        attempts = filtered(AttemptFilterSet, request.query_params, attempts)
        return cursor_page_response(request, attempts, AttemptOutput)


class RedeliverApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_redeliver",
        request=None,
        responses={202: DeliveryQueuedOutput},
        description="Send a delivered or given-up event again (same event id and body, a new "
        "delivery id).",
    )
    def post(
        self, request: Request, club_slug: str, endpoint_id: int, delivery_id: UUID
    ) -> Response:
        endpoint = selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id)
        delivery = selectors.delivery_get(endpoint=endpoint, delivery_id=str(delivery_id))
        return _queued(services.redeliver(delivery=delivery, actor=request.user))


class ReplayApi(_WebhookView):
    @api_operation(
        operation_id="webhooks_replay",
        request=ReplayInput,
        responses={202: ReplayQueuedOutput},
        description="Send this endpoint again every event of the club it receives that happened "
        "since `since` (at most 7 days ago), oldest first, each once (same event id and body, "
        "a new delivery id); an event still being delivered to it is not queued twice.",
    )
    def post(self, request: Request, club_slug: str, endpoint_id: int) -> Response:
        since = input_valid(ReplayInput, request.data)["since"]
        endpoint = selectors.endpoint_get(club=self.club, endpoint_id=endpoint_id)
        done = replay.replay_since(endpoint=endpoint, since=since, actor=request.user)
        body = {"since": done.since, "until": done.until, "events": done.events,
                "pending": done.pending, "status": "queued"}  # fmt: skip
        return Response(ReplayQueuedOutput(body).data, status=status.HTTP_202_ACCEPTED)
