"""The standings pages (the club's for its members, the public one and its projector) read
``standings.tables``: a season (the current by default), a session or a game picked from lists,
ranks with ties shown (=2), the club's metric columns, pages, and the table as it stood after a
session. The club settings order the metrics (organisers) and make the standings public (owners)."""

from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from scoring.models import Game
from scoring.nights import session_create
from tests.conftest import Standing
from tests.pages.test_formats import text
from tests.scoring.helpers import new_game, play, results

FOUR = ["Asha", "Bilal", "Chitra", "Dev"]


def client(standing: Standing, who: str) -> Client:
    c = Client()
    if who != "anonymous":
        c.force_login(getattr(standing, who))
    return c


@pytest.fixture
def two_nights(standing: Standing) -> tuple[Game, Game]:
    """Night 1: Asha wins 60, the others lose 20 each (level). Night 2: Bilal wins 45."""
    first, ids = new_game(standing, "points", FOUR, point_value_minor=100)
    play(standing, first, results(ids, Asha="winner", Bilal=20, Chitra=20, Dev=20))
    second, ids = new_game(standing, "points", FOUR, point_value_minor=100)
    play(standing, second, results(ids, Bilal="winner", Asha=10, Chitra=30, Dev=5))
    return first, second


def rows(body: bytes) -> list[str]:
    """Each row of the standings table as its text."""
    html = body.decode()
    table = html[html.index('<table class="standings"') : html.index("</table>")]
    return [text(row).strip() for row in re.findall(r"<tr>(.*?)</tr>", table, re.S)][1:]


@pytest.mark.parametrize(
    ("who", "expected"),
    [("owner", 200), ("organiser", 200), ("scorer", 200), ("player", 200), ("outsider", 404)],
)
def test_members_read_the_standings(standing, two_nights, who, expected):
    assert client(standing, who).get("/clubs/home/standings/").status_code == expected


def test_anonymous_goes_to_log_in(standing):
    response = client(standing, "anonymous").get("/clubs/home/standings/")
    assert response.status_code == 302 and response["Location"].startswith("/login/")


def test_current_season_with_ties_and_the_metric_columns(standing, two_nights):
    body = client(standing, "player").get("/clubs/home/standings/").content
    page = text(body)
    assert "Season " in page and "ranked by Points, then Deals won, then Win rate" in page
    assert "# Player Points Deals won Win rate" in page
    assert rows(body) == [
        "1 Asha +50 1 50.0%",
        "2 Bilal +25 1 50.0%",
        "3 Dev −25 0 0.0%",
        "4 Chitra −50 0 0.0%",
    ]
    # Dev (−25) and Chitra (−50) are not level: only equal players share a rank.
    assert "=3" not in page


def test_a_session_or_a_game_picked_from_the_list(standing, two_nights):
    first, second = two_nights
    player = client(standing, "player")
    body = player.get(f"/clubs/home/standings/?table=session:{first.table.session_id}").content
    assert rows(body) == [
        "1 Asha +60 1 100.0%",
        "=2 tied 2 Bilal −20 0 0.0%",
        "=2 tied 2 Chitra −20 0 0.0%",
        "=2 tied 2 Dev −20 0 0.0%",
    ]
    assert f'<option value="session:{first.table.session_id}" selected>' in body.decode()
    # The API's parameters work too.
    body = player.get(f"/clubs/home/standings/?scope=game&id={second.pk}").content
    assert rows(body)[0] == "1 Bilal +45 1 100.0%"
    assert f'<option value="game:{second.pk}" selected>' in body.decode()
    assert "Points rummy at Table 1 · Night" in text(body)


def test_as_it_stood_after_a_session(standing, two_nights):
    first, _ = two_nights
    url = f"/clubs/home/standings/?as_of_session={first.table.session_id}"
    body = client(standing, "player").get(url).content
    assert "As it stood after Night" in text(body)
    assert rows(body)[0] == "1 Asha +60 1 100.0%"
    assert rows(body)[1] == "=2 tied 2 Bilal −20 0 0.0%"


