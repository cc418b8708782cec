from __future__ import annotations

import re

from rest_framework.test import APIClient

from clubs.models import AuditEntry, Club, Invitation, Membership, Player, Role
from tests.api.test_errors import assert_error


def test_create_club_makes_the_caller_its_owner(standing):
    client = standing.client("outsider")
    response = client.post(
        "/api/v1/clubs/", {"name": "Friday Pool", "currency": "USD"}, format="json"
    )
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["slug"] == "friday-pool"
    assert body["role"] == "owner"
    club = Club.objects.get(slug="friday-pool")
    assert Membership.objects.get(club=club).user == standing.outsider
    assert AuditEntry.objects.filter(club=club, action="club.create").count() == 1


def test_a_name_with_nothing_to_make_an_address_from_gets_one_made_up(standing):
    client = standing.client("outsider")
    first = client.post("/api/v1/clubs/", {"name": "\U0001f0a1\U0001f0b1"}, format="json")
    second = client.post("/api/v1/clubs/", {"name": "\U0001f0a1\U0001f0b1"}, format="json")
    assert first.status_code == second.status_code == 201, first.content
    slugs = {first.json()["slug"], second.json()["slug"]}
    assert len(slugs) == 2 and all(re.fullmatch(r"club-[0-9a-f]{6}", slug) for slug in slugs)
    assert first.json()["name"] == "\U0001f0a1\U0001f0b1"


def test_club_list_shows_only_the_callers_clubs_with_role(standing):
    body = standing.client("player").get("/api/v1/clubs/").json()
    assert [(c["slug"], c["role"]) for c in body["results"]] == [("home", "player")]


def test_create_club_rejects_taken_slug_and_unknown_currency_and_timezone(standing):
    client = standing.client("owner")
    error = assert_error(
        client.post("/api/v1/clubs/", {"name": "Home", "slug": "home"}, format="json"),
        409,
        "slug_taken",
    )
    assert "home" in error["message"]
    error = assert_error(
        client.post("/api/v1/clubs/", {"name": "X", "currency": "XYZ"}, format="json"),
        400,
        "invalid",
    )
    assert "currency" in error["details"]
    error = assert_error(
        client.post("/api/v1/clubs/", {"name": "X", "timezone": "Mars/Olympus"}, format="json"),
        400,
        "invalid",
    )
    assert error["message"] == "timezone: unknown time zone 'Mars/Olympus'"
    assert Club.objects.count() == 2  # nothing was created


def test_owner_updates_club_and_audit_keeps_before_and_after(standing):
    response = standing.client("owner").patch(
        "/api/v1/clubs/home/", {"name": "Home Club II", "public_standings": True}, format="json"
    )
    assert response.status_code == 200
    entry = AuditEntry.objects.get(action="club.update")
    assert entry.before["name"] == "Home Club" and entry.after["name"] == "Home Club II"
    assert entry.actor == standing.owner


def test_organiser_cannot_grant_organiser_or_touch_owner(standing):
    client = standing.client("organiser")
    owner_membership = standing.club.memberships.get(role=Role.OWNER)
    assert_error(
        client.patch(
            f"/api/v1/clubs/home/members/{owner_membership.pk}/", {"role": "player"}, format="json"
        ),
        403,
        "permission_denied",
    )
    assert owner_membership.__class__.objects.get(pk=owner_membership.pk).role == Role.OWNER


def test_last_owner_cannot_leave(standing):
    owner_membership = standing.club.memberships.get(role=Role.OWNER)
    error = assert_error(
        standing.client("owner").delete(f"/api/v1/clubs/home/members/{owner_membership.pk}/"),
        409,
        "last_owner",
    )
    assert "at least one owner" in error["message"]


def test_member_add_answers_the_same_whether_the_username_exists_or_not(standing):
    from tests.factories import UserFactory

    UserFactory(username="real")
    client = standing.client("organiser")
    answers = {
        name: client.post(
            "/api/v1/clubs/home/members/", {"username": name, "role": "player"}, format="json"
        )
        for name in ("ghost", "real", "player")  # unknown, a new member, already a member
    }
    assert {r.status_code for r in answers.values()} == {202}
    bodies = [{**r.json(), "username": None} for r in answers.values()]
    assert bodies[0] == bodies[1] == bodies[2]
    # Nobody joins by being named: the account that exists is invited, and accepts or not.
    assert not standing.club.memberships.filter(user__username__in=["real", "ghost"]).exists()
    made = {i.username: i.invitee for i in Invitation.objects.filter(club=standing.club)}
    assert set(made) == {"ghost", "real", "player"}
    assert made["real"] is not None and made["ghost"] is None and made["player"] is None


