"""The redirect URIs an app may register, and the web origins they give (the origins the API
answers cross-origin requests from: ``clubs.signin.cors``).

A redirect URI is ``https`` (a web app), ``http`` to a loopback address (a native app's own
server for the sign-in, RFC 8252 section 7.3) or the ``rummyclub:`` scheme (a phone app)."""

from __future__ import annotations

from urllib.parse import SplitResult, urlsplit

from django.utils.translation import gettext as _

APP_SCHEME = "rummyclub"
LOOPBACK_HOSTS = frozenset({"127.0.0.1", "::1", "localhost"})
DEFAULT_PORTS = {"http": 80, "https": 443}
# A registration is for a handful of places an app signs in from, not a list of every host.
MAX_REDIRECT_URIS = 10
MAX_REDIRECT_URI_LENGTH = 500


def _split(uri: str) -> SplitResult | None:
    try:
        parts = urlsplit(uri)
        parts.port  # noqa: B018 (a port that is not a number raises here)
    except ValueError:
        return None
    return parts


def redirect_uri_problem(uri: str) -> str | None:
    """Why ``uri`` cannot be registered as a redirect URI, or None when it can."""
    if len(uri) > MAX_REDIRECT_URI_LENGTH:
        return (
            uri[:40]
            + "…: "
            + _("longer than %(most)s characters") % {"most": MAX_REDIRECT_URI_LENGTH}
        )
    parts = _split(uri)
    if parts is None:
        return uri + ": " + _("not a URI (check the host and the port)")
    # RFC 6749 section 3.1.2: the redirection endpoint has no fragment.
    if "#" in uri:
        return uri + ": " + _("a redirect URI cannot have a fragment (#...)")
    scheme = parts.scheme.lower()
    if scheme in ("http", "https"):
        if "@" in parts.netloc:
            return uri + ": " + _("a redirect URI cannot carry a user name or password")
        if not parts.hostname:
            return (
                uri
                + ": "
                + _("give the host, e.g. %(scheme)s://example.com/signed-in") % {"scheme": scheme}
            )
        if "*" in parts.hostname:
            return uri + ": " + _("a redirect URI names one host, without wildcards")
        if scheme == "http" and parts.hostname not in LOOPBACK_HOSTS:
            return (
                uri
                + ": "
                + _(
                    "plain http only to this computer (127.0.0.1, [::1] or localhost, for a "
                    "native app's loopback redirect); use https"
                )
            )
        return None
    if scheme == APP_SCHEME:
        if not (parts.netloc or parts.path.strip("/")):
            return (
                uri
                + ": "
                + _("name the place in the app, e.g. %(scheme)s://signed-in")
                % {"scheme": APP_SCHEME}
            )
        return None
    return (
        uri
        + ": "
        + _("the scheme must be https, http (to 127.0.0.1, [::1] or localhost only) or %(scheme)s:")
        % {"scheme": APP_SCHEME}
    )


def web_origin(uri: str) -> str | None:
    """The origin (``scheme://host[:port]``, as a browser sends it in ``Origin``) of an https
    or loopback http URI; None for anything else (an app scheme is no web origin)."""
    parts = _split(uri.strip())
    if parts is None or not parts.hostname or "@" in parts.netloc:
        return None
    scheme = parts.scheme.lower()
    if scheme not in DEFAULT_PORTS or (scheme == "http" and parts.hostname not in LOOPBACK_HOSTS):
        return None
    host = f"[{parts.hostname}]" if ":" in parts.hostname else parts.hostname
    port = parts.port
    return f"{scheme}://{host}" + (f":{port}" if port and port != DEFAULT_PORTS[scheme] else "")
