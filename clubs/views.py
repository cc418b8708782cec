"""Pages about clubs: the home page, a club's home, a player's page. They read through the same
selectors and write through the same services as the API.

Also the small helpers every page shares: resolving the club and the caller's role, showing a
service's error on the page, money in the club's currency, cards with their suit symbols."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors, services
from clubs.forms import MemberForm, PlayerForm, PublicStandingsForm, StandingsOrderForm
from clubs.models import ROLE_RANK, Club, Role
from config.errors import NotAllowed, NotFoundError, ServiceError

# --- shared page helpers -------------------------------------------------------------------------

CURRENCY_SYMBOLS = {
    "INR": "₹", "USD": "$", "EUR": "€", "GBP": "£", "ILS": "₪", "JPY": "¥", "KRW": "₩",
    "AUD": "A$", "CAD": "C$", "NZD": "NZ$", "SGD": "S$", "HKD": "HK$", "CHF": "CHF ",
}  # fmt: skip

SUITS = {
    "S": ("♠", "spades", False),
    "H": ("♥", "hearts", True),
    "D": ("♦", "diamonds", True),
    "C": ("♣", "clubs", False),
}
SUIT_LETTERS = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
RANK_NAMES = {"A": "ace", "J": "jack", "Q": "queen", "K": "king"}
JOKER_WORDS = {"JK", "PJ", "JOKER"}


def format_money(minor: int | None, currency: str, places: int, *, signed: bool = False) -> str:
    """``82400`` INR -> ``₹824.00``; a loss reads ``−₹824.00``; ``signed`` adds ``+`` to gains."""
    minor = minor or 0
    sign = "−" if minor < 0 else ("+" if signed and minor > 0 else "")
    whole, fraction = divmod(abs(minor), 10**places) if places else (abs(minor), 0)
    number = f"{whole:,}.{fraction:0{places}d}" if places else f"{whole:,}"
    symbol = CURRENCY_SYMBOLS.get(currency)
    return f"{sign}{symbol}{number}" if symbol else f"{sign}{number} {currency}"


def club_money(club: Club, minor: int | None, *, signed: bool = False) -> str:
    return format_money(minor, club.currency, club.minor_places, signed=signed)


def signed_number(value: int | None) -> str:
    value = value or 0
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


@dataclass(frozen=True)
class CardView:
    """A card as a page shows it: ``10♥`` with a spoken name, and its colour as a class only."""

    code: str
    rank: str
    symbol: str
    name: str
    red: bool
    known: bool = True

    @property
    def text(self) -> str:
        return f"{self.rank}{self.symbol}"


def card_view(token: object) -> CardView:
    raw = str(token).strip()
    upper = raw.upper()
    if upper in JOKER_WORDS:
        return CardView("JK", "JK", "", "printed joker", False)
    suit = SUIT_LETTERS.get(raw[-1:], upper[-1:])
    rank = upper[:-1].replace("♥️", "")
    rank = "10" if rank == "T" else rank
    if suit in SUITS and rank in {"A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"}:
        symbol, suit_name, red = SUITS[suit]
        return CardView(
            rank + suit, rank, symbol, f"{RANK_NAMES.get(rank, rank)} of {suit_name}", red
        )
    return CardView(raw, raw, "", f"unknown card {raw}", False, known=False)


def cards_view(tokens: Any) -> list[CardView]:
    return [card_view(token) for token in tokens or []]


def club_for_page(request: HttpRequest, slug: str, min_role: str = Role.PLAYER) -> Club:
    """The club and the caller's role (``club.caller_role``), as pages need them: an outsider
    gets 404 and a member without the role 403, as in the API."""
    try:
        return selectors.club_get_for_user(user=request.user, slug=slug, min_role=min_role)
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None


def can(club: Club, role: str) -> bool:
    return selectors.role_at_least(getattr(club, "caller_role", None), role)


def role_flags(club: Club) -> dict[str, bool]:
    return {
        "can_organise": can(club, Role.ORGANISER),
        "can_score": can(club, Role.SCORER),
        "is_owner": can(club, Role.OWNER),
    }


def render_club(
    request: HttpRequest,
    club: Club,
    template: str,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """Render a page of ``club`` in the club's time zone, with the role flags."""
    with timezone.override(club.timezone):
        return render(
            request,
            template,
            {"club": club, **role_flags(club), **context},
            status=status,
        )


def error_context(exc: ServiceError, fields: set[str] | frozenset[str] = frozenset()) -> dict:
    """A service's refusal as a page shows it: the message, and the field it names (services
    write ``"field: why"``) when that field is on the form."""
    field = exc.message.split(":", 1)[0].strip() if ":" in exc.message else ""
    return {"message": exc.message, "field": field if field in fields else "", "code": exc.code}


