"""House rules through the API and the pages: a preset created with options scores its deals by
them, a bad option value answers 400 naming the field, and the preset form's preview says the
options in words with an example hand scored under them."""

from __future__ import annotations

import json

import pytest

from scoring.games import game_create, table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from tests.api.test_errors import assert_error
from tests.scoring.conftest import SIX, Night
from tests.scoring.test_submissions import against_of, new_deal, read, submit

HOUSE = {"wrap_runs": True, "ace_points": 1, "joker_limit": "one_in_three"}
WRAPPED = [["QH", "KH", "AH", "2H"], ["5S", "6S", "7S"], ["9C", "10C", "JC"], ["4D", "4C", "4S"]]
LOSER = [["8D", "9D", "10D"], ["JS", "QS", "KS"], ["AS", "AD"], ["4H", "JK", "JK"], ["2C", "6D"]]


def _preset(standing, house: dict) -> dict:
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "house", "name": "House", "format": "points", "params": {"house_rules": house}},
        format="json",
    )
    assert response.status_code == 201, response.content
    return response.json()


def _night(standing, preset_id: int) -> Night:
    club = standing.club
    players = {name: club.players.get_or_create(name=name)[0] for name in SIX}
    session = session_create(club=club, actor=standing.organiser, name="Friday")
    table = table_create(session=session, actor=standing.organiser)
    game = game_create(
        table=table, actor=standing.organiser, preset=RulePreset.objects.get(pk=preset_id),
        players=[players[name] for name in SIX], point_value_minor=100,
    )  # fmt: skip
    return Night(standing, session, game, players)


def _deal(night: Night) -> dict:
    deal = new_deal(night, wild="3D")
    body = {
        "results": night.results(
            Asha={"outcome": "loser", "groups": LOSER},
            Bilal={"outcome": "loser", "points": 30},
            Chitra={"outcome": "first_drop"},
            Dev={"outcome": "first_drop"},
            Esther={"outcome": "first_drop"},
            Farid={"outcome": "winner", "groups": WRAPPED},
        )
    }
    assert submit(night, deal["id"], body).status_code == 202
    return read(night, f"/api/v1/clubs/home/deals/{deal['id']}/submissions/")


def _latest(listing: dict) -> dict:
    rows = listing["results"] if isinstance(listing, dict) and "results" in listing else listing
    return rows[0] if isinstance(rows, list) else rows


def test_a_preset_with_house_rules_scores_its_deals_by_them(standing):
    preset = _preset(standing, HOUSE)
    assert preset["params"] == {"house_rules": HOUSE} and preset["version"] == 1
    submission = _latest(_deal(_night(standing, preset["id"])))
    assert submission["status"] == "accepted", submission["reasons"]
    # QH KH AH 2H wraps round the king; 4H JK JK breaks the joker limit, so it counts (4) with
    # AS AD (1 each) and 2C 6D: the loser has two sequences, one pure.
    assert against_of(submission["result"])["Asha"] == 1 + 1 + 4 + 2 + 6


def test_the_same_deal_under_the_default_rules_refuses_the_wrapped_run(standing):
    submission = _latest(_deal(_night(standing, _preset(standing, {})["id"])))
    assert submission["status"] == "rejected"
    assert [reason["code"] for reason in submission["reasons"]] == ["invalid_group"]
    assert "QH KH AH 2H" in submission["reasons"][0]["message"]


@pytest.mark.parametrize(
    ("house", "field"),
    [
        ({"wild_joker": "suit"}, "wild_joker"),
        ({"wrap_runs": "yes"}, "wrap_runs"),
        ({"joker_limit": 2}, "joker_limit"),
        ({"jokers_only_set": None}, "jokers_only_set"),
        ({"ace_points": 11}, "ace_points"),
        ({"declaration": "three_sequences"}, "declaration"),
        ({"declaration": "min_groups", "min_groups": 14}, "min_groups"),
        ({"wrap": True}, "wrap"),
    ],
)
def test_a_rejected_option_value_answers_400_naming_the_field(standing, house, field):
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "bad", "name": "Bad", "format": "points", "params": {"house_rules": house}},
        format="json",
    )
    error = assert_error(response, 400, "bad_preset")
    assert error["message"].startswith("params.house_rules:") and field in error["message"]
    assert error["details"]["section"] == "house_rules"
    assert not RulePreset.objects.filter(key="bad").exists()


