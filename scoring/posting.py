"""Posting to the ledger, with what comes with an entry: a counted deal's player results and the
standings. The one writer of both: an entry posted here adds its player amounts and results to
the standing rows in the same transaction, and reversing an entry takes both back, so the kept
rows always equal ``standings.recompute.standings_recompute``."""

from __future__ import annotations

from collections.abc import Iterable

from config.bulk_rows import rows_insert
from ledger.models import LedgerEntry
from ledger.writer import Line, ledger_entries_write, ledger_entry_write, mirror_lines
from rules.errors import InvariantError
from scoring.models import Deal, Game, PlayerResult, SessionAccount, Submission
from scoring.standing_rows import standings_apply, standings_apply_account, standings_apply_games

#: One player's counted result of a deal: player id, outcome, points, won.
DealResult = tuple[int, str, int, bool]


def ledger_entry_create(
    *,
    game: Game,
    kind: str,
    lines: list[Line],
    deal: Deal | None = None,
    submission: Submission | None = None,
    memo: str = "",
    results: Iterable[DealResult] = (),
) -> LedgerEntry:
    """Write one balanced entry and add it to the standings; ``results``, a counted deal's
    results (with its ``deal`` and ``submission``), are stored with it and counted too."""
    results = list(results)
    if results and (deal is None or submission is None):
        raise InvariantError("a deal's results are posted with its deal and submission")
    entry = _post(
        game=game, kind=kind, lines=lines, deal_id=deal.pk if deal is not None else None,
        submission=submission, memo=memo, results=results,
    )  # fmt: skip
    if results:
        session_id = game.table.session_id
        PlayerResult.objects.bulk_create(
            PlayerResult(
                submission=submission, deal=deal, game=game, session_id=session_id, entry=entry,
                player_id=player_id, outcome=outcome, points=points, won=won,
            )
            for player_id, outcome, points, won in results
        )  # fmt: skip
    return entry


def deal_entries_create(
    *, counted: list[tuple[Game, Deal, Submission, list[Line], list[DealResult]]]
) -> list[LedgerEntry]:
    """Many counted deals posted at once (an import of past deals), of one game or of many:
    an entry each, with its player results, and all of them added to the standings in one
    statement."""
    entries = ledger_entries_write(
        kind=LedgerEntry.Kind.DEAL,
        entries=[(game.book_id, deal.pk, submission, lines,
                  f"deal {deal.number} v{submission.version}")
                 for game, deal, submission, lines, _ in counted],
    )  # fmt: skip
    rows_insert(
        PlayerResult,
        ["submission_id", "deal_id", "game_id", "session_id", "entry_id", "player_id", "outcome",
         "points", "won"],
        ((submission.pk, deal.pk, game.pk, game.table.session_id, entry.pk, player_id, outcome,
          points, won)
         for entry, (game, deal, submission, _, results) in zip(entries, counted, strict=True)
         for player_id, outcome, points, won in results),
    )  # fmt: skip
    standings_apply_games(posted=[(game, lines, results) for game, _, _, lines, results in counted])
    return entries


def ledger_entry_reverse(
    *, entry: LedgerEntry, submission: Submission | None = None, memo: str = ""
) -> LedgerEntry:
    """The mirror image of ``entry`` (its postings negated, in a new entry), and its amounts and
    player results taken back out of the standings."""
    taken_back: Iterable[DealResult] = []
    if entry.submission_id is not None:  # only a deal's entry, posted with its version, has any
        taken_back = PlayerResult.objects.filter(entry=entry).values_list(
            "player_id", "outcome", "points", "won"
        )
    game = entry.book.game  # callers read it with the entry: book__game__table__session
    return _post(
        game=game, kind=LedgerEntry.Kind.REVERSAL, lines=mirror_lines(entry),
        deal_id=entry.deal_id, submission=submission, reverses=entry,
        memo=memo or f"reverses entry #{entry.pk}", results=taken_back, sign=-1,
    )  # fmt: skip


def account_entry_create(
    *, account: SessionAccount, kind: str, lines: list[Line], memo: str = ""
) -> LedgerEntry:
    """Write one balanced entry of a session's account and add it to the session's standings."""
    return _post_account(account, kind, lines, memo=memo)


def account_entry_reverse(
    *, account: SessionAccount, entry: LedgerEntry, memo: str = ""
) -> LedgerEntry:
    """The mirror image of an entry of a session's account, taken back out of the standings."""
    return _post_account(
        account, LedgerEntry.Kind.REVERSAL, mirror_lines(entry), reverses=entry,
        memo=memo or f"reverses entry #{entry.pk}",
    )  # fmt: skip


def _post_account(
    account: SessionAccount,
    kind: str,
    lines: list[Line],
    *,
    memo: str,
    reverses: LedgerEntry | None = None,
) -> LedgerEntry:
    """An account's entry written and the session's standings kept in step with it."""
    entry = ledger_entry_write(
        book_id=account.book_id, kind=kind, lines=lines, reverses=reverses, memo=memo
    )
    standings_apply_account(account=account, lines=lines)
    return entry


def _post(
    *,
    game: Game,
    kind: str,
    lines: list[Line],
    deal_id: int | None,
    submission: Submission | None,
    memo: str,
    results: Iterable[DealResult],
    reverses: LedgerEntry | None = None,
    sign: int = 1,
) -> LedgerEntry:
    """The entry written and the standings kept in step with it, in one place: its player
    amounts, and ``results`` added (``sign`` 1) or taken back (-1)."""
    entry = ledger_entry_write(
        book_id=game.book_id, kind=kind, lines=lines, deal_id=deal_id, submission=submission,
        reverses=reverses, memo=memo,
    )  # fmt: skip
    standings_apply(game=game, lines=lines, results=results, sign=sign)
    return entry
