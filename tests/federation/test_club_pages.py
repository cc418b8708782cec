"""A member club's federation pages: the owner answers an invitation; an organiser asks for a
night to be sanctioned, submits it once played, sees it returned with the officer's reason and
released, and proposes a player's link; members read; a refusal names the field, never a 500;
and the projector shows both lists' tops."""

from __future__ import annotations

import pytest
from django.test import Client

from clubs.models import Player
from federation import services
from federation.models import MemberClub, PlayerLink, SanctionedEvent
from scoring.nights import session_create
from tests.factories import ClubFactory
from tests.federation.test_services import NIGHT, _link_all, _released

pytestmark = pytest.mark.django_db

BASE = "/clubs/home/federations/rf/"


def _as(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_an_organiser_asks_submits_and_sees_each_state(world, standing):
    organiser = _as(standing.organiser)
    night = session_create(club=standing.club, actor=standing.organiser, name="Friday cup")
    page = organiser.get(BASE).content.decode()
    assert f'value="session:{night.pk}"' in page and "Points" in page  # the locked preset

    bad = organiser.post(f"{BASE}events/", {"event": f"session:{night.pk}", "tier": "gold"})
    assert bad.status_code == 400 and "tier: use one of club, open" in bad.content.decode()
    other = ClubFactory(slug="other")
    foreign = session_create(club=other, actor=standing.owner, name="Not ours")
    refused = organiser.post(f"{BASE}events/", {"event": f"session:{foreign.pk}", "tier": "club"})
    assert refused.status_code == 400 and "event:" in refused.content.decode()

    asked = organiser.post(f"{BASE}events/", {"event": f"session:{night.pk}", "tier": "open"})
    assert asked.status_code == 302
    event = SanctionedEvent.objects.get(session=night)
    assert (event.status, event.tier) == ("requested", "open")
    page = organiser.get(BASE).content.decode()
    assert "Asked: the officer decides" in page and f'value="session:{night.pk}"' not in page

    services.sanction_decide(actor=world.officer, event=event, approve=True)
    early = organiser.post(f"{BASE}events/{event.pk}/submit/")
    assert early.status_code == 409 and "submit it once two players" in early.content.decode()
    world.play(event, standing.organiser, NIGHT)
    assert organiser.post(f"{BASE}events/{event.pk}/submit/").status_code == 302
    services.event_return(actor=world.officer, event=event, reason="Spell Dev's name in full")
    page = organiser.get(BASE).content.decode()
    assert "Returned: correct it and submit it again" in page and "Dev&#x27;s name" in page
    assert organiser.post(f"{BASE}events/{event.pk}/submit/").status_code == 302
    services.event_release(actor=world.officer, event=event)
    page = organiser.get(BASE).content.decode()
    assert "Released: it counts on both lists" in page and "Submit a correction" in page

    # A scorer reads the page without its forms and cannot post; an outsider sees nothing.
    scorer = _as(standing.scorer)
    assert "Ask for a sanction" not in scorer.get(BASE).content.decode()
    assert scorer.post(f"{BASE}events/{event.pk}/submit/").status_code == 403
    assert _as(standing.outsider).get(BASE).status_code == 404


def test_an_organiser_proposes_a_link_and_sees_it_confirmed(world, standing):
    fps = _link_all(world, world.second, world.second_owner, ["Asha Rao"])
    asha = Player.objects.create(club=standing.club, name="Asha R.")
    organiser = _as(standing.organiser)
    unknown = organiser.post(f"{BASE}players/", {"player": asha.pk, "federation_id": "F999999"})
    assert unknown.status_code == 400 and "no player F999999" in unknown.content.decode()
    bad_day = organiser.post(f"{BASE}players/", {"player": asha.pk, "date_of_birth": "1990-13-01"})
    assert bad_day.status_code == 400
    code = fps["Asha Rao"].federation_id_code
    sent = organiser.post(
        f"{BASE}players/", {"player": asha.pk, "federation_id": code, "email": "a@example.com"}
    )
    assert sent.status_code == 302
    link = PlayerLink.objects.get(player=asha)
    assert (link.federation_player, link.email, link.status) == (
        fps["Asha Rao"],
        "a@example.com",
        "proposed",
    )
    services.link_decide(actor=world.officer, link=link, confirm=True)
    page = organiser.get(BASE).content.decode()
    assert "Confirmed" in page and f"/f/rf/players/{fps['Asha Rao'].pk}/" in page
    again = organiser.post(f"{BASE}players/", {"player": asha.pk})
    assert again.status_code == 409 and "proposed or linked already" in again.content.decode()


def test_the_owner_answers_an_invitation_and_a_non_member_page_is_404(world, standing):
    third = standing.outsider.memberships.get().club
    services.club_invite(actor=world.officer, federation=world.federation, club=third)
    owner = _as(standing.outsider)
    listed = owner.get(f"/clubs/{third.slug}/federations/").content.decode()
    assert "Rummy Federation" in listed and "Join" in listed
    assert owner.get(f"/clubs/{third.slug}/federations/rf/").status_code == 404
    answered = owner.post(f"/clubs/{third.slug}/federations/rf/answer/", {"accept": "1"})
    assert answered.status_code == 302
    assert MemberClub.objects.get(club=third).status == "member"
    assert owner.get(f"/clubs/{third.slug}/federations/rf/").status_code == 200
    again = owner.post(f"/clubs/{third.slug}/federations/rf/answer/", {"accept": "1"})
    assert again.status_code == 404 and "no invitation" in again.content.decode()
    # Only the owner answers.
    assert _as(standing.organiser).post(f"{BASE}answer/", {"accept": "0"}).status_code == 403


def test_the_projector_shows_both_lists_tops(world, standing):
    _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    event = world.night(standing.club, standing.organiser, "Cup")
    _released(world, event, standing.organiser, NIGHT)
    page = Client().get("/f/rf/projector/").content.decode()
    assert 'data-refresh-every="60"' in page and "<svg" in page
    ranking = page[page.index('id="projector-ranking"') : page.index('id="projector-ratings"')]
    assert ranking.index("Asha") < ranking.index("Bilal") < ranking.index("Dev")
    assert "1000.00" in ranking
    assert "No rating list published yet." in page
