"""Entering a deal's result: the next deal (or the tie-breaker deal) of a game, and a new version
of an existing deal (a correction), with the form, template and script settings of the game's
format."""

from __future__ import annotations

import re
from functools import partial
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors as club_selectors
from clubs.models import Club, Role
from clubs.page_kit.pages import club_for_page, club_url, form_post_once, found, render_club
from config.errors import Conflict, ServiceError
from scoring import selectors
from scoring.deals import deal_create_with_result, submission_create
from scoring.formats import handler_for
from scoring.formats.base import EntryForm
from scoring.formats.reads import rejected_new_deal
from scoring.formats.reason_words import reason_words
from scoring.models import Deal, Game, Submission
from scoring.preset_rules import game_rules
from scoring.views.common import LIVE_STOP, deal_status, reason_who


def entry_page(
    request: HttpRequest,
    club: Club,
    game: Game,
    form: EntryForm,
    *,
    deal: Deal | None,
    number: int,
    tiebreaker: bool = False,
    rejected: Deal | None = None,
    error: dict[str, str] | None = None,
    status: int = 200,
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    handler = handler_for(game)
    lines = form.lines()
    context: dict[str, Any] = {
        "game": game,
        "words": handler.words,
        "session": game.table.session,
        "table": game.table,
        "deal": deal,
        "number": number,
        "form": form,
        "lines": lines,
        # The players of a tie-breaker, named in one sentence.
        "line_names": ", ".join(str(line["name"]) for line in lines),
        "error": error,
        "is_correction": deal is not None and deal.submissions.exists(),
        # A new deal's entry goes to this rejected deal (``deals.deal_create_with_result``).
        "rejected": rejected,
        "tiebreaker": tiebreaker or (deal is not None and deal.is_tiebreaker),
    }
    context.update(handler.entry_context(game=game, rules=game_rules(game.preset), form=form))
    context["entry_live"] = entry_live_context(game)
    context.update(extra or {})  # the table's own page (``scoring.views.table``)
    return render_club(request, club, handler.entry_template, context, status)


@login_required
@require_http_methods(["GET", "HEAD"])
def entry_live(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """The live part of an entry page: the game's newest deals, so that a deal entered
    elsewhere while this one is typed (another device at the table, the desk) is seen."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    response = render_club(request, club, "scoring/_entry_live.html", entry_live_context(game))
    if game.status != Game.Status.OPEN:
        response[LIVE_STOP] = "1"
    return response


def entry_live_context(game: Game) -> dict[str, Any]:
    deals = selectors.deal_list_newest(game=game)
    return {
        "game": game,
        "newest": [{"deal": deal, "status": deal_status(deal, None)} for deal in deals],
        "unit": handler_for(game).words.unit,
    }


def entry_form(
    game: Game, players: dict[int, str], data: Any = None, initial: Any = None
) -> EntryForm:
    rules = game_rules(game.preset)
    return handler_for(game).entry_form(rules=rules, players=players, data=data, initial=initial)


# The fields of the entry form a refusal may name.
ENTRY_FIELDS = {"wild", "dealer"}


def _rejected(game: Game, tiebreaker: bool) -> Deal | None:
    """The rejected deal a new entry of this kind goes to (``deals.deal_create_with_result``):
    the page names its number and checks the entry against it."""
    again = rejected_new_deal(game)
    return again if again is not None and again.is_tiebreaker == tiebreaker else None


def _deal_start(request: HttpRequest, club: Club, game: Game, *, tiebreaker: bool) -> HttpResponse:
    """Enter the next deal of a game (or its tie-breaker deal, between the players level at the
    top): the deal and its first version in one step."""
    skip_check = not tiebreaker or request.method == "POST"
    state = None if skip_check else selectors.game_state(game=game)
    if state is not None and not handler_for(game).tiebreaker_due(state=state):
        messages.error(request, _("No tie-breaker deal is due in this game."))
        return redirect(club_url("game-page", club, game.pk))
    again = _rejected(game, tiebreaker)
    if again is not None:
        number = again.number
    else:
        number = (selectors.deal_list(game=game).last().number + 1) if game.deals.exists() else 1
    players = selectors.deal_entry_players(game=game, deal=again, is_tiebreaker=tiebreaker)
    page = partial(
        entry_page, request, club, game, deal=None, number=number, tiebreaker=tiebreaker,
        rejected=again,
    )  # fmt: skip
    if request.method != "POST":
        return page(entry_form(game, players))
    form = entry_form(game, players, request.POST)

    def create() -> HttpResponse:
        _expected_number_check(request, game, number)
        wild, dealer_id = form.deal_fields()
        dealer = club_selectors.player_get(club=club, player_id=dealer_id) if dealer_id else None
        deal, submission = deal_create_with_result(
            game=game,
            actor=request.user,
            wild=wild,
            dealer=dealer,
            number=None,
            is_tiebreaker=tiebreaker,
            source=Submission.Source.WEB,
            payload=form.payload(),
            club=club,
        )
        return _after_submit(club, deal, submission)

    return form_post_once(request, form, create, partial(page, form), fields=ENTRY_FIELDS)


def _expected_number_check(request: HttpRequest, game: Game, number: int) -> None:
    """A deal kept on a device while offline is sent with the number its page gave it
    (static/js/offline-entry.js): if the game has moved on meanwhile (an entry made elsewhere),
    it is refused rather than stored under another number. Checked after the form's token is
    claimed, so a deal sent again after its answer was lost is answered as the first time."""
    expected = request.POST.get("expected_number", "")
    if expected.isdigit() and int(expected) != number:
        unit, moved_on = handler_for(game).words.unit, number > int(expected)
        if unit == "game" and moved_on:
            said = _(
                "This was typed as game %(expected)s, but game %(number)s is the game's next "
                "game now: game %(expected)s was entered elsewhere meanwhile. Open the game "
                "to check, then send this one as the next game or discard it."
            )
        elif unit == "game":
            said = _(
                "This was typed as game %(expected)s, but game %(number)s is the game's next "
                "game now: an earlier game was rejected, so game %(number)s is still to "
                "enter. Open the game to check, then send this one as the next game or "
                "discard it."
            )
        elif moved_on:
            said = _(
                "This was typed as deal %(expected)s, but deal %(number)s is the game's next "
                "deal now: deal %(expected)s was entered elsewhere meanwhile. Open the game "
                "to check, then send this one as the next deal or discard it."
            )
        else:
            said = _(
                "This was typed as deal %(expected)s, but deal %(number)s is the game's next "
                "deal now: an earlier deal was rejected, so deal %(number)s is still to "
                "enter. Open the game to check, then send this one as the next deal or "
                "discard it."
            )
        raise Conflict(said % {"expected": expected, "number": number}, code="deal_number_moved")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_new(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """Enter the next deal of a game (the next game of a Rummikub match)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    return _deal_start(request, club, game, tiebreaker=False)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_tiebreaker(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    """The tie-breaker deal of a deals game, between the players level on chips at the top."""
    club = club_for_page(request, club_slug, Role.SCORER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    return _deal_start(request, club, game, tiebreaker=True)


def _after_submit(club: Club, deal: Deal, submission: Submission | None) -> HttpResponse:
    url = club_url("deal-page", club, deal.pk)
    if submission is not None:
        url += f"?v={submission.pk}"
    return redirect(url + "#result")


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def deal_result(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    """Enter a result for an existing deal: its first, or a correction (a new version that starts
    from the newest one)."""
    club = club_for_page(request, club_slug, Role.SCORER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    game = found(selectors.game_get, club=club, game_id=deal.game_id)
    players = selectors.deal_entry_players(game=game, deal=deal)
    page = partial(entry_page, request, club, game, deal=deal, number=deal.number)
    if request.method != "POST":
        latest = selectors.submission_list(deal=deal).last()
        payload = latest.payload if latest else None
        initial = handler_for(game).entry_initial(
            payload=payload, wild=deal.wild, aliases=club_selectors.player_aliases(club=club)
        )
        return page(entry_form(game, players, initial=initial))
    form = entry_form(game, players, request.POST)

    def correct() -> HttpResponse:
        submission = submission_create(
            deal=deal, actor=request.user, source=Submission.Source.WEB, payload=form.payload()
        )
        return _after_submit(club, deal, submission)

    return form_post_once(request, form, correct, partial(page, form), fields=ENTRY_FIELDS)


# --- the deal as typed, checked by the server -----------------------------------------------

_PLAYER_FIELD = re.compile(r"^p(\d+)-(\w+)$")


def _form_problems(form: EntryForm, players: dict[int, str]) -> list[str]:
    """A form's own errors in words that name the player and the field."""
    problems = []
    for field, errors in form.errors.items():
        seat = _PLAYER_FIELD.match(field)
        if field == "__all__":
            where = ""
        elif seat is not None:
            where = f"{players.get(int(seat[1]), '?')}'s {seat[2].replace('_', ' ')}: "
        else:
            where = f"{field.replace('_', ' ')}: "
        problems += [f"{where}{error}" for error in errors]
    return problems


def check_answer(
    request: HttpRequest, game: Game, *, deal: Deal | None = None, is_tiebreaker: bool = False
) -> JsonResponse:
    """The entry page's script asks this as it is typed: the form as it stands, read and then
    checked by the game's rules exactly as a submitted version would be; nothing is stored. Every
    problem names the player and the card, group or field; ``points`` what each line scores."""
    try:
        players = selectors.deal_entry_players(game=game, deal=deal, is_tiebreaker=is_tiebreaker)
        form = entry_form(game, players, request.POST)
        if not form.is_valid():
            problems = _form_problems(form, players)
            return JsonResponse({"ok": False, "problems": problems, "points": {}})
        wild, _dealer = form.deal_fields()
        checked = selectors.deal_check(
            game=game, players=players, payload=form.payload(), wild=wild, deal=deal,
            is_tiebreaker=is_tiebreaker,
        )  # fmt: skip
    except ServiceError as exc:  # the game takes no deal now (finished, a deal waiting)
        return JsonResponse({"ok": False, "problems": [exc.message], "points": {}})
    problems = [
        f"{who}: {reason_words(reason)}" if (who := reason_who(reason, players)) else
        reason_words(reason)
        for reason in checked.reasons
    ]  # fmt: skip
    points = {str(pid): value for pid, value in checked.evaluation.points().items()}
    return JsonResponse({"ok": not problems, "problems": problems, "points": points})


@login_required
@require_http_methods(["POST"])
def deal_new_check(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    return check_answer(request, game, deal=_rejected(game, False))


@login_required
@require_http_methods(["POST"])
def deal_tiebreaker_check(request: HttpRequest, club_slug: str, game_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    game = found(selectors.game_get, club=club, game_id=game_id)
    return check_answer(request, game, deal=_rejected(game, True), is_tiebreaker=True)


@login_required
@require_http_methods(["POST"])
def deal_result_check(request: HttpRequest, club_slug: str, deal_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.SCORER)
    deal = found(selectors.deal_get, club=club, deal_id=deal_id)
    game = found(selectors.game_get, club=club, game_id=deal.game_id)
    return check_answer(request, game, deal=deal)
