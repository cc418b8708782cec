"""A chip-level tournament of 30 through the API alone, its tables settled by a real Celery worker
on Redis and PostgreSQL: created with its levels and rebuys, entered, started, every level's
tables played, a rebuy taken, and the places, prizes and chips read back, agreeing with the
ledger. Bad settings are refused naming the setting."""

from __future__ import annotations

import random
from typing import Any

import pytest
from rest_framework.test import APIClient

from clubs.models import Player
from ledger.models import AccountKind, Posting, Quantity
from scoring.models import RulePreset
from tests.tournaments.test_api import T, play, wait_for
from tests.tournaments.test_chip_levels import REBUYS


def _create(client: APIClient, **extra: Any) -> Any:
    body = {
        "name": "Chip levels", "kind": "chips",
        "preset": RulePreset.objects.get(club=None, key="points").pk,
        "entry_fee_minor": 1000, "club_fee_minor": 100, "payout": "by_field", "seed": 3,
        "chip_levels": REBUYS,
    }  # fmt: skip
    body.update(extra)
    return client.post(f"{T}/", body, format="json")


@pytest.mark.parametrize(
    ("chip_levels", "named"),
    [
        ({"levels": [{"point_value": 5, "minimum": 900, "qualify": 800}]}, "qualify"),
        ({"levels": [{"point_value": "five", "minimum": 800, "qualify": 1200}]}, "point_value"),
        ({"starting_chips": -1}, "starting_chips"),
        ({"rebuys": 2, "rebuy_until_level": 7}, "rebuy_until_level"),
    ],
)
def test_bad_chip_levels_get_a_400_naming_the_setting(standing, chip_levels, named):
    answer = _create(standing.client("organiser"), chip_levels=chip_levels)
    assert answer.status_code == 400, answer.content
    assert named in str(answer.json()["error"])


def test_a_chip_level_tournament_reads_back_its_settings(standing):
    client = standing.client("organiser")
    made = _create(client)
    assert made.status_code == 201, made.content
    assert made.json()["kind"] == "chips"
    assert made.json()["chip_levels"] == REBUYS
    body = {"name": "Default levels", "kind": "chips",
            "preset": RulePreset.objects.get(club=None, key="points").pk}  # fmt: skip
    default = client.post(f"{T}/", body, format="json")
    assert default.status_code == 201, default.content
    body = client.get(f"{T}/{default.json()['id']}/").json()["tournament"]["chip_levels"]
    assert body["starting_chips"] == 1000
    assert [lv["minimum"] for lv in body["levels"]] == [800, 1000, 1200, 1600]
    knockout = client.post(
        f"{T}/", {"name": "Cup", "preset": RulePreset.objects.get(club=None, key="points").pk},
        format="json",
    )  # fmt: skip
    assert knockout.json()["chip_levels"] is None


@pytest.mark.usefixtures("postgres_tx")
def test_thirty_play_a_chip_level_tournament_through_the_api(standing, celery_worker):
    client = standing.client("organiser")
    made = _create(client)
    assert made.status_code == 201, made.content
    tid = made.json()["id"]
    for n in range(30):
        player = Player.objects.create(club=standing.club, name=f"Chips {n:02d}").pk
        added = client.post(f"{T}/{tid}/entries/", {"player": player, "paid": True}, format="json")
        assert added.status_code == 201, added.content
    first = client.post(f"{T}/{tid}/start/", {}, format="json")
    assert first.status_code == 200, first.content
    assert first.json()["level"] == 1 and len(first.json()["tables"]) == 5

    def detail() -> dict[str, Any]:
        return client.get(f"{T}/{tid}/").json()

    rng = random.Random(8)
    rebuyer = None
    for _ in range(30):
        now = detail()
        if now["status"] == "finished":
            break
        current = now["rounds"][-1]
        number = current["number"]
        if current["status"] == "draft":
            out = [e for e in now["entries"] if e["status"] == "eliminated"]
            if rebuyer is None and out:
                rebuyer = out[0]
                bought = client.post(f"{T}/{tid}/entries/{rebuyer['id']}/rebuy/", {}, format="json")
                assert bought.status_code == 200, bought.content
                assert bought.json()["status"] == "active" and bought.json()["rebuys"] == 1
                assert bought.json()["chips"] == rebuyer["chips"] + 1000
                again = client.post(f"{T}/{tid}/entries/{rebuyer['id']}/rebuy/", format="json")
                assert again.status_code == 409 and again.json()["error"]["code"] == "rebuy_closed"
                current = detail()["rounds"][-1]
                assert any(rebuyer["player"] in t["players"] for t in current["tables"])
            released = client.post(f"{T}/{tid}/rounds/{number}/release/", {}, format="json")
            assert released.status_code == 200, released.content
            current = released.json()
        for table in current["tables"]:
            seats = table["players"]
            play(client, table["game"], seats, {p: rng.randint(1, 80) for p in seats[1:]})
        wait_for(
            detail,
            lambda d, n=number: (
                d["status"] == "finished" or d["rounds"][n - 1]["status"] == "complete"
            ),
        )
    done = detail()
    assert done["status"] == "finished" and rebuyer is not None
    assert done["rounds"][-1]["stage"] == "final"
    assert {r["level"] for r in done["rounds"]} >= {1, 2}
    entries = done["entries"]
    assert all(e["place"] for e in entries)
    assert sum(e["chips"] for e in entries) == 30 * 1000 + 1000
    pool = 30 * (1000 - 100) + 500
    assert done["prize_pool_minor"] == pool
    assert sum(p["prize_minor"] for p in done["places"]) == pool
    purse = done["tournament"]["purse"]
    for entry in entries:  # the money each entrant has from the purse, as the ledger says
        net = sum(
            Posting.objects.filter(
                book_id=purse, account=AccountKind.PLAYER, player_id=entry["player"],
                quantity=Quantity.MONEY,
            ).values_list("amount", flat=True)
        )  # fmt: skip
        paid = 1000 + (500 if entry["rebuys"] else 0)
        assert net == entry["prize_minor"] - paid
        chips = sum(
            Posting.objects.filter(
                book_id=purse, account=AccountKind.PLAYER, player_id=entry["player"],
                quantity=Quantity.CHIPS,
            ).values_list("amount", flat=True)
        )  # fmt: skip
        assert chips == entry["chips"]