def test_house_rules_are_for_indian_presets(standing):
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "rk", "name": "R", "format": "rummikub", "variant": "sabra",
         "params": {"house_rules": {"wrap_runs": True}}},
        format="json",
    )  # fmt: skip
    assert_error(response, 400, "bad_preset")


def test_rummikub_house_rules_are_numbers_of_its_section(standing):
    response = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "mso", "name": "MSO", "format": "rummikub", "variant": "sabra",
         "params": {"rummikub": {"joker_value": 50, "never_opened_penalty": 200}}},
        format="json",
    )  # fmt: skip
    assert response.status_code == 201, response.content
    bad = standing.client("organiser").post(
        "/api/v1/clubs/home/presets/",
        {"key": "mso2", "name": "MSO", "format": "rummikub", "variant": "sabra",
         "params": {"rummikub": {"never_opened_penalty": -100}}},
        format="json",
    )  # fmt: skip
    error = assert_error(bad, 400, "bad_preset")
    assert "never_opened_penalty" in error["message"]


def test_the_schema_carries_the_options_as_typed_fields(standing):
    schema = standing.client("owner").get("/api/schema/?format=json")
    assert schema.status_code == 200
    components = schema.json()["components"]["schemas"]
    house = components["HouseRulesSchemaRequest"]["properties"]
    assert house["wrap_runs"]["type"] == "boolean"
    assert "enum" in str(house["joker_limit"]) or "$ref" in str(house["joker_limit"])
    assert set(house) == {
        "wild_joker", "wrap_runs", "joker_limit", "joker_limit_scope", "jokers_only_set",
        "sets_up_to_four", "ace_points", "declaration", "min_groups", "valid_groups_excused",
        "all_sets_declaration", "jokers_only_sequence",
    }  # fmt: skip
    rummikub = components["RummikubHouseRulesSchemaRequest"]["properties"]
    assert "never_opened_penalty" in rummikub
    assert rummikub["closed_one_high"]["type"] == "boolean"


def test_the_preset_form_previews_the_house_rules_in_words(standing):
    from tests.pages.test_club_admin import _client

    organiser = _client(standing.organiser)
    url = "/clubs/home/settings/presets/preview/"
    params = json.dumps(
        {
            "house_rules": {"wrap_runs": True, "ace_points": 1},
            "indian": {"pure_sequence_relief": True},
        }
    )
    body = organiser.get(url, {"format": "points", "variant": "indian", "params": params})
    text = body.content.decode()
    assert body.status_code == 200
    assert "Runs may wrap round the king" in text and "An ace counts 1 point" in text
    assert "the pure sequence does not count" in text
    assert "Example hand" in text and '<strong><bdi class="ltr">6</bdi> points</strong>' in text
    plain = organiser.get(url, {"format": "points", "variant": "indian", "params": "{}"})
    assert "Runs do not wrap round the king" in plain.content.decode()
    # The same hand by default; its score isolated, so a Hebrew page keeps "15 points" in order.
    assert '<strong><bdi class="ltr">15</bdi> points</strong>' in plain.content.decode()
    wrapped = organiser.get(
        url,
        {"format": "points", "variant": "indian", "params": '{"house_rules": {"wrap_runs": true}}'},
    ).content.decode()
    assert "QH KH JK 2H" in wrapped
    assert '<strong><bdi class="ltr">13</bdi> points</strong>' in wrapped
    wrong = organiser.get(
        url,
        {"format": "points", "variant": "indian", "params": '{"house_rules": {"ace_points": 5}}'},
    ).content.decode()
    assert "ace_points" in wrong and "alert" in wrong
    rummikub = organiser.get(
        url, {"format": "rummikub", "variant": "sabra",
              "params": '{"rummikub": {"never_opened_penalty": 100, "joker_value": 25}}'},
    ).content.decode()  # fmt: skip
    assert "never opened scores -100" in rummikub and "counts 25" in rummikub
    assert "The winner scores what the losers pay" in rummikub
    zero = organiser.get(
        url, {"format": "rummikub", "variant": "sabra",
              "params": '{"rummikub": {"winner_scores_zero": true}}'},
    ).content.decode()  # fmt: skip
    assert "The winner scores 0; the losers pay their racks to the book of the game" in zero


