"""The live screens' announcements and stream, on both fan-outs (this process's memory, the
embedded default; Redis, shared by every process): a change is announced only once committed,
to the topics its event names; a stream gives the page's topics' changes, catches a
reconnecting screen up from its Last-Event-ID, carries a public part's HTML, and reads nothing
from the database."""

from __future__ import annotations

import html
import re
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import transaction
from django.urls import reverse

from clubs import services as club_services
from clubs.models import Player
from live import bus
from live.fragments import UnknownFragment, stream_fragment
from live.views import stream_url
from scoring.games import game_create, table_create
from scoring.models import RulePreset
from scoring.nights import session_create
from tests.scoring.helpers import enter_deal

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["memory", "redis"])
def fan_out(request: Any, settings: Any) -> str:
    settings.LIVE_KEEPALIVE_SECONDS = 1
    if request.param == "memory":
        settings.LIVE_REDIS_URL = None
    else:
        settings.LIVE_REDIS_URL = request.getfixturevalue("redis_url")
    return str(request.param)


def _night(standing: Any) -> tuple[Any, list[Player]]:
    club_services.club_update(club=standing.club, actor=standing.owner, public_standings=True)
    session = session_create(club=standing.club, actor=standing.organiser, name="Night")
    players = list(Player.objects.filter(club=standing.club))
    game = game_create(
        table=table_create(session=session, actor=standing.organiser), actor=standing.organiser,
        preset=RulePreset.objects.get(club=None, key="points"), players=players,
    )  # fmt: skip
    return game, players


def _deal(standing: Any, game: Any, players: list[Player]) -> None:
    lines = [{"player": p.pk, "outcome": "loser", "points": 20} for p in players[1:]]
    enter_deal(
        game, standing.scorer, {"results": [{"player": players[0].pk, "outcome": "winner"}, *lines]}
    )


def _events(response: Any) -> Iterator[str]:
    """A stream's events, one at a time (keep-alive comments left out)."""
    buffer = ""
    for chunk in response.streaming_content:
        buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
        while "\n\n" in buffer:
            event, buffer = buffer.split("\n\n", 1)
            if not event.startswith(":"):
                yield event


def _untimed(html_text: str) -> str:
    """A fragment without the time it was rendered at."""
    return re.sub(r"<time [^>]*>[^<]*</time>", "", html_text)


def test_a_change_is_announced_once_committed_and_never_when_rolled_back(fan_out):
    before = bus.latest(["club:991"])
    with transaction.atomic():
        bus.publish(["club:991"])
        assert bus.latest(["club:991"]) == before  # not yet: the change may still roll back
    after = bus.latest(["club:991"])
    assert after > before
    with pytest.raises(RuntimeError), transaction.atomic():
        bus.publish(["club:991"])
        raise RuntimeError("rolled back")
    assert bus.latest(["club:991"]) == after


def test_a_counted_deal_is_announced_to_its_club_night_game_and_deal(fan_out, standing):
    game, players = _night(standing)
    topics = {
        "club": f"club:{standing.club.pk}", "session": f"session:{game.table.session_id}",
        "game": f"game:{game.pk}",
    }  # fmt: skip
    before = {name: bus.latest([topic]) for name, topic in topics.items()}
    _deal(standing, game, players)
    deal = game.deals.get()
    for name, topic in topics.items():
        assert bus.latest([topic]) > before[name], name
    assert bus.latest([f"deal:{deal.pk}"]) > 0
    assert bus.latest([f"session:{game.table.session_id + 1000}"]) == 0  # another night's


def test_a_stream_catches_up_from_its_last_event_id_and_reads_no_database(
    fan_out, standing, client, django_assert_num_queries
):
    game, players = _night(standing)
    url = stream_url([f"session:{game.table.session_id}"])
    _deal(standing, game, players)
    newest = bus.latest([f"session:{game.table.session_id}"])
    with django_assert_num_queries(0):
        response = client.get(url, HTTP_LAST_EVENT_ID=str(newest - 1))
        assert response["Content-Type"] == "text/event-stream"
        assert response["X-Accel-Buffering"] == "no"
        events = _events(response)
        assert next(events).startswith("retry: ")
        assert next(events) == f'id: {newest}\nevent: change\ndata: {{"id": {newest}}}'
    response.close()

    # Up to date: nothing is said until the next change.
    response = client.get(url, HTTP_LAST_EVENT_ID=str(newest))
    events = _events(response)
    next(events)
    _deal(standing, game, players)
    assert next(events).startswith(f"id: {bus.latest([f'session:{game.table.session_id}'])}\n")
    response.close()