def test_an_invited_account_accepts_or_declines_and_nobody_else_can(standing):
    from tests.factories import UserFactory

    real = UserFactory(username="real")
    organiser = standing.client("organiser")
    for role in ("scorer", "player"):
        organiser.post("/api/v1/clubs/home/members/", {"username": "real", "role": role},
                       format="json")  # fmt: skip
    invitee = APIClient()
    invitee.force_authenticate(real)
    received = invitee.get("/api/v1/invitations/").json()["results"]
    assert [(i["club"], i["role"], i["invited_by"]) for i in received] == [
        ("home", "player", "org"),
        ("home", "scorer", "org"),
    ]
    first, second = received[0]["id"], received[1]["id"]
    # Someone else cannot answer it, and it is not theirs to see.
    assert standing.client("outsider").get("/api/v1/invitations/").json()["results"] == []
    assert_error(
        standing.client("outsider").post(f"/api/v1/invitations/{first}/accept/"), 404, "not_found"
    )
    joined = invitee.post(f"/api/v1/invitations/{first}/accept/")
    assert joined.status_code == 201 and joined.json()["club"] == "home"
    assert standing.club.memberships.get(user=real).role == "player"
    assert_error(invitee.post(f"/api/v1/invitations/{first}/accept/"), 409, "invitation_used")
    assert_error(invitee.post(f"/api/v1/invitations/{second}/accept/"), 409, "already_member")
    assert invitee.post(f"/api/v1/invitations/{second}/decline/").status_code == 204
    assert invitee.get("/api/v1/invitations/").json()["results"] == []
    assert AuditEntry.objects.filter(action="invitation.accept", actor=real).count() == 1


def test_player_names_are_unique_in_a_club_ignoring_case(standing):
    client = standing.client("organiser")
    error = assert_error(
        client.post("/api/v1/clubs/home/players/", {"name": "  asha "}, format="json"),
        409,
        "name_taken",
    )
    assert "asha" in error["message"]
    # The same name in another club is fine.
    other = standing.client("outsider").post(
        "/api/v1/clubs/away/players/", {"name": "Asha"}, format="json"
    )
    assert other.status_code == 201
    assert Player.objects.filter(name__iexact="asha").count() == 2


def test_player_can_be_linked_to_an_account_once(standing):
    client = standing.client("organiser")
    created = client.post(
        "/api/v1/clubs/home/players/", {"name": "Pia", "username": "player"}, format="json"
    )
    assert created.status_code == 201 and created.json()["username"] == "player"
    again = client.post(
        "/api/v1/clubs/home/players/", {"name": "Pia 2", "username": "player"}, format="json"
    )
    assert_error(again, 409, "conflict")
    # Only a member's account can be linked: an account outside the club answers as one that
    # does not exist, so the roster never tells which usernames exist.
    for username in ("nobody", "outsider"):
        unknown = client.post(
            "/api/v1/clubs/home/players/", {"name": "Pia 3", "username": username}, format="json"
        )
        error = assert_error(unknown, 404, "not_found")
        assert error["message"] == f"username: no member named {username!r} in Home Club"
    assert not Player.objects.filter(name="Pia 3").exists()


def test_player_reads_roster_but_cannot_change_it(standing):
    client = standing.client("player")
    names = [p["name"] for p in client.get("/api/v1/clubs/home/players/").json()["results"]]
    assert names == ["Asha", "Bilal", "Chitra"]
    assert_error(
        client.post("/api/v1/clubs/home/players/", {"name": "Zed"}, format="json"),
        403,
        "permission_denied",
    )
    assert not Player.objects.filter(name="Zed").exists()


def test_outsider_cannot_change_another_club(standing):
    client = standing.client("outsider")
    assert_error(
        client.patch("/api/v1/clubs/home/", {"name": "Mine now"}, format="json"), 404, "not_found"
    )
    player = standing.club.players.first()
    assert_error(
        client.patch(f"/api/v1/clubs/home/players/{player.pk}/", {"name": "x"}, format="json"),
        404,
        "not_found",
    )
    assert Club.objects.get(slug="home").name == "Home Club"


def test_demo_loads_once(db):
    from django.core.management import call_command

    from clubs.demo import demo_exists

    call_command("load_demo")
    assert demo_exists()
    club = Club.objects.get(slug="demo")
    assert club.players.count() == 18  # the club's twelve and the knock-out's six guests
    assert sorted(club.tournaments.values_list("status", flat=True)) == ["finished", "running"]
    roles = sorted(club.memberships.values_list("role", flat=True))
    assert roles == ["organiser", "owner", "player"]
    call_command("load_demo", "--if-empty")  # second run changes nothing
    assert Club.objects.filter(slug="demo").count() == 1
    assert club.tournaments.count() == 2
