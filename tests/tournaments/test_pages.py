"""Tournament pages on the server: the same places and prizes on the desk, the public page, the
API and the ledger; the public page only for a club that publishes; refusals named on the page,
nothing changed."""

from __future__ import annotations

import html

from django.test import Client
from django.urls import reverse

from clubs.page_kit.display import club_money
from ledger.models import AccountKind, Posting
from scoring.formats import HANDLERS
from scoring.models import Seat, Table
from tests.tournaments.helpers import enter, finished_knockout, new_tournament, roster
from tournaments.models import Tournament
from tournaments.services.setup import tournament_start


def _finished(standing) -> Tournament:
    return finished_knockout(standing, entry_fee_minor=1000, payout="seventy_thirty")


def test_the_prizes_agree_on_the_desk_the_public_page_the_api_and_the_ledger(standing):
    standing.club.public_standings = True
    standing.club.save()
    cup = _finished(standing)
    member = Client()
    member.force_login(standing.player)
    desk = member.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    public = Client().get(f"/p/home/tournaments/{cup.pk}/").content.decode()
    api = standing.client("player").get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    assert sum(p["prize_minor"] for p in api["places"]) == api["prize_pool_minor"] == 8000
    for line in api["places"]:
        won = sum(
            Posting.objects.filter(
                book=cup.purse, account=AccountKind.PLAYER, player_id=line["player"],
                entry__kind__in=["payout", "reversal"],
            ).values_list("amount", flat=True)
        )  # fmt: skip
        assert won == line["prize_minor"]
        if line["prize_minor"]:
            shown = f'data-figure="prize">{club_money(standing.club, line["prize_minor"])}<'
            assert shown in desk and shown in public, line
    pool = f'data-figure="pool">{club_money(standing.club, 8000)}<'
    assert pool in desk and pool in public


def test_the_public_page_is_only_for_a_club_that_publishes(standing):
    cup = new_tournament(standing)
    standing.club.public_standings = False
    standing.club.save()
    assert Client().get(f"/p/home/tournaments/{cup.pk}/").status_code == 404
    standing.club.public_standings = True
    standing.club.save()
    assert Client().get(f"/p/home/tournaments/{cup.pk}/").status_code == 200
    assert Client().get(f"/p/home/tournaments/{cup.pk + 999}/").status_code == 404


def test_a_refused_form_names_the_field_and_changes_nothing(standing):
    organiser = Client()
    organiser.force_login(standing.organiser)
    before = Tournament.objects.count()
    page = organiser.post("/clubs/home/tournaments/", {
        "name": "Cup", "kind": "knockout", "preset": 999999, "table_max": 4, "table_min": 2,
        "advance_per_table": 2, "rounds": 0, "cut": 0, "entry_fee": "5", "club_fee": "9",
        "payout": "by_field", "seeding": "random", "late_entry_until_round": 1,
    })  # fmt: skip
    assert page.status_code == 404 and Tournament.objects.count() == before
    from scoring.models import RulePreset

    points = RulePreset.objects.get(club=None, key="points").pk
    page = organiser.post("/clubs/home/tournaments/", {
        "name": "Cup", "kind": "knockout", "preset": points, "table_max": 4, "table_min": 2,
        "advance_per_table": 2, "rounds": 0, "cut": 0, "entry_fee": "5", "club_fee": "9",
        "payout": "by_field", "seeding": "random", "late_entry_until_round": 1,
    })  # fmt: skip
    # Named as the form names it, the range in money: never the stored column nor minor units.
    said = page.content.decode()
    assert page.status_code == 400 and "club_fee_minor" not in said
    assert "Club&#x27;s share of each entry fee: ₹0.00 to the entry fee, ₹5.00; not ₹9.00" in said
    assert Tournament.objects.count() == before
    api = standing.client("organiser").post("/api/v1/clubs/home/tournaments/", {
        "name": "Cup", "preset": points, "entry_fee_minor": 500, "club_fee_minor": 900,
    }, format="json")  # fmt: skip
    error = api.json()["error"]
    assert api.status_code == 400 and error["details"]["field"] == "club_fee_minor"
    assert error["message"].startswith("Club's share of each entry fee: ₹0.00 to the entry fee")
    assert Tournament.objects.count() == before
    tables = organiser.post("/clubs/home/tournaments/", {
        "name": "Cup", "kind": "knockout", "preset": points, "table_max": 3, "table_min": 4,
        "advance_per_table": 2, "rounds": 0, "cut": 0, "entry_fee": "0", "club_fee": "0",
        "payout": "by_field", "seeding": "random", "late_entry_until_round": 1,
    }).content.decode()  # fmt: skip
    assert "Fewest at a table: 2 to the players a table (3), not 4" in tables
    cup = new_tournament(standing)
    swap = organiser.post(f"/clubs/home/tournaments/{cup.pk}/rounds/1/swap/", {"first": 1})
    assert swap.status_code == 400 and "Second player" in swap.content.decode()


