"""Stored results take the one meaning of ``points``: each player's line says what the deal moved
for them, signed as the ledger moves it (``points``, and ``chips`` in deals rummy), and an Indian
rummy line keeps the rules' count of points against the player as ``against``.

The figures come from the version's own deal entry in the ledger. A version never counted (one
that waited for a confirmation and was replaced) has no entry: its figures are worked out as the
format posts them (a pool or deals loser gives up what was counted against them; the winner of a
points or deals deal takes the rest, capped at 80 a loser in deals)."""

from __future__ import annotations

from typing import Any

from django.db import migrations

INDIAN = ("points", "pool", "deals")
DEALS_LOSER_CAP = 80


def _worked_out(game_format: str, lines: list[dict[str, Any]]) -> dict[str, dict[int, int]]:
    winner = next((line["player"] for line in lines if line.get("outcome") == "winner"), None)
    against = {line["player"]: line.get("against") or 0 for line in lines}
    if game_format == "deals":
        paid = {p: min(a, DEALS_LOSER_CAP) for p, a in against.items() if p != winner}
        chips = {p: (sum(paid.values()) if p == winner else -paid[p]) for p in against}
        return {"points": {}, "chips": chips}
    taken = {p: -a for p, a in against.items() if p != winner}
    if game_format == "points" and winner is not None:
        taken[winner] = -sum(taken.values())
    return {"points": taken, "chips": {}}


#: Versions read, and written back, a batch at a time: two queries and one bulk update a batch,
#: so a club with a long history migrates in minutes, not a query pair a version.
BATCH = 2000


def _batches(rows: Any) -> Any:
    batch: list[Any] = []
    for row in rows.iterator(chunk_size=BATCH):
        batch.append(row)
        if len(batch) == BATCH:
            yield batch
            batch = []
    if batch:
        yield batch


def _moved_by_submission(Posting: Any, ids: list[int]) -> dict[int, dict[str, dict[int, int]]]:
    """What each version's own deal entry moved, per quantity and player."""
    moved: dict[int, dict[str, dict[int, int]]] = {}
    postings = Posting.objects.filter(
        entry__submission_id__in=ids, entry__kind="deal", account="player"
    ).values_list("entry__submission_id", "player_id", "quantity", "amount")
    for submission_id, player_id, quantity, amount in postings:
        by_quantity = moved.setdefault(submission_id, {"points": {}, "chips": {}})
        if quantity in by_quantity:
            by_player = by_quantity[quantity]
            by_player[player_id] = by_player.get(player_id, 0) + amount
    return moved


def _signed(result: dict[str, Any], game_format: str, moved: Any) -> None:
    lines = result["players"]
    if game_format in INDIAN:
        for line in lines:
            line["against"] = line.pop("points", 0)
    if moved is None and game_format in INDIAN:
        moved = _worked_out(game_format, lines)
    elif moved is None:  # a Rummikub score is what its deal moves
        moved = {"points": {line["player"]: line.get("points") or 0 for line in lines}}
    for line in lines:
        figures = {"points": moved["points"].get(line["player"], 0)}
        if game_format == "deals":
            figures["chips"] = moved.get("chips", {}).get(line["player"], 0)
        shown: dict[str, Any] = {}
        for key, value in line.items():
            if key not in figures:
                shown[key] = value
            if key == "outcome":
                shown |= figures
        line.clear()
        line.update(shown | figures)


def forwards(apps: Any, schema_editor: Any) -> None:
    Submission = apps.get_model("scoring", "Submission")
    Posting = apps.get_model("scoring", "Posting")
    rows = (
        Submission.objects.filter(result__isnull=False)
        .select_related("deal__game")
        .only("pk", "result", "deal__game__format")
        .order_by("pk")
    )
    for batch in _batches(rows):
        todo = []
        for submission in batch:
            lines = (submission.result or {}).get("players") or []
            if lines and not ("against" in lines[0] and "points" in lines[0]):
                todo.append(submission)
        moved = _moved_by_submission(Posting, [s.pk for s in todo])
        for submission in todo:
            _signed(submission.result, submission.deal.game.format, moved.get(submission.pk))
        Submission.objects.bulk_update(todo, ["result"])


def backwards(apps: Any, schema_editor: Any) -> None:
    Submission = apps.get_model("scoring", "Submission")
    rows = Submission.objects.filter(result__isnull=False).only("pk", "result").order_by("pk")
    for batch in _batches(rows):
        todo = []
        for submission in batch:
            lines = (submission.result or {}).get("players") or []
            if not lines or "against" not in lines[0]:
                continue
            for line in lines:
                line.pop("chips", None)
                line["points"] = line.pop("against")
            todo.append(submission)
        Submission.objects.bulk_update(todo, ["result"])


class Migration(migrations.Migration):
    dependencies = [("scoring", "0015_table_links")]

    operations = [migrations.RunPython(forwards, backwards, elidable=True)]
