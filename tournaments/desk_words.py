"""What the director's desk says once a button or form has done its work, in the page's
language: one whole sentence per case, the names and numbers put in as values."""

from __future__ import annotations

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _


def _status(status: str) -> str:
    """An entry's status (its words in the page's language) inside a sentence: lower case in
    English ("is checked in"); other languages keep its capital (a German noun, "Auf der
    Warteliste"), their sentences set it after a colon."""
    return status.lower() if (get_language() or "en").startswith("en") else status


def entry_added(name: str, status: str, paid: bool) -> str:
    """``status`` is the entry's status in words (already in the page's language)."""
    if paid:
        return _("%(name)s is %(status)s, fee paid.") % {"name": name, "status": _status(status)}
    return _("%(name)s is %(status)s.") % {"name": name, "status": _status(status)}


def checked_in(name: str) -> str:
    return _("%(name)s is checked in.") % {"name": name}


def withdrawn(name: str, status: str) -> str:
    return _(
        "%(name)s: %(status)s. Reinstate them from the entries until the next round is drawn."
    ) % {"name": name, "status": _status(status)}


def reinstated(name: str, status: str) -> str:
    return _("%(name)s is reinstated: %(status)s.") % {"name": name, "status": _status(status)}


def bought_back(name: str) -> str:
    return _("%(name)s bought back in and is drawn in the next round.") % {"name": name}


def started() -> str:
    return _("The entries are closed and round 1 is drawn: look at the draw, then release it.")


def swapped() -> str:
    return _("Swapped.")


def released(number: int) -> str:
    return _("Round %(number)s is released: its tables are open for deals.") % {"number": number}


def clock_off(number: int) -> str:
    return _("Round %(number)s has no clock.") % {"number": number}


def clock_ends(number: int, ends: str) -> str:
    """``ends``: the time of day (HH:MM) in the club's time zone."""
    return _("Round %(number)s ends at %(ends)s: the projector counts down to it.") % {
        "number": number,
        "ends": ends,
    }


def unwound(number: int) -> str:
    return _("The rounds after round %(number)s are taken out: its tables can be corrected.") % {
        "number": number
    }


def cancelled() -> str:
    return _("The tournament is cancelled; every entry fee went back.")


def links_ready(number: int, count: int) -> str:
    return ngettext(
        "Round %(number)s: %(count)s table link ready.",
        "Round %(number)s: %(count)s table links ready.",
        count,
    ) % {"number": number, "count": count}


# --- the registration actions (``desk_registration``) --------------------------------------------


def many_checked_in(count: int) -> str:
    return ngettext("%(count)s checked in.", "%(count)s checked in.", count) % {"count": count}


def fees_paid(count: int) -> str:
    return ngettext("%(count)s fee marked paid.", "%(count)s fees marked paid.", count) % {
        "count": count
    }


def fee_back(name: str) -> str:
    return _("%(name)s's fee went back: it is due.") % {"name": name}


def their_link(url: str) -> str:
    return _("Their link (any older one stops working): %(url)s") % {"url": url}


def signup_open(is_open: bool) -> str:
    return _("Players sign up on the public page.") if is_open else _("Sign-up is closed.")


def entered(names: list[str]) -> str:
    return ngettext(
        "%(count)s entered: %(names)s.", "%(count)s entered: %(names)s.", len(names)
    ) % {
        "count": len(names),
        "names": ", ".join(names),
    }
