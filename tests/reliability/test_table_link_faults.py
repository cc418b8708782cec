"""The table-link write path under faults, on a real stack (gunicorn, a Celery worker and beat,
production settings) over PostgreSQL and a Redis of the test's own (port 6391, killed by the
test): tables entering deals through their links, by the API (with an Idempotency-Key) and by
the phone page's form (with its form token), while the broker dies; a request whose database
backend is terminated mid-write; a confirmation or a dispute sent again after a lost answer.
Every deal is answered (202, or a 503 the client retries), and counted exactly once; through the
broker's outage no phone is answered 503 (the link's counters fail open)."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import signal
import threading
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

import pytest
from django.db.models import Sum

from clubs.models import AuditEntry
from config.celery import all_queues
from ledger.models import LedgerEntry, Posting
from scoring import table_links
from scoring.games import game_create, table_create
from scoring.models import Deal, Submission, TableEntry
from tests.live import (
    beat_command,
    database_url,
    end_other_connections,
    end_waiting_inserts,
    free_port,
    gunicorn_command,
    hold_inserts,
    inserts_waiting,
    own_redis_port,
    production_environment,
    redis_server,
    start,
    stop,
    wait_until,
    worker_command,
)
from tests.scoring.conftest import SIX, Night, make_night

REDIS_PORT = own_redis_port(6391)  # 6391 for the first test worker
DEALS_PER_TABLE = 5
OUTAGE_SECONDS = 12

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]


@dataclass
class Stack:
    port: int
    redis: Any
    processes: list[Any]
    logs: Path

    def request(
        self, method: str, path: str, body: bytes | None = None, **headers: str
    ) -> tuple[int, dict[str, str], bytes]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()

    def kill_redis(self) -> None:
        os.killpg(self.redis.pid, signal.SIGKILL)
        self.redis.wait(timeout=10)

    def start_redis(self) -> None:
        self.redis = redis_server(REDIS_PORT, self.logs / f"redis-{time.monotonic():.0f}.log")


@pytest.fixture
def stack(postgres_tx: None, tmp_path: Path) -> Iterator[Stack]:
    env = {
        **production_environment(database_url(), f"redis://127.0.0.1:{REDIS_PORT}/0"),
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "LOG_LEVEL": "INFO",
        "DB_CONN_MAX_AGE": "60",
    }
    port = free_port()
    redis = redis_server(REDIS_PORT, tmp_path / "redis.log")
    processes = [
        start(gunicorn_command(port), env, tmp_path / "web.log"),
        start(worker_command(all_queues()), env, tmp_path / "worker.log"),
        start(beat_command(tmp_path / "beat-schedule"), env, tmp_path / "beat.log"),
    ]
    running = Stack(port, redis, processes, tmp_path)
    try:
        wait_until(lambda: b"ready." in (tmp_path / "worker.log").read_bytes(), 60, "no worker")

        def healthy() -> bool:
            try:
                return running.request("GET", "/health/")[0] == 200
            except OSError:
                return False

        wait_until(healthy, 60, "gunicorn did not start")
        yield running
        for process in processes:
            assert process.poll() is None, f"{process.args[2:4]} exited"
    finally:
        for process in processes:
            stop(process)
        stop(running.redis)
        end_other_connections()


def _second_table(night: Night) -> Night:
    """Another table of the same night, with six players of its own."""
    club = night.session.club
    players = {
        name: club.players.create(name=f"{name} II") for name in SIX
    }  # fmt: skip
    table = table_create(session=night.session, actor=night.standing.organiser)
    game = game_create(
        table=table, actor=night.standing.organiser, preset=night.game.preset,
        players=list(players.values()), point_value_minor=400,
    )  # fmt: skip
    return Night(night.standing, night.session, game, players)


def _token(night: Night, mode: str) -> str:
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=night.standing.organiser, mode=mode
    )
    return table_links.link_token(link)


def _lines(n: int) -> dict[str, dict[str, Any]]:
    winner = SIX[n % 6]
    return {
        name: {"outcome": "winner"}
        if name == winner
        else {"outcome": "loser", "points": (n * 7 + len(name)) % 70 + 2}
        for name in SIX
    }


def _api_body(night: Night, n: int, seat: int = 1) -> bytes:
    results = night.results(**_lines(n))
    return json.dumps({"seat": seat, "wild": "QH", "results": results}).encode()


def _form_fields(night: Night, n: int, seat: int = 1) -> dict[str, str]:
    fields = {"wild": "QH", "dealer": "", "seat": str(seat)}
    for name, line in _lines(n).items():
        pid = night.pid(name)
        fields[f"p{pid}-outcome"] = line["outcome"]
        if "points" in line:
            fields[f"p{pid}-points"] = str(line["points"])
    return fields


class Phone:
    """A phone's browser on the table's page: its cookies, and its form posts retried (with the
    same form token) until they have an answer that is not a failure of ours."""

    def __init__(self, stack: Stack, token: str) -> None:
        self.stack, self.home, self.cookies = stack, f"/t/{token}/", {}
        self.answers: Counter[int] = Counter()

    def _send(self, method: str, path: str, fields: dict[str, str] | None = None):
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        body = None
        if fields is not None:
            body = urlencode(fields).encode()
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        status, answer_headers, content = self.stack.request(method, path, body, **headers)
        for name, value in answer_headers.items():
            if name.lower() == "set-cookie":
                pair = value.split(";", 1)[0]
                self.cookies[pair.split("=", 1)[0]] = pair.split("=", 1)[1]
        return status, answer_headers, content

    def csrf(self) -> str:
        """The CSRF secret of the phone's cookie (a form takes it as its token), set by the page
        that shows a form: the entry form, or the table with an entry to confirm."""
        while "csrftoken" not in self.cookies:
            for path in (f"{self.home}enter/", self.home):
                with contextlib.suppress(OSError):
                    self._send("GET", path)
                if "csrftoken" in self.cookies:
                    break
            else:
                time.sleep(0.5)
        return self.cookies["csrftoken"]

    def post(self, path: str, fields: dict[str, str], done: int = 302) -> str:
        """The form sent until answered ``done``; the redirect's target."""
        while True:
            fields = {**fields, "csrfmiddlewaretoken": self.csrf()}
            try:
                status, headers, _ = self._send("POST", path, fields)
            except OSError:
                time.sleep(0.5)
                continue
            self.answers[status] += 1
            if status == done:
                return headers["Location"]
            assert status in (409, 503), status  # the form again (an entry waiting), or down
            time.sleep(0.5)


