"""A deal's result goes in through the API, the rules check it, the ledger comes out."""

from __future__ import annotations

import pytest
from django.test import TestCase

from clubs.models import AuditEntry
from ledger.models import LedgerEntry, Posting
from scoring.models import PlayerResult, Submission
from scoring.submissions import submission_validate
from tests.api.test_errors import assert_error
from tests.scoring.conftest import Night, make_night

SEED_ASHA = [["2H", "3H", "4H"], ["5C", "6C", "QH"], ["8D", "8S", "5C"], ["2H", "2C"], ["KS", "QS"]]
SEED_BILAL = [
    ["4S", "4H", "4C"],
    ["4D", "5D", "QH"],
    ["3S", "7S", "8S"],
    ["QD", "KD"],
    ["10C", "9C"],
]
SEED_CHITRA = [
    ["3H", "4H", "5H"],
    ["5C", "6C", "7C", "QH"],
    ["8D", "5C"],
    ["2H", "2C", "2D"],
    ["KS"],
]
WINNER = [["2S", "3S", "4S", "5S"], ["6D", "7D", "8D"], ["9C", "10C", "JC"], ["KH", "KC", "KD"]]


def new_deal(night: Night, **fields) -> dict:
    client = night.standing.client("organiser")
    response = client.post(
        f"/api/v1/clubs/home/games/{night.game.pk}/deals/", fields, format="json"
    )
    assert response.status_code in (201, 202), response.content
    return response.json()


def submit(night: Night, deal_id: int, body: dict, who: str = "organiser", client=None, **headers):
    """POST a submission; its validation task runs when the request's transaction commits."""
    client = client or night.standing.client(who)
    with TestCase.captureOnCommitCallbacks(execute=True):
        return client.post(
            f"/api/v1/clubs/home/deals/{deal_id}/submissions/", body, format="json", **headers
        )


def read(night: Night, url: str) -> dict:
    response = night.standing.client("player").get(url)
    assert response.status_code == 200
    return response.json()


def against_of(result: dict) -> dict[str, int]:
    """What the rules counted against each player."""
    return {line["name"]: line["against"] for line in result["players"]}


def points_of(result: dict) -> dict[str, int]:
    """What the deal moved for each player, signed."""
    return {line["name"]: line["points"] for line in result["players"]}


def test_seed_six_player_table_scores_and_pays(night):
    """indian-rummy.md worked examples: the seed's table with wild Q (Asha 35, Bilal 68 from
    their cards; Chitra 23, a first drop, three missed turns) at Rs 4 a point."""
    deal = new_deal(night, wild="QD")
    body = {
        "results": night.results(
            Asha={"outcome": "loser", "groups": SEED_ASHA},
            Bilal={"outcome": "loser", "groups": SEED_BILAL},
            Chitra={"outcome": "loser", "points": 23},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "missed_turns"},
            Farid={"outcome": "winner", "groups": WINNER},
        )
    }
    response = submit(night, deal["id"], body)
    assert response.status_code == 202
    # Absolute, as the paging links and a table link's URLs are.
    assert response["Location"] == response.json()["url"]
    assert response.json()["url"] == (
        f"http://testserver/api/v1/clubs/home/submissions/{response.json()['id']}/"
    )
    submission = read(night, response.json()["url"])
    assert submission["status"] == "accepted", submission["reasons"]
    assert against_of(submission["result"]) == {
        "Asha": 35, "Bilal": 68, "Chitra": 23, "Dev": 20, "Esther": 40, "Farid": 0,
    }  # fmt: skip
    assert points_of(submission["result"]) == {
        "Asha": -35, "Bilal": -68, "Chitra": -23, "Dev": -20, "Esther": -40, "Farid": 186,
    }  # fmt: skip
    money = submission["result"]["money"]
    assert money["winnings_minor"] == 400 * (35 + 68 + 23 + 20 + 40) == 74400
    board = read(night, f"/api/v1/clubs/home/sessions/{night.session.pk}/scoreboard/")
    by_name = {line["name"]: line for line in board["lines"]}
    assert by_name["Farid"]["points_by_format"] == {"points": 186}
    assert by_name["Farid"]["money_minor"] == 74400
    assert by_name["Bilal"]["money_minor"] == -68 * 400
    assert sum(line["money_minor"] for line in board["lines"]) == 0


