"""The client's address behind the proxy: taken from X-Forwarded-For only for a request that came
over gunicorn's Unix socket (an empty REMOTE_ADDR), never over TCP."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.test import RequestFactory

from config.middleware import ProxiedClientAddressMiddleware


def _seen_address(**meta: str) -> str:
    seen = {}

    def view(request: HttpRequest) -> HttpResponse:
        seen["address"] = request.META["REMOTE_ADDR"]
        return HttpResponse()

    ProxiedClientAddressMiddleware(view)(RequestFactory().get("/", **meta))
    return seen["address"]


def test_over_the_unix_socket_the_proxys_header_is_the_address():
    assert _seen_address(REMOTE_ADDR="", HTTP_X_FORWARDED_FOR="198.51.100.7") == "198.51.100.7"


def test_over_tcp_the_header_is_ignored():
    forged = {"HTTP_X_FORWARDED_FOR": "198.51.100.7"}
    assert _seen_address(REMOTE_ADDR="203.0.113.1", **forged) == "203.0.113.1"


def test_without_the_header_nothing_changes():
    assert _seen_address(REMOTE_ADDR="") == ""
