"""The federation's pages: the public ranking and rating lists (published, by period, and the
preview of the next), a player's federation page with both lists and their history, and the
rating officer's queue with its decisions. Every figure comes from ``federation.selectors``, the
API's source too."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_http_methods, require_POST

from clubs.page_kit.display import qr_svg
from clubs.page_kit.pages import found
from config.errors import NotAllowed, NotFoundError, ServiceError
from federation import refusals, selectors, services
from federation.models import Federation

GET = require_http_methods(["GET", "HEAD"])


def _context(federation: Federation, request: HttpRequest, **more: Any) -> dict[str, Any]:
    return {
        "federation": federation,
        "is_officer": selectors.is_officer(user=request.user, federation=federation),
        **more,
    }


@GET
def ranking_page(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = found(selectors.federation_get, slug=federation_slug)
    today = timezone.localdate()
    rows = selectors.ranking_rows(federation=federation, as_of=today)
    rules = selectors.ranking_rules(federation)
    context = _context(federation, request, rows=rows, as_of=today, rules=rules)
    return render(request, "federation/ranking.html", context)


@GET
def ratings_page(
    request: HttpRequest, federation_slug: str, index: int | None = None
) -> HttpResponse:
    federation = found(selectors.federation_get, slug=federation_slug)
    listed = found(selectors.rating_rows, federation=federation, index=index)
    periods = list(federation.periods.order_by("-index").values("index", "ends_on"))
    context = _context(federation, request, preview=False, periods=periods, **listed)
    return render(request, "federation/ratings.html", context)


@GET
def preview_page(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = found(selectors.federation_get, slug=federation_slug)
    listed = selectors.rating_rows(federation=federation, preview=True)
    periods = list(federation.periods.order_by("-index").values("index", "ends_on"))
    context = _context(federation, request, preview=True, periods=periods, **listed)
    return render(request, "federation/ratings.html", context)


#: The lines of each list on the room's screen: the top of each, readable from the back.
PROJECTOR_LINES = 20


@GET
def projector_page(request: HttpRequest, federation_slug: str) -> HttpResponse:
    """Both lists' tops on a screen, side by side, refreshed by themselves, with a code that
    opens the ranking list on a phone."""
    federation = found(selectors.federation_get, slug=federation_slug)
    today = timezone.localdate()
    ranking = selectors.ranking_rows(federation=federation, as_of=today)
    ratings = selectors.rating_rows(federation=federation)
    url = request.build_absolute_uri(reverse("federation-ranking", args=[federation.slug]))
    context = _context(
        federation,
        request,
        ranking=ranking[:PROJECTOR_LINES],
        ranked=len(ranking),
        period=ratings["period"],
        ratings=ratings["results"][:PROJECTOR_LINES],
        rated=len(ratings["results"]),
        as_of=today,
        qr=qr_svg(url),
    )
    return render(request, "federation/projector.html", context)


@GET
def player_page(request: HttpRequest, federation_slug: str, player_id: int) -> HttpResponse:
    federation = found(selectors.federation_get, slug=federation_slug)
    player = found(selectors.player_get, federation=federation, player_id=player_id)
    row = selectors.player_row(federation=federation, player=player, as_of=timezone.localdate())
    return render(request, "federation/player.html", _context(federation, request, p=row))


def _officer(request: HttpRequest, federation_slug: str) -> Federation:
    try:
        return found(selectors.officer_federation, user=request.user, slug=federation_slug)
    except NotAllowed as exc:
        raise PermissionDenied(exc.message) from None


@login_required
@GET
def queue_page(request: HttpRequest, federation_slug: str) -> HttpResponse:
    federation = _officer(request, federation_slug)
    queue = selectors.queue_rows(federation=federation)
    for pair in queue["duplicates"]:  # two players of one name: their ids tell them apart
        pair["first"] = f"{pair['first']} (F{pair['first_id']:06d})"
        pair["second"] = f"{pair['second']} (F{pair['second_id']:06d})"
    error = request.GET.get("error", "")[:300]
    context = _context(federation, request, queue=queue, error=error)
    return render(request, "federation/queue.html", context)


@login_required
@require_POST
def queue_decide(request: HttpRequest, federation_slug: str) -> HttpResponse:
    """One of the queue's buttons: release or return a submission, sanction or refuse an asked
    event, confirm or refuse a proposed link. A refused decision says why on the queue."""
    federation = _officer(request, federation_slug)
    back = reverse("federation-queue", args=[federation.slug])
    try:
        _decide(request, federation)
    except ServiceError as exc:
        return redirect(f"{back}?{_query(exc.message)}")
    return redirect(back)


def _query(message: str) -> str:
    return urlencode({"error": message})


def _decide(request: HttpRequest, federation: Federation) -> None:
    action = request.POST.get("action", "")
    reason = request.POST.get("reason", "")
    target = request.POST.get("id", "")
    if not target.isdigit():
        raise NotAllowed(gettext("choose an item of the queue"))
    if action in {"release", "return", "sanction", "refuse"}:
        event = found(_event_get, federation=federation, event_id=int(target))
        if action == "release":
            services.event_release(actor=request.user, event=event)
        elif action == "return":
            services.event_return(actor=request.user, event=event, reason=reason)
        else:
            services.sanction_decide(
                actor=request.user, event=event, approve=action == "sanction", reason=reason
            )
        return
    if action in {"confirm", "refuse-link"}:
        link = found(_link_get, federation=federation, link_id=int(target))
        services.link_decide(
            actor=request.user, link=link, confirm=action == "confirm", reason=reason
        )
        return
    raise NotAllowed(gettext("unknown action %(action)s") % {"action": repr(action)})


def _event_get(*, federation: Federation, event_id: int) -> Any:
    event = federation.events.select_related("club").filter(pk=event_id).first()
    if event is None:
        raise NotFoundError(gettext("no event #%(number)s") % {"number": event_id})
    return event


def _link_get(*, federation: Federation, link_id: int) -> Any:
    link = federation.links.filter(pk=link_id).first()
    if link is None:
        raise refusals.no_proposal(link_id)
    return link
