"""The public standings on a projector: a table longer than a screen turns its pages by itself,
its last change marked (the rows that moved, the "just now" band)."""

from __future__ import annotations

import time
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from clubs.page_kit.display import qr_svg
from clubs.page_kit.pages import (
    GET,
    error_context,
    found,
    service_status,
)
from config.errors import NotFoundError, ServiceError
from scoring import selectors
from scoring.formats import format_label
from standings import last_change, tables
from standings import selectors as standings_selectors
from standings.views.boards import (
    asked_scope,
    game_label,
    int_param,
    ordinal,
    public_club,
    render_public,
    standings_board,
)

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
        facts = tables.standings_facts(
            club=club, scope=scope, scope_id=scope_id, game_format=game_format
        )
        size = projector_page_size(facts.count)
        page = _turning_page(-(-facts.count // size))
        board = standings_board(
            club, scope, scope_id, page=page, per_page=size, after=None,
            game_format=game_format, facts=facts,
        )  # fmt: skip
        change = last_change.standings_last_change(
            club=club, scope=scope, scope_id=scope_id, order=board["metrics"],
            game_format=game_format,
        )  # fmt: skip
    else:  # a table as it stood is recomputed whole; its first page says how many there are
        size = PROJECTOR_ROWS * PROJECTOR_COLUMNS
        board = standings_board(
            club, scope, scope_id, page=1, per_page=size, after=after, game_format=game_format
        )
        if board["count"] <= PROJECTOR_ROWS:
            size = PROJECTOR_ROWS
        page = _turning_page(-(-board["count"] // size))
        if page != 1 or size == PROJECTOR_ROWS:
            board = standings_board(
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


def _mark_moves(board: dict[str, Any], change: last_change.LastChange | None) -> None:
    """Each line's move since the table's last ledger entry: ``up``/``down`` by so many places,
    ``new`` to the table, and whether the entry touched the player (``touched``). A line the
    entry did not touch moves only when a touched player passed it or fell behind it."""
    for shown, line in zip(board["lines"], board["table_lines"], strict=True):
        shown.update(move="", by=0, touched=False)
        if change is None:
            continue
        shown["touched"] = line.player_id in change.ranks
        if shown["touched"]:
            before = change.ranks[line.player_id][1]
            moved = 0 if before is None else line.rank - before
        else:
            before, moved = line.rank, change.places_moved(line)
        if before is None:
            shown["move"] = "new"
        elif moved:
            shown["move"] = "down" if moved > 0 else "up"
            shown["by"] = abs(moved)


def _just_now(board: dict[str, Any], club: Club) -> dict[str, Any] | None:
    """What the top of the projector says for ``PROJECTOR_JUST_NOW`` seconds after a change:
    the table, the deal, and where each player of it stands now and stood before. In a club
    that plays for points only, an entry of no deal (a fee, a prize: money) is not told."""
    change = board.get("change")
    if change is None or (timezone.now() - change.at).total_seconds() > PROJECTOR_JUST_NOW:
        return None
    if club.points_only and change.deal is None:
        return None
    moves = []
    for pid, (now, then) in sorted(change.ranks.items(), key=lambda item: item[1][0]):
        move = "new" if then is None else ("up" if then > now else "down" if then < now else "")
        moves.append(
            {"name": change.names[pid], "rank": ordinal(now), "move": move,
             "by": abs(then - now) if then is not None else 0}
        )  # fmt: skip
    return {"table": change.table, "deal": change.deal, "at": change.at, "moves": moves}


def _projector_title(club: Club, scope: str, scope_id: int, game_format: str) -> str:
    if scope == "season":
        season = found(selectors.season_get, club=club, season_id=scope_id)
        title = _("Season %(name)s") % {"name": season.name}
    elif scope == "session":
        title = found(selectors.session_get, club=club, session_id=scope_id, with_tables=False).name
    else:
        title = game_label(found(selectors.game_get, club=club, game_id=scope_id, with_seats=False))
    return f"{title} · {format_label(game_format)}" if game_format else title


def projector_context(request: HttpRequest, club: Club) -> tuple[dict[str, Any], int]:
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
        scope, raw_id, asked_format = asked_scope(request)
        after_id = int_param(request.GET.get("as_of_session"), "as_of_session")
        if after_id is not None:
            context["after"] = found(
                selectors.session_get, club=club, session_id=after_id, with_tables=False
            )
        try:
            scope, scope_id = standings_selectors.standings_scope(
                club=club, scope=scope, scope_id=raw_id
            )
        except NotFoundError:
            if not (scope == "season" and raw_id is None):
                raise
            scope_id = None  # a club without a season yet: the latest session alone
        if scope_id is not None:
            game_format = standings_selectors.standings_format(
                scope=scope, game_format=asked_format
            )
            title = _projector_title(club, scope, scope_id, game_format)
            if context["after"] is not None:
                title += " · " + _("after %(night)s") % {"night": context["after"].name}
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
    context["just_now"] = _just_now(boards[0]["board"], club) if boards else None
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
    club = public_club(club_slug, request)
    context, status = projector_context(request, club)
    live = reverse("public-live", args=[club.slug]) + "?view=projector"
    context["live_url"] = live + (f"&{context['query']}" if context.get("query") else "")
    context["qr"] = _public_qr(request, club)
    return render_public(request, club, "standings/standings_projector.html", context, status)


def _public_qr(request: HttpRequest, club: Club) -> str:
    """The public standings page's address as a QR code (inline SVG), for a phone in the room."""
    url = request.build_absolute_uri(reverse("public-standings", args=[club.slug]))
    return qr_svg(url + "#find")