def test_seed_money_824_rupees_before_the_fee(standing):
    """formats.md: losers 45, 78, 23, 20 and 40 at Rs 4 a point pay the winner Rs 824, less the
    club's fee (10% here, rounded half up to the paisa)."""
    night = make_night(standing, fee={"kind": "percent", "percent": "10"})
    deal = new_deal(night)
    body = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 45},
            Bilal={"outcome": "loser", "points": 78},
            Chitra={"outcome": "loser", "points": 23},
            Dev={"outcome": "first_drop", "points": 20},
            Esther={"outcome": "missed_turns", "points": 40},
            Farid={"outcome": "winner"},
        )
    }
    submission = read(night, submit(night, deal["id"], body).json()["url"])
    money = submission["result"]["money"]
    assert money["winnings_minor"] == 82400
    assert money["club_fee_minor"] == 8240
    assert money["by_player"][str(night.pid("Farid"))] == 82400 - 8240
    board = read(night, f"/api/v1/clubs/home/sessions/{night.session.pk}/scoreboard/")
    assert board["club_money_minor"] == 8240
    settlement = read(night, f"/api/v1/clubs/home/sessions/{night.session.pk}/settlement/")
    received = {}
    for transfer in settlement["transfers"]:
        received[transfer["payee"]] = received.get(transfer["payee"], 0) + transfer["amount_minor"]
    assert received == {"Farid": 74160, "Home Club (club)": 8240} or sum(received.values()) == 82400
    assert len(settlement["transfers"]) <= 6


def rejected(night: Night, body: dict) -> list[dict]:
    postings_before = Posting.objects.count()
    deal = new_deal(night, wild="QD")
    response = submit(night, deal["id"], body)
    assert response.status_code == 202
    submission = read(night, response.json()["url"])
    assert submission["status"] == "rejected"
    assert submission["result"] is None
    assert Posting.objects.count() == postings_before  # the ledger is untouched
    assert not PlayerResult.objects.filter(submission_id=submission["id"]).exists()
    return submission["reasons"]


def five_losers(night: Night, **overrides) -> dict:
    lines = {
        "Asha": {"outcome": "loser", "points": 10},
        "Bilal": {"outcome": "loser", "points": 20},
        "Chitra": {"outcome": "loser", "points": 30},
        "Dev": {"outcome": "first_drop"},
        "Esther": {"outcome": "middle_drop"},
        "Farid": {"outcome": "winner"},
    }
    lines.update(overrides)
    return {"results": night.results(**lines)}


def test_rejects_two_winners_naming_them(night):
    reasons = rejected(night, five_losers(night, Asha={"outcome": "winner"}))
    assert [r["code"] for r in reasons] == ["several_winners"]
    assert "Asha" in reasons[0]["message"] and "Farid" in reasons[0]["message"]


def test_rejects_a_winner_without_a_valid_declaration_naming_the_group(night):
    bad = [["2S", "3S", "4S", "5S"], ["6D", "7D", "9D"], ["9C", "10C", "JC"], ["KH", "KC", "KD"]]
    reasons = rejected(night, five_losers(night, Farid={"outcome": "winner", "groups": bad}))
    assert len(reasons) == 1
    reason = reasons[0]
    assert reason["code"] == "invalid_group"
    assert reason["player_name"] == "Farid"
    assert "group 2 (6D 7D 9D)" in reason["message"]
    assert reason["details"]["cards"] == ["6D", "7D", "9D"]


def test_rejects_a_card_three_times_across_the_deal_naming_player_and_card(night):
    asha = [["5C", "5H", "5S"], ["7S", "8S", "9S"], ["2D", "3D", "4D"], ["KC", "KH", "KS", "JK"]]
    bilal = [["5C", "6C", "7C"], ["9H", "10H", "JH"], ["2C", "2H", "2S"], ["AD", "AH", "AS", "4C"]]
    chitra = [["5C", "6C", "7C"], ["9D", "10D", "JD"], ["3C", "3H", "3S"], ["AC", "QS", "QH", "4S"]]
    reasons = rejected(
        night,
        five_losers(
            night,
            Asha={"outcome": "loser", "groups": asha},
            Bilal={"outcome": "loser", "groups": bilal},
            Chitra={"outcome": "loser", "groups": chitra},
        ),
    )
    assert [r["code"] for r in reasons] == ["too_many_copies"]
    assert reasons[0]["token"] == "5C"
    assert reasons[0]["player_name"] == "Chitra"
    assert "Chitra" in reasons[0]["message"] and "5C" in reasons[0]["message"]


def test_rejects_a_missing_player_naming_them(night):
    body = five_losers(night)
    body["results"] = [line for line in body["results"] if line["player"] != night.pid("Dev")]
    reasons = rejected(night, body)
    assert [(r["code"], r["player_name"]) for r in reasons] == [("missing_player", "Dev")]
    assert reasons[0]["message"] == "Dev has no result in this deal"


