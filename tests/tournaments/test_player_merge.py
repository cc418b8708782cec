"""Merging two roster entries for one person: the duplicate's seats, ledger lines, results,
standings, ratings, tournament entries and paid marks become the kept player's; the ledger's
entries and amounts stay exactly as they were (PostgreSQL allows nothing else); refusals name
every reason and change nothing; the API and the player's page do it for organisers only."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from django.db import DatabaseError, connection, transaction
from django.test import TestCase

from clubs import selectors as club_selectors
from clubs.models import AuditEntry, Player
from config.errors import Conflict, InvalidInput
from ledger.models import Posting
from scoring import figures
from scoring.history import player_history
from scoring.models import Seat, StandingRow, TransferPaid
from scoring.nights import transfer_mark_paid
from standings import ratings
from standings.models import RatedGame, Rating
from tests.factories import UserFactory
from tests.scoring.helpers import ledger_balanced, new_game, play, results
from tests.scoring.test_ratings import assert_close, close_table, stored
from tests.scoring.test_standings import assert_kept_equals_recomputed
from tests.tournaments.helpers import enter, new_tournament
from tests.tournaments.test_knockout import run_to_the_end
from tournaments.models import Entry, Tournament
from tournaments.selectors import tournament_view
from tournaments.services.merge import player_merge
from tournaments.services.setup import tournament_cancel, tournament_start


def ledger_lines() -> Counter[tuple[int, str, str, int]]:
    """Every posting as (entry, quantity, account, amount): what a merge must leave alone."""
    return Counter(Posting.objects.values_list("entry_id", "quantity", "account", "amount"))


def totals(player: Player) -> tuple[int, int, int, dict[str, int]]:
    total = player_history(player=player).total
    return total.money_minor, total.deals_played, total.deals_won, total.points_by_format


def two_histories(standing) -> dict[str, Any]:
    """Asha's games, and games of "Asha K." (the same person entered twice): a points night
    each, a finished knock-out for the duplicate, and a paid settle-up mark naming them."""
    first, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"], point_value_minor=10)
    play(standing, first, results(ids, Asha="winner", Bilal=20, Chitra=30))
    close_table(standing, first)
    second, dup_ids = new_game(
        standing, "points", ["Asha K.", "Bilal", "Dev"], point_value_minor=10
    )
    play(standing, second, results(dup_ids, **{"Asha K.": "winner", "Bilal": 10, "Dev": 40}))
    play(standing, second, results(dup_ids, **{"Bilal": "winner", "Asha K.": 15, "Dev": 5}))
    close_table(standing, second)
    session = second.table.session
    transfer = next(
        t
        for t in figures.session_settlement(session=session)
        if f"player:{dup_ids['Asha K.']}" in (t.payer_key, t.payee_key)
    )
    transfer_mark_paid(
        session=session, actor=standing.organiser, payer=transfer.payer_key,
        payee=transfer.payee_key,
    )  # fmt: skip
    players = {p.name: p for p in Player.objects.filter(club=standing.club)}
    tournament = new_tournament(standing, table_max=4, advance_per_table=1, entry_fee_minor=500)
    enter(standing, tournament, [players[n] for n in ["Asha K.", "Bilal", "Chitra", "Dev"]])
    with TestCase.captureOnCommitCallbacks(execute=True):
        tournament_start(tournament=tournament, actor=standing.organiser)
    tournament = run_to_the_end(standing, tournament, random.Random(3))
    assert tournament.status == Tournament.Status.FINISHED
    return {
        "asha": players["Asha"],
        "dup": players["Asha K."],
        "games": [first, second],
        "tournament": tournament,
        "session": session,
    }


def test_a_merge_moves_the_whole_history_and_leaves_the_ledger_as_it_was(standing):
    made = two_histories(standing)
    asha, dup = made["asha"], made["dup"]
    lines_before = ledger_lines()
    asha_before, dup_before = totals(asha), totals(dup)
    dup_entry = Entry.objects.get(player=dup)
    won = tournament_view(tournament=dup_entry.tournament).entries
    place, prize = dup_entry.place, next(e for e in won if e.pk == dup_entry.pk).prize_won_minor
    assert Rating.objects.filter(player=dup).exists()

    kept = player_merge(source=dup, target=asha, actor=standing.organiser)

    assert kept == asha
    # The ledger: the same entries and amounts, every entry still balanced; its lines name Asha.
    assert ledger_lines() == lines_before and ledger_balanced()
    assert not Posting.objects.filter(player=dup).exists()
    assert not Seat.objects.filter(player=dup).exists()
    # Asha's figures are the sum of both, wherever they are read.
    money, deals, won, points = totals(asha)
    assert money == asha_before[0] + dup_before[0] and money != asha_before[0]
    assert deals == asha_before[1] + dup_before[1] and won == asha_before[2] + dup_before[2]
    assert points == Counter(asha_before[3]) + Counter(dup_before[3])
    for game in [*made["games"], *made["tournament"].session.tables.first().games.all()]:
        assert_kept_equals_recomputed(game)
    assert not StandingRow.objects.filter(player=dup).exists()
    board = figures.session_scoreboard(session=made["session"])
    assert {line.player_id for line in board.lines} >= {asha.pk}
    # Ratings: the duplicate's games are Asha's, and the stored ratings equal a fresh replay.
    assert not any(str(dup.pk) in rated.ranks for rated in RatedGame.objects.all())
    assert not Rating.objects.filter(player=dup).exists()
    assert (
        Rating.objects.get(player=asha, family="indian").games
        == RatedGame.objects.filter(ranks__has_key=str(asha.pk)).count()
    )
    kept_ratings = stored()
    ratings.ratings_replay(club=standing.club, family="indian")
    assert_close(kept_ratings, stored())
    # The tournament entry, with its place and prize; the paid mark names Asha now.
    entry = next(
        e for e in tournament_view(tournament=dup_entry.tournament).entries if e.pk == dup_entry.pk
    )
    assert (entry.player_id, entry.place, entry.prize_won_minor) == (asha.pk, place, prize)
    mark = TransferPaid.objects.get(session=made["session"])
    assert f"player:{asha.pk}" in (mark.payer, mark.payee)
    paid = [t for t in figures.session_settlement(session=made["session"]) if t.paid]
    assert [f"player:{asha.pk}" in (t.payer_key, t.payee_key) for t in paid] == [True]
    # The duplicate stays, retired and marked, off the roster; the merge is audited.
    dup.refresh_from_db()
    assert (dup.merged_into_id, dup.active) == (asha.pk, False)
    assert dup not in club_selectors.player_list(club=standing.club)
    audit = AuditEntry.objects.get(action="player.merge", object_id=str(dup.pk))
    assert audit.after["merged_into"] == asha.pk
    assert audit.after["moved"]["postings"] > 0 and audit.after["moved"]["entries"] == 1
    with pytest.raises(Conflict) as again:
        player_merge(source=dup, target=asha, actor=standing.organiser)
    assert again.value.code == "already_merged"
    with pytest.raises(Conflict):
        club_services_restore(dup, standing)


def club_services_restore(player: Player, standing) -> None:
    from clubs import services as club_services

    club_services.player_update(
        player=player, actor=standing.organiser, actor_role="organiser", active=True
    )


def test_a_merge_is_refused_with_every_reason_and_changes_nothing(standing):
    game, ids = new_game(standing, "points", ["Asha", "Asha K.", "Bilal"])
    play(standing, game, results(ids, Asha="winner", **{"Asha K.": 10, "Bilal": 20}))
    asha, dup = Player.objects.get(pk=ids["Asha"]), Player.objects.get(pk=ids["Asha K."])
    lines = Counter(Posting.objects.values_list("player_id", "amount"))
    with pytest.raises(Conflict) as refused:
        player_merge(source=dup, target=asha, actor=standing.organiser)
    codes = [b["code"] for b in refused.value.details["blockers"]]
    assert codes == ["players_met", "game_in_play"]
    assert f"game #{game.pk}" in refused.value.message
    dup.refresh_from_db()
    assert dup.merged_into_id is None and dup.active
    assert Counter(Posting.objects.values_list("player_id", "amount")) == lines

    with pytest.raises(InvalidInput):
        player_merge(source=asha, target=asha, actor=standing.organiser)
    away = Player.objects.create(club=standing.outsider.memberships.get().club, name="Asha")
    with pytest.raises(InvalidInput):
        player_merge(source=away, target=asha, actor=standing.organiser)


def test_two_accounts_or_a_running_tournament_refuse_a_merge(standing):
    asha = Player.objects.get(club=standing.club, name="Asha")
    dup = Player.objects.create(club=standing.club, name="Asha K.")
    asha.user, dup.user = UserFactory(), UserFactory()
    asha.save()
    dup.save()
    with pytest.raises(Conflict) as refused:
        player_merge(source=dup, target=asha, actor=standing.organiser)
    assert refused.value.code == "two_accounts"
    account = dup.user
    dup.user = None
    dup.save()
    tournament = new_tournament(standing)
    enter(standing, tournament, [dup])
    with pytest.raises(Conflict) as refused:
        player_merge(source=dup, target=asha, actor=standing.organiser)
    assert "tournament_running" in [b["code"] for b in refused.value.details["blockers"]]
    # Without those, the account of the one merged away goes to the kept player when free.
    tournament_cancel(tournament=tournament, actor=standing.organiser)
    asha.user = None
    asha.save()
    dup.user = account
    dup.save()
    player_merge(source=dup, target=asha, actor=standing.organiser)
    asha.refresh_from_db()
    dup.refresh_from_db()
    assert asha.user == account and dup.user is None
    assert Entry.objects.get(tournament=tournament).player == asha
    assert ledger_balanced()


def test_postgres_lets_a_ledger_line_change_only_its_player_and_only_to_the_merge(
    standing, postgres
):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Chitra"], point_value_minor=10)
    play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=30))

    def refused(sql: str, params: list[Any]) -> None:
        with (
            pytest.raises(DatabaseError, match="append-only"),
            transaction.atomic(),
            connection.cursor() as cursor,
        ):
            cursor.execute(sql, params)

    move = "UPDATE scoring_posting SET player_id = %s WHERE player_id = %s"
    refused(move, [ids["Chitra"], ids["Bilal"]])  # no merge: refused
    refused("UPDATE scoring_playerresult SET player_id = %s WHERE player_id = %s",
            [ids["Chitra"], ids["Bilal"]])  # fmt: skip
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE clubs_player SET merged_into_id = %s WHERE id = %s",
            [ids["Chitra"], ids["Bilal"]],
        )
    refused(move, [ids["Asha"], ids["Bilal"]])  # not the player Bilal was merged into
    refused(
        "UPDATE scoring_posting SET player_id = %s, amount = amount + 1 WHERE player_id = %s",
        [ids["Chitra"], ids["Bilal"]],
    )  # the player and an amount
    refused("DELETE FROM scoring_posting WHERE player_id = %s", [ids["Bilal"]])
    with connection.cursor() as cursor:
        cursor.execute(move, [ids["Chitra"], ids["Bilal"]])
        assert cursor.rowcount == 2  # the deal's points and money lines
    assert ledger_balanced(game)


def test_the_api_merges_for_organisers_and_names_what_is_wrong(standing):
    dup = Player.objects.create(club=standing.club, name="Asha K.")
    asha = Player.objects.get(club=standing.club, name="Asha")
    url = f"/api/v1/clubs/home/players/{dup.pk}/merge/"
    assert (
        standing.client("outsider").post(url, {"into": asha.pk}, format="json").status_code == 404
    )
    for who in ["player", "scorer"]:
        answer = standing.client(who).post(url, {"into": asha.pk}, format="json")
        assert answer.status_code == 403, who
    organiser = standing.client("organiser")
    bad = organiser.post(url, {"into": "Asha"}, format="json")
    assert bad.status_code == 400 and "into" in str(bad.json())
    missing = organiser.post(url, {"into": 2**40}, format="json")
    assert missing.status_code == 404
    answer = organiser.post(url, {"into": asha.pk}, format="json")
    assert answer.status_code == 200 and answer.json()["id"] == asha.pk
    shown = organiser.get(f"/api/v1/clubs/home/players/{dup.pk}/").json()
    assert shown["merged_into"] == asha.pk and shown["active"] is False
    listed = organiser.get("/api/v1/clubs/home/players/").json()
    assert dup.pk not in [p["id"] for p in listed["results"]]
    again = organiser.post(url, {"into": asha.pk}, format="json")
    assert again.status_code == 409 and again.json()["error"]["code"] == "already_merged"


def test_the_player_page_merges_and_the_old_page_leads_to_the_kept_one(standing, client):
    game, ids = new_game(standing, "points", ["Asha", "Bilal", "Asha K."])
    play(standing, game, results(ids, **{"Asha K.": "winner", "Asha": 5, "Bilal": 20}))
    close_table(standing, game)
    dup, asha = ids["Asha K."], ids["Bilal"]  # the wrong merge first: they met
    client.force_login(standing.organiser)
    page = client.get(f"/clubs/home/players/{dup}/")
    assert b"Merge a duplicate" in page.content and b"data-picker" in page.content
    url = f"/clubs/home/players/{dup}/merge/"
    unticked = client.post(url, {"into": asha})
    assert unticked.status_code == 400 and b"tick the box" in unticked.content
    met = client.post(url, {"into": asha, "confirm": "1"})
    assert met.status_code == 409 and b"both sat in game" in met.content
    assert Player.objects.get(pk=dup).merged_into_id is None
    other = Player.objects.create(club=standing.club, name="Asha Kumar")
    done = client.post(url, {"into": other.pk, "confirm": "1"})
    assert done.status_code == 302 and done["Location"].endswith(f"/players/{other.pk}/")
    kept = client.get(done["Location"])
    assert b"Also entered as Asha K." in kept.content and b"is merged into" in kept.content
    old = client.get(f"/clubs/home/players/{dup}/")
    assert old.status_code == 302 and old["Location"].endswith(f"/players/{other.pk}/")
    # The deal page still names who played, and a correction starts from the result as entered.
    deal = game.deals.get()
    shown = client.get(f"/clubs/home/deals/{deal.pk}/")
    assert shown.status_code == 200 and b"Asha K." in shown.content
    form = client.get(f"/clubs/home/deals/{deal.pk}/result/")
    assert form.status_code == 200
    assert f'name="p{other.pk}-outcome"'.encode() in form.content
    assert form.context["form"].initial.get(f"p{other.pk}-outcome") == "winner"
    client.force_login(standing.scorer)
    assert client.post(url, {"into": asha, "confirm": "1"}).status_code == 403
