"""The pages that compose several apps: the home page, a club's home (with what is posted from
it), a player's page, the club's settings. They read through the same selectors and write
through the same services as the API."""

from __future__ import annotations

import zoneinfo
from functools import partial
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.forms import MemberForm, PlayerForm, PublicStandingsForm, StandingsOrderForm
from clubs.models import CURRENCY_PLACES, ROLE_RANK, Club, Player, Role
from clubs.page_kit.display import club_money, signed_number
from clubs.page_kit.pages import (
    GET,
    can,
    club_for_page,
    club_url,
    form_post,
    found,
    player_picker_url,
    render_club,
)
from clubs.signin.selectors import app_access_list_for_club
from config.errors import ServiceError
from config.pagination import page_asked
from rules.ratings import ORDINAL_SIGMAS, initial_skill
from scoring import nights as scoring_nights
from scoring import selectors as scoring_selectors
from scoring.formats import FORMAT_ORDER, HANDLERS, format_label, outcome_word, points_column
from scoring.forms import SessionForm
from scoring.history import HistoryLine, RunningPoints, player_history
from scoring.models import GameFamily, Session
from standings import metrics as standing_metrics
from standings import ratings
from standings import services as standings_services
from tournaments import selectors as tournament_selectors
from webhooks import selectors as webhook_selectors
from webhooks.models import EVENTS

#: The session key under which a new webhook's secret waits for the settings page (shown once).
NEW_SECRET = "webhooks.new_secret"
#: Players, nights and members a club's home lists (the newest); the rest are on their pages.
HOME_SHOWN = 10
#: Lines a page of the players, nights or members lists.
LIST_PAGE = 50

# --- the home page -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    clubs = selectors.club_list_for_user(user=request.user)
    invitations = (
        selectors.invitation_list_received(user=request.user)
        if request.user.is_authenticated
        else []
    )
    return render(request, "home.html", {"clubs": clubs, "invitations": invitations})


# --- a club's home -------------------------------------------------------------------------------


def _grantable_roles(club: Club) -> list[tuple[str, str]]:
    """The roles the caller may give: organisers give scorer and player, owners any."""
    mine = ROLE_RANK[club.caller_role]  # type: ignore[attr-defined]
    needed = {Role.OWNER: Role.OWNER, Role.ORGANISER: Role.OWNER}
    return [
        (role.value, role.label)
        for role in reversed(Role)
        if mine >= ROLE_RANK[needed.get(role, Role.ORGANISER)]
    ]


