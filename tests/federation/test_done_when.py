"""A federation of 3 clubs and 300 players (40 of them in two clubs under different names, found
as duplicates and merged), 24 sanctioned events over 6 monthly rating periods, one returned and
submitted again, one corrected after its release: each published rating list equals a replay
straight through ``openskill`` in release order, and the ranking list equals a computation
written here in fractions, apart from the code it checks; a merged person counts once.

Two of the nights are played through the scoring services (the returned one and the corrected
one); the other 22 arrive as a club's submission would store them (places and finishing orders),
and every event is released, returned and published through the federation's services."""

from __future__ import annotations

import random
from datetime import UTC, date, datetime, timedelta
from fractions import Fraction

import pytest
from openskill.models import PlackettLuce

from clubs.models import Player, Role
from federation import selectors, services
from federation.models import SanctionedEvent
from scoring.models import Deal
from scoring.nights import session_create
from tests.factories import ClubFactory, MembershipFactory
from tests.scoring.helpers import correct, results

pytestmark = pytest.mark.django_db

TIERS = {"club": "1", "open": "1.5"}
AS_OF = date(2026, 7, 1)


def _persons():
    """Person -> (club index, record name, date of birth) for each of their club records."""
    records: dict[int, list[tuple[int, str]]] = {}
    for person in range(300):
        name = f"Given{person} Family{person}"
        if person < 40:  # in the home club and the second, under another name there
            records[person] = [(0, name), (1, f"G{person}. Family{person}")]
        elif person < 140:
            records[person] = [(0, name)]
        elif person < 220:
            records[person] = [(1, name)]
        else:
            records[person] = [(2, name)]
    return records


def _born(person: int) -> date:
    return date(1950 + person % 50, 1 + person % 12, 1 + person % 28)


