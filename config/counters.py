"""Counts in the cache's fixed windows: the password reset's throttles and the API's rate limits
count requests this way (one ``incr`` a request, shared by every process through Redis; each
process its own without it)."""

from __future__ import annotations

from django.core.cache import cache


def window_count(key: str, seconds: int) -> int:
    """One more for ``key`` in its window (``seconds`` from the first); the count so far."""
    cache.add(key, 0, timeout=seconds)
    try:
        return cache.incr(key)
    except ValueError:  # the window ended between the two calls: this one opens the next
        cache.add(key, 1, timeout=seconds)
        return 1
