"""Invitations from the pages: an organiser invites by email, hands out a link (one-time,
expiring, with the role chosen) or invites an account by its username; the invitee opens the
link, makes an account or logs in, and accepts, or answers from their home page. Writes go
through ``clubs.services``; mail through Django's email backend."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.core.mail import send_mail
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from clubs import selectors, services
from clubs.models import Role
from clubs.page_kit.pages import club_for_page, club_url, error_context, found, service_status
from clubs.signin.services import account_create
from config.errors import ServiceError

#: The session key under which a new invitation's link waits for the club page that shows it.
NEW_LINK = "invitation.new_link"


def _problem_words(exc: ServiceError) -> str:
    """Why an invitation link does not open, in the page's language: the service says it by
    its code (the API keeps its English)."""
    words = {
        "not_found": _("this invitation link is not valid"),
        "invitation_used": _("this invitation was already used"),
        "invitation_revoked": _("this invitation was withdrawn or declined"),
        "invitation_expired": _("this invitation has expired: ask for a new one"),
    }
    return words.get(exc.code, exc.message)


@login_required
@require_POST
def invite(request: HttpRequest, club_slug: str) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    email = (request.POST.get("email") or "").strip()
    try:
        invitation, key = services.invitation_create(
            club=club, actor=request.user, actor_role=club.caller_role,  # type: ignore[attr-defined]
            role=request.POST.get("role") or Role.PLAYER, email=email,
        )  # fmt: skip
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect(club_url("club-home", club) + "#members")
    link = request.build_absolute_uri(reverse("invitation", args=[key]))
    if email:
        # A mail about a club is written in the club's language (else the page's).
        with translation.override(club.language or translation.get_language()):
            values = {
                "who": request.user.get_username(), "club": club.name, "link": link,
                "role": invitation.get_role_display().lower(), "days": services.INVITATION_DAYS,
            }  # fmt: skip
            send_mail(
                subject=_("You are invited to %(club)s on rummyclub") % values,
                message=_(
                    "%(who)s invites you to join %(club)s as %(role)s.\n\nOpen this link to "
                    "accept (it works once, for %(days)s days):\n%(link)s\n"
                )
                % values,
                from_email=None,
                recipient_list=[email],
            )
        messages.success(request, _("The invitation is sent to %(email)s.") % {"email": email})
    else:
        messages.success(request, _("The invitation link is below: send it to the person."))
    request.session[NEW_LINK] = link
    return redirect(club_url("club-home", club) + "#members")


@login_required
@require_POST
def invitation_revoke(request: HttpRequest, club_slug: str, invitation_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    invitation = found(selectors.invitation_get, club=club, invitation_id=invitation_id)
    services.invitation_revoke(invitation=invitation, actor=request.user)
    messages.success(request, _("The invitation is withdrawn: its link no longer works."))
    return redirect(club_url("club-home", club) + "#members")


@require_http_methods(["GET", "HEAD", "POST"])
def invitation_page(request: HttpRequest, key: str) -> HttpResponse:
    """Open an invitation: accept it (logged in), or make an account and accept at once."""
    try:
        invitation = services.invitation_for_key(key=key)
    except ServiceError as exc:
        return render(request, "pages/invitation.html", {"problem": _problem_words(exc)},
                      status=service_status(exc))  # fmt: skip
    context = {"invitation": invitation, "values": request.POST, "error": None}
    if request.method == "POST":
        try:
            if request.user.is_authenticated:
                services.invitation_accept(key=key, user=request.user)
            else:
                user = account_create(
                    username=request.POST.get("username", ""),
                    password=request.POST.get("password", ""),
                    email=invitation.email,
                )
                services.invitation_accept(key=key, user=user)
                login(request, user, backend="django.contrib.auth.backends.ModelBackend")
        except ServiceError as exc:
            context["error"] = error_context(exc, {"username", "password"})
            return render(request, "pages/invitation.html", context, status=service_status(exc))
        messages.success(request, _("Welcome to %(club)s.") % {"club": invitation.club.name})
        return redirect("club-home", invitation.club.slug)
    return render(request, "pages/invitation.html", context)


@login_required
@require_POST
def invitation_received_answer(request: HttpRequest, invitation_id: int) -> HttpResponse:
    """Accept or decline, from one's home page, an invitation made out to one's account."""
    accept = request.POST.get("answer") == "accept"
    try:
        if accept:
            membership = services.invitation_accept_received(
                invitation_id=invitation_id, user=request.user
            )
        else:
            services.invitation_decline(invitation_id=invitation_id, user=request.user)
    except ServiceError as exc:
        messages.error(request, exc.message)
        return redirect("home")
    if accept:
        messages.success(
            request,
            _("Welcome to %(club)s: your role is %(role)s.")
            % {"club": membership.club.name, "role": membership.get_role_display()},
        )
        return redirect(club_url("club-home", membership.club))
    messages.success(request, _("The invitation is declined."))
    return redirect("home")
