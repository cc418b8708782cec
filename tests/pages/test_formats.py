"""The game page per format: pool scores out of the limit, rejoins and agreed splits; deals chips
and the tie-breaker deal; a Rummikub match entered from the racks (International closed hands and
settlement); closing a points table. Organisers act, scorers enter, players read; a service's
refusal is shown with its message and a 4xx status, never a 500."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client, TestCase
from django.utils import translation

from config.catalogs import TRANSLATED
from scoring.models import Deal, Game
from tests.conftest import Standing
from tests.scoring.helpers import by_name, new_game, play, results, state

THREE = ["Asha", "Bilal", "Chitra"]


def client(standing: Standing, who: str) -> Client:
    c = Client()
    c.force_login(getattr(standing, who))
    return c


def game_url(game: Game, rest: str = "") -> str:
    return f"/clubs/home/games/{game.pk}/{rest}"


def post(c: Client, url: str, data: dict[str, Any]) -> Any:
    with TestCase.captureOnCommitCallbacks(execute=True):
        return c.post(url, data)


def text(body: bytes | str) -> str:
    """The page's text, tags removed and spaces folded, to assert on what a reader sees (an
    isolating ``<bdi>`` round a figure is no space)."""
    html = body.decode() if isinstance(body, bytes) else body
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", re.sub(r"</?bdi[^>]*>", "", html)))


# --- pool -----------------------------------------------------------------------------------------


def _pool_with_chitra_out(standing: Standing, bilal: int) -> tuple[Game, dict[str, int]]:
    game, ids = new_game(standing, "pool-101", THREE, entry_fee_minor=2500)
    play(standing, game, results(ids, Asha="winner", Bilal=bilal, Chitra=80))
    play(standing, game, results(ids, Asha="winner", Bilal=0, Chitra=30))
    return game, ids


def test_pool_page_shows_scores_status_drops_and_the_prize(standing):
    game, _ = _pool_with_chitra_out(standing, 40)
    page = text(client(standing, "player").get(game_url(game)).content)
    assert "Pool 101" in page
    assert "Asha ● In 0 of −101 5 drops left" in page
    assert "Bilal ● In −40 of −101 3 drops left" in page
    assert "Chitra ✗ Out −110 of −101" in page
    assert "Entries 3 × ₹25.00" in page and "Prize pool ₹75.00" in page and "Club fee ₹0.00" in page
    # A player reads, but neither rejoins nor splits.
    assert "Rejoin Chitra" not in page and "Record the" not in page


def test_pool_rejoin_from_the_page(standing):
    game, ids = _pool_with_chitra_out(standing, 40)
    organiser = client(standing, "organiser")
    body = organiser.get(game_url(game)).content.decode()
    page = text(body)
    # One tap asks, naming the fee; the second pays: the button that posts is inside the question.
    assert "Rejoin Chitra…" in page
    assert (
        "Chitra pays the entry fee of ₹25.00 again, into the prize pool, and comes back in at "
        "−41, one point past the highest score still in. Yes: Chitra pays ₹25.00 and rejoins"
    ) in page
    question = re.search(r'<details class="rejoin"[^>]*>(.*?)</details>', body, re.S)
    assert question and "<summary>Rejoin Chitra…</summary>" in question.group(1)
    assert 'type="submit"' in question.group(1).split("</summary>", 1)[1]
    assert (
        'type="submit"' not in body.split('<details class="rejoin"')[0].rsplit("meter-foot", 1)[1]
    )
    for who, expected in (("player", 403), ("scorer", 403)):
        refused = client(standing, who).post(game_url(game, "rejoin/"), {"player": ids["Chitra"]})
        assert refused.status_code == expected
    response = organiser.post(game_url(game, "rejoin/"), {"player": ids["Chitra"]}, follow=True)
    page = text(response.content)
    assert "Chitra is back in at −41, paying ₹25.00 again." in page
    assert "Chitra ● In, rejoined once −41 of −101" in page
    assert "Entries 4 × ₹25.00" in page and "Prize pool ₹100.00" in page
    assert by_name(state(game), "rejoins")["Chitra"] == 1


def test_pool_rejoin_refused_shows_the_reason(standing):
    """formats.md: no rejoin while an active player is above 79; the page says why, with 409."""
    game, ids = _pool_with_chitra_out(standing, 80)
    organiser = client(standing, "organiser")
    page = text(organiser.get(game_url(game)).content)
    assert "Rejoin Chitra" not in page
    assert "Out at −110 · No rejoin while Bilal is at −80, past −79" in page
    response = organiser.post(game_url(game, "rejoin/"), {"player": ids["Chitra"]})
    assert response.status_code == 409
    body = response.content.decode()
    assert 'role="alert"' in body
    assert "Not done: no rejoin while Bilal is at −80, past −79" in text(body)
    # Someone still in cannot "rejoin"; a player of another game is refused too.
    response = organiser.post(game_url(game, "rejoin/"), {"player": ids["Asha"]})
    assert response.status_code == 409 and "still in" in response.content.decode()
    assert organiser.post(game_url(game, "rejoin/"), {"player": "x"}).status_code == 400
    assert organiser.post(game_url(game, "rejoin/"), {"player": 99999}).status_code == 404


@pytest.mark.parametrize("language", TRANSLATED)
def test_a_refused_rejoin_is_said_in_the_clubs_language(standing, language):
    """The rules engine refuses in English, by a code and values; the page says it in the
    club's language, and leaves no English on the game page."""
    from clubs.models import Player
    from clubs.services import club_update
    from scoring.models import RulePreset
    from tests.pages.test_english_left import english_left

    game, ids = _pool_with_chitra_out(standing, 80)
    club_update(club=standing.club, actor=standing.owner, language=language)
    organiser = client(standing, "organiser")
    names = [standing.club.name, game.table.name, game.table.session.name, "Pool 101"]
    names += list(RulePreset.objects.values_list("name", flat=True))
    names += list(Player.objects.filter(club=standing.club).values_list("name", flat=True))
    names += [u.get_username() for u in (standing.owner, standing.organiser)]
    for player, words in (
        ("Chitra", "no rejoin while %(name)s is at %(score)s, past %(limit)s"),
        ("Asha", "this player is still in, at %(score)s"),
    ):
        response = organiser.post(game_url(game, "rejoin/"), {"player": ids[player]})
        assert response.status_code == 409
        body = response.content.decode()
        with translation.override(language):
            said = translation.gettext(words).split("%(")[0].strip()
        assert said and said in body, (player, said)
        assert english_left(body, language, names) == [], player


