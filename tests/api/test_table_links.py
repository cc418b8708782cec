"""The table entry flow through the API, as a scorer app at the table would use it: a link made
and revoked by a scorer, the table read, a deal entered as a seat (idempotent by its key),
confirmed or disputed by another seat, and nothing else reachable with the token."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import TestCase
from rest_framework.test import APIClient

from clubs.models import AuditEntry
from ledger.models import LedgerEntry
from scoring.games import game_create, table_create
from scoring.models import Submission
from tests.api.test_errors import assert_error
from tests.scoring.conftest import make_night


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()


def _night_link(standing, mode: str = "confirm"):
    night = make_night(standing)
    made = standing.client("scorer").post(
        f"/api/v1/clubs/home/tables/{night.game.table_id}/links/", {"mode": mode}, format="json"
    )
    assert made.status_code == 201, made.content
    return night, made.json()


def _deal(night, seat: int = 1, **extra) -> dict:
    return {
        "seat": seat, "wild": "QH",
        "results": night.results(
            Asha={"outcome": "loser", "points": 10}, Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"}, Farid={"outcome": "winner"},
        ),
        **extra,
    }  # fmt: skip


def _post(app: APIClient, url: str, body: dict, **headers):
    with TestCase.captureOnCommitCallbacks(execute=True):
        return app.post(url, body, format="json", **headers)


def test_a_scorer_app_enters_and_another_seat_confirms(standing):
    night, link = _night_link(standing)
    assert link["url"].endswith(f"/t/{link['token']}/") and link["mode"] == "confirm"
    api = f"/api/v1/table/{link['token']}"
    app = APIClient()  # no login, no token: the link is the credential
    table = app.get(f"{api}/").json()
    assert [s["name"] for s in table["seats"]] == ["Asha", "Bilal", "Chitra", "Dev", "Esther",
                                                  "Farid"]  # fmt: skip
    assert (table["next_deal"], table["can_enter"], table["waiting"]) == (1, True, None)

    first = _post(app, f"{api}/deals/", _deal(night, seat=2), HTTP_IDEMPOTENCY_KEY="d1")
    again = _post(app, f"{api}/deals/", _deal(night, seat=2), HTTP_IDEMPOTENCY_KEY="d1")
    assert first.status_code == again.status_code == 202
    assert again["Idempotent-Replayed"] == "true" and again.json() == first.json()
    assert Submission.objects.count() == 1
    entry = app.get(f"{api}/entries/{first.json()['id']}/").json()
    assert (entry["status"], entry["entered_seat"]) == ("awaiting_confirmation", 2)
    waiting = app.get(f"{api}/").json()["waiting"]
    assert waiting["entered_seat"] == 2 and waiting["result"]["winner"] == night.pid("Farid")

    own = _post(app, f"{api}/entries/{entry['id']}/confirm/", {"seat": 2})
    assert_error(own, 403, "confirmer_is_submitter")
    # Another seat, on the phone that entered it: the link wants another phone.
    same_phone = _post(app, f"{api}/entries/{entry['id']}/confirm/", {"seat": 6})
    assert_error(same_phone, 403, "confirmer_is_entering_device")
    assert (
        "another player of the table confirms it on their own phone"
        in (same_phone.json()["error"]["message"])
    )
    assert Submission.objects.get().status == Submission.Status.AWAITING_CONFIRMATION
    other = APIClient()  # another phone at the table
    confirmed = _post(other, f"{api}/entries/{entry['id']}/confirm/", {"seat": 6})
    assert confirmed.status_code == 200, confirmed.content
    assert (confirmed.json()["status"], confirmed.json()["confirmed_seat"]) == ("accepted", 6)
    phones = (confirmed.json()["entered_device"], confirmed.json()["confirmed_device"])
    assert phones == ("phone A", "phone B")
    assert (app.get(f"{api}/").json()["device"], other.get(f"{api}/").json()["device"]) == (
        "phone A", "phone B",
    )  # fmt: skip
    assert APIClient().get(f"{api}/").json()["device"] is None  # a phone that only looked
    # The club's own API shows where the entry came from.
    detail = standing.client("player").get(f"/api/v1/clubs/home/submissions/{entry['id']}/")
    assert detail.json()["table_link"] == link["id"] and detail.json()["entered_seat"] == 2
    assert detail.json()["source"] == "table"  # not "web": a seat's phone, through its link


def test_dispute_names_the_reason_and_blocks_the_table(standing):
    night, link = _night_link(standing)
    api = f"/api/v1/table/{link['token']}"
    app = APIClient()
    entry = _post(app, f"{api}/deals/", _deal(night, seat=1)).json()
    assert_error(_post(app, f"{api}/entries/{entry['id']}/dispute/", {"seat": 1, "reason": "x"}),
                 403, "disputer_is_submitter")  # fmt: skip
    disputed = _post(app, f"{api}/entries/{entry['id']}/dispute/",
                     {"seat": 3, "reason": "Chitra dropped"})  # fmt: skip
    assert disputed.status_code == 200 and disputed.json()["dispute"] == "Chitra dropped"
    assert_error(_post(app, f"{api}/entries/{entry['id']}/confirm/", {"seat": 4}), 403,
                 "entry_disputed")  # fmt: skip
    assert_error(_post(app, f"{api}/deals/", _deal(night, seat=4)), 409, "entry_waiting")


def test_a_confirmation_or_dispute_sent_again_answers_as_the_first_and_acts_once(standing):
    """A phone that lost the answer sends the same confirmation (or dispute) again, without an
    Idempotency-Key: the same answer, nothing written twice; another seat's is still refused."""
    night, link = _night_link(standing)
    api = f"/api/v1/table/{link['token']}"
    app, other = APIClient(), APIClient()
    entry = _post(app, f"{api}/deals/", _deal(night, seat=1)).json()
    confirmed = _post(other, f"{api}/entries/{entry['id']}/confirm/", {"seat": 2})
    again = _post(other, f"{api}/entries/{entry['id']}/confirm/", {"seat": 2})
    assert (confirmed.status_code, again.status_code) == (200, 200), again.content
    assert again.json() == confirmed.json()
    assert_error(_post(other, f"{api}/entries/{entry['id']}/confirm/", {"seat": 3}), 409,
                 "not_awaiting_confirmation")  # fmt: skip
    assert LedgerEntry.objects.filter(deal_id=entry["deal"]).count() == 1

    entry = _post(app, f"{api}/deals/", _deal(night, seat=1)).json()
    reason = {"seat": 3, "reason": "Chitra dropped"}
    disputed = _post(app, f"{api}/entries/{entry['id']}/dispute/", reason)
    again = _post(app, f"{api}/entries/{entry['id']}/dispute/", reason)
    assert (disputed.status_code, again.status_code) == (200, 200)
    assert again.json() == disputed.json()
    actions = AuditEntry.objects.filter(object_type="scoring.submission")
    assert actions.filter(action="submission.confirm").count() == 1
    assert actions.filter(action="submission.dispute", object_id=str(entry["id"])).count() == 1


