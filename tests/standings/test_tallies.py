"""The standings' counts beyond the deals played and won come from the formats: each format
declares the tallies its results give (``tallies``), and the standings' metrics of them are built
from those declarations, so a count only one format gives is named in that format alone."""

from __future__ import annotations

import pytest

from rules.families import Family
from scoring.formats import HANDLERS
from scoring.standing_rows import TOTAL_FIELDS
from standings.metrics import METRICS
from standings.tables import IN_POINTS

EVERY_FORMAT = {"deals_played", "deals_won"}


@pytest.mark.parametrize("key", list(HANDLERS))
def test_a_format_tallies_only_what_it_declares(key):
    handler = HANDLERS[key]
    declared = {tally.field for tally in handler.tallies}
    for outcome in handler.result_outcomes:
        for points, won in ((0, True), (25, False), (-10, False)):
            given = handler.deal_tallies(outcome=outcome, points=points, won=won)
            assert set(given) <= EVERY_FORMAT | declared, (outcome, given)


def test_every_declared_tally_is_a_kept_column_with_its_metric():
    for handler in HANDLERS.values():
        for tally in handler.tallies:
            assert tally.field in TOTAL_FIELDS
            metric = METRICS[tally.metric]
            assert (metric.field, metric.descending, metric.in_points) == (
                tally.field,
                False,
                tally.in_points,
            )


def test_the_counts_only_indian_rummy_gives_are_metrics_of_the_registry():
    indian_only = {
        tally.metric
        for handler in HANDLERS.values()
        for tally in handler.tallies
        if all(
            tally in other.tallies for other in HANDLERS.values() if other.family == Family.INDIAN
        )
        and not any(
            tally in other.tallies for other in HANDLERS.values() if other.family != Family.INDIAN
        )
    }
    assert indian_only == {"fewest_drops", "fewest_full_counts"}
    assert set(IN_POINTS) == {"points", "points_conceded"}
