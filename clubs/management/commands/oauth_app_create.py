from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError

from clubs.signin import services
from config.errors import ServiceError


class Command(BaseCommand):
    help = (
        "Register an OAuth2 app, as a club's owner does on /account/apps/registered/, and print "
        "its client id (and a confidential app's secret, shown only here). The toolkit's "
        "createapplication prints no client id when the app is named."
    )

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument(
            "client_type",
            choices=services.APP_CLIENT_TYPES,
            help="public (a phone, browser or device app) or confidential (a server of yours)",
        )
        parser.add_argument(
            "grant",
            help=(
                "authorization-code, or device (the toolkit's "
                "urn:ietf:params:oauth:grant-type:device_code is taken too)"
            ),
        )
        parser.add_argument("--name", required=True, help="what people see when they sign in")
        parser.add_argument(
            "--redirect-uris",
            default="",
            help="space-separated; https, http to loopback, or rummyclub: (none for a device)",
        )
        parser.add_argument(
            "--user", help="the username of the club owner it belongs to (none: the operator's)"
        )

    def handle(self, *args: Any, **options: Any) -> None:
        user = None
        if options["user"]:
            user = get_user_model().objects.filter(username=options["user"]).first()
            if user is None:
                raise CommandError(f"--user: no account named {options['user']!r}")
        try:
            application, secret = services.oauth_app_register(
                user=user,
                name=options["name"],
                client_type=options["client_type"],
                grant=options["grant"],
                redirect_uris=options["redirect_uris"],
            )
        except ServiceError as exc:
            raise CommandError(exc.message) from exc
        self.stdout.write(
            self.style.SUCCESS(f"Registered {application.name} ({application.client_type}).")
        )
        self.stdout.write(f"client_id: {application.client_id}")
        if secret:
            self.stdout.write(f"client_secret: {secret}")
            self.stdout.write("The secret is not shown again: only a hash of it is kept.")