def test_the_preset_form_saves_house_rules_as_a_new_version(standing):
    from tests.pages.test_club_admin import _client

    organiser = _client(standing.organiser)
    form = {"key": "house", "name": "House", "format": "points", "variant": "indian"}
    for house in ({}, {"declaration": "pure_sequence"}):
        saved = organiser.post(
            "/clubs/home/settings/presets/", {**form, "params": json.dumps({"house_rules": house})}
        )
        assert saved.status_code == 302
    versions = RulePreset.objects.filter(club=standing.club, key="house").order_by("version")
    assert [p.params for p in versions] == [
        {"house_rules": {}}, {"house_rules": {"declaration": "pure_sequence"}},
    ]  # fmt: skip
    bad = organiser.post(
        "/clubs/home/settings/presets/",
        {**form, "params": json.dumps({"house_rules": {"declaration": "any"}})},
    )
    assert bad.status_code == 400 and "params.house_rules: declaration must be one of" in (
        bad.content.decode()
    )
    assert versions.count() == 2


def test_a_sabra_game_under_the_never_opened_penalty(standing):
    """The MSO-style penalty: who had melded comes with the racks; a loser who never opened
    scores minus the penalty instead of the rack, and the game still sums to zero. Without the
    penalty in the preset, ``melded`` is refused as International's."""
    from tests.scoring.helpers import new_game, play
    from tests.scoring.test_rummikub_matches import racks

    params = {"rummikub": {"never_opened_penalty": 100, "joker_value": 50}}
    game, ids = new_game(standing, "sabra", ["Asha", "Bilal", "Chitra"], params=params)
    body = racks(ids, "Asha", Asha=[], Bilal=["R5", "JK"], Chitra=["K13"])
    body["melded"] = {str(ids["Bilal"]): True, str(ids["Chitra"]): False}
    submission = play(standing, game, body)
    scores = {line["name"]: line["points"] for line in submission.result["players"]}
    assert scores == {"Asha": 55 + 100, "Bilal": -55, "Chitra": -100}
    plain, plain_ids = new_game(standing, "sabra", ["Asha", "Bilal"])
    body = racks(plain_ids, "Asha", Asha=[], Bilal=["R5"])
    body["melded"] = {str(plain_ids["Bilal"]): False}
    refused = play(standing, plain, body, expect="rejected")
    assert refused.reasons[0]["code"] == "bad_field" and "melded" in refused.reasons[0]["message"]


def test_a_sabra_game_where_the_winner_scores_zero(standing):
    """winner_scores_zero: the winner scores 0, the losers their racks, and the game's book takes
    the rest: the deal's postings sum to zero in points and in money."""
    from ledger.models import Posting
    from tests.scoring.helpers import new_game, play
    from tests.scoring.test_rummikub_matches import racks

    params = {"rummikub": {"winner_scores_zero": True}}
    game, ids = new_game(
        standing, "sabra", ["Asha", "Bilal", "Chitra"], params=params, point_value_minor=10
    )
    body = racks(ids, "Asha", Asha=[], Bilal=["R5", "JK"], Chitra=["K13"])
    submission = play(standing, game, body)
    scores = {line["name"]: line["points"] for line in submission.result["players"]}
    assert scores == {"Asha": 0, "Bilal": -35, "Chitra": -13}
    postings = Posting.objects.filter(entry__deal=submission.deal)
    by_quantity: dict[str, list[int]] = {}
    for posting in postings:
        by_quantity.setdefault(posting.quantity, []).append(posting.amount)
    assert set(by_quantity) == {"points", "money"}
    assert all(sum(amounts) == 0 for amounts in by_quantity.values())
    assert 48 in by_quantity["points"] and 480 in by_quantity["money"]  # the book's share


