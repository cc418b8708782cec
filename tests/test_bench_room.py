"""The room's benchmark (``python -m bench room``) in its smallest form, against the tests' live
server: one table of 6 phones and a projector, one deal entered (and sent again with its key)
and confirmed through the table link. What it reads of the pages (their live streams, the marks
it looks for) and of the table link's API must keep up with them, or its figures mean nothing:
every phone and the projector see the deal, nothing is lost or doubled, no server error."""

from __future__ import annotations

import asyncio

import pytest

from bench.room import Tally, _night, _night_played, _options, _stored, table_sizes

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]


def test_tables_of_six_the_last_ones_fewer():
    assert table_sizes(200) == [6] * 30 + [5] * 4
    assert table_sizes(6) == [6] and table_sizes(7) == [4, 3]


def test_the_quickest_room_sees_every_change_once(live_server, standing):
    plan = _options(
        ["--players", "6", "--minutes", "1", "--minute-seconds", "1", "--projectors", "1"],
        quick=True,
    )
    night = _night(plan.players)
    plan.tables, plan.club = night["tables"], night["club"]
    tally = Tally()
    asyncio.run(_night_played(plan, live_server.url, live_server.url, tally))
    stored, counted = _stored(night["session"])

    kinds = [(c.kind, c.number) for c in tally.changes]
    assert kinds == [("entry", 1), ("confirm", 1)]
    # The entry on the table's 6 phones; the confirmation on them and on the projector.
    assert len(tally.seen) == 6 + 6 + 1, tally.seen
    assert all(seen >= tally.changes[change].sent for (_, change), seen in tally.seen.items())
    assert (tally.retries, tally.replayed) == (1, 1)
    assert stored == counted == tally.entered == tally.confirmed == {0: 1}
    assert tally.server_errors == 0 and tally.other_errors == []
