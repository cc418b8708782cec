from __future__ import annotations

from django.test import override_settings


def test_health_reports_database_and_broker(client, db):
    response = client.get("/health/")
    body = response.json()
    assert response.status_code == 200, body
    assert body["status"] == "ok"
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["broker"]["ok"] is True


def test_health_503_names_the_broker_when_it_is_down(client, db):
    # Port 9 (discard) on localhost: nothing listens there, so the connection is refused.
    with override_settings(
        REDIS_URL="redis://127.0.0.1:9/0",
        CELERY_BROKER_URL="redis://127.0.0.1:9/0",
        CELERY_TASK_ALWAYS_EAGER=False,
    ):
        response = client.get("/health/")
    body = response.json()
    assert response.status_code == 503
    assert body["failed"] == ["broker"]
    assert body["checks"]["database"]["ok"] is True
    assert body["checks"]["broker"]["ok"] is False
    assert "error" not in body["checks"]["broker"]  # no exception text for anyone to read
    assert "Connection" not in response.content.decode()
    assert response["Retry-After"] == "5"


def test_health_with_real_redis(client, db, redis_url):
    with override_settings(CELERY_BROKER_URL=redis_url, CELERY_TASK_ALWAYS_EAGER=False):
        body = client.get("/health/").json()
    assert body["checks"]["broker"] == {
        "ok": True,
        "kind": "redis",
        "ms": body["checks"]["broker"]["ms"],
    }
