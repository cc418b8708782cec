"""The forgotten-password page: Django's view and form, with the mail sent by a task through the
outbox (``clubs.signin.password_reset``) and the requests throttled per address asked for and per
client address."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.sites.shortcuts import get_current_site
from django.http import HttpResponse, HttpResponseRedirect

from clubs.signin.password_reset import (
    WINDOW_SECONDS,
    password_reset_allowed,
    password_reset_request,
)


class PasswordResetView(auth_views.PasswordResetView):
    def form_valid(self, form: Any) -> HttpResponse:
        email = form.cleaned_data["email"]
        client_address = self.request.META.get("REMOTE_ADDR", "")
        if not password_reset_allowed(email=email, client_address=client_address):
            # The same answer whether or not an account has the address; nothing is sent.
            response = HttpResponse(
                "Too many password resets asked for; try again in an hour.",
                status=429,
                content_type="text/plain",
            )
            response["Retry-After"] = str(WINDOW_SECONDS)
            return response
        password_reset_request(
            email=email,
            domain=get_current_site(self.request).domain,
            use_https=self.request.is_secure(),
        )
        return HttpResponseRedirect(self.get_success_url())
