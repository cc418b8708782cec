"""The club's API read route by route, the same way on the club and on its copy rebuilt from the
archive. A request is a path template and the (kind, id) of each id in it, so that the copy's
ids can be put in; ``python -m tests.archive.api_walk ARCHIVE REQUESTS OUT`` imports the archive
into the database of ``DATABASE_URL`` and answers the requests there."""

from __future__ import annotations

import json
import os
import sys
from typing import Any

Request = tuple[str, list[tuple[str, int]]]


def _answer(client: Any, path: str) -> dict[str, Any]:
    """Every page of a list (its ``results`` joined), or the one object, with the status."""
    response = client.get(path)
    body = response.json() if response.get("Content-Type", "").startswith("application/") else None
    while isinstance(body, dict) and body.get("next") and isinstance(body.get("results"), list):
        more = client.get(body["next"]).json()
        body = {**more, "results": body["results"] + more["results"]}
    if isinstance(body, dict):
        body.pop("next", None)
    return {"status": response.status_code, "body": body}


def _path(slug: str, request: Request, ids: dict[str, dict[int, int]] | None) -> str:
    template, bound = request
    values = [old if ids is None else ids[kind][old] for kind, old in bound]
    return f"/api/v1/clubs/{slug}/" + template.format(*values)


def _results(answer: dict[str, Any]) -> list[dict[str, Any]]:
    body = answer["body"]
    if isinstance(body, dict) and isinstance(body.get("results"), list):
        return body["results"]
    return []


ROOTS = [
    "", "members/", "players/", "presets/", "sessions/", "seasons/", "games/", "deals/",
    "submissions/", "ratings/", "ratings/games/", "standings/", "standings/metrics/",
    "tournaments/", "webhooks/", "tombstones/", "ratings/?game_family=rummikub", "series/",
]  # fmt: skip
#: A list's items -> the reads of each: (the kind of its ``id``, path templates).
DETAILS: dict[str, tuple[str, list[str]]] = {
    "members/": ("clubs.membership", ["members/{0}/"]),
    "players/": (
        "clubs.player",
        ["players/{0}/", "players/{0}/history/", "players/{0}/ratings/"],
    ),
    "sessions/": (
        "scoring.session",
        [
            "sessions/{0}/",
            "sessions/{0}/tables/",
            "sessions/{0}/scoreboard/",
            "sessions/{0}/settlement/",
            "standings/?scope=session&id={0}",
        ],
    ),
    "seasons/": ("scoring.season", ["standings/?scope=season&id={0}"]),
    "games/": (
        "scoring.game",
        [
            "games/{0}/",
            "games/{0}/state/",
            "games/{0}/deals/",
            "games/{0}/split/",
            "standings/?scope=game&id={0}",
        ],
    ),
    "deals/": ("scoring.deal", ["deals/{0}/", "deals/{0}/submissions/"]),
    "submissions/": ("scoring.submission", ["submissions/{0}/"]),
    "tournaments/": ("tournaments.tournament", ["tournaments/{0}/", "tournaments/{0}/entries/"]),
    "series/": ("series.series", ["series/{0}/", "series/{0}/events/", "series/{0}/table/"]),
    "webhooks/": ("webhooks.endpoint", ["webhooks/{0}/"]),
}
#: Reads whose answer's ``id`` (or its items') is of a kind the path does not end with.
OWN_KINDS = {
    "series/{0}/events/": "series.seriesevent",
    "results/imports/{0}/": "standings.resultimport",
}


def kind_of_answer(request: Request) -> str | None:
    """The kind of an answer's object or list items, where the request says it."""
    template, bound = request
    if template in OWN_KINDS:
        return OWN_KINDS[template]
    if template in DETAILS:
        return DETAILS[template][0]
    if template == "presets/":
        return "scoring.rulepreset"
    if bound and template.count("/") == 2 and template.endswith("{0}/"):
        return bound[0][0]
    return None


def walk_source(
    client: Any,
    slug: str,
    also: list[Request] = (),  # type: ignore[assignment]
) -> list[tuple[Request, dict[str, Any]]]:
    """The requests a walk of the club's API makes, each with its answer; ``also``: reads of
    rows no list names (a result import's status)."""
    done: list[tuple[Request, dict[str, Any]]] = []

    def read(request: Request) -> dict[str, Any]:
        answer = _answer(client, _path(slug, request, None))
        done.append((request, answer))
        return answer

    for root in ROOTS:
        listed = read((root, []))
        kind, templates = DETAILS.get(root, ("", []))
        for item in _results(listed):
            for template in templates:
                detail = read((template, [(kind, item["id"])]))
                if template == "sessions/{0}/tables/":
                    for table in _results(detail):
                        read(("tables/{0}/links/", [("scoring.table", table["id"])]))
    for request in also:
        read(request)
    return done


def answer_target(client: Any, slug: str, requests: list[Request], ids: Any) -> list[Any]:
    return [_answer(client, _path(slug, request, ids)) for request in requests]


def _ids_apart() -> None:
    """Each table's next id far from the original's and from every other table's: in an empty
    database the copy's ids would otherwise be the original's, and a wrong id would pass."""
    from django.apps import apps
    from django.db import connection, models

    with connection.cursor() as cursor:
        for number, model in enumerate(apps.get_models(), start=1):
            if isinstance(model._meta.pk, models.AutoField):
                cursor.execute(
                    "SELECT setval(pg_get_serial_sequence(%s, %s), %s)",
                    [model._meta.db_table, model._meta.pk.column, 100_000 * number],
                )


def main(archive: str, requests_file: str, out: str) -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings.test")
    import django

    django.setup()
    from rest_framework.test import APIClient

    from archive.restore import club_import
    from clubs.models import Membership, Role

    _ids_apart()
    with open(archive, encoding="utf-8") as stream:
        restored = club_import(stream=stream)
    owner = Membership.objects.filter(club=restored.club, role=Role.OWNER).order_by("pk").first()
    assert owner is not None
    client = APIClient()
    client.force_authenticate(owner.user)
    with open(requests_file, encoding="utf-8") as stream:
        requests = [(template, [tuple(b) for b in bound]) for template, bound in json.load(stream)]
    answers = answer_target(client, restored.club.slug, requests, restored.ids.ids)  # type: ignore[arg-type]
    from scoring.models import RulePreset

    # The instance's own presets, by key: their ids need not be the original instance's.
    built_in = dict(RulePreset.objects.filter(club=None).values_list("key", "pk"))
    with open(out, "w", encoding="utf-8") as stream:
        json.dump({"ids": restored.ids.ids, "answers": answers, "built_in": built_in}, stream)


if __name__ == "__main__":
    main(*sys.argv[1:4])
