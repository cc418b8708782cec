"""Building games and playing deals through the services, as a scorer would."""

from __future__ import annotations

from typing import Any

from django.test import TestCase

from clubs.models import Player
from ledger.models import LedgerEntry
from scoring import selectors
from scoring.club_settings import preset_create
from scoring.deals import deal_create_with_result, submission_create
from scoring.games import game_create, table_create
from scoring.models import Deal, Game, RulePreset, Submission
from scoring.nights import session_create
from tests.conftest import Standing


def new_game(
    standing: Standing,
    preset_key: str,
    names: list[str],
    *,
    entry_fee_minor: int = 0,
    point_value_minor: int = 0,
    params: dict[str, Any] | None = None,
) -> tuple[Game, dict[str, int]]:
    club = standing.club
    players = {
        name: (
            club.players.filter(name=name).first() or Player.objects.create(club=club, name=name)
        )
        for name in names
    }
    preset = RulePreset.objects.get(club=None, key=preset_key)
    if params is not None:
        preset = preset_create(
            club=club, actor=standing.owner, key=f"{preset_key}-custom", name="Custom",
            format=preset.format, variant=preset.variant, params=params,
        )  # fmt: skip
    session = session_create(club=club, actor=standing.organiser, name="Night")
    table = table_create(session=session, actor=standing.organiser)
    game = game_create(
        table=table, actor=standing.organiser, preset=preset,
        players=[players[name] for name in names],
        entry_fee_minor=entry_fee_minor, point_value_minor=point_value_minor,
    )  # fmt: skip
    return game, {name: player.pk for name, player in players.items()}


def enter_deal(
    game: Game,
    actor: Any,
    payload: dict[str, Any],
    *,
    wild: str = "",
    source: str = "api",
    tiebreaker: bool = False,
) -> tuple[Deal, Submission | None]:
    """Start the game's next deal with this result, as the pages and the API do; the validation
    task runs on commit."""
    with TestCase.captureOnCommitCallbacks(execute=True):
        return deal_create_with_result(
            game=game, actor=actor, wild=wild, dealer=None, number=None,
            is_tiebreaker=tiebreaker, source=source, payload=payload,
        )  # fmt: skip


def play(
    standing: Standing,
    game: Game,
    payload: dict[str, Any],
    *,
    tiebreaker: bool = False,
    expect: str = "accepted",
) -> Submission:
    """Start the next deal with this result; the validation task runs on commit."""
    _, submission = enter_deal(game, standing.scorer, payload, tiebreaker=tiebreaker)
    assert submission is not None
    submission.refresh_from_db()
    assert submission.status == expect, submission.reasons
    return submission


def correct(standing: Standing, deal: Deal, payload: dict[str, Any]) -> Submission:
    with TestCase.captureOnCommitCallbacks(execute=True):
        submission = submission_create(
            deal=deal, actor=standing.scorer, source="api", payload=payload
        )
    submission.refresh_from_db()
    return submission


def results(ids: dict[str, int], **lines: Any) -> dict[str, Any]:
    """``results(ids, Asha="winner", Bilal=30, Chitra="first_drop")``: an int is the count against
    a loser."""
    out = []
    for name, line in lines.items():
        if isinstance(line, int):
            out.append({"player": ids[name], "outcome": "loser", "against": line})
        else:
            out.append({"player": ids[name], "outcome": line})
    return {"results": out}


def state(game: Game) -> dict[str, Any]:
    """The game's state as the API gives it."""
    game.refresh_from_db()
    return selectors.game_state(game=game).as_dict()


def by_name(state_: dict[str, Any], field: str) -> dict[str, Any]:
    return {line["name"]: line[field] for line in state_["players"]}


def ledger_balanced(game: Game | None = None) -> bool:
    """Every ledger entry (of ``game``, or of all games) sums to zero per quantity."""
    entries = LedgerEntry.objects.all()
    if game is not None:
        entries = entries.filter(book__game=game)
    for entry in entries.prefetch_related("postings"):
        sums: dict[str, int] = {}
        for posting in entry.postings.all():
            sums[posting.quantity] = sums.get(posting.quantity, 0) + posting.amount
        if any(sums.values()):
            return False
    return True
