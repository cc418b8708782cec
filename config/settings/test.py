"""Test settings: the embedded default, or real PostgreSQL and Redis when their URLs are set.

Tasks run eagerly in-process unless a test starts a real Celery worker (``tests/conftest.py``)."""

from config.settings.base import *  # noqa: F403
from config.settings.base import env

DEBUG = False
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
CELERY_TASK_ALWAYS_EAGER = True
REST_FRAMEWORK = {**REST_FRAMEWORK}  # noqa: F405
# Counted in hands: the suite evaluates many thousands a minute through the API.
REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"] = {"anon_evaluate": "1000000/min"}
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