def service_status(exc: ServiceError) -> int:
    """The page's status for a refused form: the service's own, but never a 5xx."""
    return exc.status if 400 <= exc.status < 500 else 400


def form_problem(form: Any) -> dict[str, str]:
    """A Django form's first problem, shaped like ``error_context``."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        prefix = f"{label}: " if label and field != "__all__" else ""
        return {"message": f"{prefix}{errors[0]}", "field": field, "code": "invalid"}
    return {"message": "check the form", "field": "", "code": "invalid"}


# --- the home page -------------------------------------------------------------------------------


def home(request: HttpRequest) -> HttpResponse:
    clubs = selectors.club_list_for_user(user=request.user)
    return render(request, "home.html", {"clubs": clubs})


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
    """The club's home; a refused form shows its error beside the form it came from."""
    from scoring import selectors as scoring_selectors

    sessions = list(scoring_selectors.session_list(club=club))
    context = {
        "open_sessions": [s for s in sessions if s.status == "open"],
        "past_sessions": [s for s in sessions if s.status != "open"],
        "players": selectors.player_list(club=club),
        "presets": scoring_selectors.preset_list(club=club),
        "members": selectors.membership_list(club=club),
        "grantable_roles": _grantable_roles(club),
        "error": error,
        "form_name": form_name,
        "values": values or {},
        "default_session_name": timezone.localtime(timezone.now(), timezone=_zone(club)).strftime(
            "%A %-d %B"
        ),
    }
    return render_club(request, club, "clubs/club_home.html", context, status)


def _zone(club: Club) -> Any:
    import zoneinfo

    return zoneinfo.ZoneInfo(club.timezone)


@login_required
@require_http_methods(["GET", "HEAD"])
def club_home(request: HttpRequest, club_slug: str) -> HttpResponse:
    return club_home_page(request, club_for_page(request, club_slug))