def test_pages_keep_ties_across_the_page_break(standing, two_nights, monkeypatch):
    import standings.views.boards

    first, _ = two_nights
    monkeypatch.setattr(standings.views.boards, "PER_PAGE", 2)
    player = client(standing, "player")
    base = f"/clubs/home/standings/?table=session:{first.table.session_id}"
    body = player.get(base).content
    assert rows(body) == ["1 Asha +60 1 100.0%", "=2 tied 2 Bilal −20 0 0.0%"]
    page = text(body)
    assert "Players 1–2 of 4 · page 1 of 2" in page and "Next →" in page
    body = player.get(base + "&page=2").content
    assert rows(body) == ["=2 tied 2 Chitra −20 0 0.0%", "=2 tied 2 Dev −20 0 0.0%"]
    assert "← Previous" in text(body) and "Next →" not in text(body)
    # As it stood, paged the same way.
    body = player.get(f"{base}&as_of_session={first.table.session_id}&page=2").content
    assert rows(body) == ["=2 tied 2 Chitra −20 0 0.0%", "=2 tied 2 Dev −20 0 0.0%"]


@pytest.mark.parametrize(
    ("query", "status", "message"),
    [
        ("?scope=session&id=99999", 404, "no session #99999"),
        ("?scope=galaxy&id=1", 400, "scope: use season, session or game"),
        ("?scope=session", 400, "give the id of the session"),
        ("?id=abc", 400, "id: &#x27;abc&#x27; is not a whole number"),
        ("?page=0x", 400, "page:"),
        ("?as_of_session=99999", 404, "session #99999 has nothing counted"),
        ("?game_format=chess", 400, "game_format: no game format &#x27;chess&#x27;"),
    ],
)
def test_refusals_are_shown_on_the_page(standing, two_nights, query, status, message):
    for url in ("/clubs/home/standings/", "/p/home/standings/"):
        standing.club.public_standings = True
        standing.club.save()
        response = client(standing, "player").get(url + query)
        assert response.status_code == status, (url, query)
        body = response.content.decode()
        assert message in body and 'role="alert"' in body
        assert '<select id="st-table" name="table">' in body  # the lists are still there


def test_a_session_with_nothing_counted(standing, two_nights):
    empty = session_create(club=standing.club, actor=standing.organiser, name="Empty")
    body = client(standing, "player").get(f"/clubs/home/standings/?table=session:{empty.pk}")
    assert body.status_code == 200 and "Nothing counted here yet." in body.content.decode()


def test_a_club_without_a_season_yet(standing):
    response = client(standing, "player").get("/clubs/home/standings/")
    assert response.status_code == 200
    assert "No standings yet" in response.content.decode()


def test_public_standings_and_projector(standing, two_nights, client):
    _, second = two_nights
    assert client.get("/p/home/standings/").status_code == 404
    standing.club.public_standings = True
    standing.club.save()
    body = client.get("/p/home/standings/").content
    assert rows(body)[0] == "1 Asha +50 1 50.0%"
    assert 'data-live-url="/p/home/standings/live/"' in body.decode()
    assert "/players/" not in body.decode()  # no links into the members' pages
    projector = text(client.get("/p/home/standings/projector/").content)
    # The latest session beside the current season.
    assert projector.index("Night") < projector.index("Season")
    assert "1 new Bilal +45" in projector  # new to the night's table with its last deal
    assert "1 Asha +50" in projector  # still first in the season
    # Level second before it, Chitra and Dev fell behind Bilal with the last deal.
    assert "2 Bilal +25" in projector and "3 ▼1 down 1 Dev" in projector
    assert "4 ▼2 down 2 Chitra" in projector
    assert "Just now · Table 1, deal 1" in projector
    live = client.get("/p/home/standings/live/?view=projector")
    assert live.status_code == 200 and "Season" in live.content.decode()
    # A past table does not poll: it will not change.
    session = second.table.session_id
    body = client.get(f"/p/home/standings/?as_of_session={session}").content.decode()
    assert "data-live-url" not in body and "As it stood after" in body
    assert client.get(f"/p/home/standings/live/?as_of_session={session}")["X-Live-Stop"] == "1"


