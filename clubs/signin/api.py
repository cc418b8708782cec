"""A person's API tokens over HTTP: listed, made and revoked by the person signed in."""

from __future__ import annotations

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from clubs.signin import selectors, services
from clubs.signin.serializers import ApiTokenCreatedOutput, ApiTokenCreateInput, ApiTokenOutput
from clubs.signin.token_scopes import refuse_token_auth
from config.api_input import input_valid
from config.errors import NotFoundError
from config.openapi import PAGE_PARAMETERS, api_operation, page_of
from config.pagination import page_response


class ApiTokenListApi(APIView):
    @api_operation(
        operation_id="tokens_list", parameters=PAGE_PARAMETERS, responses=page_of(ApiTokenOutput)
    )
    def get(self, request: Request) -> Response:
        return page_response(request, selectors.api_token_list(user=request.user), ApiTokenOutput)

    @api_operation(
        operation_id="tokens_create",
        request=ApiTokenCreateInput,
        responses={201: ApiTokenCreatedOutput},
    )
    def post(self, request: Request) -> Response:
        refuse_token_auth(request, "create tokens")
        data = input_valid(ApiTokenCreateInput, request.data)
        token, key = services.api_token_create(
            user=request.user,
            name=data["name"],
            scopes=data.get("scopes"),
            club_slugs=data.get("clubs"),
        )
        token.key = key  # type: ignore[attr-defined]
        # A secret: kept by no cache, and not compressed (config/api_transfer.py).
        return Response(
            ApiTokenCreatedOutput(token).data,
            status=status.HTTP_201_CREATED,
            headers={"Cache-Control": "no-store"},
        )


class ApiTokenDetailApi(APIView):
    @api_operation(operation_id="tokens_revoke", responses=ApiTokenOutput)
    def delete(self, request: Request, token_id: int) -> Response:
        refuse_token_auth(request, "revoke tokens")
        token = selectors.api_token_list(user=request.user).filter(pk=token_id).first()
        if token is None:
            raise NotFoundError(_("no token #%(id)s of yours") % {"id": token_id})
        token = services.api_token_revoke(token=token, actor=request.user)
        return Response(ApiTokenOutput(token).data)
