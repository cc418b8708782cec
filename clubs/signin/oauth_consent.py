"""The pages where a person signs an app in: the consent page, where they pick the clubs it may
act in, and the device grant's pages (the typed code, its approval with the same choice)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from oauth2_provider import views as oauth_views
from oauth2_provider.models import DeviceGrant, get_application_model
from oauth2_provider.views import AuthorizationView, DeviceConfirmView

from clubs import selectors
from clubs.models import Role
from clubs.signin import scopes as app_scopes
from config.middleware import CONTENT_SECURITY_POLICY


def _chosen_clubs(request: HttpRequest) -> set[int]:
    """The clubs ticked on a consent form, among the person's own (others are ignored)."""
    ticked: set[int] = set()
    for value in request.POST.getlist("clubs"):
        if value.isdigit():
            ticked.add(int(value))
    return ticked & selectors.club_ids_for_user(user=request.user)


def _with_role_label(club: Any) -> Any:
    """The club with the person's role in it in the page's words."""
    club.role_label = Role(club.caller_role).label if club.caller_role else ""
    return club


def _consent_context(request: HttpRequest, scopes: list[str]) -> dict[str, Any]:
    return {
        "clubs": [_with_role_label(c) for c in selectors.club_list_for_user(user=request.user)],  # type: ignore[arg-type]
        "scope_rows": [
            (s, _(app_scopes.SCOPES[s])) for s in app_scopes.ALL_SCOPES if s in set(scopes)
        ],
    }


def _consent_policy(application: Any) -> str:
    """The page's Content-Security-Policy: the site's, with the app's redirect URIs added to
    ``form-action`` (browsers apply it to the redirect that answers the consent form)."""
    sources = ["'self'"]
    for uri in (getattr(application, "redirect_uris", "") or "").split():
        parts = urlsplit(uri)
        if parts.scheme in ("http", "https") and parts.netloc:
            sources.append(f"{parts.scheme}://{parts.netloc}")
        elif parts.scheme:
            sources.append(f"{parts.scheme}:")
    return CONTENT_SECURITY_POLICY.replace("form-action 'self'", f"form-action {' '.join(sources)}")


class ConsentView(AuthorizationView):
    """The authorization endpoint's page: which app, what it may do, and in which of the
    person's clubs (at least one)."""

    template_name = "oauth/authorize.html"

    def get(self, request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        # Never approved without the page (``approval_prompt=auto``): the person picks the
        # clubs each time. (An app marked "skip authorization" would get tokens bound to no
        # club, which see nothing; docs/api.md says not to.)
        request.GET = request.GET.copy()
        request.GET.pop("approval_prompt", None)
        return super().get(request, *args, **kwargs)  # type: ignore[no-any-return]

    def render_to_response(self, context: dict[str, Any], **kwargs: Any) -> HttpResponse:
        response = super().render_to_response(context, **kwargs)
        response["Content-Security-Policy"] = _consent_policy(context.get("application"))
        return response  # type: ignore[no-any-return]

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        scopes = context.get("scopes") or self.request.POST.get("scope", "").split()
        context.update(_consent_context(self.request, scopes))
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        client_id = form.cleaned_data.get("client_id")
        if not get_application_model().objects.filter(client_id=client_id).exists():
            form.add_error(None, _("No app has this client id: start again from the app."))
            return self.form_invalid(form)
        if form.cleaned_data.get("allow"):
            clubs = _chosen_clubs(self.request)
            if not clubs:
                form.add_error(None, _("Choose at least one club the app may act in."))
                return self.form_invalid(form)
            named = [s for s in form.cleaned_data["scope"].split() if s in app_scopes.SCOPES]
            form.cleaned_data["scope"] = app_scopes.scope_string(named, clubs)
        return super().form_valid(form)  # type: ignore[no-any-return]

    def form_invalid(self, form: Any) -> HttpResponse:
        application = (
            get_application_model().objects.filter(client_id=form.data.get("client_id")).first()
        )
        scopes = form.data.get("scope", "").split()
        return self.render_to_response(
            self.get_context_data(form=form, application=application, scopes=scopes), status=400
        )


class DeviceConsentView(DeviceConfirmView):
    """The device grant's approval page, with the same choice of clubs."""

    template_name = "oauth/device_confirm.html"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        context = super().get_context_data(**kwargs)
        context.update(_consent_context(self.request, context.get("scopes", [])))
        return context

    def form_valid(self, form: Any) -> HttpResponse:
        if form.cleaned_data["action"] == "accept":
            clubs = _chosen_clubs(self.request)
            if not clubs:
                form.add_error(None, _("Choose at least one club the device may act in."))
                return self.render_to_response(self.get_context_data(form=form), status=400)
            device = self.get_object()
            named = [s for s in device.scope.split() if s in app_scopes.SCOPES]
            device.scope = app_scopes.scope_string(named, clubs)
            device.save(update_fields=["scope"])
        return super().form_valid(form)  # type: ignore[no-any-return]


def normalise_user_code(typed: str) -> str:
    """A user code as a person types it (lower case, a dash or spaces between its halves) as
    it is stored: letters and digits only, in upper case (RFC 8628 section 6.1)."""
    return re.sub(r"[^0-9A-Za-z]", "", typed).upper()


class DeviceCodeForm(forms.Form):
    user_code = forms.CharField(max_length=64)

    def clean_user_code(self) -> str:
        code = normalise_user_code(self.cleaned_data["user_code"])
        device = DeviceGrant.objects.filter(user_code=code).order_by("-expires").first()
        if device is None:
            raise ValidationError(
                _(
                    "Incorrect user code: no device is waiting with that code. Check it against "
                    "the device's screen."
                ),
                code="incorrect_user_code",
            )
        if device.is_expired():
            raise ValidationError(
                _("That code has expired: ask the device for a new one."), code="expired_user_code"
            )
        if device.status != DeviceGrant.AUTHORIZATION_PENDING:
            raise ValidationError(
                _("That code has already been used: ask the device for a new one."),
                code="user_code_already_used",
            )
        # Read by the toolkit's view, which ties the device to the person.
        self.cleaned_data["device_grant"] = device
        return code


class DeviceUserCodeView(oauth_views.DeviceUserCodeView):
    """Where the person types the device's code (or finds it filled in, from the
    ``verification_uri_complete`` the device shows, to check against the device's screen)."""

    template_name = "oauth/device_code.html"
    form_class = DeviceCodeForm
