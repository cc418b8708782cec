from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from clubs.models import Club, Membership, Player, Role


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.django.Password("pw-for-tests")


class ClubFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Club

    name = factory.Sequence(lambda n: f"Club {n}")
    slug = factory.Sequence(lambda n: f"club-{n}")
    currency = "INR"
    timezone = "Asia/Kolkata"


class MembershipFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Membership

    user = factory.SubFactory(UserFactory)
    club = factory.SubFactory(ClubFactory)
    role = Role.PLAYER


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    club = factory.SubFactory(ClubFactory)
    name = factory.Sequence(lambda n: f"Player {n}")