def test_rejects_a_drop_where_the_preset_forbids_it(standing):
    from scoring.club_settings import preset_create
    from scoring.models import RulePreset

    base = RulePreset.objects.get(club=None, key="points")
    preset_create(
        club=standing.club,
        actor=standing.owner,
        key="no-drops",
        name="No drops",
        format="points",
        variant="indian",
        params={"indian": {"drops_allowed": False}},
    )
    night = make_night(standing, preset_key="points")
    night.game.preset = RulePreset.objects.get(club=standing.club, key="no-drops")
    night.game.save(update_fields=["preset"])
    assert base.pk != night.game.preset_id
    reasons = rejected(night, five_losers(night))
    assert [(r["code"], r["player_name"], r["token"]) for r in reasons] == [
        ("drop_not_allowed", "Dev", "first_drop"),
        ("drop_not_allowed", "Esther", "middle_drop"),
    ]


def test_rejects_a_bad_card_naming_the_token_and_player(night):
    asha = [["2H", "3H", "4X"], ["7S", "8S", "9S"], ["2D", "3D", "4D"], ["KC", "KH", "KS", "JK"]]
    reasons = rejected(night, five_losers(night, Asha={"outcome": "loser", "groups": asha}))
    assert [(r["code"], r["token"], r["player_name"]) for r in reasons] == [
        ("bad_card", "4X", "Asha")
    ]
    assert reasons[0]["details"]["group"] == 0 and reasons[0]["details"]["position"] == 2


def test_rejects_points_beyond_the_cap_and_wrong_drop_points(night):
    reasons = rejected(
        night,
        five_losers(
            night,
            Asha={"outcome": "loser", "points": 81},
            Dev={"outcome": "first_drop", "points": 25},
        ),
    )
    assert [(r["code"], r["player_name"]) for r in reasons] == [
        ("points_out_of_range", "Asha"),
        ("points_mismatch", "Dev"),
    ]
    assert "0 to 80, not 81" in reasons[0]["message"]


def test_malformed_submission_is_400_and_stores_nothing(night):
    deal = new_deal(night)
    response = submit(night, deal["id"], {"results": [{"player": "x", "outcome": 3}]})
    error = assert_error(response, 400, "invalid")
    assert "results" in error["details"]
    assert not Submission.objects.exists()


@pytest.mark.parametrize(
    ("cards", "message"),
    [
        (["2H", ["3H"]], "must be a string, not a list"),
        (["2H", True], "must be a string, not true or false"),
        (["2H", "  "], "This field may not be blank."),
        (["2H", "X" * 13], "Ensure this field has no more than 12 characters."),
    ],
)
def test_a_card_that_is_not_a_short_string_is_400_naming_its_place(night, cards, message):
    deal = new_deal(night)
    line = {"player": night.players["Asha"].pk, "outcome": "loser", "cards": cards}
    response = submit(night, deal["id"], {"results": [line]})
    error = assert_error(response, 400, "invalid")
    assert error["details"]["results"]["0"]["cards"] == {"1": [message]}
    assert error["message"] == f"results: 0: cards: 1: {message}"
    assert not Submission.objects.exists()


def test_card_tokens_are_read_trimmed(night):
    deal = new_deal(night, wild="QD")
    padded = [[f" {card} " for card in group] for group in WINNER]
    response = submit(
        night, deal["id"], five_losers(night, Farid={"outcome": "winner", "groups": padded})
    )
    assert response.status_code == 202, response.json()
    submission = Submission.objects.get()
    farid = next(line for line in submission.payload["results"] if line["outcome"] == "winner")
    assert farid["groups"] == WINNER
    assert submission.status == "accepted"


def test_correction_supersedes_and_reverses(night):
    deal = new_deal(night)
    first = read(night, submit(night, deal["id"], five_losers(night)).json()["url"])
    assert first["status"] == "accepted"
    corrected = five_losers(night, Asha={"outcome": "loser", "points": 50})
    second = read(night, submit(night, deal["id"], corrected).json()["url"])
    assert second["status"] == "accepted" and second["version"] == 2
    first = read(night, f"/api/v1/clubs/home/submissions/{first['id']}/")
    assert first["status"] == "superseded" and first["superseded_by"] == second["id"]
    kinds = list(LedgerEntry.objects.filter(deal_id=deal["id"]).values_list("kind", flat=True))
    assert kinds == ["deal", "reversal", "deal"]
    board = read(night, f"/api/v1/clubs/home/sessions/{night.session.pk}/scoreboard/")
    by_name = {line["name"]: line for line in board["lines"]}
    assert by_name["Asha"]["points_by_format"]["points"] == -50
    assert by_name["Farid"]["points_by_format"]["points"] == 50 + 20 + 30 + 20 + 40
    assert by_name["Asha"]["deals_played"] == 1  # the superseded version does not count
    history = (
        night.standing.client("player")
        .get(f"/api/v1/clubs/home/deals/{deal['id']}/submissions/")
        .json()["results"]
    )
    assert [(s["version"], s["status"]) for s in history] == [(1, "superseded"), (2, "accepted")]