def _split_table(standing: Standing) -> tuple[Game, dict[str, int]]:
    names = ["P1", "P2", "P3", "P4", "P5", "P6"]
    game, ids = new_game(standing, "pool-101", names, entry_fee_minor=2500)
    play(standing, game, results(ids, P1="winner", P2=79, P3=80, P4=80, P5=80, P6=80))
    play(standing, game, results(ids, P1="winner", P2=0, P3=10, P4=21, P5=21, P6=21))
    play(standing, game, results(ids, P2="winner", P1=40, P3=0))
    return game, ids


def test_pool_split_offer_shares_and_agreement(standing):
    """formats.md Split: pool 150, entry 25, drops remaining 3, 1, 0 pays 91.67, 41.67, 16.66;
    every remaining player must agree."""
    game, ids = _split_table(standing)
    organiser = client(standing, "organiser")
    page = text(organiser.get(game_url(game)).content)
    assert "Split by drops remaining offered" in page
    assert "P1 at −40 · 3 drops left ₹91.67" in page and "P2 at −79 · 1 drop left ₹41.67" in page
    assert "P3 at −90 · 0 drops left ₹16.66" in page
    assert "Record the split by drops remaining" in page
    # The player sees the shares, not the form.
    page = text(client(standing, "player").get(game_url(game)).content)
    assert "P1 at −40 · 3 drops left ₹91.67" in page and "Record the split" not in page
    # Not everyone agreed: refused, naming who did not.
    url = game_url(game, "split/")
    response = organiser.post(url, {"kind": "drops", "agreed": [ids["P1"], ids["P2"]]})
    assert response.status_code == 409
    assert "every remaining player must agree to a split; not agreed: P3" in text(response.content)
    assert state(game)["status"] == "open"
    # A kind the game does not offer.
    response = organiser.post(url, {"kind": "equal", "agreed": [ids["P1"], ids["P2"], ids["P3"]]})
    assert response.status_code in (400, 409) and 'role="alert"' in response.content.decode()
    response = organiser.post(
        url, {"kind": "drops", "agreed": [ids["P1"], ids["P2"], ids["P3"]]}, follow=True
    )
    page = text(response.content)
    assert "The split is recorded and the game is over: P1 ₹91.67, P2 ₹41.67, P3 ₹16.66." in page
    assert "Finished" in page and "Paid out P1 +₹91.67 P2 +₹41.67 P3 +₹16.66" in page
    assert "Shared the prize" in page and "Record the" not in page
    # Once over, a second split is refused on the page.
    again = organiser.post(url, {"kind": "drops", "agreed": [ids["P1"], ids["P2"], ids["P3"]]})
    assert again.status_code == 409 and "this game has finished" in again.content.decode()