def club_home_page(
    request: HttpRequest,
    club: Club,
    *,
    error: dict[str, str] | None = None,
    form_name: str = "",
    values: dict[str, str] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The club's home; a refused form shows its error beside the form it came from. It lists
    the newest few players, nights and members; the rest are on their own paged pages."""
    open_sessions, open_count = _first(scoring_selectors.session_search(club=club, status="open"))
    past_sessions, past_count = _first(scoring_selectors.session_search(club=club, status="closed"))
    players, player_count = _first(selectors.player_list(club=club).order_by("-created_at", "-pk"))
    members, member_count = _first(selectors.membership_list(club=club))
    context = {
        "open_sessions": scoring_selectors.session_list_counted(club=club, sessions=open_sessions),
        "open_count": open_count,
        "past_sessions": scoring_selectors.session_list_counted(club=club, sessions=past_sessions),
        "past_count": past_count,
        "players": players,
        "player_count": player_count,
        "tournaments": [
            t
            for t in tournament_selectors.tournament_list(club=club)
            if t.status in ("registration", "running")
        ],
        "presets": scoring_selectors.preset_list(club=club),
        "members": members,
        "member_count": member_count,
        "invitations": selectors.invitation_list(club=club)
        if selectors.role_at_least(club.caller_role, Role.ORGANISER)  # type: ignore[attr-defined]
        else [],
        "new_link": request.session.pop("invitation.new_link", ""),
        "grantable_roles": _grantable_roles(club),
        "error": error,
        "form_name": form_name,
        "values": values or {},
        "default_session_name": timezone.localtime(timezone.now(), timezone=_zone(club)).strftime(
            "%A %-d %B"
        ),
    }
    return render_club(request, club, "clubs/club_home.html", context, status)


def _first(items: QuerySet[Any]) -> tuple[list[Any], int]:
    """The first ``HOME_SHOWN`` of ``items`` and how many there are (counted only when there
    are more than shown)."""
    first = list(items[: HOME_SHOWN + 1])
    return first[:HOME_SHOWN], len(first) if len(first) <= HOME_SHOWN else items.count()


def _zone(club: Club) -> Any:
    return zoneinfo.ZoneInfo(club.timezone)


def _paged(request: HttpRequest, items: Any) -> dict[str, Any]:
    """The page of ``items`` that ``?page=`` asks for (the first for a bad number, the last for
    one past it), and the rest of the query (the search) for the pager's links."""
    kept = {key: value for key, value in request.GET.items() if key != "page" and value}
    return {
        "page": Paginator(items, LIST_PAGE).get_page(request.GET.get("page")),
        "query": urlencode(kept),
        "q": request.GET.get("q", ""),
    }


@login_required
@GET
def player_list_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The whole roster, a page at a time, searched by the start of a name or nickname, or by
    a phone number's digits."""
    club = club_for_page(request, club_slug)
    found_list = selectors.player_roster_search(club=club, text=request.GET.get("q", ""))
    paged = _paged(request, found_list)
    return render_club(request, club, "clubs/players.html", paged)


@login_required
@GET
def session_list_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Every night the club has held, newest first, a page at a time, searched by name."""
    club = club_for_page(request, club_slug)
    status = request.GET.get("status", "")
    status = status if status in Session.Status.values else ""
    found_list = scoring_selectors.session_search(
        club=club, text=request.GET.get("q", ""), status=status
    )
    paged = _paged(request, found_list)
    sessions = list(paged["page"].object_list)
    paged.update(
        sessions=scoring_selectors.session_list_counted(club=club, sessions=sessions),
        status=status,
        statuses=Session.Status.choices,
    )
    return render_club(request, club, "clubs/sessions.html", paged)


@login_required
@GET
def member_list_page(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Every member and their role, a page at a time, searched by the start of a username."""
    club = club_for_page(request, club_slug)
    paged = _paged(request, selectors.membership_search(club=club, text=request.GET.get("q", "")))
    paged.update(members=paged["page"].object_list, grantable_roles=_grantable_roles(club))
    return render_club(request, club, "clubs/members.html", paged)


@login_required
@GET
def club_home(request: HttpRequest, club_slug: str) -> HttpResponse:
    return club_home_page(request, club_for_page(request, club_slug))


@login_required
@require_POST
def player_add(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = PlayerForm(request.POST)

    def add() -> HttpResponse:
        player = services.player_create(
            club=club, actor=request.user, name=form.cleaned_data["name"]
        )
        messages.success(request, gettext("%(name)s is on the roster.") % {"name": player.name})
        return redirect(club_url("club-home", club) + "#players")

    values = {"player_name": request.POST.get("name", "")}
    page = partial(club_home_page, request, club, form_name="player", values=values)
    return form_post(form, add, page, fields={"name"})


@login_required
@require_POST
def session_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = SessionForm(request.POST)

    def create() -> HttpResponse:
        session = scoring_nights.session_create(
            club=club, actor=request.user, name=form.cleaned_data["name"]
        )
        messages.success(
            request,
            gettext("Night “%(name)s” is open. Add a table to start.") % {"name": session.name},
        )
        return redirect(club_url("session-page", club, session.pk))

    values = {"session_name": request.POST.get("name", "")}
    page = partial(club_home_page, request, club, form_name="session", values=values)
    return form_post(form, create, page, fields={"name"})


@login_required
@require_POST
def member_add(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = MemberForm(request.POST)

    def add() -> HttpResponse:
        invitation = services.invitation_for_account(
            club=club,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            username=form.cleaned_data["username"],
            role=form.cleaned_data["role"],
        )
        # The same words whether or not the account exists: usernames are not told.
        messages.success(
            request,
            gettext(
                "Invited %(username)s as %(role)s: they join once they accept, from their home "
                "page when signed in."
            )
            % {"username": invitation.username, "role": invitation.get_role_display()},
        )
        return redirect(club_url("club-home", club) + "#members")

    values = {"username": request.POST.get("username", ""), "role": request.POST.get("role", "")}
    page = partial(club_home_page, request, club, form_name="member", values=values)
    return form_post(form, add, page, fields={"username", "role"})


# --- a player's page -----------------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 300, 44
HISTORY_SHOWN = 50  # history lines a page


def running_chart(running: RunningPoints) -> dict[str, Any] | None:
    """The drawing of a running score as SVG coordinates (a line, the zero axis, a few labelled
    ticks), or ``None`` with fewer than two steps. A long history comes sampled: each point is
    drawn at its own step."""
    if running.steps < 2:
        return None
    points = [(0, 0), *running.points]
    values = [value for _, value in points]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    span_x = CHART_WIDTH - 2 * CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD

    def x(step: int) -> float:
        return round(CHART_PAD + span_x * step / running.steps, 1)

    def y(value: int) -> float:
        return round(CHART_PAD + span_y * (high - value) / (high - low), 1)

    ticks = sorted({low, 0, high})
    if high - low < 12:  # labels this close would overlap
        ticks = sorted({low, high})
    last_step, last_value = points[-1]
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "points": " ".join(f"{x(step)},{y(value)}" for step, value in points),
        "zero_y": y(0),
        "ticks": [{"y": y(v), "label": signed_number(v)} for v in ticks],
        "last": {"x": x(last_step), "y": y(last_value), "label": signed_number(last_value)},
        "deals": running.steps,
    }


def _history_row(club: Club, item: HistoryLine) -> dict[str, Any]:
    line = item.line
    column = points_column(line.game_format)
    return {
        "line": line,
        "what": line.kind_label,
        "url": club_url("deal-page", club, line.deal_id) if line.deal_id else "",
        "format": format_label(line.game_format),
        # Only a deal has an outcome (a fee or a prize of a tournament's purse has no format).
        "outcome": outcome_word(line.game_format, line.outcome) if line.outcome else line.outcome,
        "counted": "" if line.counted is None else line.counted,
        # A fee or a prize moves no points: its points cell stays empty, not a 0.
        "points": signed_number(line.points)
        if column is not None and (line.kind == "deal" or line.points)
        else "",
        "points_value": line.points,
        "unit": gettext(column.unit) if column is not None else "",
        "chips": signed_number(line.chips) if line.chips else "",
        "money": club_money(club, line.money_minor, signed=True) if line.money_minor else "",
        "money_value": line.money_minor,
    }


def rating_chart(changes: list[dict[str, Any]]) -> dict[str, Any] | None:
    """A rating's course as SVG coordinates: the rating (mu) game by game from the start, and
    its uncertainty band, mu ± 3 sigma (its lower edge is the ordinal the leaderboard ranks
    by); ``None`` before a first rated game."""
    if not changes:
        return None
    start = initial_skill()
    mus = [start.mu, *[c["mu_after"] for c in changes]]
    sigmas = [start.sigma, *[c["sigma_after"] for c in changes]]
    low = min(m - ORDINAL_SIGMAS * s for m, s in zip(mus, sigmas, strict=True))
    high = max(m + ORDINAL_SIGMAS * s for m, s in zip(mus, sigmas, strict=True))
    span_x = CHART_WIDTH - 2 * CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD

    def x(index: int) -> float:
        return round(CHART_PAD + span_x * index / max(1, len(mus) - 1), 1)

    def y(value: float) -> float:
        return round(CHART_PAD + span_y * (high - value) / (high - low), 1)

    pairs = list(enumerate(zip(mus, sigmas, strict=True)))
    upper = [f"{x(i)},{y(m + ORDINAL_SIGMAS * s)}" for i, (m, s) in pairs]
    lower = [f"{x(i)},{y(m - ORDINAL_SIGMAS * s)}" for i, (m, s) in pairs]
    last = len(mus) - 1
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "points": " ".join(f"{x(i)},{y(m)}" for i, m in enumerate(mus)),
        "band": " ".join([*upper, *reversed(lower)]),
        "ticks": [{"y": y(v), "label": f"{v:.0f}"} for v in sorted({low, start.mu, high})],
        "last": {"x": x(last), "y": y(mus[-1]), "label": f"{mus[-1]:.2f} ± {sigmas[-1]:.2f}"},
        "games": len(changes),
        "ordinal": f"{mus[-1] - ORDINAL_SIGMAS * sigmas[-1]:.2f}",
    }


@login_required
@GET
def player_page(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    player = found(selectors.player_get, club=club, player_id=player_id)
    if player.merged_into_id is not None:
        # A duplicate merged away: its history is the kept player's (old links still work).
        return redirect(club_url("player-page", club, player.merged_into_id))
    return player_page_view(request, club, player_id)


def _by_night(shown: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A page's history rows in one group a night, so a phone's row needs no night and date of
    its own."""
    nights: list[dict[str, Any]] = []
    for row in shown:
        line = row["line"]
        if not nights or nights[-1]["session_id"] != line.session_id:
            nights.append({"session_id": line.session_id, "name": line.session_name,
                           "started_at": line.started_at, "rows": []})  # fmt: skip
        nights[-1]["rows"].append(row)
    return nights


def _rating_charts(player: Player) -> list[dict[str, Any]]:
    """A chart of the player's rating, game by game, in each game family they were rated in."""
    by_family: dict[str, list[dict[str, Any]]] = {}
    for change in ratings.player_rating_history(player=player):
        by_family.setdefault(change["family"], []).append(change)
    return [
        {"label": gettext(label), "chart": rating_chart(by_family[family])}
        for family, label in GameFamily.choices
        if family in by_family
    ]


def player_page_view(
    request: HttpRequest,
    club: Club,
    player_id: int,
    *,
    error: dict[str, str] | None = None,
    form_name: str = "",
    status: int = 200,
) -> HttpResponse:
    """A player's page; a refused rename or retirement shows beside its form."""
    player = found(selectors.player_get, club=club, player_id=player_id)
    page = page_asked(request.GET.get("page"))
    history = player_history(
        player=player, limit=HISTORY_SHOWN, offset=(page - 1) * HISTORY_SHOWN, chart=True
    )
    pages = max(1, -(-history.count // HISTORY_SHOWN))
    if page > pages:  # past the end (an old link): the last page
        page = pages
        history = player_history(
            player=player, limit=HISTORY_SHOWN, offset=(page - 1) * HISTORY_SHOWN, chart=True
        )
    shown = [_history_row(club, item) for item in history.lines]
    if club.points_only:  # no money shown: a fee, prize or refund alone is not a line
        shown = [
            row for row in shown
            if row["line"].kind == "deal" or row["points_value"] or row["chips"]
        ]  # fmt: skip
    # Points of different formats are different units: each has its own column and chart, and
    # no sum of them is shown.
    formats = history.formats
    seasons = [
        {
            "season": season,
            "by_format": [signed_number(season.totals.points_by_format.get(f, 0)) for f in formats],
            "chips": signed_number(season.totals.chips),
            "money": club_money(club, season.totals.money_minor, signed=True),
        }
        for season in history.seasons
    ]
    total = history.total
    context = {
        "player": player,
        "rows": shown,
        "nights": _by_night(shown),
        "page": page,
        "pages": pages,
        "formats": [format_label(f) for f in formats],
        "has_chips": any(season.totals.chips for season in history.seasons),
        "seasons": seasons,
        "total": total,
        "total_points": [
            (format_label(f), signed_number(total.points_by_format[f])) for f in formats
        ],
        "total_money": club_money(club, total.money_minor, signed=True),
        "charts": [
            {
                "label": format_label(f) if len(formats) > 1 else "",
                "unit": gettext(column.unit),
                "chart": running_chart(running),
            }
            for f, running in history.running_by_format.items()
            if (column := points_column(f)) is not None
        ],
    }
    context["rating_charts"] = _rating_charts(player)
    context.update(
        error=error,
        form_name=form_name,
        merge_picker_url=player_picker_url(club),
        merge_value=request.POST.get("into_name", "") if form_name == "merge" else "",
        merge_invalid=form_name == "merge" and bool(error) and error.get("field") == "into",
        merged_from=list(player.merged_from.values_list("name", flat=True)),
        # The player themself (their account) or an organiser keeps their payment details.
        can_edit_payment=not club.points_only
        and (player.user_id == request.user.pk or can(club, Role.ORGANISER)),
        payment_values=request.POST if form_name == "payment" else None,
        details_values=request.POST if form_name == "details" else player,
    )
    return render_club(request, club, "clubs/player.html", context, status)


# --- club settings: the order of standings metrics, public standings ---------------------------


def _settings_page(
    request: HttpRequest,
    club: Club,
    *,
    form: Any = None,
    error: dict[str, str] | None = None,
    form_name: str = "",
    status: int = 200,
) -> HttpResponse:
    metrics = standing_metrics.club_metrics(club)
    try:
        current = standing_metrics.metric_order(club)
    except ServiceError:
        current = [standing_metrics.METRICS[m] for m in standing_metrics.DEFAULT_ORDER]
    if form is None:
        form = StandingsOrderForm(
            initial={f"metric_{i}": metric.id for i, metric in enumerate(current, start=1)},
            metrics=[(metric.id, gettext(metric.label)) for metric in metrics],
            places=len(metrics),
        )
    places = form.place_fields()
    chosen = sum(1 for field in places if field.value())
    shown = min(len(places), max(chosen + 1, 3))
    context = {
        "form": form,
        "places": places[:shown],
        "more_places": places[shown:],
        "metrics": metrics,
        "current": current,
        "uses_default": not club.standings_metrics,
        "error": error,
        "form_name": form_name,
        "values": request.POST if request.method == "POST" else {},
        "currencies": sorted(CURRENCY_PLACES),
        "table_entry_choices": Club._meta.get_field("table_entry").choices,
        "language_choices": Club._meta.get_field("language").choices,
        "presets": [p for p in scoring_selectors.preset_list(club=club) if p.club_id == club.pk],
        "formats": [(f, format_label(f)) for f in FORMAT_ORDER if f in HANDLERS],
        "club_apps": app_access_list_for_club(club=club),
        "webhooks": [
            {"endpoint": e, "log": list(webhook_selectors.attempt_log(endpoint=e))}
            for e in webhook_selectors.endpoint_list(club=club)
        ],
        "webhook_events": [
            (name, request.method != "POST" or name in request.POST.getlist("events"))
            for name in EVENTS
        ],
        "new_webhook_secret": request.session.pop(NEW_SECRET, None),
    }
    return render_club(request, club, "clubs/settings.html", context, status)


@login_required
@GET
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    return _settings_page(request, club_for_page(request, club_slug, Role.ORGANISER))


@login_required
@require_POST
def standings_order_set(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The order of metrics that ranks the club's standings (``reset``: the default order)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    metrics = standing_metrics.club_metrics(club)
    form = StandingsOrderForm(
        request.POST, metrics=[(m.id, gettext(m.label)) for m in metrics], places=len(metrics)
    )

    def order_set() -> HttpResponse:
        order = [] if request.POST.get("reset") else form.order()
        ordered = standings_services.standings_order_set(club=club, actor=request.user, order=order)
        labels = [gettext(m.label) for m in standing_metrics.metric_order(ordered)]
        ranked_by = gettext(", then ").join(str(label) for label in labels)
        words = (
            gettext("Standings are ranked by %(metrics)s (the default).")
            if not order
            else gettext("Standings are ranked by %(metrics)s.")
        )
        messages.success(request, words % {"metrics": ranked_by})
        return redirect(club_url("club-settings", ordered) + "#order")

    return form_post(
        form, order_set, partial(_settings_page, request, club, form=form, form_name="order")
    )


@login_required
@require_POST
def public_standings_set(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Show the standings to anyone, or only to members (owners only)."""
    club = club_for_page(request, club_slug, Role.OWNER)
    form = PublicStandingsForm(request.POST)  # a checkbox: always valid, unticked is "members only"

    def public_set() -> HttpResponse:
        public = bool(form.cleaned_data.get("public"))
        updated = services.club_update(club=club, actor=request.user, public_standings=public)
        messages.success(
            request,
            gettext("The standings are public: anyone with the link sees them.")
            if updated.public_standings
            else gettext("The standings are for members only."),
        )
        return redirect(club_url("club-settings", updated) + "#public")

    return form_post(form, public_set, partial(_settings_page, request, club, form_name="public"))
