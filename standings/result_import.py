"""Past results imported: previewed (``standings.result_plan``), confirmed, then written by a
background task through the same services as live entry, with the submissions' source "import".

One transaction per import: a cancel (or any failure) rolls back the whole import, so nothing is
ever half-stored, and the standing rows, kept in step with the ledger in the same transaction, are
never seen half-updated. The progress and the cancel request live in the cache (Redis), outside
that transaction, where the page and the API read them while it runs. The ratings of the games
written are taken in at the end, in date order, in the same transaction."""

from __future__ import annotations

import zoneinfo
from collections.abc import Iterator
from datetime import date, datetime, time, timedelta
from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.core.cache import cache
from django.db import IntegrityError, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Club
from config.errors import Conflict, InvalidInput, NotFoundError
from ledger.models import LedgerEntry, Quantity
from ledger.writer import Line
from outbox.services import outbox_enqueue
from scoring.models import Game, RulePreset, Submission
from scoring.past_deals import (
    PastNight,
    PastTable,
    past_deals_count,
    past_nights_close,
    past_nights_open,
)
from scoring.posting import ledger_entry_create
from standings.models import ResultImport
from standings.ratings import ratings_games_taken_in
from standings.result_plan import ResultPlan, results_plan
from standings.result_sheet import layout_of, result_sheet_read

RUN_TASK = "standings.result_import_run"
#: A night of the past starts at this hour (the club's time) and its games end 3 hours later.
NIGHT_STARTS = time(20, 0)
NIGHT_LENGTH = timedelta(hours=3)
#: The most row errors a preview lists (all are counted).
ERRORS_SHOWN = 500
#: How long the progress and a cancel request are kept.
KEPT_SECONDS = 24 * 3600
#: Deals counted in one statement batch; the progress and a cancel request are read between.
CHUNK = 200


class ImportCancelled(Exception):
    """Raised inside the import's transaction: everything written is rolled back."""


def _progress_key(import_id: int) -> str:
    return f"result_import:{import_id}:progress"


def _cancel_key(import_id: int) -> str:
    return f"result_import:{import_id}:cancel"


def import_preset(*, club: Club, preset_id: int | None, layout: str = "points_deals") -> RulePreset:
    """The preset the imported games are played under: the one named (the club's or a
    built-in one), else the layout's built-in preset."""
    presets = RulePreset.objects.filter(Q(club=club) | Q(club__isnull=True))
    found = (
        presets.filter(club__isnull=True, key=layout_of(layout).preset_key)
        .order_by("-version")
        .first()
        if preset_id is None
        else presets.filter(pk=preset_id).first()
    )
    if found is None:
        raise InvalidInput(
            "preset: " + _("no preset %(id)s of this club") % {"id": preset_id},
            details={"preset": preset_id},
        )
    return found


def result_plan_read(
    *,
    club: Club,
    layout: str,
    content: bytes,
    filename: str,
    preset: RulePreset,
    names: dict[str, int] | None = None,
) -> ResultPlan:
    """An uploaded sheet read in ``layout`` and checked: the preview (nothing stored)."""
    sheet = result_sheet_read(content=content, filename=filename, layout=layout_of(layout))
    return results_plan(club=club, sheet=sheet, preset=preset, names=names)


def result_preview(*, club: Club, plan: ResultPlan) -> dict[str, Any]:
    """What a preview shows of a plan (the page shows the same)."""
    same = result_import_same(club=club, fingerprint=plan.fingerprint)
    dates = [night["date"] for night in plan.nights]
    return {
        "layout": plan.layout, "nights": len(plan.nights),
        "tables": sum(len(night["tables"]) for night in plan.nights), "deals": plan.deals,
        "first_night": min(dates, default=None), "last_night": max(dates, default=None),
        "errors": [error.as_dict() for error in plan.errors[:ERRORS_SHOWN]],
        "error_count": len(plan.errors),
        "unknown_names": [{"name": name, **found} for name, found in plan.unknown.items()],
        "fingerprint": plan.fingerprint, "imported_as": None if same is None else same.pk,
    }  # fmt: skip


