"""Standings pages: the club's for its members (any season, session or game, now or as they stood
after a session), the public standings of a club that publishes them, and the projector."""

from __future__ import annotations

import time
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils import timezone

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.page_kit.display import club_money, qr_svg, signed_number
from clubs.page_kit.pages import (
    GET,
    club_for_page,
    club_url,
    error_context,
    found,
    render_club,
    service_status,
)
from config.errors import InvalidInput, NotFoundError, ServiceError
from live.fragments import public_fragment
from scoring import ratings, selectors, standings
from scoring.formats import format_label
from scoring.models import Game, GameFamily
from scoring.views.common import LIVE_STOP

PER_PAGE = 25
#: Rows of a projector board's column (sized with site.css to fit 1920x1080 with two boards
#: side by side); a table longer than one column fills ``PROJECTOR_COLUMNS`` columns a page.
PROJECTOR_ROWS = 17
PROJECTOR_COLUMNS = 2
#: Every row of a table passes on the screen within ``PROJECTOR_CYCLE`` seconds: a page stays
#: ``PROJECTOR_CYCLE / pages`` seconds, never less than ``PROJECTOR_TURN_MIN`` (time to read a
#: page) nor more than ``PROJECTOR_TURN_MAX``. 34 rows a page: 204 players pass within 30 s.
PROJECTOR_CYCLE = 30.0
PROJECTOR_TURN_MIN = 5.0
PROJECTOR_TURN_MAX = 15.0
#: How long the projector shows the last change at its top, in seconds.
PROJECTOR_JUST_NOW = 300
SCOPE_WORDS = {"season": "Season", "session": "Session", "game": "Game"}


def _metric_text(club: Club, metric_id: str, value: Any) -> str:
    """A metric's value as a table shows it: net points and money signed, rates in per cent."""
    if metric_id == "points":
        return signed_number(int(value))
    if metric_id == "money":
        return club_money(club, int(value), signed=True)
    if metric_id == "win_rate":
        return f"{value * 100:.1f}%"
    if metric_id in ("rating", "ordinal"):
        return f"{value:.2f}"
    if metric_id == "points_per_deal":
        text = f"{abs(value):.2f}"
        return f"+{text}" if value > 0 else (f"−{text}" if value < 0 else text)
    return str(value)


def _int_param(raw: str | None, name: str) -> int | None:
    if raw in (None, ""):
        return None
    assert raw is not None
    if not raw.strip().isdigit():
        raise InvalidInput(f"{name}: {raw!r} is not a whole number")
    return int(raw)


def _asked_scope(request: HttpRequest) -> tuple[str, int | None, str | None]:
    """The scope a page asks for, and the game format: ``?table=session:12`` or
    ``?table=season:3:rummikub`` (the page's one list) or, as in the API,
    ``?scope=season&id=3&game_format=rummikub``; nothing asked is the current season."""
    picked = request.GET.get("table", "")
    if ":" in picked:
        scope, _, rest = picked.partition(":")
        raw, _, game_format = rest.partition(":")
        return scope, _int_param(raw, "table"), game_format
    return (
        request.GET.get("scope") or "season",
        _int_param(request.GET.get("id"), "id"),
        request.GET.get("game_format"),
    )


def _table_value(scope: str, scope_id: int, game_format: str = "") -> str:
    return f"{scope}:{scope_id}:{game_format}" if game_format else f"{scope}:{scope_id}"


def _scope_title(club: Club, scope: str, scope_id: int, choices: Any) -> str:
    if scope == "season":
        season = next((s for s in choices.seasons if s.pk == scope_id), None)
        return f"Season {season.name}" if season else "Season"
    if scope == "session":
        session = next((s for s in choices.sessions if s.pk == scope_id), None)
        session = session or found(
            selectors.session_get, club=club, session_id=scope_id, with_tables=False
        )
        return session.name
    game = next((g for g in choices.games if g.pk == scope_id), None)
    game = game or found(selectors.game_get, club=club, game_id=scope_id, with_seats=False)
    return _game_label(game)


