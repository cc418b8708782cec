"""The deal page: a version's result (hands, groups, points, money), the reasons a version was
rejected marked on the cards or tiles they blame, the history of versions, and confirming one."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.views.decorators.http import require_POST

from clubs import selectors as club_selectors
from clubs.display import club_money, signed_number
from clubs.models import Club, Role
from clubs.pages import GET, can, club_for_page, club_url, found, render_club
from config.errors import ServiceError
from rules.indian.hand import why_every_card_counts
from rules.indian.preset import IndianPreset
from scoring import selectors, undo
from scoring.formats import handler_for
from scoring.forms import OUTCOME_WORDS, WIN_WORDS
from scoring.models import Deal, Game, Submission
from scoring.preset_rules import game_rules
from scoring.submissions import submission_confirm
from scoring.views.cards import card_view, cards_view, tiles_view
from scoring.views.common import LIVE_STOP, deal_status, submission_status

RUMMIKUB_OUTCOMES = {"winner": "Went out", "loser": "Lost", "no_winner": "Pool ran out"}
KIND_LABELS = {
    "pure_sequence": ("Pure sequence", "✓", "good"),
    "impure_sequence": ("Impure sequence", "✓", "good"),
    "set": ("Set", "✓", "good"),
    "invalid": ("Not a valid group", "✗", "bad"),
}


def _kind(kind: Any, outcome: Any, every_card_counts: bool) -> tuple[str, str, str]:
    """A group's kind as shown; a loser's unmatched cards are no mistake, they are what counts."""
    if kind == "invalid" and outcome not in ("winner", "valid_not_declared"):
        return ("Unmatched" if every_card_counts else "Unmatched: these count", "·", "muted")
    return KIND_LABELS.get(kind, (str(kind), "", ""))


COUNTING_REASONS = {
    "no_pure_sequence": "No pure sequence, so every card counts",
    "one_sequence": "One sequence only, so every card counts",
}


def _counting_note(hand: dict[str, Any], points: Any, indian: IndianPreset | None) -> str:
    """Why a loser's grouped cards count too, in words; empty when only the unmatched count."""
    kinds = [group.get("kind") for group in hand.get("groups", [])]
    reason = why_every_card_counts(kinds) if kinds and not hand.get("valid") else None
    if reason is None:
        return ""
    note = COUNTING_REASONS[reason]
    if reason == "one_sequence" and indian is not None and indian.pure_sequence_relief:
        note += " but the pure sequence"
    if indian is not None and points == indian.cap:
        note += f", up to {indian.cap}"
    return note + "."


def _hand_groups(line: dict[str, Any] | None) -> list[list[Any]]:
    if not line:
        return []
    if line.get("groups"):
        return [list(group) for group in line["groups"] if isinstance(group, list)]
    if line.get("cards"):
        return [list(line["cards"])]
    return []


def _reason_who(reason: dict[str, Any], names: dict[Any, str]) -> str:
    """The player a reason is about, unless its message already starts with the name."""
    who = reason.get("player_name") or names.get(reason.get("player")) or ""
    return "" if str(reason.get("message", "")).startswith(who) else who


def _marked_hand(line: dict[str, Any] | None, reasons: list[dict[str, Any]]) -> list[dict]:
    """A player's cards as entered, with what the reasons blame marked: a whole group
    (``details.group``), one card (``details.position`` in its group) or every copy of a token."""
    groups = _hand_groups(line)
    bad_groups = set()
    bad_spots = set()
    bad_tokens = set()
    for reason in reasons:
        details = reason.get("details") or {}
        group = details.get("group")
        position = details.get("position")
        if isinstance(group, int) and isinstance(position, int):
            bad_spots.add((group, position))
        elif isinstance(group, int):
            bad_groups.add(group)
        elif isinstance(position, int) and len(groups) == 1:
            bad_spots.add((0, position))
        # Every invalid group of a declaration is named, not only the first.
        bad_groups.update(g for g in details.get("groups") or [] if isinstance(g, int))
        token = reason.get("token") or details.get("card")
        if isinstance(token, str) and reason.get("code") in {"bad_card", "too_many_copies"}:
            bad_tokens.add(card_view(token).code.upper())
    shown = []
    for g, group in enumerate(groups):
        cards = []
        for p, token in enumerate(group):
            card = card_view(token)
            bad = (g, p) in bad_spots or card.code.upper() in bad_tokens
            cards.append({"card": card, "bad": bad})
        shown.append({"index": g + 1, "cards": cards, "bad": g in bad_groups})
    return shown


