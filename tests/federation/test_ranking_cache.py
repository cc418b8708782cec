"""The ranking list is kept in the cache (Redis under REQUIRE_SERVICES) and read afresh once a
release, a released correction, a confirmed link, a merge or a published period changes the
lists' input: the page then shows the new list."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.test import Client
from django.utils import timezone

from federation import selectors, services
from federation.models import SanctionedEvent
from scoring.models import Deal
from tests.federation.test_services import NIGHT, _link_all, _released
from tests.scoring.helpers import correct, results

pytestmark = pytest.mark.django_db


def _totals(world) -> list[tuple[int, Decimal]]:
    lines = selectors.ranking(federation=world.federation, as_of=timezone.localdate())
    return [(line.player, line.total) for line in lines]


def test_a_release_and_a_released_correction_change_the_kept_list(world, standing):
    fps = _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra", "Dev"])
    event = world.night(standing.club, standing.organiser, "Cup")
    _released(world, event, standing.organiser, NIGHT)
    first = _totals(world)
    assert first[0] == (fps["Asha"].pk, Decimal("1000.00"))

    # Kept: a change behind the services' back is not seen, so the list was not recomputed.
    kept = SanctionedEvent.objects.get(pk=event.pk).released_results
    SanctionedEvent.objects.filter(pk=event.pk).update(released_results={**kept, "places": {}})
    assert _totals(world) == first
    SanctionedEvent.objects.filter(pk=event.pk).update(released_results=kept)

    # A second night released: both nights count, on the list and on the page.
    second = world.night(standing.club, standing.organiser, "Cup 2")
    _released(world, second, standing.organiser, [{"Dev": "winner", "Chitra": 5, "Bilal": 9}])
    after = dict(_totals(world))
    assert after[fps["Dev"].pk] == Decimal("1000.00")  # 0 in the first, 1000 in the second
    assert after[fps["Asha"].pk] == Decimal("1000.00")  # played only the first
    page = Client().get("/f/rf/").content.decode()
    assert page.index("Dev") < page.index("Chitra")

    # A correction counts once released, not when submitted.
    deal = Deal.objects.get(game__table__session_id=event.session_id, number=1)
    ids = {name: fp.links.get().player_id for name, fp in fps.items()}
    correct(standing, deal, results(ids, Dev="winner", Bilal=20, Chitra=40, Asha=60))
    event = services.event_submit(actor=standing.organiser, event=event)
    assert dict(_totals(world)) == after
    services.event_release(actor=world.officer, event=event)
    corrected = dict(_totals(world))
    assert corrected[fps["Dev"].pk] == Decimal("2000.00")
    assert corrected[fps["Asha"].pk] == Decimal("0.00")


def test_a_confirmed_link_and_a_merge_change_the_kept_list(world, standing):
    fps = _link_all(world, standing.club, standing.organiser, ["Asha", "Bilal", "Chitra"])
    event = world.night(standing.club, standing.organiser, "Cup")
    _released(world, event, standing.organiser, NIGHT)
    assert len(_totals(world)) == 3  # Dev is not linked: not listed
    _link_all(world, standing.club, standing.organiser, ["Dev"])
    assert len(_totals(world)) == 4
    merge = services.player_merge(actor=world.officer, source=fps["Bilal"], target=fps["Chitra"])
    listed = dict(_totals(world))
    assert fps["Bilal"].pk not in listed and listed[fps["Chitra"].pk] == Decimal("666.67")
    services.player_unmerge(actor=world.officer, merge=merge)
    assert fps["Bilal"].pk in dict(_totals(world))