def _game_label(game: Game) -> str:
    return f"{game.get_format_display()} at {game.table.name} · {game.table.session.name}"


def _standing_lines(
    club: Club, table: standings.StandingsTable, lines: list[Any], offset: int, more: Any
) -> list[dict[str, Any]]:
    """The lines of a page with their ranks: a rank shared with a neighbour (on this page or the
    one before or after) reads ``=2``."""
    shown = []
    for index, line in enumerate(lines):
        before = lines[index - 1].rank if index else None
        after = lines[index + 1].rank if index + 1 < len(lines) else getattr(more, "rank", None)
        tied = line.rank in (before, after) or (index == 0 and line.rank < offset + 1)
        shown.append(
            {
                "rank": f"={line.rank}" if tied else str(line.rank),
                "tied": tied,
                "player_id": line.player_id,
                "name": line.name,
                "cells": [
                    {
                        "text": _metric_text(club, metric.id, line.metrics[metric.id]),
                        "value": line.metrics[metric.id],
                        "signed": metric.id in ("points", "money", "points_per_deal"),
                    }
                    for metric in table.metrics
                ],
                # A table mixing formats shows each format's points in its own column.
                "points": [
                    {"text": signed_number(value), "value": value, "signed": True}
                    for value in line.points_by_format.values()
                ],
            }
        )
    return shown


