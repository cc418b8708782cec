"""Many people entering and correcting the same deal at once, on PostgreSQL."""

from __future__ import annotations

import threading
from collections import Counter

import pytest
from django.db import connection, connections
from django.db.models import Sum

from ledger.models import LedgerEntry, Posting
from scoring.deals import deal_create, submission_create
from scoring.models import Deal, Submission
from tests.scoring.conftest import make_night
from tests.scoring.test_standings import assert_kept_equals_recomputed

THREADS = 20


@pytest.mark.usefixtures("postgres_tx")
def test_twenty_threads_submitting_and_correcting_one_deal(standing):
    night = make_night(standing)
    deal = deal_create(game=night.game, actor=standing.organiser, wild="QH")
    names = ["Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid"]
    barrier = threading.Barrier(THREADS)
    errors: list[BaseException] = []

    def body(i: int) -> dict:
        winner = names[i % 6]
        lines = {}
        for name in names:
            if name == winner:
                lines[name] = {"outcome": "winner"}
            else:
                lines[name] = {"outcome": "loser", "points": (i * 7 + len(name)) % 80 + 1}
        if i % 5 == 4:  # every fifth one is wrong: two winners
            lines[names[(i + 1) % 6]] = {"outcome": "winner"}
        return {"results": night.results(**lines)}

    def run(i: int) -> None:
        try:
            barrier.wait(timeout=30)
            # Tasks run in-process on commit, so each thread also validates its own version.
            submission_create(
                deal=Deal.objects.get(pk=deal.pk),
                actor=standing.scorer,
                source="api",
                payload=body(i),
            )
        except BaseException as exc:  # reported below
            errors.append(exc)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)
    assert not errors, errors

    submissions = list(Submission.objects.filter(deal=deal).order_by("version"))
    assert [s.version for s in submissions] == list(range(1, THREADS + 1))
    statuses = Counter(s.status for s in submissions)
    assert statuses["accepted"] == 1
    assert statuses["pending"] == 0
    two_winners = [
        s
        for s in submissions
        if sum(line["outcome"] == "winner" for line in s.payload["results"]) == 2
    ]
    assert len(two_winners) == THREADS // 5
    # A wrong version is rejected, or passed over unread when a newer one was decided first.
    assert {s.status for s in two_winners} <= {"rejected", "superseded"}
    assert statuses["rejected"] == sum(s.status == "rejected" for s in two_winners)
    accepted = next(s for s in submissions if s.status == "accepted")
    # Nothing newer passed after it: every later version was rejected.
    assert all(s.status == "rejected" for s in submissions if s.version > accepted.version)

    entries = LedgerEntry.objects.filter(deal=deal)
    deal_entries = entries.filter(kind="deal").count()
    reversals = entries.filter(kind="reversal").count()
    assert reversals == deal_entries - 1  # every replaced version reversed exactly once
    assert (
        not entries.filter(kind="deal", reversed_by__isnull=True)
        .exclude(submission=accepted)
        .exists()
    )
    # The balances are exactly the accepted version's, nothing lost or counted twice.
    expected = {line["player"]: line["against"] for line in accepted.result["players"]}
    total = sum(expected.values())
    balances = dict(
        Posting.objects.filter(entry__deal=deal, quantity="points")
        .values_list("player_id")
        .annotate(total=Sum("amount"))
    )
    winner = accepted.result["winner"]
    assert balances == {
        player: (total if player == winner else -points)
        for player, points in expected.items()
        if (total if player == winner else points)
    }
    for entry in entries:
        assert sum(entry.postings.filter(quantity="points").values_list("amount", flat=True)) == 0
    # The kept standings (game, session, season, and the season's points rummy table) took every
    # version and reversal in step: they equal a recomputation from the ledger.
    assert_kept_equals_recomputed(night.game)
    assert connection.vendor == "postgresql"