def result_import_confirm(
    *, club: Club, actor: AbstractBaseUser, plan: ResultPlan, preset: RulePreset
) -> tuple[ResultImport, bool]:
    """Queue the checked plan to be written (after the commit). The same results imported
    before (or being imported) are not queued again: that import is answered, ``False``."""
    if plan.errors:
        first = plan.errors[0]
        raise InvalidInput(
            _("row %(row)s: %(column)s: %(message)s")
            % {"row": first.row, "column": first.column, "message": first.message},
            code="import_rows_invalid",
            details={"errors": [error.as_dict() for error in plan.errors[:200]]},
        )
    if not plan.nights:
        raise InvalidInput("file: " + _("no results to import"), code="empty_sheet")
    fingerprint = plan.fingerprint
    earlier = result_import_same(club=club, fingerprint=fingerprint)
    if earlier is not None:
        return earlier, False
    try:
        with transaction.atomic():
            made = ResultImport.objects.create(
                club=club, created_by=actor, layout=plan.layout, preset=preset,
                fingerprint=fingerprint, plan={"nights": plan.nights},
                nights=len(plan.nights), deals=plan.deals,
            )  # fmt: skip
            # A new import starts with no progress and no cancel request, whatever the cache
            # still holds under its id (a database reset, a test run before).
            cache.delete_many([_progress_key(made.pk), _cancel_key(made.pk)])
            outbox_enqueue(task=RUN_TASK, args=[made.pk], key=f"result_import:{made.pk}")
    except IntegrityError:  # the same sheet confirmed twice at once
        same = result_import_same(club=club, fingerprint=fingerprint)
        assert same is not None
        return same, False
    return made, True


def result_import_same(*, club: Club, fingerprint: str) -> ResultImport | None:
    live = [ResultImport.Status.QUEUED, ResultImport.Status.RUNNING, ResultImport.Status.DONE]
    return ResultImport.objects.filter(club=club, fingerprint=fingerprint, status__in=live).first()


def result_import_progress(*, result_import: ResultImport) -> dict[str, Any]:
    """The import's state: its status, the deals (or tables of totals) written and the total."""
    done = result_import.status == ResultImport.Status.DONE
    total = _steps(result_import.plan)
    written = total if done else int(cache.get(_progress_key(result_import.pk)) or 0)
    if result_import.status in (ResultImport.Status.CANCELLED, ResultImport.Status.FAILED):
        written = 0
    return {
        "id": result_import.pk, "status": result_import.status, "written": written,
        "total": total, "nights": result_import.nights, "deals": result_import.deals,
        "error": result_import.error,
        "cancel_asked": bool(cache.get(_cancel_key(result_import.pk))),
    }  # fmt: skip


def _steps(plan: dict[str, Any]) -> int:
    return sum(len(t["deals"]) or 1 for n in plan["nights"] for t in n["tables"])


def result_import_cancel(*, result_import: ResultImport) -> ResultImport:
    """Stop the import: one waiting is cancelled now; one being written rolls back at its next
    deal. A finished import is not undone here (its nights are deleted as any night is)."""
    if result_import.status in (ResultImport.Status.DONE, ResultImport.Status.FAILED):
        if result_import.status == ResultImport.Status.DONE:
            words = _("the import is imported: nothing to cancel")
        else:
            words = _("the import is failed, nothing stored: nothing to cancel")
        raise Conflict(words, code="import_finished")
    cache.set(_cancel_key(result_import.pk), 1, KEPT_SECONDS)
    ResultImport.objects.filter(pk=result_import.pk, status=ResultImport.Status.QUEUED).update(
        status=ResultImport.Status.CANCELLED, finished_at=timezone.now()
    )
    result_import.refresh_from_db()
    return result_import


def result_import_run(*, import_id: int) -> str:
    """Write a queued import (the task): all of it in one transaction, or nothing."""
    claimed = ResultImport.objects.filter(pk=import_id, status=ResultImport.Status.QUEUED).update(
        status=ResultImport.Status.RUNNING
    )
    if not claimed:
        return "not_queued"
    result_import = ResultImport.objects.select_related("club", "preset", "created_by").get(
        pk=import_id
    )
    try:
        with transaction.atomic():
            _write(result_import)
            ResultImport.objects.filter(pk=import_id).update(
                status=ResultImport.Status.DONE, finished_at=timezone.now()
            )
    except ImportCancelled:
        _finished(import_id, ResultImport.Status.CANCELLED, "")
        return "cancelled"
    except Exception as exc:
        _finished(import_id, ResultImport.Status.FAILED, str(getattr(exc, "message", exc)))
        raise
    return "done"


def _finished(import_id: int, status: str, error: str) -> None:
    ResultImport.objects.filter(pk=import_id).update(
        status=status, error=error[:2000], finished_at=timezone.now()
    )


