"""The demo club: what ``manage.py load_demo`` builds, through the same services as everything else.

Other apps add their part of the demo as a step named in ``DEMO_STEPS`` (a function in their own
``demo`` module that takes the ``DemoContext``)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.module_loading import import_string

from clubs import services
from clubs.models import Club, Player, Role

DEMO_SLUG = "demo"
DEMO_PASSWORD = "rummyclub-demo"
DEMO_PLAYERS = [
    "Asha", "Bilal", "Chitra", "Dev", "Esther", "Farid",
    "Gauri", "Hari", "Ines", "Jai", "Kavya", "Lior",
]  # fmt: skip


@dataclass
class DemoContext:
    club: Club
    owner: AbstractBaseUser
    organiser: AbstractBaseUser
    players: list[Player]


DemoStep = Callable[[DemoContext], None]
DEMO_STEPS: list[str] = [
    "scoring.demo.demo_points_nights",
    "scoring.demo.demo_formats",
    "tournaments.demo.demo_tournaments",
]


def _user(username: str, *, first_name: str = "", staff: bool = False) -> AbstractBaseUser:
    User = get_user_model()
    user = User.objects.filter(username=username).first()
    if user is None:
        user = User(username=username, first_name=first_name, is_staff=staff, is_superuser=staff)
        user.set_password(DEMO_PASSWORD)
        user.save()
    return user


def demo_exists() -> bool:
    return Club.objects.filter(slug=DEMO_SLUG).exists()


@transaction.atomic
def demo_load() -> DemoContext:
    owner = _user("owner", first_name="Owen", staff=True)
    organiser = _user("organiser", first_name="Ora")
    player_user = _user("asha", first_name="Asha")
    club = services.club_create(
        owner=owner,
        name="Demo Rummy Club",
        slug=DEMO_SLUG,
        currency="INR",
        timezone_name="Asia/Kolkata",
        public_standings=True,
    )
    services.membership_add(
        club=club, actor=owner, actor_role=Role.OWNER, username="organiser", role=Role.ORGANISER
    )
    services.membership_add(
        club=club, actor=owner, actor_role=Role.OWNER, username="asha", role=Role.PLAYER
    )
    players = [
        services.player_create(
            club=club, actor=owner, name=name, user=player_user if name == "Asha" else None
        )
        for name in DEMO_PLAYERS
    ]
    context = DemoContext(club=club, owner=owner, organiser=organiser, players=players)
    for step in DEMO_STEPS:
        function: DemoStep = import_string(step)
        function(context)
    return context