def test_a_purse_is_a_book_of_its_night_not_a_game(standing):
    """The purse is its night's account: no table, game or seat of its own, so the night's page
    and the games list show none; what it held and paid is in the night's settle-up."""
    cup = _finished(standing)
    assert not Table.objects.filter(session=cup.session, name="Purse").exists()
    assert not Seat.objects.filter(game__table__session=cup.session, game__format="purse")
    organiser = Client()
    organiser.force_login(standing.organiser)
    night = organiser.get(f"/clubs/home/sessions/{cup.session_id}/").content.decode()
    assert "<h3>Purse</h3>" not in night and "Purse (the organiser)" in night
    games = standing.client("organiser").get("/api/v1/clubs/home/games/").json()["results"]
    assert {g["format"] for g in games} <= set(HANDLERS)


def test_the_night_of_a_running_tournament_stays_open_while_its_purse_holds_the_fees(standing):
    """Closing the tournament's night is refused, naming the purse (it ends when the tournament
    pays its prizes or is cancelled)."""
    cup = new_tournament(standing, table_max=4, entry_fee_minor=1000)
    enter(standing, cup, roster(standing, 8))
    tournament_start(tournament=cup, actor=standing.organiser)
    api = standing.client("organiser")
    refused = api.post(f"/api/v1/clubs/home/sessions/{cup.session_id}/close/", {}, format="json")
    assert refused.status_code == 409, refused.content
    error = refused.json()["error"]
    assert error["code"] == "session_not_finished"
    held = [b for b in error["details"]["blockers"] if b["kind"] == "account_open"]
    assert held == [
        {"kind": "account_open", "game_id": None, "table": "Purse", "deal_id": None,
         "deal_number": None, "message": "Purse: it holds what was paid in until what it is kept "
         "for pays it out or gives it back (a tournament's prizes, or its cancellation)",
         "actions": []}
    ]  # fmt: skip


def test_the_prize_preview_says_a_negative_fee_in_money(standing):
    """The create form's preview speaks money as typed, never "minor units ... not -10000"."""
    organiser = Client()
    organiser.force_login(standing.organiser)
    for query, said in (
        ("fee=-100&club_fee=0", "The entry fee cannot be negative (it reads −₹100.00)."),
        (
            "fee=100&club_fee=-5",
            "The club's share of each entry fee cannot be negative (it reads −₹5.00).",
        ),
    ):
        page = organiser.get(f"/clubs/home/tournaments/prizes/?payout=by_field&entries=10&{query}")
        body = html.unescape(page.content.decode())
        assert page.status_code == 200 and said in body
        assert "minor units" not in body and "-10000" not in body