@login_required
@require_POST
def player_add(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = PlayerForm(request.POST)
    values = {"player_name": request.POST.get("name", "")}
    if not form.is_valid():
        return club_home_page(
            request, club, error=form_problem(form), form_name="player", values=values, status=400
        )
    try:
        player = services.player_create(
            club=club, actor=request.user, name=form.cleaned_data["name"]
        )
    except ServiceError as exc:
        return club_home_page(
            request,
            club,
            error=error_context(exc, {"name"}),
            form_name="player",
            values=values,
            status=service_status(exc),
        )
    from django.contrib import messages

    messages.success(request, f"{player.name} is on the roster.")
    return redirect(reverse("club-home", args=[club.slug]) + "#players")


@login_required
@require_POST
def member_add(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    form = MemberForm(request.POST)
    values = {"username": request.POST.get("username", ""), "role": request.POST.get("role", "")}
    if not form.is_valid():
        return club_home_page(
            request, club, error=form_problem(form), form_name="member", values=values, status=400
        )
    try:
        membership = services.membership_add(
            club=club,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            username=form.cleaned_data["username"],
            role=form.cleaned_data["role"],
        )
    except ServiceError as exc:
        return club_home_page(
            request,
            club,
            error=error_context(exc, {"username", "role"}),
            form_name="member",
            values=values,
            status=service_status(exc),
        )
    from django.contrib import messages

    messages.success(
        request, f"{membership.user.get_username()} joined as {membership.get_role_display()}."
    )
    return redirect(reverse("club-home", args=[club.slug]) + "#members")


# --- a player's page -----------------------------------------------------------------------------

CHART_WIDTH, CHART_HEIGHT, CHART_PAD = 640, 300, 44
HISTORY_SHOWN = 100


def running_chart(running: list[int]) -> dict[str, Any] | None:
    """The drawing of a running score as SVG coordinates (a line, the zero axis, a few labelled
    ticks), or ``None`` with fewer than two points."""
    if len(running) < 2:
        return None
    values = [0, *running]
    low, high = min(values), max(values)
    if low == high:
        high = low + 1
    span_x = CHART_WIDTH - 2 * CHART_PAD
    span_y = CHART_HEIGHT - 2 * CHART_PAD

    def x(index: int) -> float:
        return round(CHART_PAD + span_x * index / (len(values) - 1), 1)

    def y(value: int) -> float:
        return round(CHART_PAD + span_y * (high - value) / (high - low), 1)

    points = " ".join(f"{x(i)},{y(v)}" for i, v in enumerate(values))
    ticks = sorted({low, 0, high})
    if high - low < 12:  # labels this close would overlap
        ticks = sorted({low, high})
    return {
        "width": CHART_WIDTH,
        "height": CHART_HEIGHT,
        "left": CHART_PAD,
        "right": CHART_WIDTH - CHART_PAD,
        "points": points,
        "zero_y": y(0),
        "ticks": [{"y": y(v), "label": signed_number(v)} for v in ticks],
        "last": {"x": x(len(values) - 1), "y": y(values[-1]), "label": signed_number(values[-1])},
        "deals": len(running),
    }


@login_required
@require_http_methods(["GET", "HEAD"])
def player_page(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    from scoring import selectors as scoring_selectors
    from scoring.forms import OUTCOME_WORDS

    club = club_for_page(request, club_slug)
    try:
        player = selectors.player_get(club=club, player_id=player_id)
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    history = scoring_selectors.player_history(player=player)
    rows = [
        {
            "row": row,
            "outcome": OUTCOME_WORDS.get(row.outcome, row.outcome),
            "net": signed_number(net),
            "net_value": net,
            "money": club_money(club, row.money_minor, signed=True),
            "money_value": row.money_minor,
        }
        for row, net in zip(history.rows, history.net_points, strict=True)
    ]
    rows.reverse()  # newest first
    shown = rows[:HISTORY_SHOWN]
    seasons = [
        {
            "line": line,
            "points": signed_number(line.points),
            "money": club_money(club, line.money_minor, signed=True),
        }
        for line in history.seasons
    ]
    context = {
        "player": player,
        "rows": shown,
        "more_rows": len(rows) - len(shown),
        "seasons": seasons,
        "total": history.total,
        "total_points": signed_number(history.total.points),
        "total_money": club_money(club, history.total.money_minor, signed=True),
        "chart": running_chart(history.running),
    }
    return render_club(request, club, "clubs/player.html", context)


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
    from scoring import standings

    metrics = list(standings.METRICS.values())
    try:
        current = standings.metric_order(club)
    except ServiceError:
        current = [standings.METRICS[m] for m in standings.DEFAULT_ORDER]
    if form is None:
        form = StandingsOrderForm(
            initial={f"metric_{i}": metric.id for i, metric in enumerate(current, start=1)},
            metrics=[(metric.id, metric.label) for metric in metrics],
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
    }
    return render_club(request, club, "clubs/settings.html", context, status)


@login_required
@require_http_methods(["GET", "HEAD"])
def club_settings(request: HttpRequest, club_slug: str) -> HttpResponse:
    return _settings_page(request, club_for_page(request, club_slug, Role.ORGANISER))


@login_required
@require_POST
def standings_order_set(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The order of metrics that ranks the club's standings (``reset``: the default order)."""
    from django.contrib import messages

    from scoring import services as scoring_services
    from scoring import standings

    club = club_for_page(request, club_slug, Role.ORGANISER)
    metrics = list(standings.METRICS.values())
    form = StandingsOrderForm(
        request.POST, metrics=[(m.id, m.label) for m in metrics], places=len(metrics)
    )
    if not form.is_valid():
        return _settings_page(
            request, club, form=form, error=form_problem(form), form_name="order", status=400
        )
    order = [] if request.POST.get("reset") else form.order()
    try:
        club = scoring_services.standings_order_set(club=club, actor=request.user, order=order)
    except ServiceError as exc:
        return _settings_page(
            request, club, form=form, error=error_context(exc), form_name="order",
            status=service_status(exc),
        )  # fmt: skip
    labels = [metric.label for metric in standings.metric_order(club)]
    default = " (the default)" if not order else ""
    messages.success(request, f"Standings are ranked by {', then '.join(labels)}{default}.")
    return redirect(reverse("club-settings", args=[club.slug]) + "#order")


@login_required
@require_POST
def public_standings_set(request: HttpRequest, club_slug: str) -> HttpResponse:
    """Show the standings to anyone, or only to members (owners only)."""
    from django.contrib import messages

    club = club_for_page(request, club_slug, Role.OWNER)
    form = PublicStandingsForm(request.POST)
    form.is_valid()
    public = bool(form.cleaned_data.get("public"))
    try:
        club = services.club_update(club=club, actor=request.user, public_standings=public)
    except ServiceError as exc:
        return _settings_page(
            request, club, error=error_context(exc), form_name="public",
            status=service_status(exc),
        )  # fmt: skip
    messages.success(
        request,
        "The standings are public: anyone with the link sees them."
        if club.public_standings
        else "The standings are for members only.",
    )
    return redirect(reverse("club-settings", args=[club.slug]) + "#public")
