"""How a secret key is kept: only its digest is stored (personal tokens, invitation links), so a
leaked table opens nothing."""

from __future__ import annotations

import hashlib


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()