def _api_post(
    stack: Stack, path: str, body: bytes, key: str, answers: Counter[int], done: int = 202
) -> dict[str, Any]:
    """One API write, retried with the same Idempotency-Key until it has an answer that is not a
    failure of ours (a lost connection, a 503, a 409 while the table waits)."""
    while True:
        try:
            status, headers, content = stack.request(
                "POST", path, body, **{"Content-Type": "application/json", "Idempotency-Key": key}
            )
        except OSError:
            time.sleep(0.5)
            continue
        answers[status] += 1
        if status == done:
            return json.loads(content)
        assert status in (409, 503), (status, content[:500])
        if status == 409:  # the table's last entry still waits, or this key's first request runs
            code = json.loads(content)["error"]["code"]
            assert code in ("entry_waiting", "idempotency_key_in_progress"), content[:500]
        if status == 503:
            assert headers["Retry-After"] and json.loads(content)["error"]["code"] == "unavailable"
        time.sleep(0.5)


def _counted_once(night: Night, deals: int) -> None:
    assert Deal.objects.filter(game=night.game).count() == deals  # none lost, none twice
    per_deal = Counter(
        Submission.objects.filter(deal__game=night.game).values_list("deal_id", flat=True)
    )
    assert set(per_deal.values()) == {1}
    entries = Counter(
        LedgerEntry.objects.filter(deal__game=night.game).values_list("deal_id", flat=True)
    )
    assert len(entries) == deals and set(entries.values()) == {1}


