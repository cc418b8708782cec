"""What a token may do (its scopes) and where (its clubs), for personal tokens and OAuth2 tokens
alike. Both keep them in one scope string, as OAuth2 does: ``"read score club:12 club:40"``.

- ``read``: read every club resource the token's user may read (GET routes).
- ``score``: enter results: create, delete and void deals, submit and confirm results, pool
  rejoins and splits.
- ``manage``: everything else that writes: club settings, members, players, presets, sessions,
  tables, games, seats, standings metrics, settle-ups, tournaments and webhooks (reading webhooks
  too: their URLs are the club's own business).

``club:<id>`` binds the token to a club: any other club answers 404, as to an outsider. The
user's role in the club still applies on top: a ``manage`` token of a scorer cannot open a
session."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext_noop

READ = "read"
SCORE = "score"
MANAGE = "manage"

#: The scopes an app may ask for, with what the consent page says of each.
SCOPES = {
    READ: gettext_noop(
        "Read your clubs: members, players, nights, results, standings and tournaments"
    ),
    SCORE: gettext_noop("Enter results: new deals, results, corrections, confirmations and voids"),
    MANAGE: gettext_noop(
        "Run your clubs: settings, members, players, nights, tournaments and webhooks"
    ),
}
ALL_SCOPES = tuple(SCOPES)

_CLUB_SCOPE = re.compile(r"club:([1-9][0-9]{0,18})")


def club_scope(club_id: int) -> str:
    return f"club:{club_id}"


def is_club_scope(scope: str) -> bool:
    return _CLUB_SCOPE.fullmatch(scope) is not None


@dataclass(frozen=True)
class TokenGrant:
    """A token's scopes and the ids of the clubs it is bound to."""

    scopes: frozenset[str]
    club_ids: frozenset[int]

    @classmethod
    def parse(cls, scope: str) -> TokenGrant:
        scopes: set[str] = set()
        clubs: set[int] = set()
        for word in scope.split():
            match = _CLUB_SCOPE.fullmatch(word)
            if match:
                clubs.add(int(match.group(1)))
            elif word in SCOPES:
                scopes.add(word)
        return cls(frozenset(scopes), frozenset(clubs))

    def allows_club(self, club_id: int) -> bool:
        return club_id in self.club_ids


def scope_string(scopes: Any, club_ids: Any) -> str:
    """The scope string for ``scopes`` (in their documented order) and ``club_ids`` (ascending)."""
    wanted = set(scopes)
    return " ".join(
        [s for s in ALL_SCOPES if s in wanted] + [club_scope(c) for c in sorted(set(club_ids))]
    )


def token_grant(auth: Any) -> TokenGrant | None:
    """The grant of the token a request came with (``request.auth``); None for a browser session,
    which acts with the whole of its user's roles."""
    scope = getattr(auth, "scope", None)
    return None if scope is None else TokenGrant.parse(scope)
