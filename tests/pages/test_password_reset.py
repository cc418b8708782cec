"""The forgotten-password page: throttled per address asked for and per client address (429,
nothing sent), the mail sent by a task through the outbox, and the same answer and the same work
in the request whether or not an account has the address."""

from __future__ import annotations

import re
import time

import pytest
from django.core import mail
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clubs.signin.password_reset import SEND_TASK
from outbox.models import OutboxMessage

RESET = "/account/password/reset/"


@pytest.fixture(autouse=True)
def fresh_counters():
    # The counters live in the cache (Redis when the suite runs against it): start from none.
    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def account(django_user_model):
    return django_user_model.objects.create_user(
        "resetter", email="resetter@example.com", password="the-old-pass-123"
    )


def _shape(sql: str) -> str:
    sql = re.sub(r"[0-9a-f]{32}", "ID", sql)
    return re.sub(r"\d{4}-\d\d-\d\d[ T][\d:.+]+", "TIME", sql)


def _ask(client: Client, email: str, address: str = "10.0.0.1"):
    return client.post(RESET, {"email": email}, REMOTE_ADDR=address)


def test_the_fourth_reset_of_one_address_within_the_hour_is_refused_and_sends_nothing(
    account, django_capture_on_commit_callbacks
):
    client = Client()
    for _ in range(3):
        with django_capture_on_commit_callbacks(execute=True):
            assert _ask(client, "resetter@example.com").status_code == 302
    assert len(mail.outbox) == 3
    with django_capture_on_commit_callbacks(execute=True):
        refused = _ask(client, "Resetter@Example.com", address="10.0.0.2")
    assert refused.status_code == 429
    assert refused["Content-Type"].startswith("text/plain")
    assert refused["Retry-After"] == "3600"
    assert refused.content.decode() == "Too many password resets asked for; try again in an hour."
    assert len(mail.outbox) == 3
    assert OutboxMessage.objects.filter(task=SEND_TASK).count() == 3
    # Another address is not held back by this one.
    with django_capture_on_commit_callbacks(execute=True):
        assert _ask(client, "someone-else@example.com").status_code == 302


def test_one_client_address_asks_for_at_most_ten_resets_an_hour(db, settings):
    assert settings.PASSWORD_RESET_IP_LIMIT == 10
    client = Client()
    for number in range(10):
        assert _ask(client, f"person{number}@example.com").status_code == 302
    assert _ask(client, "person10@example.com").status_code == 429
    assert _ask(client, "person10@example.com", address="10.0.0.9").status_code == 302


def test_an_unknown_address_is_answered_and_worked_on_as_a_known_one(
    account, django_capture_on_commit_callbacks
):
    answers, work = {}, {}
    for email in ("resetter@example.com", "nobody@example.com"):
        with (
            CaptureQueriesContext(connection) as queries,
            django_capture_on_commit_callbacks() as published,
        ):
            answer = _ask(Client(), email)
        answers[email] = (answer.status_code, answer["Location"], answer.content)
        # The request's SQL, the address, the message's random id and its time left out.
        work[email] = [_shape(q["sql"].replace(email, "EMAIL")) for q in queries]
        assert len(published) == 1  # one outbox message to publish after the commit
    assert answers["resetter@example.com"] == answers["nobody@example.com"]
    assert work["resetter@example.com"] == work["nobody@example.com"]
    assert not any("auth_user" in sql for sql in work["nobody@example.com"])
    assert OutboxMessage.objects.filter(task=SEND_TASK).count() == 2
    assert mail.outbox == []  # nothing is mailed inside the request
    done = Client().get(answers["nobody@example.com"][1])
    assert done.status_code == 200 and b"Check your email" in done.content


def test_the_task_mails_a_known_address_and_nobody_for_an_unknown_one(
    account, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        _ask(Client(), "nobody@example.com")
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):
        _ask(Client(), "resetter@example.com")
    (message,) = mail.outbox
    assert message.to == ["resetter@example.com"]
    assert "/account/password/reset/" in message.body
    assert OutboxMessage.objects.get(key="password-reset", args__0="resetter@example.com").sent_at


def test_the_form_renders_and_the_emailed_link_sets_a_new_password(
    account, django_capture_on_commit_callbacks
):
    client = Client()
    page = client.get(RESET)
    assert page.status_code == 200
    assert b'name="email"' in page.content and b"Send the link" in page.content
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(RESET, {"email": "resetter@example.com"}).status_code == 302
    (message,) = mail.outbox
    link = re.search(r"https?://testserver(/account/password/reset/\S+/)", message.body)
    assert link is not None, message.body
    # Django swaps the token for one kept in the session, then shows the form.
    form_page = client.get(link.group(1), follow=True)
    assert form_page.status_code == 200 and b"new_password1" in form_page.content
    set_password = client.post(
        form_page.redirect_chain[-1][0],
        {"new_password1": "a-much-longer-pass-42", "new_password2": "a-much-longer-pass-42"},
    )
    assert set_password.status_code == 302
    assert set_password["Location"] == "/account/password/reset/done/"
    fresh = Client()
    logged_in = fresh.post("/login/", {"username": "resetter", "password": "a-much-longer-pass-42"})
    assert logged_in.status_code == 302
    assert fresh.get("/account/").status_code == 200


def test_a_real_worker_sends_the_mail(celery_worker, django_user_model):
    django_user_model.objects.create_user("worked", email="worked@example.com", password="x")
    assert _ask(Client(), "worked@example.com").status_code == 302
    deadline = time.monotonic() + 20
    while not mail.outbox and time.monotonic() < deadline:
        time.sleep(0.1)
    (message,) = mail.outbox
    assert message.to == ["worked@example.com"]


def test_the_reset_mail_is_written_in_the_language_of_the_page_it_was_asked_on(
    account, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        asked = Client(HTTP_ACCEPT_LANGUAGE="nl").post(RESET, {"email": "resetter@example.com"})
    assert asked.status_code == 302
    (message,) = mail.outbox
    # Django's own reset mail, in its Dutch words.
    assert "Wachtwoord" in message.subject or "wachtwoord" in message.body, message.body
    assert "/account/password/reset/" in message.body
