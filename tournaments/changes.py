"""Shared by the tournament's services: the audit and the webhook event of a change, the
tournament's row lock, the rows every write looks up, and how many go on from a table."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from clubs.audit import audit_record
from config.errors import InvalidInput, NotFoundError
from live.bus import publish as live_publish
from scoring.formats import handler_for
from tournaments.models import Entry, Round, Tournament
from webhooks.services import api_url, event_emit

E = Entry.Status


def audit(
    tournament: Tournament, actor: AbstractBaseUser | None, action: str, **after: Any
) -> None:
    """The audit entry of a change of the tournament; its live screens hear of it after the
    commit (every change of a tournament is audited, not every one is a webhook event)."""
    live_publish([f"tournament:{tournament.pk}"])
    audit_record(
        actor=actor, club=tournament.club, action=f"tournament.{action}", obj=tournament,
        after=after,
    )  # fmt: skip


#: The create form's words for the settings the services check: a refusal names the field as
#: the user knows it (its details name the API's field), in the language of the page: the
#: form's own labels, put into words when refused.
FIELD_WORDS = {
    "preset": gettext_noop("Each table plays"), "final_preset": gettext_noop("The final plays"),
    "table_max": gettext_noop("Players a table"), "table_min": gettext_noop("Fewest at a table"),
    "table_entry": gettext_noop("Tables enter their own results"),
    "entry_fee_minor": gettext_noop("Entry fee"),
    "club_fee_minor": gettext_noop("Club's share of each entry fee"),
    "payout": gettext_noop("Prizes"), "name": gettext_noop("Name"),
    "advance_per_table": gettext_noop("Go on from each table"),
    "rounds": gettext_noop("Rounds before the cut"), "cut": gettext_noop("Players after the cut"),
}  # fmt: skip


def refused(field: str, why: str, *, code: str | None = None, **details: Any) -> InvalidInput:
    """A setting refused in the user's words, ``"<its label>: why"``; the details name the
    API's field."""
    label = _(FIELD_WORDS[field]) if field in FIELD_WORDS else field
    return InvalidInput(f"{label}: {why}", code=code, details={"field": field, **details})


def state_word(label: object) -> str:
    """A status's label inside a sentence ("Withdrawn" as "withdrawn"): only its first letter
    lowered, so a German noun in the middle of a label keeps its capital."""
    text = str(label)
    return text[:1].lower() + text[1:]


def lock(tournament: Tournament) -> Tournament:
    return (
        Tournament.objects.select_for_update(of=("self",))
        .select_related("club", "preset", "final_preset", "session", "purse")
        .get(pk=tournament.pk)
    )


def current_round(tournament: Tournament) -> Round | None:
    return tournament.round_set.order_by("-number").first()


def round_locked(tournament: Tournament, number: int) -> Round:
    found = tournament.round_set.select_for_update().filter(number=number).first()
    if found is None:
        raise NotFoundError(
            _("no round %(number)s in %(tournament)s")
            % {"number": number, "tournament": tournament.name}
        )
    return found


def family_of(tournament: Tournament) -> str:
    return handler_for(tournament.preset.format).family


def event(tournament: Tournament, name: str, **data: Any) -> None:
    """A webhook event of the tournament, in the transaction of the change."""
    api = api_url(f"/api/v1/clubs/{tournament.club.slug}/tournaments/{tournament.pk}/")
    event_emit(
        club=tournament.club, name=name, data={"tournament": tournament.pk, "url": api, **data}
    )