def test_one_options_contract_for_the_batch_and_the_presets(standing):
    """The batch endpoint and a preset take Rummikub's house options by the same names, refuse a
    bad one with the same message naming it (400), and the schema types them from one list."""
    from rules.rummikub.preset import HOUSE_OPTIONS

    client = standing.client("organiser")
    racks = {"game": "rummikub", "variant": "sabra", "winner": "ana",
             "racks": {"ana": [], "ben": ["R5", "JK"], "cy": ["B13", "K1"]}}  # fmt: skip
    answer = client.post(
        "/api/v1/rules/evaluate/",
        {**racks, "never_opened_penalty": 100, "melded": {"cy": False}},
        format="json",
    )
    assert answer.status_code == 200, answer.content
    assert answer.json()["scores"] == {"ana": 135, "ben": -35, "cy": -100}
    for option, value in (("one_high", "yes"), ("opening_high_as_10", 1), ("joker_value", -5)):
        batch = client.post("/api/v1/rules/evaluate/", {**racks, option: value}, format="json")
        error = assert_error(batch, 400, "bad_field")
        assert error["details"]["reasons"][0]["token"] == option
        preset = client.post(
            "/api/v1/clubs/home/presets/",
            {"key": f"bad-{option}", "name": "Bad", "format": "rummikub", "variant": "sabra",
             "params": {"rummikub": {option: value}}},
            format="json",
        )  # fmt: skip
        refused = assert_error(preset, 400, "bad_preset")
        assert refused["message"] == f"params.rummikub: {error['message']}"
    bad_house = client.post(
        "/api/v1/rules/evaluate/",
        {"game": "indian", "wild": "8H", "cards": ["2H"] * 13,
         "house_rules": {"jokers_only_set": "no"}},
        format="json",
    )  # fmt: skip
    error = assert_error(bad_house, 400, "bad_house_rules")
    assert error["details"]["reasons"][0]["token"] == "jokers_only_set"
    schema = standing.client("owner").get("/api/schema/?format=json").json()
    rummikub = schema["components"]["schemas"]["RummikubHouseRulesSchemaRequest"]["properties"]
    assert set(HOUSE_OPTIONS) <= set(rummikub)
    assert rummikub["opening_high_as_10"]["type"] == "boolean"
    evaluate = schema["paths"]["/api/v1/rules/evaluate/"]["post"]["requestBody"]["content"]
    request = evaluate["application/json"]["schema"]["oneOf"][0]["properties"]
    assert set(HOUSE_OPTIONS) <= set(request)
    assert request["house_rules"]["properties"]["jokers_only_set"]["type"] == "boolean"


def test_the_preview_says_the_new_options_in_words(standing):
    from tests.pages.test_club_admin import _client

    organiser = _client(standing.organiser)
    url = "/clubs/home/settings/presets/preview/"
    rummikub = organiser.get(
        url, {"format": "rummikub", "variant": "sabra",
              "params": '{"rummikub": {"opening_high_as_10": true}}'},
    ).content.decode()  # fmt: skip
    assert "Tiles 10 to 13 count 10 toward the initial meld" in rummikub
    plain = organiser.get(url, {"format": "rummikub", "variant": "sabra", "params": "{}"})
    assert "Every tile counts its number toward the initial meld" in plain.content.decode()
    indian = organiser.get(
        url, {"format": "points", "variant": "indian",
              "params": '{"house_rules": {"jokers_only_set": false}}'},
    ).content.decode()  # fmt: skip
    assert "a natural set of the wild rank (8H 8S 8D with 8 wild) is a set" in indian
    scoped = organiser.get(
        url, {"format": "points", "variant": "indian", "params": json.dumps(
            {"house_rules": {"joker_limit": "not_with_one_natural",
                             "joker_limit_scope": "sequences"}})},
    ).content.decode()  # fmt: skip
    assert "(in sequences only: a set takes any number)" in scoped
    capped = organiser.get(
        url, {"format": "points", "variant": "indian",
              "params": '{"house_rules": {"sets_up_to_four": true}}'},
    ).content.decode()  # fmt: skip
    assert "A set has at most four cards, jokers included" in capped
    assert "A set may be longer than four cards with jokers" in indian
    excused = organiser.get(
        url, {"format": "points", "variant": "indian",
              "params": '{"house_rules": {"valid_groups_excused": true}}'},
    ).content.decode()  # fmt: skip
    assert "Valid groups never count against a loser, whether or not they meet what" in excused
    assert "Valid groups are excused only when they meet what a declaration needs" in indian
    triplets = organiser.get(
        url, {"format": "points", "variant": "indian",
              "params": '{"house_rules": {"all_sets_declaration": true}}'},
    ).content.decode()  # fmt: skip
    assert "A hand of natural sets only (all triplets, no joker standing in) is a valid" in triplets
    assert "A hand of sets only is no declaration without its sequences" in indian


