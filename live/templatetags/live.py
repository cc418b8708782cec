"""``{% live_stream "session" session.pk "tournament" tournament.pk %}``: the URL of the stream
of those topics (``session:<pk>``, ...), for an element's ``data-live-stream``."""

from __future__ import annotations

from typing import Any

from django import template

from live.views import stream_url

register = template.Library()


@register.simple_tag
def live_stream(*parts: Any) -> str:
    if len(parts) % 2:
        raise template.TemplateSyntaxError("live_stream takes pairs: a kind and its id")
    topics = [f"{kind}:{key}" for kind, key in zip(parts[::2], parts[1::2], strict=True)]
    return stream_url(topics)
