"""A club's webhooks from its settings page (organisers): add one (the secret shown once),
disable or enable it, give it a new secret, delete it, send a ping, redeliver from its delivery
log, and replay its events since a time. Writes go through ``webhooks.services``."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from functools import partial
from uuid import UUID
from zoneinfo import ZoneInfo

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext, ngettext
from django.views.decorators.http import require_POST

from clubs.models import Club, Role
from clubs.page_kit.display import ltr_html, sentence_html
from clubs.page_kit.pages import club_for_page, club_url, form_post, found
from config.errors import InvalidInput
from pages.views import NEW_SECRET, _settings_page
from webhooks import replay, selectors, services
from webhooks.models import Endpoint


def _back(club: Club) -> HttpResponse:
    return redirect(club_url("club-settings", club) + "#webhooks")


def _on_endpoint(
    request: HttpRequest, club_slug: str, endpoint_id: int,
    write: Callable[[Club, Endpoint], str],
) -> HttpResponse:  # fmt: skip
    """An organiser's button on one endpoint: ``write`` does it and says what it did."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    endpoint = found(selectors.endpoint_get, club=club, endpoint_id=endpoint_id)

    def done() -> HttpResponse:
        messages.success(request, write(club, endpoint))
        return _back(club)

    return form_post(None, done, partial(_settings_page, request, club, form_name="webhooks"))


@login_required
@require_POST
def webhook_create(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)

    def create() -> HttpResponse:
        endpoint = services.endpoint_create(
            club=club,
            actor=request.user,
            url=request.POST.get("url", ""),
            events=request.POST.getlist("events"),
        )
        request.session[NEW_SECRET] = {"endpoint": endpoint.pk, "secret": endpoint.secret}
        said = gettext("Webhook added: %(url)s. Copy its secret below now.")
        messages.success(request, sentence_html(said, {"url": ltr_html(endpoint.url)}))
        return _back(club)

    return form_post(None, create, partial(_settings_page, request, club, form_name="webhooks"))


@login_required
@require_POST
def webhook_enable(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    enabled = request.POST.get("enabled") == "1"

    def write(club: Club, endpoint: Endpoint) -> str:
        services.endpoint_update(endpoint=endpoint, actor=request.user, enabled=enabled)
        said = gettext("%(url)s is enabled again.") if enabled else gettext("%(url)s is disabled.")
        return said % {"url": endpoint.url}

    return _on_endpoint(request, club_slug, endpoint_id, write)


@login_required
@require_POST
def webhook_secret(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    """A new secret (the one given, or a new one shown once) and the webhook enabled."""

    def write(club: Club, endpoint: Endpoint) -> str:
        given = request.POST.get("secret", "").strip()
        endpoint = services.endpoint_secret_set(endpoint=endpoint, actor=request.user, secret=given)
        if not given:
            request.session[NEW_SECRET] = {"endpoint": endpoint.pk, "secret": endpoint.secret}
            return gettext("%(url)s has a new secret and is enabled: copy it below now.") % {
                "url": endpoint.url
            }
        return gettext("%(url)s has the secret given and is enabled.") % {"url": endpoint.url}

    return _on_endpoint(request, club_slug, endpoint_id, write)


@login_required
@require_POST
def webhook_delete(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    def write(club: Club, endpoint: Endpoint) -> str:
        services.endpoint_delete(endpoint=endpoint, actor=request.user)
        return gettext("Webhook %(url)s deleted.") % {"url": endpoint.url}

    return _on_endpoint(request, club_slug, endpoint_id, write)


@login_required
@require_POST
def webhook_ping(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    def write(club: Club, endpoint: Endpoint) -> str:
        services.ping_send(endpoint=endpoint, actor=request.user)
        return "A ping is on its way: its answer shows in the log."

    return _on_endpoint(request, club_slug, endpoint_id, write)


@login_required
@require_POST
def webhook_redeliver(
    request: HttpRequest, club_slug: str, endpoint_id: int, delivery_id: UUID
) -> HttpResponse:
    def write(club: Club, endpoint: Endpoint) -> str:
        delivery = selectors.delivery_get(endpoint=endpoint, delivery_id=str(delivery_id))
        services.redeliver(delivery=delivery, actor=request.user)
        return gettext("%(event)s is sent again.") % {"event": delivery.event.name}

    return _on_endpoint(request, club_slug, endpoint_id, write)


def _club_time(club: Club, raw: str) -> datetime:
    """A time from the page's date-and-time field, read in the club's time zone."""
    try:
        moment = datetime.fromisoformat(raw.strip())
    except ValueError:
        message = "since: " + gettext("give a date and time (2026-11-25T20:00)")
        raise InvalidInput(message, details={"since": [message]}) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=ZoneInfo(club.timezone))
    return moment


@login_required
@require_POST
def webhook_replay(request: HttpRequest, club_slug: str, endpoint_id: int) -> HttpResponse:
    def write(club: Club, endpoint: Endpoint) -> str:
        since = _club_time(club, request.POST.get("since", ""))
        done = replay.replay_since(endpoint=endpoint, since=since, actor=request.user)
        return ngettext(
            "Replaying %(count)s event since then: see the log.",
            "Replaying %(count)s events since then: see the log.",
            done.events,
        ) % {"count": done.events}

    return _on_endpoint(request, club_slug, endpoint_id, write)