def test_pool_deal_entry_names_only_the_players_still_in(standing):
    game, ids = _pool_with_chitra_out(standing, 40)
    body = client(standing, "scorer").get(game_url(game, "deals/new/")).content.decode()
    assert f'id="line-{ids["Asha"]}"' in body and f'id="line-{ids["Bilal"]}"' in body
    assert f'id="line-{ids["Chitra"]}"' not in body


def test_pool_winner_is_shown(standing):
    game, ids = _pool_with_chitra_out(standing, 40)
    play(standing, game, results(ids, Asha="winner", Bilal=80))
    page = text(client(standing, "player").get(game_url(game)).content)
    assert "★ Asha won the pool" in page and "Paid out Asha +₹75.00" in page


# --- deals ----------------------------------------------------------------------------------------


def _level_deals(standing: Standing) -> tuple[Game, dict[str, int]]:
    game, ids = new_game(
        standing, "deals-2", THREE, entry_fee_minor=1000,
        params={"deals": {"deals": 2}, "fee": {"kind": "flat", "flat_minor": 300}},
    )  # fmt: skip
    play(standing, game, results(ids, Asha="winner", Bilal=30, Chitra=10))
    return game, ids


def test_deals_page_shows_chips_deals_counted_and_the_prize(standing):
    game, _ = _level_deals(standing)
    page = text(client(standing, "player").get(game_url(game)).content)
    assert "Best of 2" in page and "Deals counted 1 of 2" in page
    assert "Prize ₹27.00" in page and "Club fee ₹3.00" in page
    assert "Asha ▲ Leads 200 chips" in page and "Bilal 130 chips" in page
    assert "tie-breaker" not in page


