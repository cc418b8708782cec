"""What the reports' tests share: a PDF read back (pages, text) and a tournament played out."""

from __future__ import annotations

import io
import random
import re

from pypdf import PdfReader

from tests.pages.conftest import Pages
from tests.tournaments.helpers import enter, new_tournament, play_round
from tournaments.models import Tournament
from tournaments.services.setup import tournament_start


def pdf_read(body: bytes) -> tuple[int, str]:
    """The PDF's page count and its text, whitespace made single spaces."""
    assert body.startswith(b"%PDF-"), body[:20]
    reader = PdfReader(io.BytesIO(body))
    text = " ".join(page.extract_text() or "" for page in reader.pages)
    return len(reader.pages), re.sub(r"\s+", " ", text)


def finished_cup(pages: Pages, **options: object) -> Tournament:
    """A knock-out of the night's six players, with fees and prizes, played to its end."""
    s = pages.s
    settings = {"entry_fee_minor": 50_000, "club_fee_minor": 5_000, "payout": "seventy_thirty"}
    cup = new_tournament(s, table_max=3, advance_per_table=1, **{**settings, **options})
    enter(s, cup, list(pages.night.players.values()))
    tournament_start(tournament=cup, actor=s.organiser)
    rng = random.Random(3)
    for _ in range(6):
        cup.refresh_from_db()
        if cup.status != Tournament.Status.RUNNING:
            break
        play_round(s, cup, rng)
    cup.refresh_from_db()
    assert cup.status == Tournament.Status.FINISHED
    return cup
