"""The OAuth2 server's checks that the library has no setting for: PKCE with S256 checked before
the consent page, and the device grant's polling rules (RFC 8628 ``slow_down``)."""

from __future__ import annotations

import re
from typing import Any

from django.db import transaction
from django.utils import timezone
from oauth2_provider.models import DeviceGrant
from oauthlib.oauth2 import Server
from oauthlib.oauth2.rfc6749 import errors as oauth_errors
from oauthlib.oauth2.rfc8628 import errors as device_errors

# RFC 8628 section 3.5: a device told to slow down waits this much longer from then on.
SLOW_DOWN_SECONDS = 5
# A S256 code challenge: the base64url SHA-256 of the verifier, without padding (RFC 7636 4.2).
S256_CHALLENGE = re.compile(r"[A-Za-z0-9_-]{43}")


def _s256_only(request: Any) -> dict[str, Any]:
    """PKCE with S256, checked before the person is shown the consent page (RFC 7636 4.4.1: the
    app's redirect with ``invalid_request``; the library would take a challenge without a
    method as ``plain``). Run by the library once the client and redirect URI are known good."""
    challenge = request.code_challenge
    method = request.code_challenge_method
    if not challenge:
        description = "code_challenge is missing: PKCE with code_challenge_method=S256 is required"
    elif method != "S256":
        description = (
            f"code_challenge_method must be S256, not {method or 'absent (which means plain)'}"
        )
    elif not S256_CHALLENGE.fullmatch(challenge):
        description = (
            "code_challenge must be the base64url SHA-256 of the code verifier: 43 characters, "
            "without padding"
        )
    else:
        return {}
    raise oauth_errors.InvalidRequestError(description=description, request=request)


def _device_poll(request: Any) -> None:
    """A device's poll at the token endpoint (RFC 8628 section 3.5), once the library has
    authenticated the app and checked it is registered for the device grant: the code must be
    this app's, the person must have allowed it in time, and a device that polls again sooner
    than its interval is told to ``slow_down``, its interval 5 s longer from then on."""
    device_code = dict(request.decoded_body or []).get("device_code", "")
    if not device_code:
        raise oauth_errors.InvalidRequestError(
            description="device_code is missing: send the one the device authorization gave",
            request=request,
        )
    now = timezone.now()
    error: oauth_errors.OAuth2Error | None = None
    with transaction.atomic():
        device = (
            DeviceGrant.objects.select_for_update()
            .filter(device_code=device_code, client_id=request.client_id)
            .first()
        )
        if device is None:
            error = oauth_errors.InvalidGrantError(
                description=(
                    "no such device_code for this app, or it has already given its token: "
                    "ask for a new one"
                ),
                request=request,
            )
        elif device.status == DeviceGrant.DENIED:
            error = device_errors.AccessDenied(
                description="the person turned the device away", request=request
            )
        elif device.status == DeviceGrant.EXPIRED or now >= device.expires:
            device.status = DeviceGrant.EXPIRED
            device.save(update_fields=["status"])
            error = device_errors.ExpiredTokenError(
                description="the device code has expired: ask for a new one", request=request
            )
        elif device.status == DeviceGrant.AUTHORIZATION_PENDING:
            waited = (now - device.last_checked).total_seconds()
            if waited < device.interval:
                device.interval += SLOW_DOWN_SECONDS
                error = device_errors.SlowDownError(
                    description=(
                        f"polled {waited:.1f} s after the last poll: wait at least "
                        f"{device.interval} s between polls from now on"
                    ),
                    request=request,
                )
            else:
                error = device_errors.AuthorizationPendingError(
                    description="the person has not allowed the device yet", request=request
                )
            # ``last_checked`` is the time of the device's last poll (set by the save).
            device.save(update_fields=["interval", "last_checked"])
    # Raised once the poll's bookkeeping is committed.
    if error is not None:
        raise error


class ClubServer(Server):
    """The library's server with the two checks it has no setting for: PKCE with S256 before
    the consent page, and the device grant's polling rules."""

    def __init__(self, request_validator: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(request_validator, *args, **kwargs)
        self.auth_grant.custom_validators.pre_auth.append(_s256_only)
        self.device_code_grant.custom_validators.post_token.append(_device_poll)
