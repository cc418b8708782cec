"""The federation's refusals that several of its layers raise, said in the reader's language
(the page's, or the API's ``Accept-Language``). Their codes never change; values (names,
numbers, states) go in as placeholders."""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Club, Role
from config.errors import Conflict, InvalidInput, NotAllowed, NotFoundError
from federation.models import Federation, SanctionedEvent

#: An event's state as a refusal names it (its English is the stored value).
EVENT_STATE_WORDS: dict[str, Promise] = {
    SanctionedEvent.Status.REQUESTED: gettext_lazy("requested"),
    SanctionedEvent.Status.SANCTIONED: gettext_lazy("sanctioned"),
    SanctionedEvent.Status.REFUSED: gettext_lazy("refused"),
    SanctionedEvent.Status.SUBMITTED: gettext_lazy("submitted"),
    SanctionedEvent.Status.RETURNED: gettext_lazy("returned"),
    SanctionedEvent.Status.RELEASED: gettext_lazy("released"),
}


def _state(event: SanctionedEvent) -> str:
    return str(EVENT_STATE_WORDS.get(event.status, event.status))


def _role(role: str) -> str:
    """A role as the sentence names it: its label in lower case ("organiser" in English)."""
    return str(Role(role).label).lower() if role in Role.values else role


def officer_needed(federation: Federation) -> NotAllowed:
    words = _("this needs a rating officer of %(federation)s")
    return NotAllowed(words % {"federation": federation.name})


def not_your_club(club: Club) -> NotFoundError:
    return NotFoundError(_("no club %(slug)s among your clubs") % {"slug": repr(club.slug)})


def role_too_low(club: Club, needed: str, role: str) -> NotAllowed:
    words = _("this needs the %(needed)s role in %(club)s; you are %(role)s")
    return NotAllowed(words % {"needed": _role(needed), "club": club.name, "role": _role(role)})


def not_member(club: Club, federation: Federation) -> NotAllowed:
    words = _("%(club)s is not a member of %(federation)s")
    return NotAllowed(words % {"club": club.name, "federation": federation.name})


def not_in_federation() -> InvalidInput:
    return InvalidInput("federation_player: " + _("not in this federation"), code="not_found")


def no_night(number: object, club: Club) -> NotFoundError:
    words = _("no night #%(number)s in %(club)s")
    return NotFoundError(words % {"number": number, "club": club.name})


def no_tournament(number: object, club: Club) -> NotFoundError:
    words = _("no tournament #%(number)s in %(club)s")
    return NotFoundError(words % {"number": number, "club": club.name})


def no_event_of(number: object, club: Club) -> NotFoundError:
    words = _("no event #%(number)s of %(club)s")
    return NotFoundError(words % {"number": number, "club": club.name})


def no_player(number: object, where: str) -> NotFoundError:
    """No player of that number in a club or a federation (``where`` is its name)."""
    return NotFoundError(
        _("no player #%(number)s in %(where)s") % {"number": number, "where": where}
    )


def no_proposal(number: object) -> NotFoundError:
    return NotFoundError(_("no proposal #%(number)s") % {"number": number})


def no_period(period: str) -> NotFoundError:
    """No published rating period ``period`` (as the request wrote it)."""
    return NotFoundError(_("no published rating period %(period)s") % {"period": period})


def event_not_asked(event: SanctionedEvent) -> Conflict:
    words = _("this event is %(status)s, not asked")
    return Conflict(words % {"status": _state(event)}, code="bad_status")


def event_not_submitted(event: SanctionedEvent) -> Conflict:
    words = _("this event is %(status)s, not submitted")
    return Conflict(words % {"status": _state(event)}, code="bad_status")


def event_not_submittable(event: SanctionedEvent) -> Conflict:
    words = _("this event is %(status)s: it cannot be submitted")
    return Conflict(words % {"status": _state(event)}, code="bad_status")
