"""A table's phones: one phone's flood leaves the table's other phones answered (a limit per
phone as well as per link); a Redis that cannot be reached turns no phone away; and a revoked
link, a table whose game has ended and a closed night answer no table route, page or API."""

from __future__ import annotations

import json
import time

import pytest
from django.core.cache import cache
from django.test import Client, TestCase, override_settings

from scoring import table_links
from scoring.formats import GameEnd
from scoring.lifecycle import game_end
from scoring.models import Deal, Submission, TableLink
from scoring.nights import session_close
from scoring.views.common import LIVE_STOP
from tests.pages.conftest import Pages

FLOOD = 300
# Nothing listens there: every cache call fails to connect, as with Redis killed.
DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",
    }
}


@pytest.fixture(autouse=True)
def _fresh_counters():
    cache.clear()
    yield
    cache.clear()


def _link(pages: Pages, mode: str = "trusted") -> tuple[TableLink, str]:
    (link,) = table_links.table_links_ensure(
        tables=[pages.night.game.table], actor=pages.s.organiser, mode=mode
    )
    return link, table_links.link_path(link)


def _api(path: str) -> str:
    return "/api/v1/table/" + path.removeprefix("/t/")


def test_one_phone_flooding_its_link_leaves_the_tables_other_phones_answered(pages):
    _link_row, path = _link(pages)
    flooder, neighbour = Client(REMOTE_ADDR="10.0.0.9"), Client(REMOTE_ADDR="10.0.0.9")
    assert flooder.get(path).status_code == 200  # its device cookie, as a phone keeps it
    assert neighbour.get(path).status_code == 200
    started = time.monotonic()
    answers = [flooder.get(_api(path)).status_code for _ in range(FLOOD)]
    took = time.monotonic() - started
    # Its first visit, before it had its cookie, counted as a new phone's.
    allowed = table_links.PHONE_LIMIT_PER_MINUTE
    assert answers[:allowed] == [200] * allowed
    assert set(answers[allowed:]) == {429}
    # The table's other phone, and a phone arriving now (no cookie yet, another address), are
    # answered, page and API, and can enter a deal.
    assert neighbour.get(path).status_code == 200
    assert neighbour.get(_api(path)).status_code == 200
    newcomer = Client(REMOTE_ADDR="10.0.0.10")
    assert newcomer.get(path).status_code == 200
    with TestCase.captureOnCommitCallbacks(execute=True):
        entered = neighbour.post(f"{path}enter/", {**pages.form(), "seat": "1"})
    assert entered.status_code == 302
    assert Deal.objects.filter(game=pages.night.game).count() == 1
    # The flooder is still refused, with when to come back.
    refused = flooder.get(_api(path))
    assert refused.status_code == 429 and refused["Retry-After"] == "60"
    print(f"FIGURES {FLOOD} requests from one phone in {took:.2f} s: {answers.count(200)} answered,"
          f" {answers.count(429)} refused; the other phones answered")  # fmt: skip


def test_a_forged_device_cookie_counts_as_a_new_phone(pages):
    link, path = _link(pages)
    forger = Client(REMOTE_ADDR="10.0.0.7")
    answers = []
    for n in range(table_links.PHONE_LIMIT_PER_MINUTE + 1):
        forger.cookies[table_links.device_cookie(link)] = f"forged{n}:nosignature"
        answers.append(forger.get(_api(path)).status_code)
    assert answers[-1] == 429  # every forged id fell in the address's bucket of new phones


@pytest.mark.usefixtures("committing_db")
def test_with_redis_unreachable_the_phones_page_read_and_entry_are_answered(pages):
    _link_row, path = _link(pages)
    phone = Client()
    with override_settings(CACHES=DEAD_REDIS):
        assert phone.get(path).status_code == 200
        assert phone.get(f"{path}enter/").status_code == 200
        assert phone.get(_api(path)).status_code == 200
        entered = phone.post(f"{path}enter/", {**pages.form(), "seat": "1"})
        assert entered.status_code == 302, entered.content[:500]
        body = json.dumps({"seat": 1, "wild": "QH", "results": pages.night.results(
            Farid={"outcome": "winner"}, Asha={"outcome": "loser", "points": 20},
            Bilal={"outcome": "loser", "points": 23}, Chitra={"outcome": "first_drop"},
            Dev={"outcome": "middle_drop"}, Esther={"outcome": "missed_turns"},
        )})  # fmt: skip
        by_api = phone.post(
            f"{_api(path)}deals/", body, content_type="application/json",
            headers={"Idempotency-Key": "redis-down-1"},
        )  # fmt: skip
        assert by_api.status_code == 202, by_api.content[:500]
    assert Submission.objects.filter(deal__game=pages.night.game).count() == 2


def _routes(path: str, submission_id: int) -> list[tuple[str, str]]:
    api = _api(path)
    return [
        ("GET", path), ("GET", f"{path}live/"), ("GET", f"{path}enter/"),
        ("POST", f"{path}enter/"), ("POST", f"{path}enter/check/"),
        ("GET", f"{path}enter/live/"), ("POST", f"{path}confirm/{submission_id}/"),
        ("POST", f"{path}dispute/{submission_id}/"),
        ("GET", api), ("POST", f"{api}deals/"), ("GET", f"{api}entries/{submission_id}/"),
        ("POST", f"{api}entries/{submission_id}/confirm/"),
        ("POST", f"{api}entries/{submission_id}/dispute/"),
    ]  # fmt: skip


def _nothing_answered(pages: Pages, path: str, submission_id: int, code: str) -> None:
    phone = Client()
    before = (Deal.objects.count(), Submission.objects.count())
    for method, url in _routes(path, submission_id):
        if method == "GET":
            answer = phone.get(url)
        else:
            answer = phone.post(url, {**pages.form(), "seat": "2", "reason": "x"})
        text = answer.content.decode()
        if url.endswith("/live/") and code == "table_closed":
            # A live part says once, in a line, that the table takes no more entries, and stops.
            assert answer.status_code == 200 and answer[LIVE_STOP] == "1", url
            assert 'id="table-closed"' in text and text.count("<p") == 1, url
        else:
            assert answer.status_code == 410, (url, answer.status_code)
        assert "Farid" not in text and "Asha" not in text, url  # 0 reads of the table
        if url.startswith("/api/"):
            assert answer.json()["error"]["code"] == code, url
    assert (Deal.objects.count(), Submission.objects.count()) == before


@pytest.mark.parametrize("state", ["revoked", "game_ended", "night_closed"])
def test_a_revoked_expired_or_closed_link_answers_no_table_route(pages, state):
    link, path = _link(pages)
    with TestCase.captureOnCommitCallbacks(execute=True):
        Client().post(f"{path}enter/", {**pages.form(), "seat": "1"})
    waiting = Submission.objects.get(deal__game=pages.night.game)
    if state == "revoked":
        table_links.table_link_revoke(link=link, actor=pages.s.organiser)
        code = "table_link_revoked"
    elif state == "game_ended":
        game_end(game=pages.night.game, actor=pages.s.organiser, end=GameEnd.BY_ORGANISER)
        code = "table_closed"
    else:
        session_close(session=pages.night.session, actor=pages.s.organiser)
        code = "table_closed"
    _nothing_answered(pages, path, waiting.pk, code)
