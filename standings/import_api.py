"""The API of the import of past results: a sheet previewed (nothing stored), confirmed (queued
for the background task, answered 202), the import's progress read, and cancelled."""

from __future__ import annotations

import base64
import binascii
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.api_kit.permissions import ClubScopedAPIView
from config.api_input import input_valid
from config.errors import InvalidInput
from config.openapi import api_operation
from standings import result_import
from standings.result_plan import ResultPlan
from standings.serializers import ResultImportInput, ResultImportOutput, ResultImportPreviewOutput


def _plan(club: Any, data: dict[str, Any]) -> tuple[ResultPlan, Any]:
    if "file_base64" in data:
        try:
            content = base64.b64decode(data["file_base64"], validate=True)
        except (binascii.Error, ValueError):
            raise InvalidInput(
                "file_base64: " + _("not base64"), details={"file_base64": "?"}
            ) from None
    elif "text" in data:
        content = data["text"].encode()
    else:
        raise InvalidInput("file_base64: " + _("give the sheet as file_base64 or text"))
    preset = result_import.import_preset(club=club, preset_id=data["preset"], layout=data["layout"])
    plan = result_import.result_plan_read(
        club=club, layout=data["layout"], content=content, filename=data["filename"],
        preset=preset, names=data["names"],
    )  # fmt: skip
    return plan, preset


class ResultImportPreviewApi(ClubScopedAPIView):
    @api_operation(
        operation_id="results_import_preview",
        request=ResultImportInput,
        responses=ResultImportPreviewOutput,
        description="Read a sheet of past results in one of the documented layouts and check "
        "it as the import would (players found on the roster, each deal by the game's rules, "
        "each night's totals summing to zero): the nights, tables and deals it holds and every "
        "row's errors by column. Nothing is stored.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(ResultImportInput, request.data)
        plan, _ = _plan(self.club, data)
        return Response(
            ResultImportPreviewOutput(result_import.result_preview(club=self.club, plan=plan)).data
        )


class ResultImportApi(ClubScopedAPIView):
    @api_operation(
        operation_id="results_import",
        request=ResultImportInput,
        responses={202: ResultImportOutput, 200: ResultImportOutput},
        description="Check the sheet again and queue it to be written in the background, in one "
        "transaction (202); rows with errors refuse it (400, each error naming its row and "
        "column). The same results imported before answer that import (200) and change nothing.",
    )
    def post(self, request: Request, club_slug: str) -> Response:
        data = input_valid(ResultImportInput, request.data)
        plan, preset = _plan(self.club, data)
        made, new = result_import.result_import_confirm(
            club=self.club, actor=request.user, plan=plan, preset=preset
        )
        made.refresh_from_db()
        body = result_import.result_import_progress(result_import=made)
        code = status.HTTP_202_ACCEPTED if new else status.HTTP_200_OK
        return Response(ResultImportOutput(body).data, status=code)


class ResultImportStatusApi(ClubScopedAPIView):
    @api_operation(
        operation_id="results_imports_retrieve",
        responses=ResultImportOutput,
        description="An import's progress: its status and the deals written so far.",
    )
    def get(self, request: Request, club_slug: str, import_id: int) -> Response:
        found = result_import.result_import_get(club=self.club, import_id=import_id)
        body = result_import.result_import_progress(result_import=found)
        return Response(ResultImportOutput(body).data)


class ResultImportCancelApi(ClubScopedAPIView):
    @api_operation(
        operation_id="results_imports_cancel",
        request=None,
        responses=ResultImportOutput,
        description="Cancel an import: one waiting never starts; one being written rolls back "
        "at its next chunk of deals, leaving nothing stored. A finished import answers 409.",
    )
    def post(self, request: Request, club_slug: str, import_id: int) -> Response:
        found = result_import.result_import_get(club=self.club, import_id=import_id)
        found = result_import.result_import_cancel(result_import=found)
        body = result_import.result_import_progress(result_import=found)
        return Response(ResultImportOutput(body).data)
