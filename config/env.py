"""Strict reading of the environment: every setting comes from a variable, and a value that does not
parse stops the process with the variable's name instead of being guessed."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any
from urllib.parse import urlsplit

import environ
from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


class Env:
    def __init__(self, environ_map: Mapping[str, str] | None = None) -> None:
        self._env = os.environ if environ_map is None else environ_map

    def is_set(self, name: str) -> bool:
        return bool(self._env.get(name, "").strip())

    def str(self, name: str, default: str | None = None) -> str:
        value = self._env.get(name, "").strip()
        if value:
            return value
        if default is None:
            raise ImproperlyConfigured(f"{name} must be set")
        return default

    def bool(self, name: str, default: bool) -> bool:
        raw = self._env.get(name, "").strip().lower()
        if not raw:
            return default
        if raw in _TRUE:
            return True
        if raw in _FALSE:
            return False
        raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use true/false, 1/0, yes/no)")

    def int(self, name: str, default: int) -> int:
        raw = self._env.get(name, "").strip()
        if not raw:
            return default
        try:
            return int(raw)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={raw!r} is not a whole number") from None

    def float(self, name: str, default: float) -> float:
        raw = self._env.get(name, "").strip()
        if not raw:
            return default
        try:
            return float(raw)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={raw!r} is not a number") from None

    def list(self, name: str, default: list[str] | None = None) -> list[str]:
        raw = self._env.get(name, "").strip()
        if not raw:
            if default is None:
                raise ImproperlyConfigured(f"{name} must be set (comma-separated)")
            return list(default)
        items = [item.strip() for item in raw.split(",")]
        if any(not item for item in items):
            raise ImproperlyConfigured(f"{name}={raw!r} has an empty item")
        return items

    def choice(self, name: str, choices: tuple[str, ...], default: str) -> str:
        value = self._env.get(name, "").strip() or default
        if value not in choices:
            raise ImproperlyConfigured(f"{name}={value!r} must be one of {', '.join(choices)}")
        return value

    def database(self, name: str, default: str) -> dict[str, Any]:
        url = self._env.get(name, "").strip() or default
        scheme = urlsplit(url).scheme
        if scheme not in {"postgres", "postgresql", "pgsql", "sqlite"}:
            raise ImproperlyConfigured(
                f"{name} scheme {scheme!r} is not supported (use postgresql:// or sqlite:///)"
            )
        try:
            config: dict[str, Any] = environ.Env.db_url_config(url)
        except Exception as exc:  # django-environ raises assorted errors on malformed URLs
            raise ImproperlyConfigured(f"{name} is not a valid database URL: {exc}") from None
        if scheme != "sqlite":
            if not config.get("NAME"):
                raise ImproperlyConfigured(f"{name} names no database")
            config["ENGINE"] = "django.db.backends.postgresql"
        return config

    def redis_url(self, name: str) -> str | None:
        url = self._env.get(name, "").strip()
        if not url:
            return None
        parts = urlsplit(url)
        if parts.scheme not in {"redis", "rediss"} or not parts.hostname:
            raise ImproperlyConfigured(f"{name}={url!r} is not a redis:// URL")
        try:
            parts.port  # noqa: B018  (raises on a malformed port)
        except ValueError:
            raise ImproperlyConfigured(f"{name}={url!r} has a malformed port") from None
        return url
