from __future__ import annotations

import sys
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError

from archive.export import club_export
from clubs.models import Club


class Command(BaseCommand):
    help = "Write a club's archive (docs/archive.md) to a file ('-': the standard output)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("club", help="the club's slug")
        parser.add_argument("file", help="where to write the archive (.jsonl), or - ")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with the slug {options['club']!r}")
        instance = settings.PUBLIC_URL
        if options["file"] == "-":
            club_export(club=club, stream=sys.stdout, instance=instance)
            return
        with open(options["file"], "w", encoding="utf-8") as stream:
            rows = club_export(club=club, stream=stream, instance=instance)
        self.stdout.write(f"Wrote {rows} rows of {club.slug} to {options['file']}.")