FREE_WINNER = [
    ["2H", "3H", "4H"],
    ["5S", "6S", "7S"],
    ["9C", "10C", "JC", "QC"],
    ["4D", "4C", "4S"],
]
FREE_LOSER = [["8D", "9D", "10D"], ["JS", "QS", "KS"], ["5C", "5H", "5S"], ["3S", "2C", "6D", "4H"]]


def test_a_free_cut_card_through_the_batch_a_preset_and_a_deal(standing):
    """wild_joker rank_cut_card_free, taken by the batch endpoint and a preset by one name: every
    3 is wild in groups, but a 3 left unmatched counts 3 unless it is the cut card itself; the
    wild must be given as a card."""
    client = standing.client("organiser")
    free = {"wild_joker": "rank_cut_card_free", "ace_points": 1}
    aces = {"game": "indian", "wild": "AD", "outcome": "hand", "house_rules": free,
            "groups": [["AC"], ["AD"], ["AH"], ["2S", "3S", "4S"], ["6C", "7C", "8C"],
                       ["9D", "10D", "JD", "QD"]]}  # fmt: skip
    answer = client.post("/api/v1/rules/evaluate/", aces, format="json")
    assert answer.status_code == 200, answer.content
    assert answer.json()["against"] == 2  # AC and AH count 1 each, the cut AD nothing
    by_rank = client.post("/api/v1/rules/evaluate/", {**aces, "wild": "A"}, format="json")
    error = assert_error(by_rank, 400, "bad_wild")
    assert error["details"]["reasons"][0]["token"] == "A"
    scored = {}
    for key, house in (("free", {"wild_joker": "rank_cut_card_free"}), ("rank", {})):
        response = client.post(
            "/api/v1/clubs/home/presets/",
            {"key": key, "name": key, "format": "points", "params": {"house_rules": house}},
            format="json",
        )
        assert response.status_code == 201, response.content
        night = _night(standing, response.json()["id"])
        deal = new_deal(night, wild="3D")
        body = {
            "results": night.results(
                Asha={"outcome": "loser", "groups": FREE_LOSER},
                Bilal={"outcome": "loser", "points": 30},
                Chitra={"outcome": "first_drop"},
                Dev={"outcome": "first_drop"},
                Esther={"outcome": "first_drop"},
                Farid={"outcome": "winner", "groups": FREE_WINNER},
            )
        }
        assert submit(night, deal["id"], body).status_code == 202
        submission = _latest(read(night, f"/api/v1/clubs/home/deals/{deal['id']}/submissions/"))
        assert submission["status"] == "accepted", submission["reasons"]
        scored[key] = against_of(submission["result"])["Asha"]
    # 3S, unmatched, counts 3 beside 2C 6D 4H where only the cut 3D is free; 0 by default.
    assert scored == {"free": 3 + 2 + 6 + 4, "rank": 2 + 6 + 4}
    schema = standing.client("owner").get("/api/schema/?format=json").json()
    house = schema["components"]["schemas"]["HouseRulesSchemaRequest"]["properties"]
    assert "rank_cut_card_free" in json.dumps(house["wild_joker"]) or "$ref" in str(
        house["wild_joker"]
    )
    from tests.pages.test_club_admin import _client

    preview = _client(standing.organiser).get(
        "/clubs/home/settings/presets/preview/",
        {"format": "points", "variant": "indian",
         "params": '{"house_rules": {"wild_joker": "rank_cut_card_free"}}'},
    ).content.decode()  # fmt: skip
    assert "only the cut card itself counts 0, the others their face value" in preview
