"""Each page for each standing user: members read (players too), organisers and scorers write,
outsiders get 404 (a club's existence is not leaked), anonymous visitors go to the login page."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.pages.conftest import Pages

WHO = ["owner", "organiser", "scorer", "player", "outsider", "anonymous"]


def _paths(p: Pages) -> dict[str, tuple[str, dict[str, int]]]:
    deal, _ = p.play_deal()
    n = p.night
    c = f"/clubs/{p.slug}"
    read = {"owner": 200, "organiser": 200, "scorer": 200, "player": 200}
    organise = {"owner": 200, "organiser": 200, "scorer": 403, "player": 403}
    score = {"owner": 200, "organiser": 200, "scorer": 200, "player": 403}
    asha = n.pid("Asha")
    cup = _tournament(p)
    t = f"{c}/tournaments/{cup.pk}"
    return {
        "club home": (f"{c}/", read),
        "player page": (f"{c}/players/{asha}/", read),
        "session page": (f"{c}/sessions/{n.session.pk}/", read),
        "scoreboard fragment": (f"{c}/sessions/{n.session.pk}/scoreboard/", read),
        "csv export": (f"{c}/sessions/{n.session.pk}/export.csv", read),
        "game page": (f"{c}/games/{n.game.pk}/", read),
        "deal page": (f"{c}/deals/{deal.pk}/", read),
        "deal fragment": (f"{c}/deals/{deal.pk}/live/", read),
        "new game form": (f"{c}/tables/{n.game.table_id}/games/new/", organise),
        "deal entry": (f"{c}/games/{n.game.pk}/deals/new/", score),
        "correction form": (f"{c}/deals/{deal.pk}/result/", score),
        "club standings": (f"{c}/standings/", read),
        "club settings": (f"{c}/settings/", organise),
        "tournaments": (f"{c}/tournaments/", read),
        "tournament desk": (f"{t}/", read),
        "tournament grid": (f"{t}/grid/", read),
        "table cards": (f"{t}/rounds/1/cards/", read),
    }


def _tournament(p: Pages) -> Any:
    """A knock-out of the night's six players, drawn."""
    from tests.tournaments.helpers import enter, new_tournament
    from tournaments import services

    cup = new_tournament(p.s, table_max=3, advance_per_table=1)
    enter(p.s, cup, list(p.night.players.values()))
    services.tournament_start(tournament=cup, actor=p.s.organiser)
    return cup


PAGES = [
    "club home", "player page", "session page", "scoreboard fragment", "csv export", "game page",
    "deal page", "deal fragment", "new game form", "deal entry", "correction form",
    "club standings", "club settings", "tournaments", "tournament desk", "tournament grid",
    "table cards",
]  # fmt: skip


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("who", WHO)
def test_page_access(pages: Pages, page: str, who: str):
    path, expect = _paths(pages)[page]
    response = pages.client(who).get(path)
    if who == "anonymous":
        assert response.status_code == 302
        assert response["Location"].startswith("/login/?next=")
    elif who == "outsider":
        assert response.status_code == 404
    else:
        assert response.status_code == expect[who], (page, who)


WRITES: list[tuple[str, Callable[[Pages], str], dict[str, str]]] = [
    ("session create", lambda p: f"/clubs/{p.slug}/sessions/new/", {"name": "Sat"}),
    ("player add", lambda p: f"/clubs/{p.slug}/players/add/", {"name": "Zed"}),
    ("member add", lambda p: f"/clubs/{p.slug}/members/add/",
     {"username": "outsider", "role": "player"}),
    ("table create", lambda p: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/tables/",
     {"name": "T9"}),
    ("session close", lambda p: f"/clubs/{p.slug}/sessions/{p.night.session.pk}/close/", {}),
    ("rejoin", lambda p: f"/clubs/{p.slug}/games/{p.night.game.pk}/rejoin/", {"player": "1"}),
    ("split", lambda p: f"/clubs/{p.slug}/games/{p.night.game.pk}/split/", {"kind": "drops"}),
    ("finish", lambda p: f"/clubs/{p.slug}/games/{p.night.game.pk}/finish/", {}),
    ("metric order", lambda p: f"/clubs/{p.slug}/settings/standings-order/",
     {"metric_1": "points"}),
    ("tournament create", lambda p: f"/clubs/{p.slug}/tournaments/", {"name": "Cup"}),
    ("tournament entry", lambda p: f"/clubs/{p.slug}/tournaments/{_tournament(p).pk}/entries/",
     {"name": "Zed"}),
    ("tournament start", lambda p: f"/clubs/{p.slug}/tournaments/{_tournament(p).pk}/start/", {}),
    ("tournament release",
     lambda p: f"/clubs/{p.slug}/tournaments/{_tournament(p).pk}/rounds/1/release/", {}),
    ("tournament swap",
     lambda p: f"/clubs/{p.slug}/tournaments/{_tournament(p).pk}/rounds/1/swap/",
     {"first": "1", "second": "2"}),
    ("tournament cancel",
     lambda p: f"/clubs/{p.slug}/tournaments/{_tournament(p).pk}/cancel/", {}),
]  # fmt: skip


@pytest.mark.parametrize(("name", "path", "data"), WRITES, ids=[w[0] for w in WRITES])
@pytest.mark.parametrize("who", ["player", "scorer", "outsider", "anonymous"])
def test_organiser_writes_refused(pages: Pages, name: str, path, data, who: str):
    response = pages.client(who).post(path(pages), data)
    expected = {"player": 403, "scorer": 403, "outsider": 404, "anonymous": 302}[who]
    assert response.status_code == expected
    if who in ("player", "scorer"):
        assert "organiser role" in response.content.decode()


def test_player_cannot_enter_a_deal(pages: Pages):
    response = pages.client("player").post(
        f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/", pages.form()
    )
    assert response.status_code == 403
    assert pages.night.game.deals.count() == 0


def test_player_sees_no_forms(pages: Pages):
    body = pages.client("player").get(f"/clubs/{pages.slug}/").content.decode()
    assert "Start session" not in body and "Add a player" not in body
    assert "Asha" in body and "Members and roles" in body
    body = pages.client("organiser").get(f"/clubs/{pages.slug}/").content.decode()
    assert "Start session" in body and "Add a player" in body and "Add member" in body


def test_home_links_to_clubs(pages: Pages):
    body = pages.client("player").get("/").content.decode()
    assert f'href="/clubs/{pages.slug}/"' in body
