"""What the pages of a club night share: the signal that stops polling, the status of a deal
or a version in words and signs, and who a rules engine's reason is about."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, gettext_lazy

from scoring.models import Deal, Submission

LIVE_STOP = "X-Live-Stop"  # tells static/js/live.js to stop polling: nothing will change


# --- status words (colour is never the only signal: each has a word and a sign) ------------------

SUBMISSION_SIGNS = {
    Submission.Status.PENDING: ("…", "pending"),
    Submission.Status.REJECTED: ("✗", "bad"),
    Submission.Status.AWAITING_CONFIRMATION: ("?", "pending"),
    Submission.Status.ACCEPTED: ("✓", "good"),
    Submission.Status.SUPERSEDED: ("↺", "muted"),
}
DEAL_SIGNS = {
    Deal.Status.OPEN: ("…", "pending"),
    Deal.Status.AWAITING_CONFIRMATION: ("?", "pending"),
    Deal.Status.FINAL: ("✓", "good"),
}
DEAL_WORDS = {
    Deal.Status.OPEN: gettext_lazy("No result yet"),
    Deal.Status.AWAITING_CONFIRMATION: gettext_lazy("To confirm"),
    Deal.Status.FINAL: gettext_lazy("Counted"),
}


def _status(sign_map: dict[str, tuple[str, str]], status: str, label: str) -> dict[str, str]:
    sign, tone = sign_map.get(status, ("", "muted"))
    return {"value": status, "label": label, "sign": sign, "tone": tone}


def submission_status(submission: Submission | None) -> dict[str, str] | None:
    if submission is None:
        return None
    return _status(SUBMISSION_SIGNS, submission.status, submission.get_status_display())


def deal_status(deal: Deal, latest: Submission | None) -> dict[str, str]:
    if deal.status == Deal.Status.OPEN and latest is not None:
        if latest.status == Submission.Status.REJECTED:
            return _status(SUBMISSION_SIGNS, latest.status, gettext("Rejected"))
        if latest.status == Submission.Status.PENDING:
            return _status(SUBMISSION_SIGNS, latest.status, gettext("Checking"))
    return _status(DEAL_SIGNS, deal.status, DEAL_WORDS.get(deal.status, deal.status))


def reason_who(reason: dict[str, Any], names: dict[Any, str]) -> str:
    """The player a reason is about, unless its message already starts with the name."""
    who = reason.get("player_name") or names.get(reason.get("player")) or ""
    return "" if str(reason.get("message", "")).startswith(who) else who


def phones_used(submission: Submission, names: dict[str, str]) -> str:
    """The phones an entry made at the table was entered and confirmed on, in words ("entered
    on phone A, confirmed on phone B"), by the link's ``names`` of its phones."""
    parts = []
    if submission.entered_device in names:
        parts.append(gettext("entered on %(phone)s") % {"phone": names[submission.entered_device]})
    if submission.confirmed_device in names:
        parts.append(
            gettext("confirmed on %(phone)s") % {"phone": names[submission.confirmed_device]}
        )
    return ", ".join(parts)


def entered_by(submission: Submission) -> str:
    """Who entered a version, in words: a seat at the table (through its link) or a user."""
    if submission.table_link_id is not None:
        return gettext("seat %(seat)s at the table") % {"seat": submission.entered_seat}
    return submission.submitted_by.get_username() if submission.submitted_by else ""