def _started_at(club: Club, day: str) -> datetime:
    return datetime.combine(date.fromisoformat(day), NIGHT_STARTS, zoneinfo.ZoneInfo(club.timezone))


def _write(result_import: ResultImport) -> None:
    club, actor, preset = result_import.club, result_import.created_by, result_import.preset
    assert actor is not None
    # One import of a club at a time, and no rating update of the club while it writes.
    Club.objects.select_for_update().filter(pk=club.pk).first()
    nights = result_import.plan["nights"]
    opened = past_nights_open(club=club, actor=actor, preset=preset, nights=[
        PastNight(night["name"], _started_at(club, night["date"]),
                  [PastTable(table["name"], table["players"], _places(table))
                   for table in night["tables"]])
        for night in nights
    ])  # fmt: skip
    played = [
        (game, table)
        for games, night in zip(opened, nights, strict=True)
        for game, table in zip(games, night["tables"], strict=True)
    ]
    written = 0
    for game, table in played:
        if table["totals"] or table.get("places"):
            _totals_posted(game, table)
            written = _step(result_import.pk, written + 1)
    for chunk in _chunks([(game, deal) for game, table in played for deal in table["deals"]]):
        written = _deals_written(result_import, actor, chunk, written)
    past_nights_close(actor=actor, nights=[
        (games[0].table.session, _started_at(club, night["date"]) + NIGHT_LENGTH)
        for games, night in zip(opened, nights, strict=True)
    ])  # fmt: skip
    ratings_games_taken_in(club_id=club.pk, game_ids=[game.pk for game, _ in played])


def _places(table: dict[str, Any]) -> dict[int, int] | None:
    if "places" not in table:
        return None
    return {line["player"]: line["place"] for line in table["places"]}


def _totals_posted(game: Game, table: dict[str, Any]) -> None:
    """A table's given result as balanced settlement entries of its game: a night's points
    (one entry), each Rummikub game's scores (one entry a game), a game's money."""
    by_game: dict[int, list[Line]] = {}
    for total in table["totals"]:
        line = Line.player(Quantity.POINTS, total["player"], total["points"])
        by_game.setdefault(total.get("game", 0), []).append(line)
    for number, lines in sorted(by_game.items()):
        memo = f"imported game {number}" if number else "imported totals"
        ledger_entry_create(game=game, kind=LedgerEntry.Kind.SETTLEMENT, lines=lines, memo=memo)
    money = [
        Line.player(Quantity.MONEY, line["player"], line["money"])
        for line in table.get("places", [])
        if line["money"]
    ]
    if money:
        ledger_entry_create(
            game=game, kind=LedgerEntry.Kind.SETTLEMENT, lines=money, memo="imported result"
        )


def _chunks(deals: list[tuple[Game, Any]]) -> Iterator[list[tuple[Game, Any]]]:
    for start in range(0, len(deals), CHUNK):
        yield deals[start : start + CHUNK]


def _deals_written(
    result_import: ResultImport,
    actor: AbstractBaseUser,
    chunk: list[tuple[Game, Any]],
    written: int,
) -> int:
    """A chunk of deals (of one table or of several) counted by their games' rules
    (``scoring.past_deals``). Returns the steps written so far; stops at a cancel."""
    by_game: dict[int, tuple[Game, list[dict[str, Any]]]] = {}
    for game, deal in chunk:
        by_game.setdefault(game.pk, (game, []))[1].append({"results": deal["results"]})
    try:
        past_deals_count(actor=actor, source=Submission.Source.IMPORT, games=list(by_game.values()))
    except InvalidInput as refused:  # checked at the preview; the roster may have changed
        # Kept as the import's error (English, as the task writes it) and shown later.
        row = chunk[refused.details.get("index", 0)][1]["row"]
        raise InvalidInput(f"row {row}: {refused.message}", code="import_rows_invalid") from None
    return _step(result_import.pk, written + len(chunk))


def _step(import_id: int, written: int) -> int:
    """Say how far the import is, and stop it when a cancel was asked."""
    cache.set(_progress_key(import_id), written, KEPT_SECONDS)
    if cache.get(_cancel_key(import_id)):
        raise ImportCancelled
    return written


def result_import_get(*, club: Club, import_id: int) -> ResultImport:
    found = ResultImport.objects.filter(club=club, pk=import_id).first()
    if found is None:
        raise NotFoundError(_("import %(id)s not found") % {"id": import_id})
    return found
