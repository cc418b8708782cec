"""A page read on one thread while another thread's transaction writes the same table: the room
(one uvicorn process; a request's thread, the live screens' render thread, the in-process tasks
and webhooks each on a connection of their own) and the tests' live server work like this.

The read must see the last committed state at once. On the embedded default that is SQLite in
write-ahead-log mode on a file; the tests' database used to be SQLite's shared-cache in-memory
database, where a table written in an open transaction is locked against every other
connection ("database table is locked", SQLITE_LOCKED, which no busy timeout waits out), so a
projector or a desk page read during a table's end failed, and the table's end itself failed
when a page was reading (the chip-level tournament's browser test)."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections, transaction

from ledger.models import LedgerEntry
from tournaments.models import RoundTable

pytestmark = pytest.mark.django_db(transaction=True)

WAIT = 10


def _on_a_thread_of_its_own(work, *args):  # type: ignore[no-untyped-def]
    """``work`` on a new thread (its own database connection, as a request's thread has)."""
    done: dict[str, object] = {}

    def body() -> None:
        try:
            done["result"] = work(*args)
        except BaseException as exc:  # handed back to the test
            done["error"] = exc
        finally:
            connections.close_all()

    thread = threading.Thread(target=body)
    thread.start()
    return thread, done


def _touch(model) -> None:  # type: ignore[no-untyped-def]
    """A write to ``model``'s table (of no row: the lock it takes is what counts)."""
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {model._meta.db_table} SET id = id WHERE id = -1")


def _write_and_hold(model, written: threading.Event, release: threading.Event) -> None:  # type: ignore[no-untyped-def]
    # A table's end: the rows of the table written in one transaction, still open.
    with transaction.atomic():
        _touch(model)
        written.set()
        assert release.wait(WAIT), "the reader never finished"


@pytest.mark.parametrize("model", [LedgerEntry, RoundTable])
def test_a_page_reads_a_table_another_thread_is_writing(model):
    written, release = threading.Event(), threading.Event()
    writer, writer_done = _on_a_thread_of_its_own(_write_and_hold, model, written, release)
    try:
        assert written.wait(WAIT), f"the writer never wrote: {writer_done}"
        reader, read = _on_a_thread_of_its_own(model.objects.count)
        reader.join(WAIT)
        assert "error" not in read, f"a read beside an open write failed: {read['error']!r}"
        assert read["result"] == 0
    finally:
        release.set()
        writer.join(WAIT)
    assert "error" not in writer_done, writer_done["error"]


def test_a_write_waits_for_a_read_under_way_instead_of_failing():
    """The other way round: a thread reading in a transaction (a page's selector) while another
    writes the table (a table's end): the write goes through, or waits, and never fails."""
    reading, release = threading.Event(), threading.Event()

    def read_and_hold() -> None:
        with transaction.atomic():
            list(RoundTable.objects.all())
            reading.set()
            assert release.wait(WAIT), "the writer never finished"

    reader, reader_done = _on_a_thread_of_its_own(read_and_hold)
    try:
        assert reading.wait(WAIT), f"the reader never read: {reader_done}"
        writer, wrote = _on_a_thread_of_its_own(_touch, RoundTable)
        writer.join(2)  # refused at once, or waiting for the reader's transaction (it may)
        assert "error" not in wrote, f"a write beside a read failed: {wrote['error']!r}"
        release.set()
        writer.join(WAIT)
        assert "error" not in wrote, f"a write after a read failed: {wrote['error']!r}"
        assert not writer.is_alive()
    finally:
        release.set()
        reader.join(WAIT)
    assert "error" not in reader_done, reader_done["error"]
