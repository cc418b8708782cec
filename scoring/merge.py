"""Merging two roster entries for one person: what the scoring app holds of the duplicate (seats,
dealt deals, ledger lines, results, standing rows, paid marks) becomes the kept player's.

The ledger is not rewritten: no entry is reversed or posted, every amount and balance stays as it
was; its lines name the kept player instead (PostgreSQL allows exactly that change, and only from a
player already marked merged into the one named). Called by ``tournaments.services.player_merge``,
which sees every app that holds a player's history (and replays the ratings)."""

from __future__ import annotations

from typing import Any

from django.db.models import Q, QuerySet

from clubs.models import Player
from ledger.models import Posting
from scoring.models import Deal, Game, PlayerResult, Seat, Submission, TransferPaid
from scoring.standing_rows import standings_rows_merge


def _first(rows: QuerySet[Any], field: str) -> int | None:
    """The lowest ``field`` of ``rows``: the one a refusal names."""
    return rows.values_list(field, flat=True).order_by(field).first()


def merge_blockers(*, source: Player, target: Player) -> list[tuple[str, str]]:
    """Why the scoring app cannot merge ``source`` into ``target`` now, as (code, message):
    a game both sat in (two people after all, or one person entered twice at a table, which a
    merge cannot make one seat), a game still in play or a result still waiting."""
    blockers: list[tuple[str, str]] = []
    shared = _first(Seat.objects.filter(player=source, game__seats__player=target), "game_id")
    if shared is not None:
        blockers.append(
            (
                "players_met",
                f"{source.name} and {target.name} both sat in game #{shared}: they are two "
                "people, or the game needs correcting first",
            )
        )
    open_game = _first(Seat.objects.filter(player=source, game__status=Game.Status.OPEN), "game_id")
    if open_game is not None:
        blockers.append(
            (
                "game_in_play",
                f"{source.name} sits in game #{open_game}, still in play: finish it (or remove "
                "the seat) first",
            )
        )
    waiting = _first(
        Submission.objects.filter(
            deal__game__seats__player=source,
            status__in=[Submission.Status.PENDING, Submission.Status.AWAITING_CONFIRMATION],
        ),
        "deal_id",
    )
    if waiting is not None:
        blockers.append(
            (
                "result_waiting",
                f"a result of deal #{waiting} ({source.name}'s) is still waiting for validation "
                "or confirmation",
            )
        )
    return blockers


def player_history_move(*, source: Player, target: Player) -> dict[str, int]:
    """Hand ``source``'s scoring history to ``target``; ``source`` must already be saved as
    merged into ``target`` (the database checks it) and the club's row locked. Returns the rows
    moved, by kind, for the audit."""
    moved = {
        "seats": Seat.objects.filter(player=source).update(player=target),
        "deals_dealt": Deal.objects.filter(dealer=source).update(dealer=target),
        "postings": Posting.objects.filter(player=source).update(player=target),
        "results": PlayerResult.objects.filter(player=source).update(player=target),
        "standing_rows": standings_rows_merge(
            club_id=target.club_id, source_id=source.pk, target_id=target.pk
        ),
    }
    moved["paid_marks"] = _paid_marks_move(source, target)
    return moved


def _paid_marks_move(source: Player, target: Player) -> int:
    """Paid marks naming the duplicate name the kept player (a mark is for one amount between
    two parties; where the kept player already has one for the same pair, theirs stays)."""
    old, new = f"player:{source.pk}", f"player:{target.pk}"
    moved = 0
    marks = TransferPaid.objects.filter(
        Q(payer=old) | Q(payee=old), session__club_id=target.club_id
    )
    for mark in marks.order_by("id"):
        payer = new if mark.payer == old else mark.payer
        payee = new if mark.payee == old else mark.payee
        taken = TransferPaid.objects.filter(session=mark.session_id, payer=payer, payee=payee)
        if payer == payee or taken.exists():
            mark.delete()
            continue
        mark.payer, mark.payee = payer, payee
        mark.save(update_fields=["payer", "payee"])
        moved += 1
    return moved
