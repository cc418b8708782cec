from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from clubs.demo import DEMO_PASSWORD, demo_exists, demo_load


class Command(BaseCommand):
    help = "Load the demo club (an owner, an organiser, 12 players and their games)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "--if-empty",
            action="store_true",
            help="do nothing (but print the login) when the demo club is already loaded",
        )
        parser.add_argument(
            "--address",
            default="127.0.0.1:8000",
            help="host:port the server will listen on, for the login URL printed (make run "
            "passes its own)",
        )

    def handle(self, *args: Any, **options: Any) -> None:
        if demo_exists():
            if not options["if_empty"]:
                raise CommandError("the demo club is already loaded (use --if-empty to skip)")
            self.stdout.write("The demo club is already loaded.")
        else:
            demo_load()
            self.stdout.write(self.style.SUCCESS("Loaded the demo club."))
        self.stdout.write(
            f"\n  Log in at http://{options['address']}/login/\n"
            f"    owner     / {DEMO_PASSWORD}   (club owner, also admin)\n"
            f"    organiser / {DEMO_PASSWORD}   (organiser)\n"
            f"    asha      / {DEMO_PASSWORD}   (player)\n"
        )
