from __future__ import annotations

import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from archive.format import ArchiveRefused
from archive.restore import club_import


class Command(BaseCommand):
    help = "Rebuild a club from its archive (docs/archive.md), in one transaction."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("file", help="the archive (.jsonl), or - for the standard input")
        parser.add_argument("--slug", help="import the club under this slug instead of its own")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            if options["file"] == "-":
                restored = club_import(stream=sys.stdin, slug=options["slug"])
            else:
                with open(options["file"], encoding="utf-8") as stream:
                    restored = club_import(stream=stream, slug=options["slug"])
        except ArchiveRefused as refused:
            raise CommandError(
                f"{options['file']}: {refused.message} (nothing was stored)"
            ) from None
        except OSError as error:
            raise CommandError(f"{options['file']}: {error.strerror}") from None
        self.stdout.write(
            f"Imported {restored.club.slug} ({restored.rows} rows) from {options['file']}."
        )