def _rummikub_result(club: Club, game: Game, submission: Submission, names: dict) -> dict:
    """A game of a Rummikub match as the deal page shows it: each rack and score, how it was
    won, and a closed hand's type and arrangement; a rejected version's racks with the tile the
    reasons name marked."""
    result = submission.result or {}
    payload = submission.payload or {}
    view: dict[str, Any] = {"rummikub": True}
    rate = game.point_value_minor if result.get("variant") != "international" else 0
    if result:
        view["players"] = [
            {
                "name": line.get("name") or names.get(line.get("player"), "?"),
                "outcome": RUMMIKUB_OUTCOMES.get(line.get("outcome"), line.get("outcome")),
                "won": line.get("outcome") == "winner",
                "points": signed_number(line.get("points")),
                "points_value": line.get("points") or 0,
                "tiles": tiles_view(line.get("rack")),
                "money": club_money(club, (line.get("points") or 0) * rate, signed=True)
                if rate
                else "",
            }
            for line in result.get("players", [])
        ]
        view["has_money"] = bool(rate)
        view["win"] = WIN_WORDS.get(result.get("win") or "", "")
        if result.get("winner") is None:
            view["win"] = "Nobody went out: the pool ran out"
        closed = result.get("closed_hand")
        if closed:
            view["closed"] = {
                "name": closed.get("name"),
                "type": closed.get("type"),
                "value": closed.get("value"),
                "jokers": closed.get("jokers"),
                "melds": [tiles_view(meld) for meld in closed.get("arrangement") or []],
            }
    elif submission.reasons:
        bad = {str(r.get("token")).upper() for r in submission.reasons if r.get("token")}
        racks = payload.get("racks") if isinstance(payload.get("racks"), dict) else {}
        view["racks"] = [
            {"name": names.get(int(pid), pid) if str(pid).isdigit() else pid,
             "tiles": tiles_view(tiles, bad)}
            for pid, tiles in racks.items()
            if isinstance(tiles, list) and tiles
        ]  # fmt: skip
        if isinstance(payload.get("closed_hand"), list):
            view["closed_entered"] = tiles_view(payload["closed_hand"], bad)
    return view


def _result_view(
    club: Club,
    submission: Submission,
    seats: list[Any],
    game: Game | None = None,
    aliases: dict[int, int] | None = None,
) -> dict[str, Any]:
    """One version's result as the deal page shows it."""
    aliases = aliases or {}
    payload_lines = {
        line.get("player"): line for line in (submission.payload or {}).get("results", [])
    }
    names = {seat.player_id: seat.player.name for seat in seats}
    # A result entered before a merge names the merged player's old id.
    names.update({old: names[kept] for old, kept in aliases.items() if kept in names})
    view: dict[str, Any] = {
        "submission": submission,
        "status": submission_status(submission),
        "wild": card_view(
            (submission.result or {}).get("wild") or submission.payload.get("wild") or ""
        )
        if ((submission.result or {}).get("wild") or submission.payload.get("wild"))
        else None,
    }
    if game is not None and handler_for(game).entered_as == "racks":
        view.update(_rummikub_result(club, game, submission, names))
    elif submission.result:
        money = (submission.result.get("money") or {}).get("by_player", {})
        indian = game_rules(game.preset).indian if game is not None else None
        players = []
        for line in submission.result.get("players", []):
            hand = line.get("hand") or {}
            note = (
                _counting_note(hand, line.get("points"), indian)
                if line.get("outcome") == "loser"
                else ""
            )
            players.append(
                {
                    "name": line.get("name") or names.get(line.get("player"), "?"),
                    "outcome": OUTCOME_WORDS.get(line.get("outcome"), line.get("outcome")),
                    "won": line.get("outcome") == "winner",
                    "points": line.get("points"),
                    "basis": line.get("basis"),
                    "money": club_money(club, money[str(line["player"])], signed=True)
                    if str(line.get("player")) in money
                    else "",
                    "valid": hand.get("valid"),
                    "counting_note": note,
                    "groups": [
                        {
                            "cards": cards_view(group.get("cards")),
                            "kind": _kind(group.get("kind"), line.get("outcome"), bool(note)),
                        }
                        for group in hand.get("groups", [])
                    ],
                }
            )
        view["players"] = players
        view["has_money"] = bool(money)
    if submission.reasons:
        by_player: dict[Any, list[dict[str, Any]]] = {}
        for reason in submission.reasons:
            by_player.setdefault(reason.get("player"), []).append(reason)
        view["reasons"] = [
            {
                "reason": reason,
                "who": _reason_who(reason, names),
                "token": reason.get("token"),
            }
            for reason in submission.reasons
        ]
        view["hands"] = [
            {
                "name": names.get(pid, str(pid)),
                "groups": _marked_hand(payload_lines.get(pid), reasons),
            }
            for pid, reasons in by_player.items()
            if pid is not None and _hand_groups(payload_lines.get(pid))
        ]
    return view