def test_a_public_part_comes_in_the_stream_and_a_members_part_is_refetched(
    fan_out, standing, client
):
    game, players = _night(standing)
    _deal(standing, game, players)
    club = standing.club
    public = f"/p/{club.slug}/standings/live/"
    response = client.get(
        stream_url([f"club:{club.pk}"]) + f"&fragment={public}", HTTP_LAST_EVENT_ID="0"
    )
    events = _events(response)
    next(events)
    event = next(events)
    assert event.splitlines()[1] == "event: fragment"
    html = "\n".join(line.removeprefix("data: ") for line in event.splitlines()[2:])
    refetched = client.get(public).content.decode().rstrip("\n")
    assert _untimed(html) == _untimed(refetched)  # what a refetch shows
    assert "Asha" in html
    response.close()

    members = reverse("session-scoreboard-live", args=[club.slug, game.table.session_id])
    response = client.get(
        stream_url([f"club:{club.pk}"]) + f"&fragment={members}", HTTP_LAST_EVENT_ID="0"
    )
    events = _events(response)
    next(events)
    assert next(events).splitlines()[1] == "event: change"  # the screen refetches it, signed in
    response.close()


def test_a_stream_not_given_out_by_the_site_is_refused(client):
    response = client.get("/live/stream/?t=WyJjbHViOjEiXQ:forged:signature")
    assert response.status_code == 400


def test_an_entry_page_hears_of_a_deal_entered_elsewhere(fan_out, standing, client):
    game, players = _night(standing)
    client.force_login(standing.scorer)
    page = client.get(reverse("deal-new", args=[standing.club.slug, game.pk])).content.decode()
    fragment = reverse("deal-entry-live", args=[standing.club.slug, game.pk])
    assert f'data-live-url="{fragment}"' in page and "No deals entered yet." in page
    stream = re.search(r'data-live-stream="([^"]+)"', page.split('id="entry-live"')[1])
    response = client.get(html.unescape(stream.group(1)) + f"&fragment={fragment}")
    events = _events(response)
    next(events)
    _deal(standing, game, players)  # from another device
    assert next(events).splitlines()[1] == "event: change"  # a members' part: refetched
    response.close()
    shown = client.get(fragment).content.decode()
    assert "deal 1</a>" in shown and "counted" in shown


def _token_made(seconds_ago: int, topics: list[str]) -> str:
    """A stream token as ``stream_url`` makes it, ``seconds_ago``."""
    from django.core import signing

    from live.views import SALT

    class Earlier(signing.TimestampSigner):
        def timestamp(self) -> str:
            return signing.b62_encode(int(time.time()) - seconds_ago)

    return Earlier(salt=SALT).sign_object(topics)


def test_a_stream_token_expires(client, settings):
    settings.LIVE_TOKEN_MAX_AGE_SECONDS = 24 * 3600
    fresh = client.get(f"/live/stream/?t={_token_made(3600, ['club:1'])}")
    assert fresh.status_code == 200 and fresh["Content-Type"] == "text/event-stream"
    fresh.close()
    stale = client.get(f"/live/stream/?t={_token_made(24 * 3600 + 5, ['club:1'])}")
    assert stale.status_code == 400
    assert stale.content.decode() == "t: this stream's token has expired; reload the page"


def test_a_public_part_is_one_fragment_whatever_its_query(standing):
    public = f"/p/{standing.club.slug}/standings/live/"
    assert stream_fragment(public) == public
    assert stream_fragment(f"{public}?view=projector&view=projector") == f"{public}?view=projector"
    for other in ("?n=1", "?view=projector&n=1", "?view=other", "?scope=session&id=3"):
        assert stream_fragment(public + other) is None  # the screen refetches it itself
    for foreign in ("https://example.com/", "//example.com/p/", "/no/such/page/", "p/x/"):
        with pytest.raises(UnknownFragment):
            stream_fragment(foreign)
