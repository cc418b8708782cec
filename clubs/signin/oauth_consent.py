"""The pages where a person signs an app in: the consent page, where they pick the clubs it may
act in, and the device grant's pages (the typed code, its approval with the same choice)."""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urlsplit

from django import forms
from django.core import signing
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.utils.translation import gettext as _
from oauth2_provider import views as oauth_views
from oauth2_provider.forms import AllowForm
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


# What the app asked for, sealed into the consent form when the page is drawn: the form's own
# ``scope`` field comes back from the browser and could name more than the app asked for.
_ASKED_SALT = "clubs.signin.consent.asked"
_ASKED_MAX_AGE = 3600


def _asked_seal(client_id: str, scope: str) -> str:
    named = sorted(s for s in scope.split() if s in app_scopes.SCOPES)
    return signing.dumps([client_id, named], salt=_ASKED_SALT)


def _asked_scopes(seal: str, client_id: str) -> set[str] | None:
    """The scopes the app asked for on the page this form came from; None when the seal is
    missing, altered, too old or of another app."""
    try:
        sealed_client, named = signing.loads(seal, salt=_ASKED_SALT, max_age=_ASKED_MAX_AGE)
    except signing.BadSignature:
        return None
    return set(named) if sealed_client == client_id else None


class ConsentForm(AllowForm):
    """The toolkit's consent form with what the app asked for sealed in it, and the scopes the
    person leaves ticked (``grant``): they may give less than the app asked for, never more."""

    asked = forms.CharField(required=False, widget=forms.HiddenInput())
    grant = forms.MultipleChoiceField(
        required=False, choices=[(s, s) for s in app_scopes.ALL_SCOPES]
    )
    # Set by the page, which shows the ticks; a form without it gives what ``scope`` names.
    granting = forms.BooleanField(required=False, widget=forms.HiddenInput())


def _granted_scopes(form: Any) -> list[str] | str:
    """The scopes the person gives the app, or the words of the refusal: only what the app
    asked for (RFC 6749 section 3.3 lets the server narrow a request, never widen it)."""
    data = form.cleaned_data
    asked = _asked_scopes(data.get("asked") or "", data.get("client_id") or "")
    if asked is None:
        return "This consent page is out of date or was altered: start again from the app."
    posted = [s for s in data["scope"].split() if not app_scopes.is_club_scope(s)]
    chosen = list(data.get("grant") or []) if data.get("granting") else posted
    beyond = sorted(set(posted) - asked) or sorted(set(chosen) - asked)
    if beyond:
        return (
            f"The app did not ask to {', '.join(beyond)}: a person can give it less than it asked "
            "for, never more."
        )
    if not chosen:
        return "Leave at least one of what the app asks for ticked, or cancel."
    return chosen


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
    form_class = ConsentForm

    def get_initial(self) -> dict[str, Any]:
        initial = super().get_initial()
        initial["asked"] = _asked_seal(initial.get("client_id") or "", initial.get("scope") or "")
        initial["granting"] = True
        initial["grant"] = [s for s in (initial.get("scope") or "").split()]
        return initial  # type: ignore[no-any-return]

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
        form = context.get("form")
        ticked = form["grant"].value() if form is not None and "grant" in form.fields else None
        context["granted_scopes"] = list(ticked or [])
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
            granted = _granted_scopes(form)
            if isinstance(granted, str):
                form.add_error(None, granted)
                return self.form_invalid(form)
            form.cleaned_data["scope"] = app_scopes.scope_string(granted, clubs)
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
