"""What every page shares: the club and the caller's role, rendering in the club's time zone, a
selector's "not found" as the page's 404, and the life of a posted form (a form's problem or a
service's refusal shown on the page it came from)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Collection
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import IntegrityError, transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from clubs import selectors
from clubs.models import Club, IdempotentRequest, Role, role_word
from config.errors import NotAllowed, NotFoundError, ServiceError
from config.language import use_club_language

GET = require_http_methods(["GET", "HEAD"])


def club_for_page(request: HttpRequest, slug: str, min_role: str = Role.PLAYER) -> Club:
    """The club and the caller's role (``club.caller_role``), as pages need them: an outsider
    gets 404 and a member without the role 403, as in the API."""
    try:
        club = selectors.club_get_for_user(user=request.user, slug=slug, min_role=min_role)
    except NotFoundError as exc:
        raise Http404(exc.message) from None
    except NotAllowed:
        # Said in the page's language; the API keeps the selector's English.
        needed = role_word(min_role)
        raise PermissionDenied(
            _("this needs the %(needed)s role in this club") % {"needed": needed}
        ) from None
    use_club_language(request, club.language)
    return club


def can(club: Club, role: str) -> bool:
    return selectors.role_at_least(getattr(club, "caller_role", None), role)


def role_flags(club: Club) -> dict[str, bool]:
    return {
        "can_organise": can(club, Role.ORGANISER),
        "can_score": can(club, Role.SCORER),
        "is_owner": can(club, Role.OWNER),
    }


def render_club(
    request: HttpRequest,
    club: Club,
    template: str,
    context: dict[str, Any],
    status: int = 200,
) -> HttpResponse:
    """Render a page of ``club`` in the club's time zone, with the role flags."""
    with timezone.override(club.timezone):
        return render(
            request,
            template,
            {"club": club, **role_flags(club), **context},
            status=status,
        )


def redirect_back(request: HttpRequest, fallback: str) -> HttpResponse:
    """To the page a button was on (the form's ``next``, when it is this site's), else
    ``fallback``."""
    wanted = request.POST.get("next", "")
    if wanted and url_has_allowed_host_and_scheme(wanted, allowed_hosts={request.get_host()}):
        return redirect(wanted)
    return redirect(fallback)


def found(function: Any, **kwargs: Any) -> Any:
    """A selector's "not found" is the page's 404."""
    try:
        return function(**kwargs)
    except NotFoundError as exc:
        raise Http404(exc.message) from None


def club_url(name: str, club: Club, *args: Any) -> str:
    return reverse(name, args=[club.slug, *args])


def player_picker_url(club: Club, *, active: bool | None = None) -> str:
    """Where a player picker's script asks for names: the roster's API list, one page of it
    (``templates/_player_picker.html``, ``static/js/player-picker.js``)."""
    url = f"{club_url('clubs:player-list', club)}?limit={selectors.PLAYER_SEARCH_PAGE}"
    return url if active is None else f"{url}&active={'true' if active else 'false'}"


# --- posted forms --------------------------------------------------------------------------------


def error_context(exc: ServiceError, fields: Collection[str] = frozenset()) -> dict:
    """A service's refusal as a page shows it: the message, and the field it names (services
    write ``"field: why"``) when that field is on the form."""
    field = exc.message.split(":", 1)[0].strip() if ":" in exc.message else ""
    return {"message": exc.message, "field": field if field in fields else "", "code": exc.code}


def service_status(exc: ServiceError) -> int:
    """The page's status for a refused form: the service's own, but never a 5xx."""
    return exc.status if 400 <= exc.status < 500 else 400


def form_problem(form: Any) -> dict[str, str]:
    """A Django form's first problem, shaped like ``error_context``."""
    for field, errors in form.errors.items():
        label = form.fields[field].label if field in form.fields else ""
        prefix = f"{label}: " if label and field != "__all__" else ""
        return {"message": f"{prefix}{errors[0]}", "field": field, "code": "invalid"}
    return {"message": _("check the form"), "field": "", "code": "invalid"}


