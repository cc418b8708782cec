"""Stored results take the one meaning of ``points``: each player's line says what the deal moved
for them, signed as the ledger moves it (``points``, and ``chips`` in deals rummy), and an Indian
rummy line keeps the rules' count of points against the player as ``against``.

The figures come from the version's own deal entry in the ledger. A version never counted (one
that waited for a confirmation and was replaced) has no entry: its figures are worked out as the
format posts them (a pool or deals loser gives up what was counted against them; the winner of a
points or deals deal takes the rest, capped at 80 a loser in deals)."""

from __future__ import annotations

from collections import defaultdict
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


def forwards(apps: Any, schema_editor: Any) -> None:
    Submission = apps.get_model("scoring", "Submission")
    Posting = apps.get_model("scoring", "Posting")
    rows = Submission.objects.filter(result__isnull=False).select_related("deal__game")
    for submission in rows.iterator():
        result = submission.result or {}
        lines = result.get("players") or []
        if not lines or "against" in lines[0] and "points" in lines[0]:
            continue
        game_format = submission.deal.game.format
        if game_format in INDIAN:
            for line in lines:
                line["against"] = line.pop("points", 0)
        moved: dict[str, dict[int, int]] = {"points": defaultdict(int), "chips": defaultdict(int)}
        postings = Posting.objects.filter(
            entry__submission=submission, entry__kind="deal", account="player"
        ).values_list("player_id", "quantity", "amount")
        found = False
        for player_id, quantity, amount in postings:
            found = True
            if quantity in moved:
                moved[quantity][player_id] += amount
        if not found and game_format in INDIAN:
            moved = _worked_out(game_format, lines)  # type: ignore[assignment]
        elif not found:  # a Rummikub score is what its deal moves
            moved["points"] = {line["player"]: line.get("points") or 0 for line in lines}
        for line in lines:
            figures = {"points": moved["points"].get(line["player"], 0)}
            if game_format == "deals":
                figures["chips"] = moved["chips"].get(line["player"], 0)
            shown: dict[str, Any] = {}
            for key, value in line.items():
                if key not in figures:
                    shown[key] = value
                if key == "outcome":
                    shown |= figures
            line.clear()
            line.update(shown | figures)
        Submission.objects.filter(pk=submission.pk).update(result=result)


def backwards(apps: Any, schema_editor: Any) -> None:
    Submission = apps.get_model("scoring", "Submission")
    for submission in Submission.objects.filter(result__isnull=False).iterator():
        lines = (submission.result or {}).get("players") or []
        if not lines or "against" not in lines[0]:
            continue
        for line in lines:
            line.pop("chips", None)
            line["points"] = line.pop("against")
        Submission.objects.filter(pk=submission.pk).update(result=submission.result)


class Migration(migrations.Migration):
    dependencies = [("scoring", "0015_table_links")]

    operations = [migrations.RunPython(forwards, backwards, elidable=True)]