def test_the_token_reaches_nothing_else(standing):
    night, link = _night_link(standing)
    api = f"/api/v1/table/{link['token']}"
    app = APIClient()
    other = table_create(session=night.session, actor=standing.organiser)
    players = list(night.players.values())
    other_game = game_create(table=other, actor=standing.organiser, preset=night.game.preset,
                             players=players[:2])  # fmt: skip
    made = standing.client("scorer").post(
        f"/api/v1/clubs/home/tables/{other.pk}/links/", {}, format="json"
    )
    assert_error(made, 409, "table_entry_off")  # the club's setting is off; no mode given
    lines = [{"player": players[0].pk, "outcome": "winner"},
             {"player": players[1].pk, "outcome": "loser", "points": 5}]  # fmt: skip
    deals = f"/api/v1/clubs/home/games/{other_game.pk}/deals/"
    theirs = _post(standing.client("scorer"), deals, {"results": lines})
    submission = theirs.json()["id"]
    assert_error(app.get(f"{api}/entries/{submission}/"), 404, "not_found")
    assert_error(_post(app, f"{api}/entries/{submission}/confirm/", {"seat": 2}), 404,
                 "not_found")  # fmt: skip
    # The token is no API credential for the club's routes.
    refused = app.get("/api/v1/clubs/home/", HTTP_AUTHORIZATION=f"Token {link['token']}")
    assert refused.status_code == 401
    # Revoked: gone, saying the desk withdrew it; a new link works; the game over: gone.
    revoked = standing.client("scorer").post(f"/api/v1/clubs/home/table-links/{link['id']}/revoke/")
    assert revoked.status_code == 200 and revoked.json()["revoked_at"]
    withdrawn = app.get(f"{api}/")
    assert_error(withdrawn, 410, "table_link_revoked")
    assert "ask the desk for the new one" in withdrawn.json()["error"]["message"]
    fresh = standing.client("scorer").post(
        f"/api/v1/clubs/home/tables/{night.game.table_id}/links/", {"mode": "trusted"},
        format="json",
    ).json()  # fmt: skip
    counted = _post(app, f"/api/v1/table/{fresh['token']}/deals/", _deal(night))
    assert app.get(f"/api/v1/table/{fresh['token']}/entries/{counted.json()['id']}/").json()[
        "status"] == "accepted"  # fmt: skip
    finished = standing.client("organiser").post(
        f"/api/v1/clubs/home/games/{night.game.pk}/finish/", {}, format="json"
    )
    assert finished.status_code == 200, finished.content
    assert_error(app.get(f"/api/v1/table/{fresh['token']}/"), 410, "table_closed")