def test_the_round_clock_is_set_and_cleared_on_the_desk_and_counts_down_on_the_projector(
    standing,
):
    from datetime import timedelta

    from django.utils import timezone

    from clubs.models import AuditEntry
    from tournaments.models import Round

    cup = new_tournament(standing)
    enter(standing, cup, roster(standing, 12))
    tournament_start(tournament=cup, actor=standing.organiser)
    organiser = Client()
    organiser.force_login(standing.organiser)
    clock = f"/clubs/home/tournaments/{cup.pk}/rounds/1/clock/"
    # A drawn round not yet released has no clock: refused, nothing stored.
    refused = organiser.post(clock, {"minutes": "20"})
    assert refused.status_code == 409 and "not being played" in refused.content.decode()
    assert Round.objects.get(tournament=cup, number=1).ends_at is None
    organiser.post(f"/clubs/home/tournaments/{cup.pk}/rounds/1/release/")
    for bad, said in (("0", "minutes"), ("601", "between 1 and 600"), ("", "how many minutes")):
        page = organiser.post(clock, {"minutes": bad})
        assert page.status_code == 400, bad
        assert said in html.unescape(page.content.decode()), bad
        assert Round.objects.get(tournament=cup, number=1).ends_at is None
    desk = organiser.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    assert 'id="clock"' in desk and "Round 1 ends in (minutes)" in desk
    before = timezone.now()
    done = organiser.post(clock, {"minutes": "25"}, follow=True)
    assert "the projector counts down to it" in done.content.decode()
    ends = Round.objects.get(tournament=cup, number=1).ends_at
    assert before + timedelta(minutes=25) <= ends <= timezone.now() + timedelta(minutes=25)
    assert AuditEntry.objects.filter(action="tournament.round_clock").count() == 1
    # The API shows it on the round; the projector counts down from it.
    api = organiser.get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()
    assert api["rounds"][0]["ends_at"] is not None
    standing.club.public_standings = True
    standing.club.save()
    projector = Client().get(f"/p/home/tournaments/{cup.pk}/projector/").content.decode()
    left = int(projector.split('data-seconds-left="')[1].split('"')[0])
    assert 24 * 60 <= left <= 25 * 60 and ("24:5" in projector or "25:00" in projector)
    # Cleared, the projector shows no clock.
    organiser.post(clock, {"clear": "1"})
    assert Round.objects.get(tournament=cup, number=1).ends_at is None
    projector = Client().get(f"/p/home/tournaments/{cup.pk}/projector/").content.decode()
    assert "data-seconds-left" not in projector
    assert (
        organiser.get(f"/api/v1/clubs/home/tournaments/{cup.pk}/").json()["rounds"][0]["ends_at"]
        is None
    )


def test_each_entry_on_the_desk_names_its_own_check_in_and_withdrawal(standing):
    """The desk's entry list shares one form; each entry's buttons post to that entry's own
    action, the same URLs the page's routes give."""
    cup = new_tournament(standing)
    first, second = roster(standing, 2)
    enter(standing, cup, [first, second])
    entries = {e.player_id: e for e in cup.entries.all()}
    organiser = Client()
    organiser.force_login(standing.organiser)
    desk = organiser.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    for player in (first, second):
        args = ["home", cup.pk, entries[player.pk].pk]
        check_in = reverse("tournament-entry-check-in", args=args)
        assert f'form="entry-actions" formaction="{check_in}"' in desk
        # Withdrawing asks first, on a page of its own: a link, not a button that posts.
        withdraw = reverse("tournament-entry-withdraw", args=args)
        assert f'href="{withdraw}" class="button small secondary leave"' in desk
    assert desk.count('id="entry-actions"') == 1
    assert desk.count('name="csrfmiddlewaretoken"') < 10  # not one an entry

    checked_in = reverse("tournament-entry-check-in", args=["home", cup.pk, entries[first.pk].pk])
    assert organiser.post(checked_in).status_code == 302
    withdrawn = reverse("tournament-entry-withdraw", args=["home", cup.pk, entries[second.pk].pk])
    asked = organiser.post(withdrawn)  # not confirmed: the question, nothing changed
    assert asked.status_code == 200 and f"Withdraw {second.name}?" in asked.content.decode()
    assert cup.entries.get(player=second).status == "registered"
    assert organiser.post(withdrawn, {"confirm": "1"}).status_code == 302
    desk = organiser.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    assert checked_in not in desk  # checked in: only the withdrawal is left
    first_out = reverse("tournament-entry-withdraw", args=["home", cup.pk, entries[first.pk].pk])
    assert f'href="{first_out}"' in desk
    assert withdrawn not in desk  # withdrawn: only the way back is left
    back = reverse("tournament-entry-reinstate", args=["home", cup.pk, entries[second.pk].pk])
    assert f'formaction="{back}"' in desk
    statuses = dict(cup.entries.values_list("player_id", "status"))
    assert statuses == {first.pk: "checked_in", second.pk: "withdrawn"}
    assert organiser.post(back).status_code == 302
    assert cup.entries.get(player=second).status == "registered"  # the fee paid again

    member = Client()
    member.force_login(standing.player)
    shown = member.get(f"/clubs/home/tournaments/{cup.pk}/").content.decode()
    assert "formaction=" not in shown and 'id="entry-actions"' not in shown
    assert f'data-entry="{entries[first.pk].pk}" data-status="checked_in"' in shown
