"""How the API's answers travel: compressed, and revalidated by their ETags.

- A JSON answer under ``/api/`` is gzip-compressed for a client that accepts it. The pages are
  not compressed: a page carries its CSRF token beside what a visitor typed, which compression
  would let a third party read from the sizes (BREACH). An answer that carries a secret (a new
  token, a webhook's signing secret: marked ``Cache-Control: no-store``) is not compressed either,
  nor the live streams (not under ``/api/``).
- Every answer to a GET under ``/api/`` has an ETag (of its body, before compression: weak once
  compressed) and is ``private, no-cache``: kept by the caller only, and asked again with
  ``If-None-Match``, which a body unchanged answers 304 with no body. Answers differ by caller,
  so they vary on ``Authorization`` as well as the session's cookie."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponseBase
from django.middleware.gzip import GZipMiddleware
from django.middleware.http import ConditionalGetMiddleware
from django.utils.cache import patch_cache_control, patch_vary_headers

API_PREFIX = "/api/"


class ApiGZipMiddleware(GZipMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not request.path.startswith(API_PREFIX) or "no-store" in response.get(
            "Cache-Control", ""
        ):
            return response
        return super().process_response(request, response)


class ApiConditionalGetMiddleware(ConditionalGetMiddleware):
    def process_response(
        self, request: HttpRequest, response: HttpResponseBase
    ) -> HttpResponseBase:
        if not request.path.startswith(API_PREFIX) or request.method not in ("GET", "HEAD"):
            return response
        if not response.has_header("Cache-Control"):
            patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Authorization",))
        return super().process_response(request, response)
