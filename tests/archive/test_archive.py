"""A club's archive through its commands and services: written, read back beside the club under
another slug with new ids, and refused whole (nothing stored) for another format version, a
damaged line (named by its number), a cut file or a slug already taken."""

from __future__ import annotations

import io
import json
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from archive.export import club_export
from archive.format import VERSION, ArchiveRefused
from archive.restore import club_import
from clubs.models import AuditEntry, Club, Player
from ledger.models import LedgerEntry, Posting
from scoring.models import RulePreset, StandingRow, Submission
from standings.models import ResultImport
from standings.result_plan import ResultPlan
from tests.archive.compare import Comparison
from tests.conftest import Standing
from tests.scoring.conftest import make_night
from tests.scoring.helpers import correct, enter_deal
from webhooks.models import Endpoint
from webhooks.services import endpoint_create


@pytest.fixture
def played(standing: Standing) -> Standing:
    """The standing club with a night of two deals, one corrected (two versions)."""
    night = make_night(standing)
    results = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 10}, Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"}, Farid={"outcome": "winner"},
        )
    }  # fmt: skip
    deal, _ = enter_deal(night.game, standing.organiser, results, wild="QH")
    enter_deal(night.game, standing.organiser, results)
    corrected = {
        "results": night.results(
            Asha={"outcome": "loser", "points": 15}, Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"}, Farid={"outcome": "winner"},
        )
    }  # fmt: skip
    assert correct(standing, deal, corrected).status == Submission.Status.ACCEPTED
    assert LedgerEntry.objects.filter(book__club=standing.club, reverses__isnull=False).exists()
    return standing


def archive_of(club: Club) -> list[str]:
    stream = io.StringIO()
    club_export(club=club, stream=stream, instance="http://source.example")
    return stream.getvalue().splitlines(keepends=True)


def counts() -> dict[str, int]:
    models = (Club, Player, Submission, LedgerEntry, Posting, StandingRow, AuditEntry)
    return {m.__name__: m.objects.count() for m in models} | {
        "users": get_user_model().objects.count()
    }


def test_a_club_read_back_beside_itself_has_new_ids_and_the_same_figures(played: Standing) -> None:
    club = played.club
    lines = archive_of(club)
    header = json.loads(lines[0])
    assert header["version"] == VERSION and header["source"]["club"] == club.slug
    assert json.loads(lines[-1]) == {"kind": "end", "rows": len(lines) - 2}
    restored = club_import(stream=io.StringIO("".join(lines)), slug="home-copy")
    copy = restored.club
    assert copy.pk != club.pk and copy.slug == "home-copy" and copy.name == club.name
    old_players = dict(Player.objects.filter(club=club).values_list("name", "pk"))
    new_players = dict(Player.objects.filter(club=copy).values_list("name", "pk"))
    assert set(old_players) == set(new_players)
    assert not set(old_players.values()) & set(new_players.values())
    renewed = {old_players[name]: new_players[name] for name in old_players}
    # Each version of each submission, its players the copy's.
    old_subs = list(Submission.objects.filter(deal__game__table__session__club=club).order_by("pk"))
    new_subs = list(Submission.objects.filter(deal__game__table__session__club=copy).order_by("pk"))
    assert [(s.version, s.status) for s in old_subs] == [(s.version, s.status) for s in new_subs]
    subs = dict(zip([s.pk for s in old_subs], [s.pk for s in new_subs], strict=True))
    assert (
        [subs.get(s.superseded_by_id) for s in old_subs]
        == [s.superseded_by_id for s in new_subs]
        != [None] * len(new_subs)
    )
    reversals = LedgerEntry.objects.filter(book__club=copy, reverses__isnull=False)
    assert reversals.count() == 1
    assert reversals.get().reverses.book.club_id == copy.pk  # type: ignore[union-attr]
    for old, new in zip(old_subs, new_subs, strict=True):
        assert [renewed[r["player"]] for r in old.payload["results"]] == [
            r["player"] for r in new.payload["results"]
        ]
        assert new.submitted_at == old.submitted_at
    # The ledger: every entry balanced per quantity, each player's total the same.
    totals: dict[tuple[int, int, str], int] = defaultdict(int)
    for posting in Posting.objects.filter(book__club=copy):
        totals[(posting.entry_id, 0, posting.quantity)] += posting.amount
        if posting.player_id:
            totals[(0, posting.player_id, posting.quantity)] += posting.amount
    assert all(total == 0 for (entry, _, _), total in totals.items() if entry)
    for posting in Posting.objects.filter(book__club=club, player__isnull=False):
        totals[(0, renewed[posting.player_id], posting.quantity)] -= posting.amount
    assert all(total == 0 for (entry, _, _), total in totals.items() if not entry)
    rows = StandingRow.objects.filter(club=copy).count()
    assert rows == StandingRow.objects.filter(club=club).count() > 0
    assert AuditEntry.objects.filter(club=copy, action="club.import").count() == 1