def test_a_player_finds_their_row_on_the_public_standings(standing, two_nights, client):
    """The projector's QR code leads to the public standings, where a name (any part, any case)
    finds the player's rank and links to the page holding their row."""
    standing.club.public_standings = True
    standing.club.save()
    projector = client.get("/p/home/standings/projector/").content.decode()
    assert "<svg" in projector and 'class="projector-qr"' in projector
    body = client.get("/p/home/standings/?find=bil").content.decode()
    assert 'id="find"' in body and "Find your row" in body
    found = text(body[body.index('<ul class="found">') : body.index("</ul>")].encode())
    assert " ".join(found.split()) == "Bilal : 2nd of 4"
    bilal = standing.club.players.get(name="Bilal").pk
    assert f'href="?page=1#p-{bilal}"' in body and f'id="p-{bilal}"' in body
    nobody = client.get("/p/home/standings/?find=zed").content.decode()
    assert "No player named “zed” in this table." in nobody
    # Finding costs three queries more, whatever the length of the table.
    with CaptureQueriesContext(connection) as plain:
        client.get("/p/home/standings/")
    with CaptureQueriesContext(connection) as finding:
        client.get("/p/home/standings/?find=a")
    assert len(finding.captured_queries) == len(plain.captured_queries) + 3


# --- club settings --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("who", "expected"),
    [("owner", 200), ("organiser", 200), ("scorer", 403), ("player", 403), ("outsider", 404)],
)
def test_settings_are_for_organisers(standing, who, expected):
    assert client(standing, who).get("/clubs/home/settings/").status_code == expected


def test_metric_order_changes_the_standings(standing, two_nights):
    organiser = client(standing, "organiser")
    page = text(organiser.get("/clubs/home/settings/").content)
    assert "Now: Points, then Deals won, then Win rate the default" in page
    assert "Members only" in page and "Only an owner can change this." in page
    response = organiser.post(
        "/clubs/home/settings/standings-order/",
        {"metric_1": "fewest_conceded", "metric_2": "", "metric_3": "points"},
        follow=True,
    )
    assert "Standings are ranked by Points conceded, then Points." in text(response.content)
    standing.club.refresh_from_db()
    assert standing.club.standings_metrics == ["fewest_conceded", "points"]
    body = client(standing, "player").get("/clubs/home/standings/").content
    assert "# Player Points conceded Points" in text(body)
    # Asha conceded 10, Dev 25, Bilal 20... fewest first.
    assert [row.split()[1] for row in rows(body)] == ["Asha", "Bilal", "Dev", "Chitra"]
    # Back to the default.
    organiser.post("/clubs/home/settings/standings-order/", {"reset": "1"})
    standing.club.refresh_from_db()
    assert standing.club.standings_metrics == []


def test_metric_order_refusals(standing):
    organiser = client(standing, "organiser")
    url = "/clubs/home/settings/standings-order/"
    response = organiser.post(url, {"metric_1": "points", "metric_2": "points"})
    assert response.status_code == 400
    assert "metrics: &#x27;points&#x27; is listed twice" in response.content.decode()
    response = organiser.post(url, {"metric_1": "luck"})
    assert response.status_code == 400 and "Rank by: Select a valid choice" in (
        response.content.decode()
    )
    assert client(standing, "scorer").post(url, {"metric_1": "points"}).status_code == 403


def test_public_standings_switch_is_for_owners(standing):
    url = "/clubs/home/settings/public/"
    assert client(standing, "organiser").post(url, {"public": "on"}).status_code == 403
    response = client(standing, "owner").post(url, {"public": "on"}, follow=True)
    assert "The standings are public" in text(response.content)
    standing.club.refresh_from_db()
    assert standing.club.public_standings is True
    assert "Make them members only" in response.content.decode()
    client(standing, "owner").post(url, {})
    standing.club.refresh_from_db()
    assert standing.club.public_standings is False


def test_club_home_links_to_standings_and_settings(standing):
    body = client(standing, "player").get("/clubs/home/").content.decode()
    assert 'href="/clubs/home/standings/"' in body and 'href="/clubs/home/settings/"' not in body
    body = client(standing, "organiser").get("/clubs/home/").content.decode()
    assert 'href="/clubs/home/settings/"' in body


