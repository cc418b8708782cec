"""``Idempotency-Key`` for API writes: a retry with the same key and body gets the first answer
(marked ``Idempotent-Replayed: true``); the same key with a different body gets 422; a retry while
the first is still running gets 409 with ``Retry-After``. A key belongs to its caller and to one
endpoint (method and path).

The key is claimed in a row of its own (committed at once, so a concurrent repeat sees it); the
request then runs in one transaction with the storing of its answer, so the work and the answer
are kept together or not at all. Only a 2xx answer is kept: any other answer rolls the request's
work back and frees the key for a retry. A claim whose request died (the process killed) is
taken over after ``CLAIM_TIMEOUT``. Keys are kept for ``KEY_LIFETIME`` and pruned by beat."""

from __future__ import annotations

import hashlib
import json
import math
import re
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext
from oauth2_provider.models import AccessToken
from rest_framework import authentication

from clubs.models import ApiToken, IdempotentRequest
from clubs.signin.authentication import token_digest
from config.api_errors import error_body

HEADER = "Idempotency-Key"
KEY_LIFETIME = timedelta(hours=24)
CLAIM_TIMEOUT = timedelta(seconds=60)
MAX_KEY_LENGTH = 200
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


_TABLE_PATH = re.compile(r"^/api/v1/table/([^/]+)/")


def _identity(request: HttpRequest) -> str | None:
    """The authenticated principal: the personal token (whatever spelling of the header carried
    it), the OAuth2 app with its person, or the session's user. None when nobody is
    authenticated: nothing is stored for them. A table link's requests
    (``/api/v1/table/<token>/``) are the link's own: its token is their credential."""
    table = _TABLE_PATH.match(request.path)
    if table is not None:
        return f"table:{hashlib.sha256(table[1].encode()).hexdigest()[:32]}"
    header = authentication.get_authorization_header(request).split()
    if header:
        if len(header) != 2 or header[0].lower() not in (b"token", b"bearer"):
            return None
        try:
            key = header[1].decode()
        except UnicodeDecodeError:
            return None
        digest = token_digest(key)
        token_id = (
            ApiToken.objects.filter(digest=digest, revoked_at__isnull=True)
            .values_list("pk", flat=True)
            .first()
        )
        if token_id is not None:
            return f"token:{token_id}"
        # An app signed in with OAuth2 is the app acting for its person, whichever of its
        # access tokens carries the retry: an app that refreshed between a request and its
        # retry is still the same caller.
        app_grant = (
            AccessToken.objects.filter(token_checksum=digest, expires__gt=timezone.now())
            .values_list("application_id", "user_id")
            .first()
        )
        return None if app_grant is None else "app:{}:{}".format(*app_grant)
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return None


def key_scope(identity: str, method: str, path: str) -> str:
    """Keys are the caller's own and per endpoint (method and path): a key reused for another
    operation is another key, so only a retry of the same write can be answered 422."""
    endpoint = f"{method} {path}".encode()
    return f"{identity}/{hashlib.sha256(endpoint).hexdigest()[:16]}"


def _canonical_body(body: bytes) -> bytes:
    """The body as parsed JSON, re-serialised with sorted keys (spacing and key order do not make
    a different request); the bytes as they are when it is not JSON."""
    try:
        parsed: Any = json.loads(body)
    except (ValueError, RecursionError):
        return body
    return json.dumps(parsed, sort_keys=True, separators=(",", ":")).encode()


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode() if request.method else b"")
    digest.update(b"\0")
    digest.update(request.get_full_path().encode())
    digest.update(b"\0")
    digest.update(_canonical_body(request.body))
    return digest.hexdigest()


def _error(status: int, code: str, message: str, **details: Any) -> JsonResponse:
    return JsonResponse(error_body(code, message, {"header": HEADER, **details}), status=status)


def _in_progress(claimed_at: datetime | None, now: datetime) -> JsonResponse:
    left = CLAIM_TIMEOUT - (now - claimed_at) if claimed_at else CLAIM_TIMEOUT
    retry_after = max(1, math.ceil(left.total_seconds()))
    response = _error(
        409,
        "idempotency_key_in_progress",
        gettext("a request with this %(header)s is still being handled; retry after %(seconds)s s")
        % {"header": HEADER, "seconds": retry_after},
        retry_after_seconds=retry_after,
    )
    response["Retry-After"] = str(retry_after)
    return response


class IdempotencyKeyMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        key = request.headers.get(HEADER)
        if (
            key is None
            or request.method not in WRITE_METHODS
            or not request.path.startswith("/api/")
        ):
            return self.get_response(request)
        if not key.strip() or len(key) > MAX_KEY_LENGTH:
            message = gettext("%(header)s must be 1 to 200 characters") % {"header": HEADER}
            return _error(400, "bad_idempotency_key", message)
        identity = _identity(request)
        if identity is None:
            return self.get_response(request)  # nobody to replay to; the view answers 401/403

        scope = key_scope(identity, request.method or "", request.path)
        claimed = self._claim(scope, key, _fingerprint(request))
        if isinstance(claimed, HttpResponse):
            return claimed
        claim_id, claimed_at = claimed
        try:
            with transaction.atomic():
                response = self.get_response(request)
                if 200 <= response.status_code < 300 and not getattr(response, "streaming", False):
                    stored = IdempotentRequest.objects.filter(
                        pk=claim_id, claimed_at=claimed_at, status_code__isnull=True
                    ).update(
                        status_code=response.status_code,
                        content_type=response.get("Content-Type", ""),
                        location=response.get("Location", "")[:500],
                        body=bytes(response.content),
                        claimed_at=None,
                    )
                    if stored:
                        return response
                    # Taken over after CLAIM_TIMEOUT by a repeat: that one's answer counts.
                    transaction.set_rollback(True)
                    return _in_progress(timezone.now(), timezone.now())
                transaction.set_rollback(True)
        except BaseException:
            self._free(claim_id, claimed_at)
            raise
        self._free(claim_id, claimed_at)
        return response

    @staticmethod
    def _free(claim_id: int, claimed_at: datetime) -> None:
        IdempotentRequest.objects.filter(
            pk=claim_id, claimed_at=claimed_at, status_code__isnull=True
        ).delete()

    def _claim(
        self, identity: str, key: str, fingerprint: str, *, again: bool = True
    ) -> tuple[int, datetime] | HttpResponse:
        now = timezone.now()
        IdempotentRequest.objects.filter(
            identity=identity, key=key, created_at__lt=now - KEY_LIFETIME
        ).delete()
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(
                    identity=identity, key=key, fingerprint=fingerprint, claimed_at=now
                )
            return row.pk, now
        except IntegrityError:
            pass
        earlier = IdempotentRequest.objects.filter(identity=identity, key=key).first()
        if earlier is None:  # freed between the two statements: claim it anew
            if again:
                return self._claim(identity, key, fingerprint, again=False)
            return _in_progress(now, now)
        if earlier.status_code is None:
            if earlier.claimed_at is None or earlier.claimed_at < now - CLAIM_TIMEOUT:
                # The request holding the key died without an answer: take the key over.
                taken = IdempotentRequest.objects.filter(
                    pk=earlier.pk, claimed_at=earlier.claimed_at, status_code__isnull=True
                ).update(claimed_at=now, fingerprint=fingerprint)
                if taken:
                    return earlier.pk, now
            return _in_progress(earlier.claimed_at, now)
        if earlier.fingerprint != fingerprint:
            return _error(
                422,
                "idempotency_key_reused",
                gettext("this %(header)s was used for a different request; use a new key")
                % {"header": HEADER},
            )
        replay = HttpResponse(
            bytes(earlier.body or b""),
            status=earlier.status_code,
            content_type=earlier.content_type or "application/json",
        )
        if earlier.location:
            replay["Location"] = earlier.location
        replay["Idempotent-Replayed"] = "true"
        return replay


def idempotency_keys_prune(*, older_than: timedelta = KEY_LIFETIME) -> int:
    """Forget keys older than ``older_than`` (beat, hourly)."""
    deleted, _ = IdempotentRequest.objects.filter(
        created_at__lt=timezone.now() - older_than
    ).delete()
    return deleted