def test_broker_killed_while_two_tables_enter_counts_each_deal_once(standing, stack):
    by_api = make_night(standing)
    by_form = _second_table(by_api)
    api_token, form_token = _token(by_api, TableEntry.TRUSTED), _token(by_form, TableEntry.TRUSTED)
    api_answers: Counter[int] = Counter()
    phone = Phone(stack, form_token)
    replays: list[tuple[object, object]] = []
    failures: list[str] = []

    def api_table() -> None:
        try:
            path = f"/api/v1/table/{api_token}/deals/"
            for n in range(DEALS_PER_TABLE):
                first = _api_post(stack, path, _api_body(by_api, n), f"deal-{n}", api_answers)
                again = _api_post(stack, path, _api_body(by_api, n), f"deal-{n}", api_answers)
                replays.append((first["id"], again["id"]))  # the answer "was lost"
                time.sleep(1.0)
        except BaseException as exc:  # reported below
            failures.append(f"api: {exc!r}")

    def form_table() -> None:
        try:
            for n in range(DEALS_PER_TABLE):
                fields = {**_form_fields(by_form, n), "form_token": f"phone-deal-{n}"}
                first = phone.post(f"{phone.home}enter/", fields)
                again = phone.post(f"{phone.home}enter/", fields)
                replays.append((first, again))
                time.sleep(1.0)
        except BaseException as exc:  # reported below
            failures.append(f"form: {exc!r}")

    tables = [threading.Thread(target=api_table), threading.Thread(target=form_table)]
    for thread in tables:
        thread.start()
    # Validations stopped mid-write, so the worker holds unacknowledged tasks when Redis dies.
    blocker = hold_inserts("scoring_playerresult")
    wait_until(lambda: inserts_waiting("scoring_playerresult") >= 1, 30, "no validation held")
    stack.kill_redis()
    killed_at = time.monotonic()
    time.sleep(1.0)
    blocker.execute("ROLLBACK")
    blocker.close()
    time.sleep(OUTAGE_SECONDS - (time.monotonic() - killed_at))
    stack.start_redis()
    for thread in tables:
        thread.join(timeout=180)
    assert not failures, failures
    wait_until(
        lambda: not Submission.objects.filter(status=Submission.Status.PENDING).exists(),
        120,
        "some entries are still pending",
    )

    for night in (by_api, by_form):
        _counted_once(night, DEALS_PER_TABLE)
    assert set(Submission.objects.values_list("status", flat=True)) == {"accepted"}
    assert Posting.objects.aggregate(s=Sum("amount"))["s"] == 0
    assert all(first == again for first, again in replays), replays
    # Redis was down for 12 s under the entries: no phone was turned away.
    assert not any(s >= 500 for s in [*api_answers, *phone.answers]), (api_answers, phone.answers)
    print("FIGURES", json.dumps({"api": dict(api_answers), "form": dict(phone.answers)}))


def test_backend_terminated_mid_entry_loses_nothing_and_counts_once(standing, stack):
    night = make_night(standing)
    token = _token(night, TableEntry.TRUSTED)
    answers: Counter[int] = Counter()
    path = f"/api/v1/table/{token}/deals/"
    blocker = hold_inserts("scoring_submission")
    outcome: dict[str, Any] = {}
    sender = threading.Thread(
        target=lambda: outcome.update(_api_post(stack, path, _api_body(night, 0), "d-0", answers))
    )
    sender.start()
    wait_until(lambda: inserts_waiting("scoring_submission") >= 1, 30, "the entry never wrote")
    assert end_waiting_inserts("scoring_submission") == 1  # the request's backend, mid-write
    blocker.execute("ROLLBACK")
    blocker.close()
    sender.join(timeout=120)
    assert answers[503] == 1 and answers[202] == 1, answers  # the client's retry went in

    # The phone page's form: its backend ended mid-write, the same form sent again.
    phone = Phone(stack, token)
    wait_until(
        lambda: Submission.objects.filter(status=Submission.Status.ACCEPTED).count() == 1,
        60,
        "the first entry was not counted",
    )
    blocker = hold_inserts("scoring_submission")
    fields = {**_form_fields(night, 1), "form_token": "phone-deal-1"}
    where: list[str] = []
    poster = threading.Thread(
        target=lambda: where.append(phone.post(f"{phone.home}enter/", fields))
    )
    poster.start()
    wait_until(lambda: inserts_waiting("scoring_submission") >= 1, 30, "the form never wrote")
    assert end_waiting_inserts("scoring_submission") == 1
    blocker.execute("ROLLBACK")
    blocker.close()
    poster.join(timeout=120)
    assert phone.answers[503] == 1 and phone.answers[302] == 1, phone.answers
    assert phone.post(f"{phone.home}enter/", fields) == where[0]  # sent again: the same answer
    wait_until(
        lambda: not Submission.objects.filter(status=Submission.Status.PENDING).exists(),
        60,
        "an entry is still pending",
    )
    _counted_once(night, 2)
    assert Posting.objects.aggregate(s=Sum("amount"))["s"] == 0


