"""The series pages: the club's (make and change a series, add its events), the public table,
its projector and the table as CSV. Every figure comes from ``series.selectors.series_table``,
the API's source too."""

from __future__ import annotations

import csv
from functools import partial
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs.models import Club, Role
from clubs.page_kit.display import qr_svg
from clubs.page_kit.pages import GET, club_for_page, club_url, form_post, found, render_club
from config.locale_format import format_day
from series import selectors, services
from series.forms import SeriesEventForm, SeriesForm, series_initial
from series.models import Series
from standings.views.boards import public_club, render_public

FORM_FIELDS = frozenset(SeriesForm.base_fields)


def _choices(club: Club) -> list[tuple[str, str]]:
    """What may be added: the club's recent nights and its tournaments."""
    nights = club.sessions.order_by("-started_at", "-id")[:60]
    tournaments = club.tournaments.order_by("-created_at", "-id")[:60]
    return [
        *(
            (
                f"session:{s.pk}",
                _("Night: %(name)s (%(day)s)") % {"name": s.name, "day": format_day(s.started_at)},
            )
            for s in nights
        ),
        *(
            (f"tournament:{t.pk}", _("Tournament: %(name)s") % {"name": t.name})
            for t in tournaments
        ),
    ]


def table_context(table: selectors.SeriesTable) -> dict[str, Any]:
    """What every page of a series shows: its table's rows, its events and awards."""
    series = table.series
    return {
        "series": series,
        "table": table,
        "rows": table.rows(),
        "events": [
            {
                "event": e,
                "name": selectors.event_label(e),
                "number": n,
                "multiplier": series.tiers.get(e.tier, "1"),
            }
            for n, e in enumerate(table.events, start=1)
        ],
        "awards": table.awards,
        "numbers": {e.pk: n for n, e in enumerate(table.events, start=1)},
    }


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def club_series_list(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's series, and (for an organiser) a new one."""
    club = club_for_page(request, club_slug)

    def page(
        error: dict[str, str] | None = None, status: int = 200, form: Any = None
    ) -> HttpResponse:
        context = {
            "series_list": selectors.series_list(club=club),
            "error": error,
            "form": form or SeriesForm(),
        }
        return render_club(request, club, "series/club_series_list.html", context, status)

    if request.method != "POST":
        return page()
    club = club_for_page(request, club_slug, min_role=Role.ORGANISER)
    form = SeriesForm(request.POST)

    def create() -> HttpResponse:
        series = services.series_create(club=club, actor=request.user, **form.settings())
        return redirect(club_url("club-series", club, series.pk))

    return form_post(form, create, partial(page, form=form), FORM_FIELDS)


def _series_page(
    request: HttpRequest,
    club: Club,
    series: Series,
    *,
    error: dict[str, str] | None = None,
    status: int = 200,
    form: Any = None,
    event_form: Any = None,
) -> HttpResponse:
    table = selectors.series_table(series=series)
    context = table_context(table)
    context.update(
        error=error,
        form=form or SeriesForm(initial=series_initial(series)),
        event_form=event_form,
        choices=_choices(club),
        tiers=list(series.tiers),
    )
    return render_club(request, club, "series/club_series.html", context, status)


@login_required
@GET
def club_series(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    series = found(selectors.series_get, club=club, series_id=series_id)
    return _series_page(request, club, series)


@login_required
@require_POST
def club_series_edit(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, min_role=Role.ORGANISER)
    series = found(selectors.series_get, club=club, series_id=series_id)
    form = SeriesForm(request.POST)

    def change() -> HttpResponse:
        services.series_update(series=series, actor=request.user, **form.settings())
        return redirect(club_url("club-series", club, series.pk))

    return form_post(
        form, change, partial(_series_page, request, club, series, form=form), FORM_FIELDS
    )


@login_required
@require_POST
def club_series_event_add(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, min_role=Role.ORGANISER)
    series = found(selectors.series_get, club=club, series_id=series_id)
    form = SeriesEventForm(request.POST)

    def add() -> HttpResponse:
        services.series_event_add(
            series=series,
            actor=request.user,
            tier=form.cleaned_data["tier"],
            **form.cleaned_data["event"],
        )
        return redirect(club_url("club-series", club, series.pk))

    page = partial(_series_page, request, club, series, event_form=form)
    return form_post(form, add, page, frozenset({"event", "tier"}))


@login_required
@require_POST
def club_series_event_remove(
    request: HttpRequest, club_slug: str, series_id: int, event_id: int
) -> HttpResponse:
    club = club_for_page(request, club_slug, min_role=Role.ORGANISER)
    series = found(selectors.series_get, club=club, series_id=series_id)

    def remove() -> HttpResponse:
        services.series_event_remove(series=series, actor=request.user, event_id=event_id)
        return redirect(club_url("club-series", club, series.pk))

    return form_post(None, remove, partial(_series_page, request, club, series))


# A spreadsheet reads a cell starting with one of these as a formula: names get an apostrophe.
_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def table_csv(table: selectors.SeriesTable, filename: str) -> HttpResponse:
    """The series table as CSV: a line a player, then each event's points (blank when not
    played, starred when not counted)."""
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    numbers = {e.pk: n for n, e in enumerate(table.events, start=1)}
    writer.writerow(
        [
            "rank",
            "player",
            "total",
            "events",
            "wins",
            "average",
            *(f"E{n}" for n in numbers.values()),
        ]
    )
    for row in table.rows():
        cells = {r["event"]: f"{r['points']}{'' if r['counted'] else '*'}" for r in row["results"]}
        name = row["name"]
        writer.writerow(
            [
                row["rank"] if row["ranked"] else "",
                f"'{name}" if name.startswith(_FORMULA_STARTS) else name,
                row["total"],
                row["played"],
                row["wins"],
                row["average"],
                *(cells.get(event_id, "") for event_id in numbers),
            ]
        )
    return response


@login_required
@GET
def club_series_csv(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    series = found(selectors.series_get, club=club, series_id=series_id)
    return table_csv(selectors.series_table(series=series), f"{club.slug}-series-{series.pk}.csv")


@GET
def public_series(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    club = public_club(club_slug, request)
    series = found(selectors.series_get, club=club, series_id=series_id)
    context = table_context(selectors.series_table(series=series))
    return render_public(request, club, "series/series.html", context)


@GET
def public_series_projector(request: HttpRequest, club_slug: str, series_id: int) -> HttpResponse:
    """The table on the room's screen, refreshed by itself, with a code to open it on a phone."""
    club = public_club(club_slug, request)
    series = found(selectors.series_get, club=club, series_id=series_id)
    context = table_context(selectors.series_table(series=series))
    url = request.build_absolute_uri(reverse("public-series", args=[club.slug, series.pk]))
    context["qr"] = qr_svg(url)
    return render_public(request, club, "series/series_projector.html", context)
