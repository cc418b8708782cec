"""Test settings: the embedded default, or real PostgreSQL and Redis when their URLs are set.

Tasks run eagerly in-process unless a test starts a real Celery worker (``tests/conftest.py``)."""

import os
from urllib.parse import urlsplit

_CHOSEN_FOR = "TEST_REDIS_URL_CHOSEN_FOR"


def _redis_database_per_test_worker() -> None:
    """Parallel test workers (pytest-xdist ``gw0``, ``gw1``...) each take the Redis database after
    the one given (``gw0`` the given one): one worker's queued tasks, throttles and cache never
    reach another worker, whose test database is another too."""
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("REDIS_URL", "")
    # The processes a test starts (Celery workers, servers) inherit the worker's environment,
    # its Redis URL already chosen: they must not move it again.
    if not (url and worker.startswith("gw")) or os.environ.get(_CHOSEN_FOR):
        return
    parts = urlsplit(url)
    given = int(parts.path.strip("/") or 0)
    os.environ["REDIS_URL"] = parts._replace(path=f"/{given + int(worker[2:])}").geturl()
    os.environ[_CHOSEN_FOR] = worker


# Before the shared settings read the environment.
_redis_database_per_test_worker()

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import env  # noqa: E402

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
REST_FRAMEWORK = {**REST_FRAMEWORK}  # noqa: F405
# Counted in hands: the suite evaluates many thousands a minute through the API.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon_evaluate": "1000000/min"}
API_RATE_LIMIT = 1_000_000
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":  # noqa: F405
    # The test database is a file in write-ahead-log mode, as the room's is: each thread of the
    # live server (and the live screens' render thread, the in-process webhooks) has a connection
    # of its own, as in the room. Django's default, a shared-cache in-memory database, locks a
    # table written in an open transaction against every other connection ("database table is
    # locked", which no busy timeout waits out): pages failed while a table's end was written.
    (BASE_DIR / "test-artifacts").mkdir(exist_ok=True)  # noqa: F405
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "test-artifacts" / "test-db")}  # noqa: F405
# A second instance's database beside it (its name the first's with a 2): the tests that move
# an event between a club's own instance and its federation's (tests/instances.py). Created
# only when a collected test asks for it.
SECOND_INSTANCE = "second_instance"
DATABASES[SECOND_INSTANCE] = {  # noqa: F405
    **DATABASES["default"],  # noqa: F405
    "NAME": f"{DATABASES['default']['NAME']}2",  # noqa: F405
    "TEST": {
        key: f"{value}-2" if key == "NAME" else value
        for key, value in DATABASES["default"].get("TEST", {}).items()  # noqa: F405
    },
}
LOGGING = {"version": 1, "disable_existing_loggers": False}
STORAGES = {
    **STORAGES,  # noqa: F405
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Serve static files straight from the source folders; no collectstatic needed here.
WHITENOISE_USE_FINDERS = True
WHITENOISE_AUTOREFRESH = True

# Receivers on this machine (a score app under development, the tests' own receivers).
WEBHOOK_ALLOW_PRIVATE = env.bool("WEBHOOK_ALLOW_PRIVATE", True)
