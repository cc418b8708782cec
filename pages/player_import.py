"""The "Import players" page: a CSV or XLSX file uploaded, or names pasted, then the preview
(each row as it will be stored, its errors, the roster players it matches, a choice per row),
then the confirm. The preview keeps nothing on the server: its rows travel in the form, and the
confirm checks them all again (``clubs.player_import``)."""

from __future__ import annotations

import json
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from clubs import player_import
from clubs.models import Club, Role
from clubs.page_kit.pages import club_for_page, club_url, error_context, render_club, service_status
from clubs.player_sheet import (
    COLUMN_LABELS,
    MAX_BYTES,
    MAX_ROWS,
    Sheet,
    sheet_from_paste,
    sheet_read,
)
from config.errors import InvalidInput, ServiceError


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def player_import_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    if request.method != "POST":
        return _page(request, club)
    try:
        if request.POST.get("confirm"):
            return _confirm(request, club)
        preview = player_import.rows_checked(club=club, sheet=_sheet_sent(request))
    except ServiceError as exc:
        error = error_context(exc, {"file", "text", "rows"})
        return _page(request, club, preview=_shown_again(request, club), error=error,
                     status=service_status(exc))  # fmt: skip
    return _page(request, club, preview=preview)


def _shown_again(request: HttpRequest, club: Club) -> player_import.Preview | None:
    """A refused confirm's preview, shown again from its rows (the roster as it is now), so
    that the refusal can be put right there; None when the rows were not the preview's."""
    if not request.POST.get("confirm"):
        return None
    try:
        sheet, _ = player_import.sheet_of_rows(_rows_sent(request))
        return player_import.rows_checked(club=club, sheet=sheet)
    except ServiceError:
        return None


def _sheet_sent(request: HttpRequest) -> Sheet:
    upload = request.FILES.get("file")
    if upload is not None:
        if upload.size is not None and upload.size > MAX_BYTES:
            raise InvalidInput(
                "file: "
                + gettext("%(size)s KB; at most %(most)s KB are read")
                % {"size": upload.size // 1024, "most": MAX_BYTES // 1024},
                code="file_too_big",
            )
        return sheet_read(content=upload.read(), filename=upload.name or "")
    text = request.POST.get("text", "")
    if not text.strip():
        raise InvalidInput("file: " + gettext("choose a file, or paste the names"))
    return sheet_from_paste(text=text)


def _rows_sent(request: HttpRequest) -> list[dict[str, Any]]:
    """The preview's rows as its form carries them back."""
    try:
        sent = json.loads(request.POST.get("rows", ""))
        return [
            {**{key: str(row.get(key) or "") for key in COLUMN_LABELS}, "row": int(row["row"])}
            for row in sent
        ]
    except (ValueError, TypeError, KeyError, AttributeError):
        raise InvalidInput(
            "rows: " + gettext("the preview was lost; preview the sheet again")
        ) from None


def _confirm(request: HttpRequest, club: Club) -> HttpResponse:
    rows = _rows_sent(request)
    for row in rows:
        chosen = request.POST.get(f"choice-{row['row']}", player_import.SKIP)
        choice, _, into = chosen.partition(":")
        row["choice"] = choice
        row["merge_into"] = int(into) if into.isdigit() else None
    result = player_import.players_import(club=club, actor=request.user, rows=rows)
    messages.success(
        request,
        gettext(
            "Imported: %(new)s new, %(merged)s updated, %(unchanged)s already on the roster as "
            "they are, %(skipped)s skipped."
        )
        % {
            "new": len(result.created),
            "merged": len(result.merged),
            "unchanged": result.unchanged,
            "skipped": result.skipped,
        },
    )
    return redirect(club_url("player-list-page", club))


def _page(
    request: HttpRequest,
    club: Club,
    *,
    preview: player_import.Preview | None = None,
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "error": error,
        "text": request.POST.get("text", ""),
        "max_kb": MAX_BYTES // 1024,
        "max_rows": MAX_ROWS,
    }
    if preview is not None:
        context.update(
            preview=preview,
            rows=[_row_shown(row) for row in preview.rows],
            rows_json=json.dumps([{"row": r.number, **r.values} for r in preview.rows]),
            counts={c: preview.count(c) for c in player_import.CHOICES},
            column_labels=COLUMN_LABELS,
        )
    return render_club(request, club, "clubs/player_import.html", context, status)


def _row_shown(row: player_import.Row) -> dict[str, Any]:
    options = []
    for match in row.matches if player_import.MERGE in row.choices else []:
        value = f"merge:{match.player_id}"
        options.append((value, gettext("Merge into %(name)s") % {"name": match.name}))
    if player_import.NEW in row.choices:
        options.append(("new", gettext("New player")))
    options.append(("skip", gettext("Skip")))
    chosen = f"merge:{row.merge_into}" if row.choice == player_import.MERGE else row.choice
    details = [
        (COLUMN_LABELS[column], value, row.errors.get(column), column in row.fills)
        for column, value in row.values.items()
        if column != "name" and (value or column in row.errors)
    ]
    return {"row": row, "options": options, "chosen": chosen, "details": details}
