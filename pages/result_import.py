"""The "Import past results" page: the template of each layout to download, a sheet uploaded
in one of them, the preview (nights, tables and deals, every row's error by column, names not on
the roster with a roster player to choose for each), the confirm, then the import's page with a
progress bar and a cancel (``standings.result_import``). The uploaded file waits for the confirm
in the cache for an hour under a random key, so the confirm checks the very same file again."""

from __future__ import annotations

import secrets
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods

from clubs.models import Club, Role
from clubs.page_kit.pages import club_for_page, club_url, error_context, render_club, service_status
from config.errors import InvalidInput, ServiceError
from scoring.formats import handler_for
from scoring.models import RulePreset
from standings import result_import
from standings.result_plan import ResultPlan
from standings.result_sheet import LAYOUTS, MAX_BYTES, layout_of, template_csv, template_xlsx

KEPT_SECONDS = 3600
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


def _presets(club: Club) -> list[RulePreset]:
    presets = RulePreset.objects.filter(club__in=[club]) | RulePreset.objects.filter(club=None)
    return [p for p in presets.order_by("name") if handler_for(p.format).imports_results]


@login_required
@require_http_methods(["GET", "HEAD"])
def result_import_template(
    request: HttpRequest, club_slug: str, layout: str, extension: str
) -> HttpResponse:
    club_for_page(request, club_slug, Role.ORGANISER)
    try:
        found = layout_of(layout)
    except InvalidInput:
        raise Http404("no such layout") from None
    if extension not in ("csv", "xlsx"):
        raise Http404("a template is a .csv or .xlsx file")
    if extension == "csv":
        response = HttpResponse(template_csv(found), content_type="text/csv; charset=utf-8")
    else:
        response = HttpResponse(template_xlsx(found), content_type=XLSX)
    response["Content-Disposition"] = f'attachment; filename="{found.key}.{extension}"'
    return response


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def result_import_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    if request.method != "POST":
        return _page(request, club)
    try:
        if request.POST.get("confirm"):
            return _confirm(request, club)
        key, plan = _preview(request, club)
    except ServiceError as exc:
        error = error_context(exc, {"file", "layout", "preset", "names"})
        return _page(request, club, error=error, status=service_status(exc))
    return _page(request, club, plan=plan, key=key)


def _sent(request: HttpRequest, club: Club) -> tuple[str, RulePreset]:
    layout = request.POST.get("layout", "")
    layout_of(layout)
    preset_id = request.POST.get("preset", "")
    preset = result_import.import_preset(
        club=club, preset_id=int(preset_id) if preset_id.isdigit() else None, layout=layout
    )
    return layout, preset


def _preview(request: HttpRequest, club: Club) -> tuple[str, ResultPlan]:
    layout, preset = _sent(request, club)
    upload = request.FILES.get("file")
    if upload is None:
        raise InvalidInput("file: " + gettext("choose a CSV or XLSX file"))
    if upload.size is not None and upload.size > MAX_BYTES:
        raise InvalidInput(
            "file: "
            + gettext("%(size)s KB; at most %(most)s KB are read")
            % {"size": upload.size // 1024, "most": MAX_BYTES // 1024},
            code="file_too_big",
        )
    content, filename = upload.read(), upload.name or ""
    plan = result_import.result_plan_read(
        club=club, layout=layout, content=content, filename=filename, preset=preset
    )
    key = secrets.token_urlsafe(16)
    cache.set(_file_key(club, key), (content, filename), KEPT_SECONDS)
    return key, plan


def _file_key(club: Club, key: str) -> str:
    return f"result_import_file:{club.pk}:{key}"


def _confirm(request: HttpRequest, club: Club) -> HttpResponse:
    layout, preset = _sent(request, club)
    key = request.POST.get("key", "")
    kept = cache.get(_file_key(club, key)) if key.isascii() else None
    if kept is None:
        raise InvalidInput(
            "file: " + gettext("the preview was lost (kept for an hour): upload it again")
        )
    names = {
        name.removeprefix("name-"): int(value)
        for name, value in request.POST.items()
        if name.startswith("name-") and value.isdigit()
    }
    content, filename = kept
    plan = result_import.result_plan_read(
        club=club, layout=layout, content=content, filename=filename, preset=preset, names=names
    )
    made, _ = result_import.result_import_confirm(
        club=club, actor=request.user, plan=plan, preset=preset
    )
    cache.delete(_file_key(club, key))
    return redirect(club_url("result-import-status-page", club, made.pk))


def _layouts(club: Club) -> list[Any]:
    """The layouts the page offers: a club that keeps no money is offered none with money."""
    return [
        layout
        for layout in LAYOUTS.values()
        if not (club.points_only and "money" in layout.columns)
    ]


def _page(
    request: HttpRequest,
    club: Club,
    *,
    plan: ResultPlan | None = None,
    key: str = "",
    error: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    context: dict[str, Any] = {
        "error": error, "layouts": _layouts(club), "presets": _presets(club),
        "layout": request.POST.get("layout", "points_deals"),
        "preset": request.POST.get("preset", ""), "max_kb": MAX_BYTES // 1024,
        "imports": club.result_imports.order_by("-created_at")[:10],
    }  # fmt: skip
    if plan is not None:
        context.update(preview=result_import.result_preview(club=club, plan=plan), key=key)
    return render_club(request, club, "standings/result_import.html", context, status)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def result_import_status_page(request: HttpRequest, club_slug: str, import_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    try:
        found = result_import.result_import_get(club=club, import_id=import_id)
    except ServiceError:
        raise Http404("no such import") from None
    error = None
    if request.method == "POST":
        try:
            found = result_import.result_import_cancel(result_import=found)
        except ServiceError as exc:
            error = error_context(exc)
    progress = result_import.result_import_progress(result_import=found)
    if request.GET.get("format") == "json":
        return JsonResponse(progress)
    context = {"progress": progress, "result_import": found, "error": error}
    return render_club(request, club, "standings/result_import_status.html", context)
