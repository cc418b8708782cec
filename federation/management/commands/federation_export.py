from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from config.errors import ServiceError
from federation.exchange_services import export_make
from scoring.models import Session
from tournaments.models import Tournament


class Command(BaseCommand):
    help = (
        "Write the signed export of a club's finished night or tournament for its federation's "
        "sanctioned event ('-': the standard output); import it on the federation's instance."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("club", help="the club's slug here")
        parser.add_argument("file", help="where to write the export (.json), or -")
        parser.add_argument("--federation", required=True, help="the federation's slug")
        parser.add_argument("--event", required=True, type=int, help="the sanctioned event's id")
        parser.add_argument("--tier", required=True, help="the tier it was sanctioned at")
        held = parser.add_mutually_exclusive_group(required=True)
        held.add_argument("--session", type=int, help="the night's id here")
        held.add_argument("--tournament", type=int, help="the tournament's id here")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with the slug {options['club']!r}")
        held: dict[str, Any] = {}
        if options["session"] is not None:
            held["session"] = Session.objects.filter(club=club, pk=options["session"]).first()
        else:
            held["tournament"] = Tournament.objects.filter(
                club=club, pk=options["tournament"]
            ).first()
        if None in held.values():
            raise CommandError(f"no such night or tournament in {club.slug}")
        try:
            document = export_make(
                actor=None,
                club=club,
                federation=options["federation"],
                event=options["event"],
                tier=options["tier"],
                **held,
            )
        except ServiceError as error:
            raise CommandError(error.message) from None
        text = json.dumps(document, indent=2, ensure_ascii=False)
        if options["file"] == "-":
            self.stdout.write(text)
            return
        with open(options["file"], "w", encoding="utf-8") as stream:
            stream.write(text + "\n")
        self.stdout.write(f"Wrote the export of event {options['event']} to {options['file']}.")
