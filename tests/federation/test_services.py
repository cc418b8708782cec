"""The federation's life through its services: clubs join by invitation, the registry (links
proposed and confirmed, duplicates found, merged and unmerged), an event asked for, submitted,
returned, released and corrected, and both lists against openskill and the place formula."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest
from django.utils import timezone
from openskill.models import PlackettLuce

from clubs.models import AuditEntry, Player
from config.errors import Conflict, InvalidInput, NotAllowed, NotFoundError
from federation import selectors, services
from federation.models import MemberClub, SanctionedEvent
from scoring.models import Deal
from scoring.nights import session_create
from tests.scoring.helpers import correct, results

pytestmark = pytest.mark.django_db

NIGHT = [{"Asha": "winner", "Bilal": 20, "Chitra": 40, "Dev": 60}]


def _link_all(world, club, actor, names, **extra):
    out = {}
    for name in names:
        player = Player.objects.get_or_create(club=club, name=name)[0]
        link = services.link_propose(
            actor=actor, federation=world.federation, player=player, **extra.get(name, {})
        )
        out[name] = services.link_decide(actor=world.officer, link=link, confirm=True)
    return {name: link.federation_player for name, link in out.items()}


def _released(world, event, actor, deals):
    world.play(event, actor, deals)
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    services.event_submit(actor=actor, event=event)
    return services.event_release(actor=world.officer, event=event)


def test_a_club_joins_only_when_its_owner_accepts(world, standing):
    third = standing.outsider.memberships.get().club
    services.club_invite(actor=world.officer, federation=world.federation, club=third)
    with pytest.raises(NotFoundError):
        services.club_answer(
            actor=standing.organiser, federation=world.federation, club=third, accept=True
        )
    with pytest.raises(NotAllowed):
        services.club_invite(actor=standing.owner, federation=world.federation, club=third)
    assert not selectors.is_member_club(federation=world.federation, club=third)
    services.club_answer(
        actor=standing.outsider, federation=world.federation, club=third, accept=True
    )
    assert MemberClub.objects.get(club=third).status == MemberClub.Status.MEMBER
    assert AuditEntry.objects.filter(action="federation.club_answer", club=third).exists()


def test_the_event_life_and_both_lists(world, standing):
    fps = _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    event = world.night(standing.club, standing.organiser, "Cup night", tier="open")
    with pytest.raises(Conflict):  # not sanctioned yet
        services.event_submit(actor=standing.organiser, event=event)
    services.sanction_decide(actor=world.officer, event=event, approve=True)
    with pytest.raises(Conflict):  # not played yet
        services.event_submit(actor=standing.organiser, event=event)
    world.play(event, standing.scorer, NIGHT)
    with pytest.raises(NotAllowed):  # a scorer does not submit
        services.event_submit(actor=standing.scorer, event=event)
    services.event_submit(actor=standing.organiser, event=event)
    assert selectors.officer_queue(federation=world.federation).submissions == [event]
    with pytest.raises(InvalidInput):
        services.event_return(actor=world.officer, event=event, reason=" ")
    event = services.event_return(actor=world.officer, event=event, reason="Dev's name")
    assert event.status == SanctionedEvent.Status.RETURNED
    assert selectors.ranking(federation=world.federation, as_of=timezone.localdate()) == []
    services.event_submit(actor=standing.organiser, event=event)
    event = services.event_release(actor=world.officer, event=event)
    assert (event.status, event.version, event.release_seq) == ("released", 2, 1)

    today = timezone.localdate()
    lines = selectors.ranking(federation=world.federation, as_of=today)
    assert [(line.player, line.total) for line in lines] == [
        (fps["Asha"].pk, Decimal("1500.00")),
        (fps["Bilal"].pk, Decimal("1000.00")),
        (fps["Chitra"].pk, Decimal("500.00")),
        (fps["Dev"].pk, Decimal("0.00")),
    ]
    model = PlackettLuce()
    order = ["Asha", "Bilal", "Chitra", "Dev"]
    expected = model.rate([[model.rating()] for _ in order], ranks=[1.0, 2.0, 3.0, 4.0])
    (rated,) = selectors.rating_lists_at(federation=world.federation, ends=[today + timedelta(1)])
    assert {line.player: (line.mu, line.sigma) for line in rated} == {
        fps[name].pk: (team[0].mu, team[0].sigma)
        for name, team in zip(order, expected, strict=True)
    }
    assert all(line.provisional and line.games == 1 for line in rated)

    # A correction after release goes back to the officer; the released results count meanwhile.
    deal = Deal.objects.get(game__table__session_id=event.session_id, number=1)
    ids = {name: fp.links.get().player_id for name, fp in fps.items()}
    correct(standing, deal, results(ids, Dev="winner", Bilal=20, Chitra=40, Asha=60))
    with pytest.raises(Conflict):  # the tables changed, the game ended: nothing is resubmitted
        services.event_release(actor=world.officer, event=event)
    event = services.event_submit(actor=standing.organiser, event=event)
    assert event.status == "submitted"
    assert selectors.ranking(federation=world.federation, as_of=today)[0].player == fps["Asha"].pk
    services.event_release(actor=world.officer, event=event)
    lines = selectors.ranking(federation=world.federation, as_of=today)
    assert lines[0].player == fps["Dev"].pk and lines[-1].player == fps["Asha"].pk


def test_sanction_is_asked_before_the_event_under_the_locked_preset(world, standing):
    event = world.night(standing.club, standing.organiser, "Early")
    with pytest.raises(Conflict):
        services.sanction_request(
            actor=standing.organiser,
            federation=world.federation,
            club=standing.club,
            tier="club",
            session=event.session,
        )
    world.play(event, standing.organiser, NIGHT)
    late = session_create(club=standing.club, actor=standing.organiser, name="Late")
    world.play_night(late, standing.organiser, NIGHT)
    with pytest.raises(Conflict) as caught:
        services.sanction_request(
            actor=standing.organiser,
            federation=world.federation,
            club=standing.club,
            tier="club",
            session=late,
        )
    assert caught.value.code == "event_started"
    other = session_create(club=standing.club, actor=standing.organiser, name="Other")
    with pytest.raises(InvalidInput):
        services.sanction_request(
            actor=standing.organiser,
            federation=world.federation,
            club=standing.club,
            tier="world",
            session=other,
        )
    with pytest.raises(NotFoundError):
        services.sanction_request(
            actor=standing.outsider,
            federation=world.federation,
            club=standing.club,
            tier="club",
            session=other,
        )


def test_duplicates_merge_once_and_unmerge_restores(world, standing):
    born = {"date_of_birth": date(1980, 5, 1)}
    home = _link_all(
        world, standing.club, standing.organiser, ["Asha Rao", "Bilal"], **{"Asha Rao": born}
    )
    away = _link_all(
        world, world.second, world.second_owner, ["A. Rao", "Chitra"], **{"A. Rao": born}
    )
    pairs = selectors.duplicate_candidates(federation=world.federation)
    assert [(a.pk, b.pk, why) for a, b, why in pairs] == [
        (home["Asha Rao"].pk, away["A. Rao"].pk, "date of birth")
    ]
    e1 = world.night(standing.club, standing.organiser, "Home")
    _released(world, e1, standing.organiser, [{"Asha Rao": "winner", "Bilal": 20}])
    e2 = world.night(world.second, world.second_owner, "Away")
    _released(world, e2, world.second_owner, [{"A. Rao": "winner", "Chitra": 20}])
    today = timezone.localdate()

    def totals():
        return {
            x.player: x.total for x in selectors.ranking(federation=world.federation, as_of=today)
        }

    assert totals()[home["Asha Rao"].pk] == 1000 and totals()[away["A. Rao"].pk] == 1000
    merge = services.player_merge(
        actor=world.officer, source=away["A. Rao"], target=home["Asha Rao"]
    )
    with pytest.raises(InvalidInput):
        services.player_merge(actor=world.officer, source=home["Asha Rao"], target=away["A. Rao"])
    assert totals()[home["Asha Rao"].pk] == 2000 and away["A. Rao"].pk not in totals()
    (rated,) = selectors.rating_lists_at(federation=world.federation, ends=[today + timedelta(1)])
    assert {line.player: line.games for line in rated}[home["Asha Rao"].pk] == 2
    page = selectors.player_page(federation=world.federation, player=away["A. Rao"], as_of=today)
    assert page.counts_as == home["Asha Rao"] and page.ranking.total == 2000
    services.player_unmerge(actor=world.officer, merge=merge)
    assert totals()[home["Asha Rao"].pk] == 1000 and totals()[away["A. Rao"].pk] == 1000
    merge.refresh_from_db()
    assert merge.undone_at is not None


def test_publishing_a_period_stores_the_list_and_the_preview_moves_on(world, standing):
    fps = _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    event = world.night(standing.club, standing.organiser, "January")
    _released(world, event, standing.organiser, NIGHT)
    SanctionedEvent.objects.filter(pk=event.pk).update(released_on=date(2026, 1, 20))
    preview = selectors.period_preview(federation=world.federation)
    assert (preview.index, preview.ends_on) == (0, date(2026, 2, 1))
    period = services.period_publish(actor=world.officer, federation=world.federation)
    entries = list(selectors.period_entries(period=period))
    assert [(e.player_id, e.mu) for e in entries] == [(x.player, x.mu) for x in preview.lines]
    assert {e.player_id for e in entries} == {fp.pk for fp in fps.values()}
    assert selectors.period_preview(federation=world.federation).index == 1
    with pytest.raises(NotAllowed):
        services.period_publish(actor=standing.owner, federation=world.federation)
