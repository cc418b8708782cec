"""What the standings pages share: a ranked table as a page shows it (its lines, ranks shared with
a neighbour, its cells in words), the table a request asks for with the lists to choose from,
and a public page's club and rendering."""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs import selectors as club_selectors
from clubs.models import Club
from clubs.page_kit.display import club_money, signed_number
from clubs.page_kit.pages import (
    error_context,
    found,
    service_status,
)
from config.errors import InvalidInput, ServiceError
from config.language import use_club_language
from config.locale_format import format_ordinal
from scoring import selectors
from scoring.formats import format_label
from scoring.models import Game
from standings import recompute, tables
from standings import selectors as standings_selectors
from standings.metrics import metric_order

PER_PAGE = 25
SCOPE_WORDS = {
    "season": gettext_noop("Season"),
    "session": gettext_noop("Session"),
    "game": gettext_noop("Game"),
}


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


def int_param(raw: str | None, name: str) -> int | None:
    if raw in (None, ""):
        return None
    assert raw is not None
    if not raw.strip().isdigit():
        words = _("%(value)s is not a whole number") % {"value": repr(raw)}
        raise InvalidInput(f"{name}: {words}")
    return int(raw)


def asked_scope(request: HttpRequest) -> tuple[str, int | None, str | None]:
    """The scope a page asks for, and the game format: ``?table=session:12`` or
    ``?table=season:3:rummikub`` (the page's one list) or, as in the API,
    ``?scope=season&id=3&game_format=rummikub``; nothing asked is the current season."""
    picked = request.GET.get("table", "")
    if ":" in picked:
        scope, _, rest = picked.partition(":")
        raw, _, game_format = rest.partition(":")
        return scope, int_param(raw, "table"), game_format
    return (
        request.GET.get("scope") or "season",
        int_param(request.GET.get("id"), "id"),
        request.GET.get("game_format"),
    )


def _table_value(scope: str, scope_id: int, game_format: str = "") -> str:
    return f"{scope}:{scope_id}:{game_format}" if game_format else f"{scope}:{scope_id}"


def _scope_title(club: Club, scope: str, scope_id: int, choices: Any) -> str:
    if scope == "season":
        season = next((s for s in choices.seasons if s.pk == scope_id), None)
        return _("Season %(name)s") % {"name": season.name} if season else _("Season")
    if scope == "session":
        session = next((s for s in choices.sessions if s.pk == scope_id), None)
        session = session or found(
            selectors.session_get, club=club, session_id=scope_id, with_tables=False
        )
        return session.name
    game = next((g for g in choices.games if g.pk == scope_id), None)
    game = game or found(selectors.game_get, club=club, game_id=scope_id, with_seats=False)
    return game_label(game)


def game_label(game: Game) -> str:
    return _("%(format)s at %(table)s · %(night)s") % {
        "format": game.get_format_display(), "table": game.table.name,
        "night": game.table.session.name,
    }  # fmt: skip