def _independent_ranking(events, as_of, window=1095, best_n=4):
    totals: dict[int, list[Fraction]] = {}
    for played_on, tier, places in events:
        size = len(places)
        age = (as_of - played_on).days
        if age >= window or played_on > as_of:
            continue
        for person, place in places.items():
            exact = Fraction(1000 * (size - place), size - 1) * Fraction(TIERS[tier])
            exact *= Fraction(window - age, window)
            totals.setdefault(person, []).append(Fraction(int(exact * 100 * 2 + 1) // 2, 100))
    return {p: sum(sorted(xs, reverse=True)[:best_n], Fraction(0)) for p, xs in totals.items()}


def _replay(games):
    model, ratings, counts = PlackettLuce(), {}, {}
    for ranks in games:
        people = list(ranks)
        teams = [[ratings.get(p) or model.rating()] for p in people]
        for person, team in zip(
            people, model.rate(teams, ranks=[float(ranks[p]) for p in people]), strict=True
        ):
            ratings[person] = team[0]
            counts[person] = counts.get(person, 0) + 1
    return ratings, counts


def test_three_clubs_300_players_24_events_six_periods(world, standing):
    rng = random.Random(44)
    third = ClubFactory(name="Third Club", slug="third")
    third_owner = MembershipFactory(club=third, role=Role.OWNER, user__username="third").user
    services.club_invite(actor=world.officer, federation=world.federation, club=third)
    services.club_answer(actor=third_owner, federation=world.federation, club=third, accept=True)
    world.federation.best_n = 4
    world.federation.tiers = TIERS
    world.federation.save()
    clubs = [
        (standing.club, standing.owner),
        (world.second, world.second_owner),
        (third, third_owner),
    ]

    # The registry: every club record proposed and confirmed (a duplicate gets its own entry).
    record_of: dict[tuple[int, int], Player] = {}
    person_of_record: dict[int, int] = {}
    for person, own in _persons().items():
        for club_index, name in own:
            club, owner = clubs[club_index]
            player = Player.objects.create(club=club, name=name)
            link = services.link_propose(
                actor=owner, federation=world.federation, player=player, date_of_birth=_born(person)
            )
            services.link_decide(actor=world.officer, link=link, confirm=True)
            record_of[(club_index, person)] = player
            person_of_record[player.pk] = person
    pairs = selectors.duplicate_candidates(federation=world.federation)
    assert len(pairs) == 40 and {why for _, _, why in pairs} == {"date of birth"}
    for first, second, _ in pairs:
        services.player_merge(actor=world.officer, source=second, target=first)
    roots = selectors.canonical_ids(federation=world.federation)
    keys = selectors.player_keys(federation=world.federation)
    # The person the lists name: one federation player per person.
    person_key = {person_of_record[record]: key for record, key in keys.items()}
    assert len(set(person_key.values())) == 300 and len(set(roots.values())) == 300

    # The test's own record of what was released, in release order: (event, (played on, tier,
    # places by person, games by person)).
    released: list = []
    for period in range(6):
        month = date(2026, 1 + period, 1)
        for number in range(4):
            k = period * 4 + number
            club_index = k % 3
            club, owner = clubs[club_index]
            played_on = month + timedelta(days=3 + number * 6)
            tier = "open" if k % 5 == 0 else "club"
            if k in (5, 10):  # played for real: asked, played, submitted
                event, places, games = _played_night(world, standing, k, played_on, record_of)
            else:
                event, places, games = _stored_event(
                    world, club, owner, k, tier, played_on, rng, record_of, club_index
                )
                tier = event.tier
            if k == 5:  # returned once, then submitted again unchanged
                services.event_return(actor=world.officer, event=event, reason="Check the names")
                services.event_submit(actor=standing.organiser, event=event)
            services.event_release(actor=world.officer, event=event)
            SanctionedEvent.objects.filter(pk=event.pk).update(
                released_on=played_on + timedelta(days=2)
            )
            released.append((event.pk, (played_on, event.tier, places, games)))
            if k == 13:  # night 10 corrected after release: Dev (not Asha) won
                corrected = _correct_night(world, standing, record_of)
                SanctionedEvent.objects.filter(pk=corrected[0]).update(
                    released_on=played_on + timedelta(days=3)
                )
                released = [(pk, v) for pk, v in released if pk != corrected[0]]
                released.append(
                    (corrected[0], (corrected[1][0], corrected[1][1], corrected[2], corrected[3]))
                )
        period_row = services.period_publish(actor=world.officer, federation=world.federation)
        ratings, counts = _replay(
            [
                {person_key[p]: r for p, r in game.items()}
                for _, (_, _, _, games) in released
                for game in games
            ]
        )
        entries = list(selectors.period_entries(period=period_row))
        assert {e.player_id: (e.mu, e.sigma, e.games) for e in entries} == {
            key: (r.mu, r.sigma, counts[key]) for key, r in ratings.items()
        }, f"period {period}"
        assert {e.player_id for e in entries if e.provisional} == {
            k for k, n in counts.items() if n < 5
        }

    expected = _independent_ranking(
        [
            (played, tier, {person_key[p]: place for p, place in places.items()})
            for _, (played, tier, places, _) in released
        ],
        AS_OF,
    )
    lines = selectors.ranking(federation=world.federation, as_of=AS_OF)
    assert {line.player: Fraction(line.total) for line in lines} == expected
    assert len(lines) == len({line.player for line in lines})  # a merged person once


def _at(day: date) -> datetime:
    return datetime(day.year, day.month, day.day, 10, 0, tzinfo=UTC)


def _asked(world, club, owner, name, tier, played_on):
    night = session_create(club=club, actor=owner, name=name, started_at=_at(played_on))
    event = services.sanction_request(
        actor=owner, federation=world.federation, club=club, tier=tier, session=night
    )
    return services.sanction_decide(actor=world.officer, event=event, approve=True)


def _stored_event(world, club, owner, k, tier, played_on, rng, record_of, club_index):
    """An event as a club's submission stores it: its places (shared ones as a table shows
    them) and two or three games' finishing orders."""
    event = _asked(world, club, owner, f"Event {k}", tier, played_on)
    persons = sorted(p for (c, p) in record_of if c == club_index)
    field = rng.sample(persons, rng.randint(8, 14))
    raw = sorted(rng.randint(1, len(field)) for _ in field)
    shown = [raw.index(r) + 1 for r in raw]
    places = dict(zip(field, shown, strict=True))
    games = []
    for _ in range(rng.randint(2, 3)):
        table = rng.sample(field, rng.randint(3, 4))
        games.append({p: rank for rank, p in enumerate(table, start=1)})
    stored = {
        "places": {str(record_of[(club_index, p)].pk): place for p, place in places.items()},
        "games": [{str(record_of[(club_index, p)].pk): r for p, r in g.items()} for g in games],
    }
    SanctionedEvent.objects.filter(pk=event.pk).update(
        status="submitted", submitted_results=stored, played_on=played_on, version=1
    )
    event.refresh_from_db()
    return event, places, games


REAL: dict[str, list[int]] = {}


def _played_night(world, standing, k, played_on, record_of):
    """A home night played through the scoring services: A wins, B 20, C 40, D 60."""
    persons = [40 + 4 * k + i for i in range(4)]
    names = [record_of[(0, p)].name for p in persons]
    event = _asked(world, standing.club, standing.organiser, f"Night {k}", "club", played_on)
    world.play(event, standing.scorer, [dict(zip(names, ["winner", 20, 40, 60], strict=True))])
    event = services.event_submit(actor=standing.organiser, event=event)
    assert event.played_on == played_on
    REAL[str(k)] = persons
    places = {p: place for place, p in enumerate(persons, start=1)}
    return event, places, [dict(places)]


def _correct_night(world, standing, record_of):
    """Night 10's result corrected after its release (D won; B 20, C 40, A 60), submitted and
    released again: it moves to the end of the release order."""
    a, b, c, d = REAL["10"]
    event = SanctionedEvent.objects.get(federation=world.federation, name="Night 10")
    deal = Deal.objects.get(game__table__session_id=event.session_id, number=1)
    ids = {record_of[(0, p)].name: record_of[(0, p)].pk for p in (a, b, c, d)}
    named = {record_of[(0, p)].name: line for p, line in ((d, "winner"), (b, 20), (c, 40), (a, 60))}
    correct(standing, deal, results(ids, **named))
    services.event_submit(actor=standing.organiser, event=event)
    services.event_release(actor=world.officer, event=event)
    places = {d: 1, b: 2, c: 3, a: 4}
    return event.pk, (event.played_on, event.tier), places, [dict(places)]