def form_post(
    form: Any,
    write: Callable[[], HttpResponse],
    page: Callable[..., HttpResponse],
    fields: Collection[str] = frozenset(),
) -> HttpResponse:
    """A posted form's life: a form that does not validate shows ``page`` again with its first
    problem (400); otherwise ``write`` does the work and answers (a redirect), and a service's
    refusal shows ``page`` with its message and status. ``page`` takes ``error`` and ``status``;
    ``fields`` are the form's fields a refusal may name. Without a form (a button), only the
    refusal."""
    if form is not None and not form.is_valid():
        return page(error=form_problem(form), status=400)
    try:
        return write()
    except ServiceError as exc:
        return page(error=error_context(exc, fields), status=service_status(exc))


# Form fields that say nothing of the entry: the sender's CSRF secret and the token itself.
# Not what was entered: the request's own tokens, and the deal number the offline queue expects
# (a form sent again after going back expects the next number, being the same entry).
_NOT_THE_BODY = frozenset({"csrfmiddlewaretoken", "form_token", "expected_number"})
# Tokens claimed before forms were bound to their body: replayed as before.
_UNBOUND = "form"


def form_fingerprint(request: HttpRequest) -> str:
    """What a form token is bound to: the form's target (its path) and its body, hashed."""
    body = sorted(
        (name, value)
        for name, values in request.POST.lists()
        if name not in _NOT_THE_BODY
        for value in values
    )
    return hashlib.sha256(json.dumps([request.path, body]).encode()).hexdigest()


def _resent_changed(page: Callable[..., HttpResponse], first: str) -> HttpResponse:
    """A token sent again with another body or to another form: the first entry stands, this
    one is refused, and the page says both."""
    message = "form_token: " + _(
        "this form was already sent, with other values or to another form; the first entry was "
        "kept and this one was not stored. Open the form again to enter it."
    )
    error = {"message": message, "field": "", "code": "form_resent_changed", "first": first}
    return page(error=error, status=409)


def form_post_once(
    request: HttpRequest,
    form: Any,
    write: Callable[[], HttpResponse],
    page: Callable[..., HttpResponse],
    fields: Collection[str] = frozenset(),
    identity: str | None = None,
) -> HttpResponse:
    """``form_post`` for a form that must do its work once (a deal's result): the form's token
    is claimed in the same transaction as the write, so the same form sent twice, even at the
    same moment, writes once and the second answer is the first one's redirect. The token is
    bound to the form's target and body: sent again with other values or to another form, it
    is answered 409 with the first entry's link and the new entry refused, never silently
    redirected. A refused or invalid form keeps its token free for the corrected post."""
    if form is None or not form.is_valid() or not form.token():
        return form_post(form, write, page, fields)
    # The token is the sender's own: the signed-in user's, or ``identity`` (a table link's).
    identity = identity or f"form:{request.user.pk}"
    with transaction.atomic():
        try:
            with transaction.atomic():
                claim = IdempotentRequest.objects.create(
                    identity=identity, key=form.token(), fingerprint=form_fingerprint(request)
                )
        except IntegrityError:
            earlier = IdempotentRequest.objects.filter(identity=identity, key=form.token()).first()
            if earlier is not None and earlier.status_code == 302:
                first = bytes(earlier.body or b"").decode()
                if earlier.fingerprint not in (_UNBOUND, form_fingerprint(request)):
                    return _resent_changed(page, first)
                return redirect(first)
            raise
        response = form_post(form, write, page, fields)
        if response.status_code != 302:
            transaction.set_rollback(True)  # refused: nothing written, the token stays free
            return response
        IdempotentRequest.objects.filter(pk=claim.pk).update(
            status_code=302, body=response["Location"].encode()
        )
        return response
