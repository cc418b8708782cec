"""A tournament in a series: nothing counts until it finishes; then its places score (times its
tier), and a corrected final moves the series with the places."""

from __future__ import annotations

from decimal import Decimal

import pytest

from scoring.models import Submission
from series import selectors, services
from standings.models import RatingChange
from tests.scoring.helpers import correct
from tests.tournaments.helpers import play_table
from tests.tournaments.test_corrections import _lines, _order, _play_plainly, _release, twelve
from tournaments.models import RoundTable, Tournament

pytestmark = pytest.mark.django_db
__all__ = ["twelve"]  # the fixture, used by name

TABLE = [30, 20, 15, 10, 8, 6, 5, 4, 3, 2, 1]


def _points(series) -> dict[int, Decimal]:
    return {row["player_id"]: row["total"] for row in selectors.series_table(series=series).rows()}


def test_a_finished_tournament_scores_its_places_and_follows_a_correction(standing, twelve):
    series = services.series_create(
        club=standing.club, actor=standing.organiser, name="Cup", points_table=TABLE,
        tiers={"regular": "1", "major": "2"},
        awards=[{"kind": "most_improved", "name": "Rising Star"}],
    )  # fmt: skip
    services.series_event_add(
        series=series, actor=standing.organiser, tier="major", tournament_id=twelve.pk
    )
    _play_plainly(standing, _release(standing, twelve, 1))
    assert _points(series) == {}  # running: no places yet
    final = _release(standing, twelve, 2)
    table = RoundTable.objects.select_related("game").get(round=final)
    assert table.game is not None
    players = _order(table.game)
    play_table(standing, table.game, {p: 10 * n for n, p in enumerate(players[1:], 1)})
    twelve.refresh_from_db()
    assert twelve.status == Tournament.Status.FINISHED

    def expected() -> dict[int, Decimal]:
        places = dict(twelve.entries.values_list("player_id", "place"))
        return {pid: Decimal(TABLE[place - 1] * 2) for pid, place in places.items() if place}

    assert _points(series) == expected()
    assert _points(series)[players[0]] == 60  # the winner: 30 x 2

    # The final corrected: the one who came second wins it, and the series follows.
    points = {players[0]: 15} | {p: 10 * n + 20 for n, p in enumerate(players[2:], 1)}
    submission = correct(standing, table.game.deals.get(number=1), _lines(table.game, points))
    assert submission.status == Submission.Status.ACCEPTED, submission.reasons
    assert (_points(series)[players[1]], _points(series)[players[0]]) == (60, 40)
    assert _points(series) == expected()
    kept = selectors.series_table(series=series).rows()
    assert kept == selectors.series_table_recompute(series=series).rows()

    # Most improved: the ordinal gained over the tournament's rated games, added up here from
    # each change's mu and sigma.
    gained: dict[int, float] = {}
    changes = RatingChange.objects.filter(rated_game__game__table__session=twelve.session_id)
    for change in changes:
        before = change.mu_before - 3 * change.sigma_before
        after = change.mu_after - 3 * change.sigma_after
        gained[change.player_id] = gained.get(change.player_id, 0.0) + after - before
    assert gained, "the tournament's games were rated"
    best = max(gained.values())
    award = selectors.series_table(series=series).awards[0]
    assert award.player_ids == sorted(p for p, g in gained.items() if abs(g - best) < 1e-9)
    assert Decimal(award.value) == Decimal(repr(best)).quantize(Decimal("0.01"))