def _deal_context(request: HttpRequest, club: Club, deal: Deal) -> tuple[dict[str, Any], bool]:
    game = found(selectors.game_get, club=club, game_id=deal.game_id)
    seats = list(game.seats.all())
    submissions = list(selectors.submission_list(deal=deal))
    chosen = None
    wanted = request.GET.get("v")
    if wanted and wanted.isdigit():
        chosen = next((s for s in submissions if s.pk == int(wanted)), None)
    if chosen is None and submissions:
        chosen = submissions[-1]
    words = handler_for(game).words
    history = []
    for submission in reversed(submissions):
        signed = words.signed_points
        points = [
            f"{line.get('name')} "
            + (signed_number(line.get("points")) if signed else str(line.get("points")))
            for line in (submission.result or {}).get("players", [])
        ]
        history.append(
            {
                "submission": submission,
                "status": submission_status(submission),
                "who": submission.submitted_by.get_username() if submission.submitted_by else "",
                "points": " · ".join(points),
                "reasons": len(submission.reasons or []),
                "url": club_url("deal-page", club, deal.pk) + f"?v={submission.pk}#result",
                "chosen": submission == chosen,
                "can_confirm": submission.status == Submission.Status.AWAITING_CONFIRMATION
                and can(club, Role.SCORER)
                and submission.submitted_by_id != request.user.pk,
            }
        )
    pending = any(s.status == Submission.Status.PENDING for s in submissions)
    session_open = game.table.session.status == "open"
    next_url = ""
    if (
        session_open
        and game.status == Game.Status.OPEN
        and deal.status == Deal.Status.FINAL
        and not game.deals.filter(number__gt=deal.number).exists()
        and can(club, Role.SCORER)
    ):
        next_url = club_url("deal-new", club, game.pk)
    context = {
        "deal": deal,
        "game": game,
        "words": words,
        "next_url": next_url,
        "can_void": session_open
        and deal.status != Deal.Status.VOID
        and not pending
        and can(club, Role.ORGANISER),
        "can_delete": session_open
        and deal.status == Deal.Status.OPEN
        and not submissions
        and can(club, Role.ORGANISER),
        "session": game.table.session,
        "table": game.table,
        "deal_status": deal_status(deal, submissions[-1] if submissions else None),
        "wild": card_view(deal.wild) if deal.wild else None,
        "history": history,
        "chosen": _result_view(club, chosen, seats, game, club_selectors.player_aliases(club=club))
        if chosen
        else None,
        "pending": pending,
        "can_correct": session_open and can(club, Role.SCORER),
        "fragment_url": club_url("deal-fragment", club, deal.pk)
        + (f"?v={chosen.pk}" if chosen else ""),
    }
    return context, pending


@login_required
@GET
def deal_page(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    context, _ = _deal_context(request, club, deal)
    return render_club(request, club, "scoring/deal.html", context)


@login_required
@GET
def deal_fragment(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """The deal's result and history, polled while a version is being checked."""
    club = club_for_page(request, club_slug)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    context, pending = _deal_context(request, club, deal)
    response = render_club(request, club, "scoring/_deal_body.html", context)
    if not pending:
        response[LIVE_STOP] = "1"
    return response


@login_required
@require_POST
def deal_void(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Void a deal that was never played; back to the session page when asked from there."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    counted = deal.status != Deal.Status.OPEN
    try:
        undo.deal_void(deal=deal, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        reversed_ = " Its result is reversed in the ledger." if counted else ""
        messages.success(
            request, f"Deal {deal.number} is voided: it counts for nothing.{reversed_}"
        )
    if request.POST.get("next") == "session":
        return redirect(club_url("session-page", club, deal.game.table.session_id) + "#close")
    return redirect(club_url("game-page", club, deal.game_id))


@login_required
@require_POST
def submission_confirm_view(
    request: HttpRequest, club_slug: str, submission_id: int
) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    submission = found(selectors.submission_get, club=club, submission_id=submission_id)
    try:
        submission = submission_confirm(submission=submission, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"Version {submission.version} is confirmed and counts.")
    return redirect(club_url("deal-page", club, submission.deal_id) + f"?v={submission.pk}#result")


@login_required
@require_POST
def deal_delete(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Delete a deal opened by mistake (no result ever entered)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    try:
        undo.deal_delete(deal=deal, actor=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(club_url("deal-page", club, deal.pk))
    messages.success(request, f"Deal {deal.number} is deleted.")
    return redirect(club_url("game-page", club, deal.game_id))
