"""The language of an answer, chosen in this order (docs/languages.md):

1. the person's own choice: their account's, kept on their device in Django's language cookie
   (set by the switcher, and at login from the account);
2. on a club's pages, its public pages and its table links, the club's language (set where the
   page finds its club: ``use_club_language``);
3. the browser's ``Accept-Language``;
4. English.

The API follows ``Accept-Language`` only: a score app says what it wants on every request."""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.utils import translation
from django.utils.cache import patch_vary_headers

LANGUAGE_CODES = frozenset(code for code, _ in settings.LANGUAGES)
API_PREFIX = "/api/"


def chosen_language(request: HttpRequest) -> str | None:
    """The person's own choice, if they made one on this device (or their account did)."""
    code = request.COOKIES.get(settings.LANGUAGE_COOKIE_NAME, "")
    return code if code in LANGUAGE_CODES else None


def browser_language(request: HttpRequest) -> str:
    """The first of the browser's languages the site speaks, else English."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for accepted, _quality in translation.trans_real.parse_accept_lang_header(header):
        if accepted == "*":
            break
        code = accepted.split("-")[0].lower()
        if code in LANGUAGE_CODES:
            return code
    return settings.LANGUAGE_CODE


def use_club_language(request: HttpRequest, language: str) -> None:
    """On a club's page: the club's language, unless the person chose their own."""
    if language in LANGUAGE_CODES and not getattr(request, "language_chosen", False):
        translation.activate(language)
        request.LANGUAGE_CODE = language


def answer_language(request: HttpRequest) -> str:
    """The language of an answer before any club is known: the person's choice (not for the
    API), else the browser's."""
    chosen = None if request.path.startswith(API_PREFIX) else chosen_language(request)
    return chosen or browser_language(request)


class LanguageMiddleware:
    """Activates the answer's language for the request, and says which it was."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        chosen = None if request.path.startswith(API_PREFIX) else chosen_language(request)
        language = chosen or browser_language(request)
        request.language_chosen = chosen is not None  # type: ignore[attr-defined]
        request.LANGUAGE_CODE = language
        with translation.override(language):
            response = self.get_response(request)
            response.headers.setdefault("Content-Language", translation.get_language())
        patch_vary_headers(response, ("Accept-Language",))
        return response