def _damaged(lines: list[str], at: int, text: str) -> list[str]:
    return [*lines[: at - 1], text, *lines[at:]]


@pytest.mark.parametrize(
    ("change", "said"),
    [
        (lambda ls: [ls[0].replace(f'"version":{VERSION}', '"version":3'), *ls[1:]],
         "archive format version 3 is not supported: this instance reads versions 1 and 2"),
        (lambda ls: _damaged(ls, 5, '{"kind": "clubs.player", "fi\n'), "line 5: not a JSON"),
        (lambda ls: _damaged(ls, 6, '{"kind": "clubs.nothing", "id": 1}\n'), "line 6"),
        (lambda ls: ls[:-1], "cut short"),
        (lambda ls: ls[:-3] + ls[-2:], "the end counts"),
        (lambda ls: ["{}\n", *ls[1:]], "not a club archive"),
    ],
)  # fmt: skip
def test_an_archive_at_fault_is_refused_naming_what_and_nothing_is_stored(
    played: Standing, change: Any, said: str
) -> None:
    lines = change(archive_of(played.club))
    before = counts()
    with pytest.raises(ArchiveRefused) as refused:
        club_import(stream=io.StringIO("".join(lines)), slug="home-copy")
    assert said in refused.value.message
    assert counts() == before


def test_a_row_naming_what_the_archive_lacks_is_refused_by_its_line(played: Standing) -> None:
    lines = archive_of(played.club)
    at = next(n for n, line in enumerate(lines, 1) if '"kind":"scoring.seat"' in line)
    seat = json.loads(lines[at - 1])
    seat["fields"]["player_id"] = 999_999
    before = counts()
    with pytest.raises(ArchiveRefused) as refused:
        club_import(
            stream=io.StringIO("".join(_damaged(lines, at, json.dumps(seat) + "\n"))),
            slug="home-copy",
        )
    assert refused.value.message.startswith(f"line {at}: scoring.seat")
    assert "clubs.player 999999 is not in the archive" in refused.value.message
    assert counts() == before


def test_the_commands_write_and_read_a_file_and_refuse_a_slug_taken(
    played: Standing, tmp_path: Path
) -> None:
    path = tmp_path / "home.jsonl"
    call_command("club_export", played.club.slug, str(path), stdout=io.StringIO())
    before = counts()
    with pytest.raises(CommandError, match=r"'home' is already here.*nothing was stored"):
        call_command("club_import", str(path), stdout=io.StringIO())
    assert counts() == before
    out = io.StringIO()
    call_command("club_import", str(path), "--slug", "home-two", stdout=out)
    assert "Imported home-two" in out.getvalue()
    with pytest.raises(CommandError, match="no club with the slug 'nowhere'"):
        call_command("club_export", "nowhere", str(path))


