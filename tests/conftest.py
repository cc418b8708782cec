"""Fixtures shared by every test: the three standing users, API clients, and the real servers.

Tests that need PostgreSQL, Redis or a Celery worker skip with a reason when the server is absent,
and fail instead when ``REQUIRE_SERVICES=1`` (as in CI)."""

from __future__ import annotations

import importlib
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.db import connection
from django.db.models.signals import post_migrate
from hypothesis import settings as hypothesis_settings
from rest_framework.test import APIClient

from clubs.models import Club, Role
from config.catalogs import compile_catalogs
from config.celery import all_queues
from tests.factories import ClubFactory, MembershipFactory, PlayerFactory, UserFactory

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES") == "1"

# CI runs each property test on the same examples (a run that passes passes again); a run
# elsewhere searches afresh, and what it finds becomes an explicit @example of its test.
hypothesis_settings.register_profile("ci", derandomize=True, print_blob=True)
hypothesis_settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))


def pytest_configure(config: pytest.Config) -> None:
    # The pages' translations as the site reads them: compiled from the catalogs, as ``make
    # install`` does (a run of pytest alone must not test older .mo files).
    compile_catalogs()


def _flush_past_the_ledger_guards() -> None:
    """Transactional tests end with a flush (TRUNCATE of every table), which the ledger's
    triggers refuse (scoring migration 0010). The flush runs in one transaction: turning triggers
    off for that transaction alone (``session_replication_role``, a superuser's setting, as the
    test servers' ``postgres`` is) lets the test runner, and only it, empty the tables."""
    from django.db.backends.postgresql.operations import DatabaseOperations

    original = DatabaseOperations.sql_flush

    def sql_flush(self: Any, style: Any, tables: Any, **kwargs: Any) -> list[str]:
        statements = original(self, style, tables, **kwargs)
        if not statements:
            return statements
        return ["SET LOCAL session_replication_role = replica", *statements]

    DatabaseOperations.sql_flush = sql_flush  # type: ignore[method-assign]


_flush_past_the_ledger_guards()


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The slow tests first, the longest (by its own timeout) first of all: the workers start on
    them at once and so end together, where a long test drawn last keeps one worker running
    alone. The rest keep pytest-django's order (in a transaction, committing, without a
    database); a committing test may now run before one in a transaction, which finds what the
    migrations gave every database put back after each flush (``_builtin_rows_after_a_flush``)."""

    def key(item: pytest.Item) -> tuple[bool, float]:
        timeout = item.get_closest_marker("timeout")
        return item.get_closest_marker("slow") is None, -(timeout.args[0] if timeout else 0)

    items.sort(key=key)


def service_absent(reason: str) -> None:
    """Skip, or fail when the services are required."""
    if REQUIRE_SERVICES:
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}", pytrace=False)
    pytest.skip(reason)


@pytest.fixture
def postgres(db: None) -> None:
    if connection.vendor != "postgresql":
        service_absent("needs PostgreSQL: set DATABASE_URL=postgresql://...")


def _builtin_rows_after_a_flush(sender: Any, **kwargs: Any) -> None:
    """A committing test ends with a flush, which empties every table, and the flush ends with
    ``post_migrate`` (as ``migrate`` does): put back the rows that the data migration gives
    every database (the built-in presets, of every migration that lists some), for whichever
    test runs next."""
    if sender.label == "scoring":
        from django.apps import apps

        for path in sorted((Path(__file__).parents[1] / "scoring" / "migrations").glob("0*.py")):
            migration = importlib.import_module(f"scoring.migrations.{path.stem}")
            if hasattr(migration, "PRESETS") and hasattr(migration, "create"):
                migration.create(apps, None)


post_migrate.connect(_builtin_rows_after_a_flush, dispatch_uid="tests-builtin-rows")


@pytest.fixture
def committing_db(transactional_db: None) -> None:
    """A database where transactions really commit (on_commit callbacks run)."""


@pytest.fixture
def postgres_tx(committing_db: None) -> None:
    """PostgreSQL where transactions really commit."""
    if connection.vendor != "postgresql":
        service_absent("needs PostgreSQL: set DATABASE_URL=postgresql://...")


@pytest.fixture(scope="session")
def redis_url() -> str:
    url = settings.REDIS_URL
    if not url:
        service_absent("needs Redis: set REDIS_URL=redis://...")
    import redis

    try:
        redis.Redis.from_url(url, socket_connect_timeout=2).ping()
    except redis.RedisError as exc:
        service_absent(f"Redis at {url} does not answer: {exc}")
    return url  # type: ignore[return-value]


@pytest.fixture
def celery_worker(redis_url: str, committing_db: None) -> Iterator[Any]:
    """A real Celery worker (in a thread of this process) consuming every queue from Redis."""
    with worker_running(all_queues()) as worker:
        yield worker


@contextmanager
def worker_running(queues: list[str]) -> Iterator[Any]:
    """A real Celery worker in a thread of this process (2 threads), consuming ``queues``."""
    from celery.contrib.testing.worker import start_worker

    from config.celery import app

    app.conf.task_always_eager = False
    try:
        with start_worker(
            app, pool="threads", concurrency=2, perform_ping_check=False, shutdown_timeout=30,
            queues=queues,
        ) as worker:  # fmt: skip
            yield worker
    finally:
        app.conf.task_always_eager = True
        _close_worker_connections()


def _close_worker_connections() -> None:
    """The worker's threads kept their database connections (reused between tasks, as in
    production); end them, or the test database cannot be dropped at the end of the run."""
    from django.db import connection

    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@dataclass
class Standing:
    """A club with its organiser (also owner), a player and an outsider, and their clients."""

    club: Club
    owner: Any
    organiser: Any
    scorer: Any
    player: Any
    outsider: Any

    def client(self, who: str) -> APIClient:
        client = APIClient()
        if who != "anonymous":
            client.force_authenticate(getattr(self, who))
        return client


@pytest.fixture
def standing(db: None) -> Standing:
    club = ClubFactory(name="Home Club", slug="home")
    owner = MembershipFactory(club=club, role=Role.OWNER, user__username="owner").user
    organiser = MembershipFactory(club=club, role=Role.ORGANISER, user__username="org").user
    scorer = MembershipFactory(club=club, role=Role.SCORER, user__username="scorer").user
    player = MembershipFactory(club=club, role=Role.PLAYER, user__username="player").user
    outsider = UserFactory(username="outsider")
    # The outsider has a club of their own, so "not found" is not merely "no clubs at all".
    MembershipFactory(user=outsider, club=ClubFactory(name="Away", slug="away"), role=Role.OWNER)
    for name in ["Asha", "Bilal", "Chitra"]:
        PlayerFactory(club=club, name=name)
    return Standing(club, owner, organiser, scorer, player, outsider)