def test_deals_tie_and_the_tiebreaker_deal(standing):
    game, ids = _level_deals(standing)
    play(standing, game, results(ids, Bilal="winner", Asha=30, Chitra=10))
    scorer = client(standing, "scorer")
    page = text(scorer.get(game_url(game)).content)
    assert "Level at the top after the last deal: Asha, Bilal" in page
    assert "Play the tie-breaker deal" in page and "Enter deal 3" not in page
    # The entry page is for the tied players only.
    url = game_url(game, "deals/tiebreaker/")
    body = scorer.get(url).content.decode()
    assert f'id="line-{ids["Asha"]}"' in body and f'id="line-{ids["Bilal"]}"' in body
    assert f'id="line-{ids["Chitra"]}"' not in body
    assert "Submit the tie-breaker deal" in body
    assert client(standing, "player").get(url).status_code == 403
    data = {
        "wild": "",
        "dealer": "",
        f"p{ids['Bilal']}-outcome": "winner",
        f"p{ids['Asha']}-outcome": "loser",
        f"p{ids['Asha']}-points": "5",
    }
    response = post(scorer, url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    deal = Deal.objects.get(game=game, is_tiebreaker=True)
    assert deal.status == "final"
    page = text(scorer.get(game_url(game)).content)
    assert "★ Bilal won" in page and "Paid out Bilal +₹27.00" in page and "Finished" in page
    deal_page = text(scorer.get(f"/clubs/home/deals/{deal.pk}/").content)
    assert "Tie-breaker deal" in deal_page


def test_tiebreaker_refused_when_nobody_is_level(standing):
    game, ids = _level_deals(standing)
    scorer = client(standing, "scorer")
    url = game_url(game, "deals/tiebreaker/")
    data = {f"p{ids['Asha']}-outcome": "winner", f"p{ids['Bilal']}-outcome": "loser",
            f"p{ids['Bilal']}-points": "5", f"p{ids['Chitra']}-outcome": "loser",
            f"p{ids['Chitra']}-points": "5"}  # fmt: skip
    response = post(scorer, url, data)
    assert response.status_code == 409
    assert "a tie-breaker deal is played only after the last deal" in response.content.decode()
    assert not Deal.objects.filter(game=game, is_tiebreaker=True).exists()


# --- Rummikub -------------------------------------------------------------------------------------


def _racks(ids: dict[str, int], winner: str | None, **tiles: str) -> dict[str, str]:
    data = {f"p{ids[name]}-rack": rack for name, rack in tiles.items()}
    data["winner"] = str(ids[winner]) if winner else "none"
    return data


def test_sabra_game_entered_from_the_racks(standing):
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra", "Dev"])
    scorer = client(standing, "scorer")
    entry = scorer.get(game_url(game, "deals/new/")).content.decode()
    assert "Game 1 of the match" in entry and "K</strong> black" in entry
    visible = r'<(?:input(?![^>]*type="hidden")|select)[^>]*\bid="([^"]+)"'
    for field_id in re.findall(visible, entry):
        assert f'for="{field_id}"' in entry, f"no label for #{field_id}"
    data = _racks(ids, "Asha", Asha="", Bilal="r5 jk", Chitra="K13", Dev="B1, B2")
    response = post(scorer, game_url(game, "deals/new/"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    page = text(scorer.get(response["Location"]).content)
    assert "Game 1" in page and "Accepted" in page
    assert "Asha (went out) Went out none +51" in page
    assert "Bilal Lost R 5 red 5 JK joker −35" in page  # the colour as a letter and a word
    assert "Dev Lost B 1 blue 1 B 2 blue 2 −3" in page
    page = text(scorer.get(game_url(game)).content)
    assert "Sabra match" in page and "1 game played" in page
    assert "Asha (leading) +51" in page and "Leading: Asha" in page
    assert "Enter game 2" in page


def test_pool_ran_out_with_the_last_mover(standing):
    """rummikub.md Decision: tied lowest racks share the gain; the remainder goes in seating order
    after the last player who moved."""
    game, ids = new_game(standing, "sabra", THREE)
    data = _racks(ids, None, Asha="R2", Bilal="B2", Chitra="K5")
    data["last_mover"] = str(ids["Asha"])
    response = post(client(standing, "scorer"), game_url(game, "deals/new/"), data)
    page = text(client(standing, "player").get(response["Location"]).content)
    assert "Nobody went out: the pool ran out" in page
    assert "Asha Pool ran out R 2 red 2 +1" in page and "Bilal Pool ran out B 2 blue 2 +2" in page


def test_a_bad_tile_is_rejected_and_marked(standing):
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal"])
    scorer = client(standing, "scorer")
    response = post(scorer, game_url(game, "deals/new/"), _racks(ids, "Asha", Bilal="R5 X9"))
    body = scorer.get(response["Location"]).content.decode()
    assert "Rejected" in body and "X9" in body
    assert "rtile unknown bad" in body
    # The correction starts from what was typed.
    deal = Deal.objects.get(game=game)
    form = scorer.get(f"/clubs/home/deals/{deal.pk}/result/").content.decode()
    assert 'value="R5 X9"' in form and "Correct game 1" in form
    response = post(
        scorer, f"/clubs/home/deals/{deal.pk}/result/", _racks(ids, "Asha", Bilal="R5 O9")
    )
    assert response.status_code == 302
    deal.refresh_from_db()
    assert deal.status == "final"


def test_rummikub_form_problems_are_shown(standing):
    game, ids = new_game(standing, "international", ["Asha", "Bilal"])
    scorer = client(standing, "scorer")
    url = game_url(game, "deals/new/")
    response = post(scorer, url, {f"p{ids['Bilal']}-rack": "R5"})
    assert response.status_code == 400 and "Who went out: This field is required." in (
        response.content.decode()
    )
    response = post(scorer, url, _racks(ids, "Asha", Bilal="R5"))
    assert response.status_code == 400
    assert "How the hand was won: say how the hand was won" in response.content.decode()
    assert not game.deals.exists()


ROYAL = " ".join([f"R{n}" for n in range(1, 14)] + ["R1"])


def test_international_closed_win_settlement_and_finish(standing):
    game, ids = new_game(standing, "international", THREE, point_value_minor=10)
    scorer = client(standing, "scorer")
    entry = scorer.get(game_url(game, "deals/new/")).content.decode()
    assert "How the hand was won" in entry and "The closed hand" in entry
    assert "Had melded" in entry and "final discard was a joker" in entry
    data = _racks(ids, "Asha", Bilal="B9", Chitra="K3 O4")
    data.update({"win": "closed", "closed_hand": ROYAL.lower(), f"p{ids['Chitra']}-melded": "on"})
    response = post(scorer, game_url(game, "deals/new/"), data)
    assert response.status_code == 302, response.content.decode()[:3000]
    body = scorer.get(response["Location"]).content.decode()
    page = text(body)
    assert "Closed win" in page and "Closed hand: Royal (type 24)" in page
    assert "Worth 2400 without a joker" in page
    assert body.count('class="rtile c-r"') == 14  # the arrangement, tile by tile
    # Bilal had not melded: loses what the winner won; Chitra had: loses her tiles (3 + 4).
    assert "Bilal Lost B 9 blue 9 −2400" in page
    assert "Chitra Lost K 3 black 3 O 4 orange 4 −7" in page
    game_page = text(scorer.get(game_url(game)).content)
    # Totals 2400, -2400, -7 (sum -7) at ₹0.10 a point: net_i = 0.10 x (3 x score_i + 7).
    assert "International match" in game_page and "Settles now" in game_page
    assert "Asha (leading) +2400 +₹720.70" in game_page
    assert "Bilal −2400 −₹719.30" in game_page and "Chitra −7 −₹1.40" in game_page
    # Only an organiser finishes the match; then it is settled.
    assert client(standing, "scorer").post(game_url(game, "finish/")).status_code == 403
    response = client(standing, "organiser").post(game_url(game, "finish/"), follow=True)
    page = text(response.content)
    assert "The match is over." in page and "Settled" in page
    assert "Asha (leading) +2400 +₹720.70" in page
    again = client(standing, "organiser").post(game_url(game, "finish/"))
    assert again.status_code == 409 and "this game has finished" in again.content.decode()


# --- points ---------------------------------------------------------------------------------------


def test_close_a_points_table(pages):
    game = pages.night.game
    organiser = pages.client("organiser")
    assert "Close the table" in organiser.get(game_url(game)).content.decode()
    assert "Close the table" not in pages.client("scorer").get(game_url(game)).content.decode()
    assert pages.client("scorer").post(game_url(game, "finish/")).status_code == 403
    # A deal without a counted result holds the table open.
    from scoring.deals import deal_create

    deal = deal_create(game=game, actor=pages.s.organiser)
    response = organiser.post(game_url(game, "finish/"))
    assert response.status_code == 409 and "has no counted result yet" in response.content.decode()
    deal.delete()
    response = organiser.post(game_url(game, "finish/"), follow=True)
    page = text(response.content)
    assert "The table is closed." in page and "Finished" in page and "Enter deal" not in page
    game.refresh_from_db()
    assert game.status == "finished"


@pytest.mark.parametrize("path", ["rejoin/", "split/", "finish/", "deals/tiebreaker/"])
def test_format_actions_outsider_and_anonymous(pages, path):
    url = game_url(pages.night.game, path)
    assert pages.client("outsider").post(url, {}).status_code == 404
    response = pages.client("anonymous").post(url, {})
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_format_actions_on_a_points_game_are_refused_with_the_reason(pages):
    organiser = pages.client("organiser")
    game = pages.night.game
    asha = pages.night.pid("Asha")
    response = organiser.post(game_url(game, "rejoin/"), {"player": asha})
    assert response.status_code == 409 and "only pool rummy has rejoins" in (
        response.content.decode()
    )
    response = organiser.post(game_url(game, "split/"), {"kind": "drops"})
    assert response.status_code == 409 and "only pool rummy has splits" in (
        response.content.decode()
    )
    response = post(pages.client("scorer"), game_url(game, "deals/tiebreaker/"), pages.form())
    assert response.status_code == 409 and "no tie-breaker" in response.content.decode()


def test_no_tiebreaker_entry_when_none_is_due(standing):
    game, _ = _level_deals(standing)
    response = client(standing, "scorer").get(game_url(game, "deals/tiebreaker/"), follow=True)
    assert response.redirect_chain[-1][0] == game_url(game)
    assert "No tie-breaker deal is due in this game." in response.content.decode()


def test_a_pool_score_has_one_sign_on_every_page(standing):
    """Bilal's pool score of 40 taken reads −40 on the game page (the meter, the totals, the
    seats), the scoreboard, the standings of the game and his own page: never 40 on one and −40
    on another; the game page's headings say what the minus means."""
    game, ids = _pool_with_chitra_out(standing, 40)
    reader = client(standing, "player")
    page = text(reader.get(game_url(game)).content)
    assert "Bilal ● In −40 of −101" in page
    assert "Pool score (total) pool points, − taken 0 −40 −110" in page
    assert "2. Bilal −40" in page
    assert "points taken, shown with a minus" in page
    session = game.table.session
    board = text(reader.get(f"/clubs/home/sessions/{session.pk}/").content)
    assert "(pool points, − taken)" in board and re.search(r"Bilal −₹25\.00 −40 ", board)
    standings = text(reader.get(f"/clubs/home/standings/?scope=game&id={game.pk}").content)
    assert re.search(r"Bilal −40 ", standings)
    player = text(reader.get(f"/clubs/home/players/{ids['Bilal']}/").content)
    assert "Pool rummy −40" in player
    for shown in (page, board, standings, player):
        assert not re.search(r"Bilal[^−]{0,40}\b40 of", shown)
