"""Running the club from its pages: roles and removal (never the last owner), players renamed
and retired (history kept), the club's details (owners), presets and their versions; refusals
named on the page and nothing changed."""

from __future__ import annotations

import json

from django.test import Client

from clubs.models import AuditEntry, Club, Membership, Player, Role
from scoring.models import RulePreset


def _client(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_changes_a_role_and_removes_a_member_an_owner_stays(standing):
    organiser = _client(standing.organiser)
    scorer = Membership.objects.get(club=standing.club, user=standing.scorer)
    moved = organiser.post(f"/clubs/home/members/{scorer.pk}/role/", {"role": "player"})
    assert moved.status_code == 302
    scorer.refresh_from_db()
    assert scorer.role == Role.PLAYER
    refused = organiser.post(f"/clubs/home/members/{scorer.pk}/role/", {"role": "owner"})
    assert refused.status_code == 403 and Membership.objects.get(pk=scorer.pk).role == "player"
    organiser.post(f"/clubs/home/members/{scorer.pk}/remove/")
    assert not Membership.objects.filter(pk=scorer.pk).exists()
    owner = Membership.objects.get(club=standing.club, user=standing.owner)
    last = _client(standing.owner).post(f"/clubs/home/members/{owner.pk}/remove/")
    assert last.status_code == 409 and "at least one owner" in last.content.decode()
    assert Membership.objects.filter(pk=owner.pk).exists()
    player = _client(standing.player).post(f"/clubs/home/members/{owner.pk}/remove/")
    assert player.status_code == 403
    assert AuditEntry.objects.filter(action="membership.change_role").exists()


def test_a_player_is_renamed_and_retired_with_the_history_kept(standing):
    organiser = _client(standing.organiser)
    asha = Player.objects.get(club=standing.club, name="Asha")
    organiser.post(f"/clubs/home/players/{asha.pk}/rename/", {"name": "Asha K"})
    organiser.post(f"/clubs/home/players/{asha.pk}/retire/", {})
    asha.refresh_from_db()
    assert asha.name == "Asha K" and not asha.active
    page = organiser.get(f"/clubs/home/players/{asha.pk}/").content.decode()
    assert "retired" in page and "Restore Asha K" in page
    organiser.post(f"/clubs/home/players/{asha.pk}/retire/", {"active": "1"})
    asha.refresh_from_db()
    assert asha.active
    blank = organiser.post(f"/clubs/home/players/{asha.pk}/rename/", {"name": " "})
    assert blank.status_code == 400 and Player.objects.get(pk=asha.pk).name == "Asha K"


def test_the_club_s_details_are_for_owners_and_presets_get_versions(standing):
    details = {"name": "Home Club", "currency": "EUR", "timezone": "Europe/Paris",
               "requires_confirmation": "on"}  # fmt: skip
    assert (
        _client(standing.organiser).post("/clubs/home/settings/club/", details).status_code == 403
    )
    saved = _client(standing.owner).post("/clubs/home/settings/club/", details)
    assert saved.status_code == 302
    club = Club.objects.get(pk=standing.club.pk)
    assert (club.currency, club.timezone, club.requires_confirmation) == (
        "EUR", "Europe/Paris", True,
    )  # fmt: skip
    bad = _client(standing.owner).post(
        "/clubs/home/settings/club/", {**details, "timezone": "Mars"}
    )
    assert bad.status_code == 400 and "time zone" in bad.content.decode()
    assert Club.objects.get(pk=club.pk).timezone == "Europe/Paris"

    organiser = _client(standing.organiser)
    preset = {"key": "house", "name": "House points", "format": "points", "variant": "indian"}
    for first_drop in (20, 25):
        params = json.dumps({"indian": {"first_drop": first_drop}})
        assert (
            organiser.post(
                "/clubs/home/settings/presets/", {**preset, "params": params}
            ).status_code
            == 302
        )
    versions = list(
        RulePreset.objects.filter(club=club, key="house").values_list("version", flat=True)
    )
    assert sorted(versions) == [1, 2]
    broken = organiser.post("/clubs/home/settings/presets/", {**preset, "params": "{points"})
    assert broken.status_code == 400 and "params: not JSON" in broken.content.decode()
    assert RulePreset.objects.filter(club=club, key="house").count() == 2


def test_the_preset_form_previews_what_a_deal_would_score(standing):
    organiser = _client(standing.organiser)
    url = "/clubs/home/settings/presets/preview/"
    house = '{"indian": {"first_drop": 25, "cap": 70}}'
    points = organiser.get(url, {"format": "points", "variant": "indian", "params": house})
    body = points.content.decode()
    assert points.status_code == 200 and "First drop: <strong>25</strong>" in body
    assert "<strong>2-70</strong>" in body or "-70</strong>" in body
    pool = organiser.get(url, {"format": "pool", "variant": "indian",
                               "params": '{"pool": {"limit": 201}}'}).content.decode()  # fmt: skip
    assert "out at 201" in pool
    broken = organiser.get(url, {"format": "points", "variant": "indian", "params": "{ind"})
    assert "not JSON yet" in broken.content.decode()
    wrong = organiser.get(url, {"format": "points", "variant": "indian",
                                "params": '{"indian": {"cap": -3}}'}).content.decode()  # fmt: skip
    assert "cap" in wrong and "alert" in wrong
    assert _client(standing.player).get(url, {"format": "points"}).status_code == 403