def test_a_page_past_the_end(standing, two_nights):
    body = client(standing, "player").get("/clubs/home/standings/?page=9").content.decode()
    assert "There is no page 9: the table has 4 players." in body
    assert 'href="?page=1">Go to the first page' in body


def test_a_season_of_two_formats_offers_a_table_per_format(standing, two_nights):
    """Rummy points and Rummikub scores are not the same unit: the season's page links to the
    table of each format and says why; a format's table ranks by its own points."""
    sabra, ids = new_game(standing, "sabra", ["Asha", "Bilal", "Esther"])
    play(standing, sabra, {"racks": {str(ids["Asha"]): ["K13"], str(ids["Bilal"]): ["B2"],
                                     str(ids["Esther"]): []}, "winner": ids["Esther"]})  # fmt: skip
    season = sabra.table.session.season
    player = client(standing, "player")
    body = player.get("/clubs/home/standings/").content.decode()
    assert '<nav class="format-tabs" aria-label="Game format">' in body
    assert f'<a href="?table=season%3A{season.pk}" aria-current="page">All formats</a>' in body
    assert f'<a href="?table=season%3A{season.pk}%3Arummikub">Rummikub</a>' in body
    assert "count points in different units, so each format's points have their own column" in body
    assert "Points cannot rank this table" in body
    # The form's list offers the season's table of each format too.
    assert f'<option value="season:{season.pk}:rummikub">Season {season.name} · Rummikub' in body

    rummikub = player.get("/clubs/home/standings/?game_format=rummikub")
    assert rummikub.status_code == 200
    html = rummikub.content.decode()
    assert 'aria-current="page">Rummikub</a>' in html and "different units" not in html
    assert [row.split()[:3] for row in rows(rummikub.content)] == [
        ["1", "Esther", "+15"], ["2", "Bilal", "−2"], ["3", "Asha", "−13"],
    ]  # fmt: skip
    points = rows(player.get("/clubs/home/standings/?game_format=points").content)
    assert [row.split()[1] for row in points] == ["Asha", "Bilal", "Dev", "Chitra"]
    # Picked from the list, with "as it stood": the format's tabs keep the moment.
    after = two_nights[1].table.session_id
    picked = player.get(
        f"/clubs/home/standings/?table=season:{season.pk}:rummikub&as_of_session={after}"
    ).content.decode()
    assert f'<option value="season:{season.pk}:rummikub" selected>' in picked
    assert "Nothing counted here yet." in picked  # no Rummikub game had counted by then
    assert f'href="?table=season%3A{season.pk}%3Apoints&amp;as_of_session={after}"' in picked
    # A game has one format: no tabs.
    game = player.get(f"/clubs/home/standings/?table=game:{sabra.pk}").content.decode()
    assert "format-tabs" not in game


@pytest.mark.parametrize(
    "path", ["/p/home/standings/projector/", "/p/home/standings/live/?view=projector"]
)
def test_the_projector_reads_as_many_queries_however_long_the_history(
    standing, client, django_assert_num_queries, path
):
    """The projector (and the fragment it polls) reads only the boards it shows: a club with
    twelve nights of history costs it the queries one night did."""
    standing.club.public_standings = True
    standing.club.save()

    def nights(count: int) -> None:
        for _ in range(count):
            game, ids = new_game(standing, "points", FOUR, point_value_minor=100)
            play(standing, game, results(ids, Asha="winner", Bilal=20, Chitra=20, Dev=20))

    nights(1)
    with CaptureQueriesContext(connection) as one_night:
        assert client.get(path).status_code == 200
    nights(11)
    # The club; the current season, its name and board (facts, which count it, page, names);
    # the latest session and its board; for each of the two boards, its last change (the ledger
    # entry, its postings and results, the rows it touched, one count of the rows before them).
    with django_assert_num_queries(len(one_night.captured_queries)):
        body = client.get(path).content.decode()
    assert "Season" in body and "+720" in text(body.encode())  # Asha: 12 nights of 60
    assert len(one_night.captured_queries) == 10 + 2 * 5