def test_the_round_trips_comparison_tells_a_wrong_id_and_a_wrong_figure() -> None:
    ids = {"clubs.player": {"1": 11, "2": 12}}
    same = Comparison(ids)
    same.compare(
        {"player_id": 1, "points": 5, "by_player": {"1": 3}, "url": "/players/2/"},
        {"player_id": 11, "points": 5, "by_player": {"11": 3}, "url": "/players/12/"},
    )
    assert same.found == []
    wrong = Comparison(ids)
    wrong.compare({"player_id": 1, "points": 5}, {"player_id": 12, "points": 6}, "x")
    assert wrong.found == ["x.player_id: id 1 copied as 12", "x.points: 5 against 6"]


def test_a_webhooks_secret_stays_out_and_its_copy_waits_disabled(played: Standing) -> None:
    endpoint = endpoint_create(
        club=played.club, actor=played.owner, url="http://127.0.0.1:9/rummy",
        events=["deal.scored"],
    )  # fmt: skip
    lines = archive_of(played.club)
    written = [json.loads(line) for line in lines if '"kind":"webhooks.endpoint"' in line]
    assert [row["id"] for row in written] == [endpoint.pk]
    assert "secret" not in written[0]["fields"] and endpoint.secret not in "".join(lines)
    restored = club_import(stream=io.StringIO("".join(lines)), slug="home-copy")
    copy = Endpoint.objects.get(pk=restored.ids.new("webhooks.endpoint", endpoint.pk))
    assert copy.club_id == restored.club.pk and copy.url == endpoint.url
    assert copy.secret.startswith("whsec_") and copy.secret != endpoint.secret
    assert endpoint.enabled and not copy.enabled


def test_an_archive_of_version_1_is_read(played: Standing) -> None:
    """Version 1 held none of the kinds version 2 added; its rows are read as they were."""
    lines = archive_of(played.club)
    assert not any('"kind":"series.' in line or "webhooks." in line for line in lines)
    lines[0] = lines[0].replace(f'"version":{VERSION}', '"version":1')
    restored = club_import(stream=io.StringIO("".join(lines)), slug="home-copy")
    assert Player.objects.filter(club=restored.club).count() == played.club.players.count()


def test_a_result_imports_plan_names_the_copys_players_and_its_fingerprint_follows(
    played: Standing,
) -> None:
    asha, bilal = (Player.objects.get(club=played.club, name=n).pk for n in ("Asha", "Bilal"))
    table = {
        "row": 2, "name": "Table 1", "players": [asha, bilal], "totals": [],
        "deals": [{"row": 2, "number": 1, "results": [
            {"player": asha, "outcome": "winner"},
            {"player": bilal, "outcome": "loser", "points": 12},
        ]}],
    }  # fmt: skip
    nights = [{"row": 2, "date": "2025-03-07", "name": "Old Friday", "tables": [table]}]
    made = ResultImport.objects.create(
        club=played.club, created_by=played.organiser, layout="points_deals",
        preset=RulePreset.objects.get(club=None, key="points"), plan={"nights": nights},
        fingerprint=ResultPlan(layout="points_deals", nights=nights).fingerprint,
        status=ResultImport.Status.DONE, nights=1, deals=1,
    )  # fmt: skip
    restored = club_import(stream=io.StringIO("".join(archive_of(played.club))), slug="home-copy")
    copy = ResultImport.objects.get(pk=restored.ids.new("standings.resultimport", made.pk))
    renewed = {restored.ids.new("clubs.player", pk) for pk in (asha, bilal)}
    copied = copy.plan["nights"][0]["tables"][0]
    assert set(copied["players"]) == renewed
    assert {line["player"] for line in copied["deals"][0]["results"]} == renewed
    assert (
        copy.fingerprint
        == ResultPlan(layout="points_deals", nights=copy.plan["nights"]).fingerprint
    )
    assert copy.fingerprint != made.fingerprint and copy.status == made.status