def _awaiting(stack: Stack, night: Night, token: str, n: int) -> int:
    entry = _api_post(
        stack, f"/api/v1/table/{token}/deals/", _api_body(night, n, seat=1), f"e-{n}", Counter()
    )
    wait_until(
        lambda: (
            Submission.objects.get(pk=entry["id"]).status == Submission.Status.AWAITING_CONFIRMATION
        ),
        60,
        "the entry was not validated",
    )
    return entry["id"]


def test_confirm_and_dispute_sent_again_after_a_lost_answer_act_once(standing, stack):
    night = make_night(standing)
    token = _token(night, TableEntry.CONFIRM)
    api = f"/api/v1/table/{token}"

    # The API's confirmation, its backend ended mid-write, retried; then sent again.
    first = _awaiting(stack, night, token, 0)
    answers: Counter[int] = Counter()
    blocker = hold_inserts("scoring_ledgerentry")
    body = json.dumps({"seat": 2}).encode()
    confirmed: list[dict[str, Any]] = []
    sender = threading.Thread(
        target=lambda: confirmed.append(
            _api_post(stack, f"{api}/entries/{first}/confirm/", body, "c-0", answers, done=200)
        )
    )
    sender.start()
    wait_until(lambda: inserts_waiting("scoring_ledgerentry") >= 1, 30, "the confirm never wrote")
    assert end_waiting_inserts("scoring_ledgerentry") == 1
    blocker.execute("ROLLBACK")
    blocker.close()
    sender.join(timeout=120)
    assert answers[503] == 1 and answers[200] == 1, answers
    again = _api_post(stack, f"{api}/entries/{first}/confirm/", body, "c-0", answers, done=200)
    assert again == confirmed[0] and again["status"] == "accepted"
    # Sent again without its key (a client that keeps none): the same answer, nothing more.
    assert _api_post(stack, f"{api}/entries/{first}/confirm/", body, "c-1", answers, 200) == again

    # The phone page's confirmation sent twice: the second answers as the first did.
    second = _awaiting(stack, night, token, 1)
    phone = Phone(stack, token)
    home = phone.post(f"{phone.home}confirm/{second}/", {"seat": "3"})
    assert phone.post(f"{phone.home}confirm/{second}/", {"seat": "3"}) == home
    _, _, page = phone._send("GET", phone.home)
    assert b"Confirmed: the deal counts." in page and b"only a submission" not in page

    # The phone page's dispute sent twice: one dispute, recorded once.
    third = _awaiting(stack, night, token, 2)
    reason = {"seat": "4", "reason": "Bilal had 40, not 35"}
    home = phone.post(f"{phone.home}dispute/{third}/", reason)
    assert phone.post(f"{phone.home}dispute/{third}/", reason) == home
    _, _, page = phone._send("GET", phone.home)
    assert b"Disputed: the director will look at it." in page

    _counted_once_confirmed = Counter(
        LedgerEntry.objects.filter(deal__game=night.game).values_list("deal_id", flat=True)
    )
    deals = dict(Submission.objects.values_list("pk", "deal_id"))
    assert _counted_once_confirmed == {deals[first]: 1, deals[second]: 1}
    actions = Counter(
        AuditEntry.objects.filter(object_type="scoring.submission").values_list(
            "object_id", "action"
        )
    )
    assert actions[(str(first), "submission.confirm")] == 1
    assert actions[(str(second), "submission.confirm")] == 1
    assert actions[(str(third), "submission.dispute")] == 1
    assert Submission.objects.get(pk=third).dispute == "Bilal had 40, not 35"
