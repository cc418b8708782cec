"""Invitations: by email or by link, one-time and expiring, the role within what the inviter
may give; the invitee makes an account or logs in and accepts; every step audited."""

from __future__ import annotations

import re
from datetime import timedelta

from django.core import mail
from django.test import Client
from django.utils import timezone

from clubs import services
from clubs.models import AuditEntry, Invitation, Membership, Role


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _key_from(text: str) -> str:
    found = re.search(r"/invite/([^/\s]+)/", text)
    assert found, text
    return found.group(1)


def test_an_emailed_invitation_makes_an_account_that_joins_once(standing):
    organiser = _client(standing.organiser)
    sent = organiser.post("/clubs/home/members/invite/", {"email": "new@example.com",
                                                          "role": "scorer"})  # fmt: skip
    assert sent.status_code == 302
    (message,) = mail.outbox
    key = _key_from(message.body)
    assert message.to == ["new@example.com"] and "as scorer" in message.body
    page = _client().get(f"/invite/{key}/")
    assert page.status_code == 200 and "Join Home Club" in page.content.decode()
    weak = _client().post(f"/invite/{key}/", {"username": "newbie", "password": "123"})
    assert weak.status_code == 400 and "password" in weak.content.decode()
    joined = _client().post(f"/invite/{key}/", {"username": "newbie", "password": "a-long-pass-77"})
    assert joined.status_code == 302
    member = Membership.objects.get(club=standing.club, user__username="newbie")
    assert member.role == Role.SCORER and member.user.email == "new@example.com"
    again = _client().get(f"/invite/{key}/")
    assert again.status_code == 409 and "already used" in again.content.decode()
    assert AuditEntry.objects.filter(action="invitation.accept").count() == 1


def test_a_link_for_a_logged_in_person_and_the_limits(standing, django_user_model):
    organiser = _client(standing.organiser)
    organiser.post("/clubs/home/members/invite/", {"email": "", "role": "player"})
    home = organiser.get("/clubs/home/").content.decode()
    key = _key_from(home)
    assert 'id="invite-link"' not in organiser.get("/clubs/home/").content.decode()  # once
    guest = django_user_model.objects.create_user("guest", password="pw-guest-123")
    accepted = _client(guest).post(f"/invite/{key}/")
    assert accepted.status_code == 302
    assert Membership.objects.get(club=standing.club, user=guest).role == Role.PLAYER
    # An organiser cannot invite an owner; an old invitation has expired; a withdrawn one stops.
    organiser.post("/clubs/home/members/invite/", {"role": "owner"})
    assert not Invitation.objects.filter(role="owner").exists()
    _, old = services.invitation_create(club=standing.club, actor=standing.owner,
                                        actor_role="owner", role="player")  # fmt: skip
    Invitation.objects.filter(digest__isnull=False).update(
        expires_at=timezone.now() - timedelta(minutes=1)
    )
    assert _client().get(f"/invite/{old}/").status_code == 409
    invitation, live = services.invitation_create(club=standing.club, actor=standing.owner,
                                                  actor_role="owner", role="player")  # fmt: skip
    organiser.post(f"/clubs/home/invitations/{invitation.pk}/revoke/")
    assert "withdrawn" in _client().get(f"/invite/{live}/").content.decode()
    assert _client().get("/invite/not-a-key/").status_code == 404
    assert _client(standing.player).post("/clubs/home/members/invite/", {}).status_code == 403


def test_an_emailed_invitation_is_written_in_the_clubs_language(standing):
    services.club_update(club=standing.club, actor=standing.owner, language="de")
    organiser = _client(standing.organiser)
    sent = organiser.post("/clubs/home/members/invite/", {"email": "neu@example.com",
                                                          "role": "scorer"})  # fmt: skip
    assert sent.status_code == 302
    (message,) = mail.outbox
    assert message.subject == "Du bist zu Home Club auf rummyclub eingeladen"
    assert "lädt dich ein, Home Club beizutreten, als punkteschreiber" in message.body
    assert _key_from(message.body)
