"""A night's or a tournament's result as a short text for a group chat, from the same contexts as
its report (so the same figures as the pages)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, ngettext

#: Lines of a standings list in a message: a chat shows a few before "read more".
SHARE_LINES = 10


def night_share_text(context: dict[str, Any]) -> str:
    session = context["session"]
    club = context["club"]
    board = context["board"]
    head = f"{club.name} · {session.name}"
    deals = board.deals_counted
    if session.status == "closed":
        counted = ngettext("%(deals)s deal, final", "%(deals)s deals, final", deals)
    else:
        counted = ngettext("%(deals)s deal, so far", "%(deals)s deals, so far", deals)
    lines = [head, counted % {"deals": deals}, ""]
    for row in context["lines"][:SHARE_LINES]:
        figures = " · ".join(
            f"{cell['text']}{'' if column.quantity == 'money' else ' ' + gettext(column.unit)}"
            for column, cell in zip(context["columns"], row["cells"], strict=True)
        )
        lines.append(f"{row['rank']}. {row['line'].name}  {figures}".rstrip())
    if len(context["lines"]) > SHARE_LINES:
        more = len(context["lines"]) - SHARE_LINES
        lines.append(gettext("… and %(more)s more") % {"more": more})
    if not context["lines"]:
        lines.append(gettext("No deal counted yet."))
    return "\n".join(lines).strip() + "\n"


def tournament_share_text(context: dict[str, Any], *, public_url: str = "") -> str:
    tournament = context["tournament"]
    club = context["club"]
    lines = [f"{club.name} · {tournament.name}", tournament.get_status_display(), ""]
    places = context["places"]
    for place in places[:SHARE_LINES]:
        prize = f"  {place['prize']}" if context["money_shown"] and place["won"] else ""
        lines.append(f"{place['place']}. {place['name']}{prize}")
    if not places:
        rounds = context["rounds"]
        if rounds:
            drawn = {"number": rounds[-1]["round"].number, "count": len(rounds)}
            lines.append(gettext("Round %(number)s of %(count)s drawn so far") % drawn)
        counted = context["view"].entries_counted
        field = ngettext(
            "%(players)s player in the field", "%(players)s players in the field", counted
        )
        lines.append(field % {"players": counted})
    if public_url:
        lines += ["", public_url]
    return "\n".join(lines).strip() + "\n"
