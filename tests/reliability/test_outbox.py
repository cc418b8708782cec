"""The outbox: a submission's validation is written with it, published after the commit, relayed
when that failed, and sent again by the sweep when it was lost."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from outbox.models import OutboxMessage
from outbox.services import outbox_prune, outbox_relay
from scoring.deals import deal_create, submission_create
from scoring.models import Submission
from scoring.submissions import submissions_requeue_stale
from tests.scoring.conftest import make_night

pytestmark = pytest.mark.usefixtures("committing_db")


def _payload(night):
    return {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10},
            Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"},
            Farid={"outcome": "winner"},
        )
    }


def _pending_submission(night):
    """A submission as stored by a request whose message was never published."""
    deal = deal_create(game=night.game, actor=night.standing.scorer)
    submission = Submission.objects.create(
        deal=deal, version=1, source="api", payload=_payload(night),
        submitted_by=night.standing.scorer,
    )  # fmt: skip
    return submission


def test_the_message_is_written_in_the_submissions_transaction(standing):
    night = make_night(standing)
    deal = deal_create(game=night.game, actor=standing.scorer)
    with pytest.raises(RuntimeError), transaction.atomic():
        submission_create(deal=deal, actor=standing.scorer, source="api", payload=_payload(night))
        raise RuntimeError("rolled back")
    assert not OutboxMessage.objects.exists() and not Submission.objects.exists()

    submission = submission_create(
        deal=deal, actor=standing.scorer, source="api", payload=_payload(night)
    )
    message = OutboxMessage.objects.get()
    assert (message.task, message.args, message.key) == (
        "scoring.validate_submission", [submission.pk], f"submission:{submission.pk}",
    )  # fmt: skip
    assert message.sent_at is not None and message.attempts == 1
    submission.refresh_from_db()
    assert submission.status == "accepted"  # published after commit (in-process here)


def test_the_relay_publishes_unsent_messages_once(standing):
    night = make_night(standing)
    submission = _pending_submission(night)
    OutboxMessage.objects.create(
        task="scoring.validate_submission",
        args=[submission.pk],
        created_at=timezone.now() - timedelta(seconds=10),
    )
    young = OutboxMessage.objects.create(task="outbox.prune", args=[])  # left to its own publish
    assert outbox_relay() == 1
    submission.refresh_from_db()
    assert submission.status == "accepted"
    assert outbox_relay() == 0
    young.refresh_from_db()
    assert young.sent_at is None


def test_the_sweep_sends_again_a_validation_30_s_after_its_last_message(standing):
    night = make_night(standing)
    lost = _pending_submission(night)
    recent = _pending_submission(night)
    long_ago = timezone.now() - timedelta(seconds=120)
    Submission.objects.filter(pk__in=[lost.pk, recent.pk]).update(submitted_at=long_ago)
    OutboxMessage.objects.create(
        task="scoring.validate_submission", args=[lost.pk], key=f"submission:{lost.pk}",
        created_at=timezone.now() - timedelta(seconds=31), sent_at=timezone.now(),
    )  # fmt: skip
    OutboxMessage.objects.create(
        task="scoring.validate_submission", args=[recent.pk], key=f"submission:{recent.pk}",
        created_at=timezone.now() - timedelta(seconds=10), sent_at=timezone.now(),
    )  # fmt: skip
    assert submissions_requeue_stale() == [lost.pk]
    lost.refresh_from_db()
    assert lost.status == "accepted"
    assert OutboxMessage.objects.filter(key=f"submission:{lost.pk}").count() == 2


def test_sent_messages_are_pruned_after_a_day(standing):
    old = OutboxMessage.objects.create(
        task="outbox.prune", sent_at=timezone.now() - timedelta(hours=25)
    )
    unsent = OutboxMessage.objects.create(
        task="outbox.prune", created_at=timezone.now() - timedelta(hours=25)
    )
    assert outbox_prune() == 1
    assert list(OutboxMessage.objects.values_list("pk", flat=True)) == [unsent.pk]
    assert not OutboxMessage.objects.filter(pk=old.pk).exists()
