"""A federation with something in every state, for the pages' browser checks (screenshots, axe):
a released night (on the ranking list and a published rating list), a returned one, one
submitted by the second club, one asked for, one sanctioned and not yet played, a night still
to ask for, a proposed link and a duplicate. The home club's organiser is made an officer too,
so one signed-in browser sees the club's pages and the officer's queue."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from typing import Any

from clubs.models import Player
from federation import services
from federation.models import SanctionedEvent
from scoring.nights import session_create
from tests.federation.conftest import make_world
from tests.federation.test_services import NIGHT, _link_all, _released


@dataclass
class FederationSite:
    pages: dict[str, str]  # name -> address, every federation page a member or officer sees
    night: int  # the open night still to ask for


def federation_site(standing: Any) -> FederationSite:
    world = make_world(standing)
    club, organiser, officer = standing.club, standing.organiser, world.officer
    federation = world.federation
    services.officer_add(actor=officer, federation=federation, user=organiser)
    fps = _link_all(world, club, organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    january = world.night(club, organiser, "January cup", tier="open")
    _released(world, january, organiser, NIGHT)
    # Released in the first period, so the first published list holds it.
    SanctionedEvent.objects.filter(pk=january.pk).update(released_on=date(2026, 1, 20))
    services.period_publish(actor=officer, federation=federation)

    returned = world.night(club, organiser, "February night")
    services.sanction_decide(actor=officer, event=returned, approve=True)
    world.play(returned, organiser, [{"Asha": 30, "Bilal": "winner", "Chitra": 10, "Dev": 50}])
    services.event_submit(actor=organiser, event=returned)
    services.event_return(
        actor=officer, event=returned, reason="Dev played at two tables: correct table 2"
    )
    world.night(club, organiser, "Spring open", tier="open")  # asked
    sanctioned = world.night(club, organiser, "Summer night")
    services.sanction_decide(actor=officer, event=sanctioned, approve=True)
    open_night = session_create(club=club, actor=organiser, name="Next Friday")

    second = world.night(world.second, world.second_owner, "Second club's night")
    services.sanction_decide(actor=officer, event=second, approve=True)
    world.play(second, world.second_owner, [{"Asha": "winner", "Ravi": 20, "Meera": 45}])
    services.event_submit(actor=world.second_owner, event=second)
    _link_all(world, world.second, world.second_owner, ["Asha"])  # a duplicate by name
    services.link_propose(
        actor=world.second_owner,
        federation=federation,
        player=Player.objects.get(club=world.second, name="Ravi"),
        email="ravi@example.com",
    )
    Player.objects.create(club=club, name="Esha")  # still to propose

    f, c = f"/f/{federation.slug}", f"/clubs/{club.slug}/federations"
    pages = {
        "ranking": f"{f}/",
        "ratings": f"{f}/ratings/",
        "preview": f"{f}/ratings/preview/",
        "player": f"{f}/players/{fps['Asha'].pk}/",
        "projector": f"{f}/projector/",
        "queue": f"{f}/queue/",
        "club-federations": f"{c}/",
        "club-federation": f"{c}/{federation.slug}/",
    }
    return FederationSite(pages, open_night.pk)
