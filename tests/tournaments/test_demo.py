"""The demo's tournaments: what the issue promised a new user finds there."""

from __future__ import annotations

from django.core.management import call_command

from clubs.models import Club
from ledger.models import AccountKind, Posting
from tournaments.models import Round, RoundTable, Tournament
from tournaments.selectors import tournament_view


def test_the_demo_has_a_finished_knockout_and_a_rummikub_rounds_tournament(db):
    call_command("load_demo")
    club = Club.objects.get(slug="demo")
    knockout = club.tournaments.get(kind=Tournament.Kind.KNOCKOUT)
    view = tournament_view(tournament=knockout)
    assert knockout.status == Tournament.Status.FINISHED and len(view.entries) == 18
    assert RoundTable.objects.filter(round__tournament=knockout, tiebreaker__isnull=False).exists()
    assert view.prize_pool_minor == 18 * (2000 - 200)
    assert sum(e.prize_won_minor for e in view.places) == view.prize_pool_minor
    assert [e.place for e in view.places][:2] == [1, 2] and len(view.places) == 18
    paid = Posting.objects.filter(book=knockout.purse, account=AccountKind.CLUB)
    assert sum(p.amount for p in paid) == 18 * 200

    rounds = club.tournaments.get(kind=Tournament.Kind.ROUNDS)
    assert rounds.status == Tournament.Status.RUNNING and rounds.preset.key == "sabra"
    statuses = list(rounds.round_set.order_by("number").values_list("status", flat=True))
    assert statuses == [Round.Status.COMPLETE, Round.Status.RELEASED]