def _standings_board(
    club: Club,
    scope: str,
    scope_id: int,
    *,
    page: int,
    per_page: int,
    after: int | None,
    game_format: str = "",
    facts: standings.ScopeFacts | None = None,
) -> dict[str, Any]:
    """One ranked table: a page of it, and whether there are more (``facts``: the table's, where
    the caller has read them)."""
    offset = (page - 1) * per_page
    if after is not None:
        entry = selectors.ledger_entry_as_of(club=club, session_id=after)
        table = standings.standings_table_as_of(
            club=club, scope=scope, scope_id=scope_id, as_of_entry=entry, game_format=game_format
        )
        lines = table.lines[offset : offset + per_page + 1]
    else:
        table = standings.standings_table(
            club=club, scope=scope, scope_id=scope_id, limit=per_page + 1, offset=offset,
            game_format=game_format, facts=facts,
        )  # fmt: skip
        lines = table.lines
    more = lines[per_page] if len(lines) > per_page else None
    lines = lines[:per_page]
    shown = _standing_lines(club, table, lines, offset, more)
    return {
        "metrics": table.metrics,
        "metric_labels": [metric.label for metric in table.metrics],
        "left_out": [metric.label for metric in table.left_out],
        "formats": [format_label(f) for f in table.formats],
        "lines": shown,
        "any_tied": any(line["tied"] for line in shown),
        "count": table.count,
        "page": page,
        "pages": max(1, -(-table.count // per_page)),
        "first": offset + 1,
        "last": offset + len(lines),
        "table_lines": lines,
    }


def _scope_options(choices: Any, games: list[dict[str, Any]], picked: str) -> list[dict[str, Any]]:
    """The page's one list of tables to show, grouped: seasons (and each game format of a season
    that played several), sessions, games."""

    def item(value: str, label: str, when: Any = None) -> dict[str, Any]:
        return {"value": value, "label": label, "when": when, "selected": value == picked}

    seasons = []
    for season in choices.seasons:
        seasons.append(item(_table_value("season", season.pk), f"Season {season.name}"))
        formats = choices.season_formats.get(season.pk, [])
        if len(formats) > 1:
            seasons += [
                item(_table_value("season", season.pk, f),
                     f"Season {season.name} · {format_label(f)}")
                for f in formats
            ]  # fmt: skip
    groups = [
        {"label": "Seasons", "items": seasons},
        {"label": "Sessions", "items": [item(_table_value("session", s.pk), s.name, s.started_at)
                                        for s in choices.sessions]},
        {"label": "Games", "items": [item(_table_value("game", g["game"].pk), g["label"])
                                     for g in games]},
    ]  # fmt: skip
    return [group for group in groups if group["items"]]


def _page_link(request: HttpRequest, page: int, without: tuple[str, ...] = ()) -> str:
    query = request.GET.copy()
    for name in without:
        query.pop(name, None)
    query["page"] = str(page)
    return "?" + query.urlencode()


def _format_tabs(
    request: HttpRequest, season_id: int, formats: list[str], picked: str
) -> list[dict[str, Any]]:
    """Links to the season's table of all formats together and of each format it played (only
    offered when it played more than one); the rest of the query (as it stood) is kept."""
    if len(formats) < 2:
        return []
    tabs = []
    for value in ["", *formats]:
        query = request.GET.copy()
        for name in ("page", "game_format", "scope", "id"):
            query.pop(name, None)
        query["table"] = _table_value("season", season_id, value)
        label = format_label(value) if value else "All formats"
        tabs.append({"label": label, "url": "?" + query.urlencode(), "selected": value == picked})
    return tabs


def _standings_context(
    request: HttpRequest, club: Club, *, per_page: int | None = None
) -> tuple[dict[str, Any], int]:
    """The standings a page asks for (scope, page, "as it stood after session S"), the lists to
    choose from, and a service's refusal as the page's error."""
    per_page = per_page or PER_PAGE
    choices = selectors.standings_choices(club=club)
    context: dict[str, Any] = {
        "choices": choices,
        "games": [{"game": g, "label": _game_label(g)} for g in choices.games],
        "board": None,
        "error": None,
        "updated_at": timezone.now(),
        "metric_labels": [m.label for m in standings.metric_order(club)],
    }
    status = 200
    try:
        scope, raw_id, asked_format = _asked_scope(request)
        page = max(1, _int_param(request.GET.get("page"), "page") or 1)
        after = _int_param(request.GET.get("as_of_session"), "as_of_session")
        if scope == "season" and raw_id is None and not choices.seasons:
            context.update(scope="season", scope_id=None, title="This season", after=None)
            return context, status
        scope, scope_id = selectors.standings_scope(club=club, scope=scope, scope_id=raw_id)
        game_format = selectors.standings_format(scope=scope, game_format=asked_format)
        board = _standings_board(
            club, scope, scope_id, page=page, per_page=per_page, after=after,
            game_format=game_format,
        )  # fmt: skip
    except ServiceError as exc:
        context["error"] = error_context(exc)
        context.update(scope="", scope_id=None, title="Standings", after=None)
        context["options"] = _scope_options(choices, context["games"], "")
        context["after_options"] = [
            {"value": str(s.pk), "session": s, "selected": False} for s in choices.sessions
        ]
        return context, service_status(exc)
    title = _scope_title(club, scope, scope_id, choices)
    if game_format:
        title += f" · {format_label(game_format)}"
    formats = choices.season_formats.get(scope_id, []) if scope == "season" else []
    context["format_tabs"] = _format_tabs(request, scope_id, formats, game_format)
    context["game_format"] = game_format
    picked = _table_value(scope, scope_id, game_format)
    context["options"] = _scope_options(choices, context["games"], picked)
    if not any(item["selected"] for group in context["options"] for item in group["items"]):
        shown = {"value": picked, "label": title, "when": None, "selected": True}
        context["options"].insert(0, {"label": "Shown", "items": [shown]})
    context["after_options"] = [
        {"value": str(s.pk), "session": s, "selected": s.pk == after} for s in choices.sessions
    ]
    after_session = None
    if after is not None:
        after_session = next((s for s in choices.sessions if s.pk == after), None) or found(
            selectors.session_get, club=club, session_id=after, with_tables=False
        )
    context.update(
        scope=scope,
        scope_id=scope_id,
        scope_word=SCOPE_WORDS.get(scope, scope),
        title=title,
        after=after_session,
        board=board,
        first_url=_page_link(request, 1),
        prev_url=_page_link(request, min(board["page"], board["pages"] + 1) - 1)
        if board["page"] > 1
        else "",
        next_url=_page_link(request, board["page"] + 1) if board["page"] < board["pages"] else "",
        query=request.GET.urlencode(),
    )
    context["find"] = (request.GET.get("find") or "").strip()[:60]
    if context["find"] and after is None:
        context["found"] = [
            {
                "name": line.name,
                "rank": _ordinal(line.rank),
                "url": _page_link(request, (line.rank - 1) // per_page + 1, without=("find",))
                + f"#p-{line.player_id}",
            }
            for line in standings.standings_find(
                club=club, scope=scope, scope_id=scope_id, name=context["find"],
                game_format=game_format,
            )
        ]  # fmt: skip
    return context, status


RATING_ROWS = 20


def _rating_boards(club: Club) -> list[dict[str, Any]]:
    """The ratings leaderboard of each game family the club has rated players in: the first
    ``RATING_ROWS`` established players, and how many are still provisional."""
    boards = []
    for family, label in GameFamily.choices:
        everyone = ratings.rating_table(club=club, family=family, include_provisional=True)
        if not everyone:
            continue
        established = [line for line in everyone if not line.provisional]
        ranked = ratings.ranked_among(established)
        # Provisional players are shown after the ranked ones, unranked, when there is room.
        room = max(0, RATING_ROWS - len(ranked))
        waiting = [line for line in everyone if line.provisional][:room]
        boards.append(
            {
                "family": family,
                "label": label,
                "lines": [
                    {
                        "line": line,
                        "rank": "–" if line.provisional else str(line.rank),
                        "mu": f"{line.mu:.2f}",
                        "sigma": f"{line.sigma:.2f}",
                        "ordinal": f"{line.ordinal:.2f}",
                    }
                    for line in [*ranked[:RATING_ROWS], *waiting]
                ],
                "more": max(0, len(established) - RATING_ROWS),
                "provisional": len(everyone) - len(established) - len(waiting),
            }
        )
    return boards


@login_required
@GET
def club_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's standings for its members: any season, session or game, now or as they stood
    after a session."""
    club = club_for_page(request, club_slug)
    context, status = _standings_context(request, club)
    context["form_url"] = club_url("club-standings", club)
    context["rating_boards"] = _rating_boards(club)
    return render_club(request, club, "scoring/club_standings.html", context, status)


def _public_club(club_slug: str) -> Club:
    return found(club_selectors.club_get_public, slug=club_slug)


def _render_public(
    request: HttpRequest, club: Club, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    with timezone.override(club.timezone):
        return render(request, template, {"club": club, **context}, status=status)


def _public_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
    context, status = _standings_context(request, club)
    live = reverse("public-live", args=[club.slug])
    context["form_url"] = reverse("public-standings", args=[club.slug])
    context["live_url"] = f"{live}?{context['query']}" if context.get("query") else live
    context["live"] = context.get("after") is None and context["board"] is not None
    return context, status


@GET
def public_standings(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    if request.GET.get("view") == "projector":
        return public_projector(request, club_slug)
    context, status = _public_context(request, club)
    context["rating_boards"] = _rating_boards(club)
    return _render_public(request, club, "scoring/standings.html", context, status)


def projector_page_size(count: int) -> int:
    """Rows a projector board shows a page: one column, or several when the table is longer."""
    return PROJECTOR_ROWS if count <= PROJECTOR_ROWS else PROJECTOR_ROWS * PROJECTOR_COLUMNS


def projector_turn(pages: int) -> float:
    """Seconds a projector board shows each page, so that every page passes within
    ``PROJECTOR_CYCLE`` (where ``PROJECTOR_TURN_MIN`` allows)."""
    return min(PROJECTOR_TURN_MAX, max(PROJECTOR_TURN_MIN, PROJECTOR_CYCLE / max(1, pages)))


def _turning_page(pages: int) -> int:
    """The page a projector shows now: pages turn every ``projector_turn(pages)`` seconds, the
    same for every screen and every poll, so the whole table passes in turn with no state kept."""
    return int(time.time() // projector_turn(pages)) % max(1, pages) + 1


def _projector_board(
    club: Club, scope: str, scope_id: int, *, after: int | None, game_format: str = ""
) -> dict[str, Any]:
    """The page of a table a projector shows now: counted first (the table's facts, one query,
    which the page then reuses), so only that page is read; then the rows that moved since the
    table's last ledger entry."""
    if after is None:
        facts = standings.standings_facts(
            club=club, scope=scope, scope_id=scope_id, game_format=game_format
        )
        size = projector_page_size(facts.count)
        page = _turning_page(-(-facts.count // size))
        board = _standings_board(
            club, scope, scope_id, page=page, per_page=size, after=None,
            game_format=game_format, facts=facts,
        )  # fmt: skip
        change = standings.standings_last_change(
            club=club, scope=scope, scope_id=scope_id, order=board["metrics"],
            game_format=game_format,
        )  # fmt: skip
    else:  # a table as it stood is recomputed whole; its first page says how many there are
        size = PROJECTOR_ROWS * PROJECTOR_COLUMNS
        board = _standings_board(
            club, scope, scope_id, page=1, per_page=size, after=after, game_format=game_format
        )
        if board["count"] <= PROJECTOR_ROWS:
            size = PROJECTOR_ROWS
        page = _turning_page(-(-board["count"] // size))
        if page != 1 or size == PROJECTOR_ROWS:
            board = _standings_board(
                club, scope, scope_id, page=page, per_page=size, after=after,
                game_format=game_format,
            )  # fmt: skip
        change = None
    _mark_moves(board, change)
    board["turn"] = projector_turn(board["pages"])
    # The page's lines in as few columns as hold them, shared evenly (18 lines: 9 and 9).
    columns = max(1, -(-len(board["lines"]) // PROJECTOR_ROWS))
    per_column = max(1, -(-len(board["lines"]) // columns))
    board["columns"] = [
        board["lines"][start : start + per_column]
        for start in range(0, len(board["lines"]), per_column)
    ] or [[]]
    board["change"] = change
    return board


def _ordinal(rank: int) -> str:
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def _mark_moves(board: dict[str, Any], change: standings.LastChange | None) -> None:
    """Each line's move since the table's last ledger entry: ``up``/``down`` by so many places,
    ``new`` to the table, and whether the entry touched the player (``touched``)."""
    for shown, line in zip(board["lines"], board["table_lines"], strict=True):
        shown.update(move="", by=0, touched=False)
        if change is None:
            continue
        before = change.rank_before(line)
        shown["touched"] = line.player_id in change.ranks
        if before is None:
            shown["move"] = "new"
        elif before != line.rank:
            shown["move"] = "up" if before > line.rank else "down"
            shown["by"] = abs(before - line.rank)


def _just_now(board: dict[str, Any]) -> dict[str, Any] | None:
    """What the top of the projector says for ``PROJECTOR_JUST_NOW`` seconds after a change:
    the table, the deal, and where each player of it stands now and stood before."""
    change = board.get("change")
    if change is None or (timezone.now() - change.at).total_seconds() > PROJECTOR_JUST_NOW:
        return None
    moves = []
    for pid, (now, then) in sorted(change.ranks.items(), key=lambda item: item[1][0]):
        move = "new" if then is None else ("up" if then > now else "down" if then < now else "")
        moves.append(
            {"name": change.names[pid], "rank": _ordinal(now), "move": move,
             "by": abs(then - now) if then is not None else 0}
        )  # fmt: skip
    return {"table": change.table, "deal": change.deal, "at": change.at, "moves": moves}


def _projector_title(club: Club, scope: str, scope_id: int, game_format: str) -> str:
    if scope == "season":
        title = f"Season {found(selectors.season_get, club=club, season_id=scope_id).name}"
    elif scope == "session":
        title = found(selectors.session_get, club=club, session_id=scope_id, with_tables=False).name
    else:
        title = _game_label(
            found(selectors.game_get, club=club, game_id=scope_id, with_seats=False)
        )
    return f"{title} · {format_label(game_format)}" if game_format else title


def _projector_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
    """The projector: the table asked for; asked nothing, the latest session beside the
    current season. A table longer than a screen turns its pages by itself. Only what it shows
    is read (no lists to choose from): its queries are as many whatever the club's history."""
    asked = any(request.GET.get(k) for k in ("table", "scope", "id", "as_of_session"))
    context: dict[str, Any] = {
        "error": None,
        "after": None,
        "updated_at": timezone.now(),
        "query": request.GET.urlencode(),
    }
    boards = []
    try:
        scope, raw_id, asked_format = _asked_scope(request)
        after_id = _int_param(request.GET.get("as_of_session"), "as_of_session")
        if after_id is not None:
            context["after"] = found(
                selectors.session_get, club=club, session_id=after_id, with_tables=False
            )
        try:
            scope, scope_id = selectors.standings_scope(club=club, scope=scope, scope_id=raw_id)
        except NotFoundError:
            if not (scope == "season" and raw_id is None):
                raise
            scope_id = None  # a club without a season yet: the latest session alone
        if scope_id is not None:
            game_format = selectors.standings_format(scope=scope, game_format=asked_format)
            title = _projector_title(club, scope, scope_id, game_format)
            if context["after"] is not None:
                title += f" · after {context['after'].name}"
            board = _projector_board(club, scope, scope_id, after=after_id, game_format=game_format)
            boards.append({"title": title, "board": board, "live": False})
    except ServiceError as exc:
        context.update(error=error_context(exc), boards=[], any_tied=False)
        return context, service_status(exc)
    if not asked:
        latest = selectors.session_search(club=club).first()  # no counts: one row is wanted
        if latest is not None:
            board = _projector_board(club, "session", latest.pk, after=None)
            if board["lines"]:
                boards.insert(
                    0, {"title": latest.name, "board": board, "live": latest.status == "open"}
                )
    context["boards"] = boards
    context["any_tied"] = any(b["board"]["any_tied"] for b in boards)
    context["just_now"] = _just_now(boards[0]["board"]) if boards else None
    # Two boards side by side show one figure a line when their lines stand in two columns.
    for b in boards:
        crowded = len(boards) > 1 and len(b["board"]["columns"]) > 1
        b["figures"] = 1 if crowded or b["board"]["formats"] else 3
        b["show_formats"] = not crowded
    context["formats_apart"] = any(b["show_formats"] and b["board"]["formats"] for b in boards)
    # A screen asks again twice a page, so that no page is missed between two answers.
    context["live_every"] = min((b["board"]["turn"] for b in boards), default=10) / 2
    return context, 200


@GET
def public_projector(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = _public_club(club_slug)
    context, status = _projector_context(request, club)
    live = reverse("public-live", args=[club.slug]) + "?view=projector"
    context["live_url"] = live + (f"&{context['query']}" if context.get("query") else "")
    context["qr"] = _public_qr(request, club)
    return _render_public(request, club, "scoring/standings_projector.html", context, status)


def _public_qr(request: HttpRequest, club: Club) -> str:
    """The public standings page's address as a QR code (inline SVG), for a phone in the room."""
    url = request.build_absolute_uri(reverse("public-standings", args=[club.slug]))
    return qr_svg(url + "#find")


@public_fragment
@GET
def public_standings_fragment(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The live part of the public standings (or of the projector with ``?view=projector``)."""
    club = _public_club(club_slug)
    if request.GET.get("view") == "projector":
        context, status = _projector_context(request, club)
        template = "scoring/_standings_projector.html"
    else:
        context, status = _public_context(request, club)
        template = "scoring/_standings.html"
    response = _render_public(request, club, template, context, status)
    if context.get("after") is not None:
        response[LIVE_STOP] = "1"
    return response
