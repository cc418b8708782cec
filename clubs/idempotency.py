"""``Idempotency-Key`` for API writes: a retry with the same key and body gets the first answer
(marked ``Idempotent-Replayed: true``); the same key with a different body gets 422; a retry while
the first is still running gets 409. Keys are kept for ``KEY_LIFETIME``."""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from datetime import timedelta

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone

from clubs.models import IdempotentRequest
from config.api_errors import error_body

HEADER = "Idempotency-Key"
KEY_LIFETIME = timedelta(hours=24)
MAX_KEY_LENGTH = 200
WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}


def _identity(request: HttpRequest) -> str | None:
    authorization = request.headers.get("Authorization")
    if authorization:
        return "auth:" + hashlib.sha256(authorization.encode()).hexdigest()[:64]
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return None


def _fingerprint(request: HttpRequest) -> str:
    digest = hashlib.sha256()
    digest.update(request.method.encode() if request.method else b"")
    digest.update(b"\0")
    digest.update(request.get_full_path().encode())
    digest.update(b"\0")
    digest.update(request.body)
    return digest.hexdigest()


def _error(status: int, code: str, message: str) -> JsonResponse:
    return JsonResponse(error_body(code, message, {"header": HEADER}), status=status)


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
            return _error(400, "bad_idempotency_key", f"{HEADER} must be 1 to 200 characters")
        identity = _identity(request)
        if identity is None:
            return self.get_response(request)  # anonymous writes have nobody to replay to

        fingerprint = _fingerprint(request)
        claimed = self._claim(identity, key, fingerprint)
        if isinstance(claimed, HttpResponse):
            return claimed

        try:
            response = self.get_response(request)
        except BaseException:
            IdempotentRequest.objects.filter(pk=claimed.pk).delete()
            raise
        if response.status_code >= 500 or getattr(response, "streaming", False):
            # A failure of ours is not an answer worth replaying: the client may retry.
            IdempotentRequest.objects.filter(pk=claimed.pk).delete()
            return response
        IdempotentRequest.objects.filter(pk=claimed.pk).update(
            status_code=response.status_code,
            content_type=response.get("Content-Type", ""),
            body=bytes(response.content),
        )
        return response

    def _claim(self, identity: str, key: str, fingerprint: str) -> IdempotentRequest | HttpResponse:
        expired_before = timezone.now() - KEY_LIFETIME
        IdempotentRequest.objects.filter(
            identity=identity, key=key, created_at__lt=expired_before
        ).delete()
        try:
            with transaction.atomic():
                return IdempotentRequest.objects.create(
                    identity=identity, key=key, fingerprint=fingerprint
                )
        except IntegrityError:
            pass
        earlier = IdempotentRequest.objects.filter(identity=identity, key=key).first()
        if earlier is None:  # expired and deleted between the two statements: treat as new
            return self._claim(identity, key, fingerprint)
        if earlier.fingerprint != fingerprint:
            return _error(
                422,
                "idempotency_key_reused",
                f"this {HEADER} was used for a different request; use a new key",
            )
        if earlier.status_code is None:
            return _error(
                409,
                "idempotency_key_in_progress",
                f"a request with this {HEADER} is still being handled; retry shortly",
            )
        replay = HttpResponse(
            bytes(earlier.body or b""),
            status=earlier.status_code,
            content_type=earlier.content_type or "application/json",
        )
        replay["Idempotent-Replayed"] = "true"
        return replay