def test_a_link_that_trusts_one_phone_per_table_lets_it_enter_and_confirm(standing):
    night, link = _night_link(standing, mode="one_phone")
    assert link["mode"] == "one_phone"
    api = f"/api/v1/table/{link['token']}"
    app = APIClient()  # the table's one phone
    entry = _post(app, f"{api}/deals/", _deal(night, seat=1)).json()
    entry = app.get(f"{api}/entries/{entry['id']}/").json()
    assert entry["status"] == "awaiting_confirmation" and entry["entered_device"] == "phone A"
    assert_error(_post(app, f"{api}/entries/{entry['id']}/confirm/", {"seat": 1}), 403,
                 "confirmer_is_submitter")  # fmt: skip
    confirmed = _post(app, f"{api}/entries/{entry['id']}/confirm/", {"seat": 4})
    assert confirmed.status_code == 200, confirmed.content
    body = confirmed.json()
    assert (body["status"], body["entered_device"], body["confirmed_device"]) == (
        "accepted", "phone A", "phone A",
    )  # fmt: skip


def test_a_forged_device_cookie_is_a_new_phone(standing):
    """The device cookie is signed for its link: a value made up (or another link's) is no
    device of this link's, so the caller is a new phone and gets a cookie of its own."""
    night, link = _night_link(standing)
    api = f"/api/v1/table/{link['token']}"
    app = APIClient()
    answer = app.get(f"{api}/")
    cookie = answer.cookies[f"table-device-{link['id']}"]
    assert cookie["path"] == f"{api}/" and cookie["httponly"]
    entry = _post(app, f"{api}/deals/", _deal(night, seat=1)).json()
    forged = APIClient()
    forged.cookies[f"table-device-{link['id']}"] = cookie.value.split(":")[0] + ":forged"
    confirmed = _post(forged, f"{api}/entries/{entry['id']}/confirm/", {"seat": 2})
    assert confirmed.status_code == 200
    assert confirmed.cookies[f"table-device-{link['id']}"].value != cookie.value
