"""The migration that gives stored results the one meaning of ``points``: results written before
it (a loser's count as ``points``) come out as the service writes them now (``points`` signed as
the ledger moved them, ``chips`` in deals rummy, the count as ``against``), and back again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from scoring.models import Submission
from tests.scoring.helpers import new_game, play, results

BEFORE = [("scoring", "0015_table_links")]
AFTER = [("scoring", "0016_results_say_points_signed")]
NAMES = ["Asha", "Bilal", "Chitra"]


def migrate(target: list[tuple[str, str]]) -> None:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target)


@pytest.mark.usefixtures("committing_db")
def test_stored_results_take_signed_points_and_against_and_go_back(standing):
    points, ids = new_game(standing, "points", NAMES, point_value_minor=10)
    play(standing, points, results(ids, Asha="winner", Bilal=25, Chitra="first_drop"))
    pool, ids = new_game(standing, "pool-101", NAMES)
    play(standing, pool, results(ids, Bilal="winner", Asha=40, Chitra=80))
    deals, ids = new_game(standing, "deals-2", NAMES)
    play(standing, deals, results(ids, Chitra="winner", Asha=80, Bilal=17))
    sabra, ids = new_game(standing, "sabra", NAMES)
    racks = {str(ids["Asha"]): [], str(ids["Bilal"]): ["R5"], str(ids["Chitra"]): ["JK"]}
    play(standing, sabra, {"racks": racks, "winner": ids["Asha"]})
    written = {s.pk: s.result for s in Submission.objects.filter(status="accepted")}
    assert len(written) == 4

    migrate(BEFORE)
    old = {s.pk: s.result for s in Submission.objects.filter(status="accepted")}
    for pk, result in old.items():
        for line, now in zip(result["players"], written[pk]["players"], strict=True):
            assert "against" not in line and "chips" not in line
            # Before: an Indian line's points were the count, a Rummikub line's the score.
            assert line["points"] == now.get("against", now["points"])

    migrate(AFTER)
    assert {s.pk: s.result for s in Submission.objects.filter(status="accepted")} == written
