"""The SSRF guard judges the IPv4 address an IPv6 one wraps (IPv4-mapped, IPv4-compatible,
6to4, Teredo, NAT64) and refuses a port outside 1-65535: when the endpoint is made, and at
delivery after the name is resolved again."""

from __future__ import annotations

import ipaddress
import socket
from typing import Any

import pytest
from rest_framework.test import APIClient

from webhooks import sending
from webhooks.models import Attempt, Endpoint

HOOKS = "/api/v1/clubs/home/webhooks/"
EVENTS = ["deal.scored"]


def _teredo(client: str) -> str:
    """A Teredo address (server 65.54.227.120) for ``client``: its bits inverted in the last 32."""
    inverted = ~int(ipaddress.IPv4Address(client)) & 0xFFFFFFFF
    return str(ipaddress.IPv6Address((0x20010000_4136E378_800063BF << 32) | inverted))


def _wrapped(ipv4: str) -> dict[str, str]:
    packed = int(ipaddress.IPv4Address(ipv4))
    high, low = packed >> 16, packed & 0xFFFF
    return {
        "ipv4-mapped": f"::ffff:{ipv4}",
        "ipv4-compatible": f"::{ipv4}",
        "6to4": f"2002:{high:x}:{low:x}::",
        "teredo": _teredo(ipv4),
        "nat64": f"64:ff9b::{ipv4}",
    }


PRIVATE = {"loopback": "127.0.0.1", "private": "10.1.2.3", "link-local": "169.254.169.254"}
WRAPPED_PRIVATE = [
    pytest.param(wrapped, ipv4, id=f"{form}-{kind}")
    for kind, ipv4 in PRIVATE.items()
    for form, wrapped in _wrapped(ipv4).items()
] + [
    pytest.param("64:ff9b:1::808:808", "64:ff9b:1::808:808", id="local-use-nat64"),
]
WRAPPED_PUBLIC = [
    pytest.param(wrapped, id=form)
    for form, wrapped in _wrapped("8.8.8.8").items()
    if form != "ipv4-compatible"  # ::8.8.8.8 prints as ::808:808; checked below as such
] + [pytest.param("::808:808", id="ipv4-compatible")]


@pytest.fixture
def api(standing) -> APIClient:
    client = APIClient()
    client.force_authenticate(standing.organiser)
    return client


@pytest.fixture
def resolving_to(monkeypatch):
    """Make every name resolve to the address given (set ``.address`` on the returned holder)."""

    class Holder:
        address = "8.8.8.8"

    def getaddrinfo(host: str, port: Any, *args: Any, **kwargs: Any) -> list[Any]:
        family = socket.AF_INET6 if ":" in Holder.address else socket.AF_INET
        return [(family, socket.SOCK_STREAM, 6, "", (Holder.address, port))]

    monkeypatch.setattr(sending.socket, "getaddrinfo", getaddrinfo)
    return Holder


@pytest.mark.parametrize(("address", "named"), WRAPPED_PRIVATE)
def test_a_wrapped_private_address_is_refused_when_the_endpoint_is_made(
    api, settings, address, named
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answer = api.post(HOOKS, {"url": f"https://[{address}]/hook", "events": EVENTS}, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "url_not_allowed" and named in error["message"]
    assert not Endpoint.objects.exists()


@pytest.mark.parametrize("address", WRAPPED_PUBLIC)
def test_a_wrapped_public_address_is_allowed(api, settings, address):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answer = api.post(HOOKS, {"url": f"https://[{address}]/hook", "events": EVENTS}, format="json")
    assert answer.status_code == 201, answer.content


@pytest.mark.parametrize(("address", "named"), WRAPPED_PRIVATE)
def test_a_name_that_resolves_to_a_wrapped_private_address_is_refused_at_delivery(
    api, settings, resolving_to, django_capture_on_commit_callbacks, address, named
):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    made = api.post(
        HOOKS, {"url": "https://hooks.example.com/hook", "events": EVENTS}, format="json"
    )
    assert made.status_code == 201, made.content
    resolving_to.address = address  # the name now points inside
    with django_capture_on_commit_callbacks(execute=True):
        api.post(f"{HOOKS}{made.json()['id']}/test/")
    attempt = Attempt.objects.get()
    assert attempt.status_code is None
    assert "hooks.example.com is a private address" in attempt.error and named in attempt.error


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("https://hooks.example.com:0/hook", "port 0 is not a number from 1 to 65535"),
        ("https://hooks.example.com:65536/hook", "port is not a number from 1 to 65535"),
        ("https://hooks.example.com:99999/hook", "port is not a number from 1 to 65535"),
    ],
)
def test_a_port_outside_1_to_65535_is_refused(api, settings, resolving_to, url, named):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answer = api.post(HOOKS, {"url": url, "events": EVENTS}, format="json")
    assert answer.status_code == 400, answer.content
    error = answer.json()["error"]
    assert error["code"] == "url_not_allowed" and named in error["message"]
    assert not Endpoint.objects.exists()


def test_port_0_is_refused_at_delivery_too(settings, resolving_to):
    settings.WEBHOOK_ALLOW_PRIVATE = False
    answer = sending.post("https://hooks.example.com:0/hook", b"{}", {})
    assert answer.status is None and answer.error == "port 0 is not a number from 1 to 65535"
