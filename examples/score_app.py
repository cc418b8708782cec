"""A score app in a few lines of plain httpx: sign in with OAuth2 (authorization code with PKCE),
enter a deal of a points game, read it back, refresh the token, sign out.

    python examples/score_app.py --base http://127.0.0.1:8000 --client-id <id> \\
        --redirect-uri http://127.0.0.1:8765/callback --username owner --password <password> \\
        --club demo --game 12

A real app opens the authorization URL in the person's browser and receives the code at its
redirect URI; so that this runs unattended, the script plays the person too (``pkce.py``): it
logs in on the login page and ticks the club on the consent page. Register the app first
(docs/api.md):
``python manage.py oauth_app_create public authorization-code --name "Score app"
--redirect-uris http://127.0.0.1:8765/callback``."""

from __future__ import annotations

import argparse
import json
import secrets
import sys
import time
from typing import Any

import httpx
from pkce import SignInRefused, sign_in


def enter_a_deal(api: httpx.Client, club: str, game_id: int) -> dict[str, Any]:
    """A deal of the points game, its result submitted, and the submission once validated."""
    game = api.get(f"/api/v1/clubs/{club}/games/{game_id}/")
    game.raise_for_status()
    seats = sorted(game.json()["seats"], key=lambda seat: seat["position"])
    deal = api.post(f"/api/v1/clubs/{club}/games/{game_id}/deals/", json={})
    deal.raise_for_status()
    results = [{"player": seats[0]["player"], "outcome": "winner"}] + [
        {"player": seat["player"], "outcome": "loser", "against": 10 * n}
        for n, seat in enumerate(seats[1:], start=1)
    ]
    submitted = api.post(
        f"/api/v1/clubs/{club}/deals/{deal.json()['id']}/submissions/",
        json={"results": results},
        headers={"Idempotency-Key": secrets.token_hex(16)},
    )
    submitted.raise_for_status()
    submission: dict[str, Any] = submitted.json()
    deadline = time.monotonic() + 30
    while submission["status"] == "pending" and time.monotonic() < deadline:
        time.sleep(0.5)
        submission = api.get(f"/api/v1/clubs/{club}/submissions/{submission['id']}/").json()
    return submission


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    for name in ("base", "client-id", "redirect-uri", "username", "password", "club"):
        parser.add_argument(f"--{name}", required=True)
    parser.add_argument("--game", type=int, required=True)
    args = parser.parse_args(argv)
    args.base = args.base.rstrip("/")

    try:
        tokens = sign_in(
            args.base, client_id=args.client_id, redirect_uri=args.redirect_uri,
            username=args.username, password=args.password, club=args.club, scope="read score",
        )  # fmt: skip
    except SignInRefused as refused:
        sys.exit(str(refused))
    print(
        f"signed in: scope {tokens['scope']!r}, clubs {tokens['clubs']}, "
        f"expires in {tokens['expires_in']} s"
    )
    bearer = {"Authorization": f"Bearer {tokens['access_token']}"}
    with httpx.Client(base_url=args.base, headers=bearer, timeout=30) as api:
        submission = enter_a_deal(api, args.club, args.game)
    print("deal entered:", json.dumps({k: submission[k] for k in ("id", "deal", "status")}))

    refreshed = httpx.post(f"{args.base}/oauth/token/", data={
        "grant_type": "refresh_token", "refresh_token": tokens["refresh_token"],
        "client_id": args.client_id,
    })  # fmt: skip
    refreshed.raise_for_status()
    tokens = refreshed.json()
    print("refreshed: a new access token, the same scope")
    httpx.post(f"{args.base}/oauth/revoke/", data={
        "token": tokens["refresh_token"], "token_type_hint": "refresh_token",
        "client_id": args.client_id,
    }).raise_for_status()  # fmt: skip
    gone = httpx.get(
        f"{args.base}/api/v1/clubs/{args.club}/",
        headers={"Authorization": f"Bearer {tokens['access_token']}"},
    )
    print(f"signed out: the API now answers {gone.status_code}")
    return 0 if submission["status"] == "accepted" and gone.status_code == 401 else 1


if __name__ == "__main__":
    raise SystemExit(main())
