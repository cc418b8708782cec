"""The language switcher on every page, and the login that brings back an account's choice."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import AuthenticationForm
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.urls import reverse
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.page_kit.pages import redirect_back
from config.language import LANGUAGE_CODES


def _remember(response: HttpResponse, language: str) -> HttpResponse:
    """The choice kept on this device: it comes before a club's and the browser's."""
    response.set_cookie(
        settings.LANGUAGE_COOKIE_NAME,
        language,
        max_age=settings.LANGUAGE_COOKIE_AGE,
        samesite=settings.LANGUAGE_COOKIE_SAMESITE,
        secure=settings.SESSION_COOKIE_SECURE,
        httponly=True,
    )
    return response


@require_POST
def language_set(request: HttpRequest) -> HttpResponse:
    """The switcher: the chosen language on this device and, signed in, in the account; back to
    the page it was on."""
    language = request.POST.get("language", "")
    if language not in LANGUAGE_CODES:
        return HttpResponseBadRequest(
            "language: "
            + gettext("choose one of %(languages)s")
            % {"languages": ", ".join(sorted(LANGUAGE_CODES))},
            content_type="text/plain; charset=utf-8",
        )
    if request.user.is_authenticated:
        services.account_language_set(user=request.user, language=language)
    return _remember(redirect_back(request, reverse("home")), language)


class LoginView(auth_views.LoginView):
    """Django's login; an account's chosen language comes with it to a new device."""

    redirect_authenticated_user = True

    def form_valid(self, form: AuthenticationForm) -> HttpResponse:
        response = super().form_valid(form)
        language = selectors.account_language(user=form.get_user())
        return _remember(response, language) if language else response