def _standing_lines(
    club: Club, table: tables.StandingsTable, lines: list[Any], offset: int, more: Any
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


def standings_board(
    club: Club,
    scope: str,
    scope_id: int,
    *,
    page: int,
    per_page: int,
    after: int | None,
    game_format: str = "",
    facts: tables.ScopeFacts | None = None,
) -> dict[str, Any]:
    """One ranked table: a page of it, and whether there are more (``facts``: the table's, where
    the caller has read them)."""
    offset = (page - 1) * per_page
    if after is not None:
        entry = standings_selectors.ledger_entry_as_of(club=club, session_id=after)
        table = recompute.standings_table_as_of(
            club=club, scope=scope, scope_id=scope_id, as_of_entry=entry, game_format=game_format
        )
        lines = table.lines[offset : offset + per_page + 1]
    else:
        table = tables.standings_table(
            club=club, scope=scope, scope_id=scope_id, limit=per_page + 1, offset=offset,
            game_format=game_format, facts=facts,
        )  # fmt: skip
        lines = table.lines
    more = lines[per_page] if len(lines) > per_page else None
    lines = lines[:per_page]
    shown = _standing_lines(club, table, lines, offset, more)
    return {
        "metrics": table.metrics,
        "metric_labels": [_(metric.label) for metric in table.metrics],
        "left_out": [_(metric.label) for metric in table.left_out],
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
        season_words = _("Season %(name)s") % {"name": season.name}
        seasons.append(item(_table_value("season", season.pk), season_words))
        formats = choices.season_formats.get(season.pk, [])
        if len(formats) > 1:
            seasons += [
                item(_table_value("season", season.pk, f),
                     f"{season_words} · {format_label(f)}")
                for f in formats
            ]  # fmt: skip
    groups = [
        {"label": _("Seasons"), "items": seasons},
        {"label": _("Nights"), "items": [item(_table_value("session", s.pk), s.name, s.started_at)
                                        for s in choices.sessions]},
        {"label": _("Games"), "items": [item(_table_value("game", g["game"].pk), g["label"])
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
        label = format_label(value) if value else _("All formats")
        tabs.append({"label": label, "url": "?" + query.urlencode(), "selected": value == picked})
    return tabs


def _refused(
    context: dict[str, Any], choices: Any, exc: ServiceError
) -> tuple[dict[str, Any], int]:
    """The page as a service's refusal leaves it: the error, and the lists to choose again."""
    context["error"] = error_context(exc)
    context.update(scope="", scope_id=None, title="Standings", after=None)
    context["options"] = _scope_options(choices, context["games"], "")
    context["after_options"] = [
        {"value": str(s.pk), "session": s, "selected": False} for s in choices.sessions
    ]
    return context, service_status(exc)


def _choosing(
    request: HttpRequest,
    context: dict[str, Any],
    shown: tuple[str, int, str],
    title: str,
    after: int | None,
) -> None:
    """The lists to choose another table from, the one shown picked (listed first when the lists
    do not hold it), and the season's format tabs."""
    scope, scope_id, game_format = shown
    choices = context["choices"]
    formats = choices.season_formats.get(scope_id, []) if scope == "season" else []
    context["format_tabs"] = _format_tabs(request, scope_id, formats, game_format)
    context["game_format"] = game_format
    picked = _table_value(scope, scope_id, game_format)
    context["options"] = _scope_options(choices, context["games"], picked)
    if not any(item["selected"] for group in context["options"] for item in group["items"]):
        item = {"value": picked, "label": title, "when": None, "selected": True}
        context["options"].insert(0, {"label": _("Shown"), "items": [item]})
    context["after_options"] = [
        {"value": str(s.pk), "session": s, "selected": s.pk == after} for s in choices.sessions
    ]


def _found_lines(
    request: HttpRequest, club: Club, shown: tuple[str, int, str], name: str, per_page: int
) -> list[dict[str, Any]]:
    """The players a search names, each with their rank and a link to their page's line."""
    scope, scope_id, game_format = shown
    return [
        {
            "name": line.name,
            "rank": ordinal(line.rank),
            "url": _page_link(request, (line.rank - 1) // per_page + 1, without=("find",))
            + f"#p-{line.player_id}",
        }
        for line in tables.standings_find(
            club=club, scope=scope, scope_id=scope_id, name=name, game_format=game_format
        )
    ]


def standings_context(
    request: HttpRequest, club: Club, *, per_page: int | None = None
) -> tuple[dict[str, Any], int]:
    """The standings a page asks for (scope, page, "as it stood after session S"), the lists to
    choose from, and a service's refusal as the page's error."""
    per_page = per_page or PER_PAGE
    choices = standings_selectors.standings_choices(club=club)
    context: dict[str, Any] = {
        "choices": choices,
        "games": [{"game": g, "label": game_label(g)} for g in choices.games],
        "board": None,
        "error": None,
        "updated_at": timezone.now(),
        "metric_labels": [_(m.label) for m in metric_order(club)],
    }
    status = 200
    try:
        scope, raw_id, asked_format = asked_scope(request)
        page = max(1, int_param(request.GET.get("page"), "page") or 1)
        after = int_param(request.GET.get("as_of_session"), "as_of_session")
        if scope == "season" and raw_id is None and not choices.seasons:
            context.update(scope="season", scope_id=None, title="This season", after=None)
            return context, status
        scope, scope_id = standings_selectors.standings_scope(
            club=club, scope=scope, scope_id=raw_id
        )
        game_format = standings_selectors.standings_format(scope=scope, game_format=asked_format)
        board = standings_board(
            club, scope, scope_id, page=page, per_page=per_page, after=after,
            game_format=game_format,
        )  # fmt: skip
    except ServiceError as exc:
        return _refused(context, choices, exc)
    title = _scope_title(club, scope, scope_id, choices)
    if game_format:
        title += f" · {format_label(game_format)}"
    shown = (scope, scope_id, game_format)
    _choosing(request, context, shown, title, after)
    after_session = None
    if after is not None:
        after_session = next((s for s in choices.sessions if s.pk == after), None) or found(
            selectors.session_get, club=club, session_id=after, with_tables=False
        )
    context.update(
        scope=scope,
        scope_id=scope_id,
        scope_word=_(SCOPE_WORDS.get(scope, scope)),
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
        context["found"] = _found_lines(request, club, shown, context["find"], per_page)
    return context, status


def ordinal(rank: int) -> str:
    """A rank in the page's language (1st, पहला, 1, 1., 1e)."""
    return format_ordinal(rank)


def public_club(club_slug: str, request: HttpRequest | None = None) -> Club:
    """The club of a public page; with the ``request``, the page speaks the club's language
    (unless the visitor chose their own)."""
    club: Club = found(club_selectors.club_get_public, slug=club_slug)
    if request is not None:
        use_club_language(request, club.language)
    return club


def render_public(
    request: HttpRequest, club: Club, template: str, context: dict[str, Any], status: int = 200
) -> HttpResponse:
    with timezone.override(club.timezone):
        return render(request, template, {"club": club, **context}, status=status)