def test_rejected_correction_leaves_the_accepted_version_counting(night):
    deal = new_deal(night)
    submit(night, deal["id"], five_losers(night))
    bad = read(
        night,
        submit(night, deal["id"], five_losers(night, Asha={"outcome": "winner"})).json()["url"],
    )
    assert bad["status"] == "rejected"
    statuses = list(Submission.objects.order_by("version").values_list("status", flat=True))
    assert statuses == ["accepted", "rejected"]
    assert Posting.objects.filter(entry__kind="reversal").count() == 0


def test_confirmation_by_a_second_person(night):
    club = night.standing.club
    club.requires_confirmation = True
    club.save()
    deal = new_deal(night)
    waiting = read(night, submit(night, deal["id"], five_losers(night)).json()["url"])
    assert waiting["status"] == "awaiting_confirmation"
    assert waiting["result"]["winner"] == night.pid("Farid")
    assert not Posting.objects.exists()

    own = night.standing.client("organiser").post(
        f"/api/v1/clubs/home/submissions/{waiting['id']}/confirm/"
    )
    assert_error(own, 403, "confirmer_is_submitter")
    by_player = night.standing.client("player").post(
        f"/api/v1/clubs/home/submissions/{waiting['id']}/confirm/"
    )
    assert_error(by_player, 403, "permission_denied")
    confirmed = night.standing.client("scorer").post(
        f"/api/v1/clubs/home/submissions/{waiting['id']}/confirm/"
    )
    assert confirmed.status_code == 200
    assert confirmed.json()["status"] == "accepted"
    assert confirmed.json()["confirmed_by"] == "scorer"
    assert Posting.objects.filter(entry__kind="deal").count() > 0
    again = night.standing.client("owner").post(
        f"/api/v1/clubs/home/submissions/{waiting['id']}/confirm/"
    )
    assert_error(again, 409, "not_awaiting_confirmation")


def test_idempotency_key_replays_and_refuses_a_different_body(night):
    from rest_framework.test import APIClient

    from clubs.signin.services import api_token_create

    _, key = api_token_create(user=night.standing.scorer, name="score app")
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    deal = new_deal(night)
    body = five_losers(night)
    first = submit(night, deal["id"], body, client=app, HTTP_IDEMPOTENCY_KEY="deal-1-try")
    again = submit(night, deal["id"], body, client=app, HTTP_IDEMPOTENCY_KEY="deal-1-try")
    assert first.status_code == again.status_code == 202
    assert first.json() == again.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Submission.objects.count() == 1
    changed = five_losers(night, Asha={"outcome": "loser", "points": 3})
    other = submit(night, deal["id"], changed, client=app, HTTP_IDEMPOTENCY_KEY="deal-1-try")
    assert_error(other, 422, "idempotency_key_reused")
    assert Submission.objects.count() == 1
    # Another caller may use the same key for its own request.
    web = APIClient()
    web.force_login(night.standing.organiser)
    mine = submit(night, deal["id"], changed, client=web, HTTP_IDEMPOTENCY_KEY="deal-1-try")
    assert mine.status_code == 202
    assert Submission.objects.count() == 2
    assert Submission.objects.get(pk=first.json()["id"]).source == "api"


def test_validation_twice_posts_once(night):
    from scoring.tasks import validate_submission

    deal = new_deal(night)
    url = submit(night, deal["id"], five_losers(night)).json()["url"]
    submission_id = int(url.rstrip("/").split("/")[-1])
    postings = Posting.objects.count()
    assert validate_submission.apply(args=[submission_id]).get() == "accepted"
    submission_validate(submission_id=submission_id)
    assert Posting.objects.count() == postings
    assert LedgerEntry.objects.filter(submission_id=submission_id).count() == 1


def test_every_state_change_is_audited(night):
    deal = new_deal(night)
    submit(night, deal["id"], five_losers(night))
    actions = set(AuditEntry.objects.values_list("action", flat=True))
    assert {
        "session.create", "table.create", "game.create", "deal.create",
        "submission.create", "submission.accept",
    } <= actions  # fmt: skip


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_scorers_and_up_submit(night, who):
    deal = new_deal(night)
    response = submit(night, deal["id"], five_losers(night), who=who)
    assert response.status_code == (403 if who == "player" else 404)
    assert not Submission.objects.exists()
