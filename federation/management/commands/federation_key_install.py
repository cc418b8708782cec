from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clubs.models import Club
from config.errors import ServiceError
from federation.exchange_services import export_key_install


class Command(BaseCommand):
    help = (
        "Install on a club's own instance the export key its federation gave (the JSON file "
        "from POST .../federations/<slug>/export-key/ on the federation's instance)."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("club", help="the club's slug here")
        parser.add_argument("file", help="the key file the federation gave")

    def handle(self, *args: Any, **options: Any) -> None:
        club = Club.objects.filter(slug=options["club"]).first()
        if club is None:
            raise CommandError(f"no club with the slug {options['club']!r}")
        try:
            with open(options["file"], encoding="utf-8") as stream:
                document = json.load(stream)
            key = export_key_install(actor=None, club=club, document=document)
        except (OSError, json.JSONDecodeError) as error:
            raise CommandError(f"{options['file']}: {error}") from None
        except ServiceError as error:
            raise CommandError(error.message) from None
        self.stdout.write(f"Installed key {key.key_id} of {key.federation} for {club.slug}.")
