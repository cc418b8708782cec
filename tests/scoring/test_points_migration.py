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


def migrate(target: list[tuple[str, str]] | None = None) -> None:
    """To ``target``, or (None) to the latest of every app."""
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(target or executor.loader.graph.leaf_nodes())


def stored() -> dict[int, dict]:
    """The accepted versions' results, read by their columns alone (the model may have columns
    a migrated-back database does not)."""
    return dict(Submission.objects.filter(status="accepted").values_list("pk", "result"))


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
    written = stored()
    assert len(written) == 4

    try:
        migrate(BEFORE)
        for pk, result in stored().items():
            for line, now in zip(result["players"], written[pk]["players"], strict=True):
                assert "against" not in line and "chips" not in line
                # Before: an Indian line's points were the count, a Rummikub line's the score.
                assert line["points"] == now.get("against", now["points"])

        migrate(AFTER)
        assert stored() == written
    finally:
        migrate()  # the later tests need every migration
