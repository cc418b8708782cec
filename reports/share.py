"""A night's or a tournament's result as a short text for a group chat, from the same contexts as
its report (so the same figures as the pages)."""

from __future__ import annotations

from typing import Any

#: Lines of a standings list in a message: a chat shows a few before "read more".
SHARE_LINES = 10


def night_share_text(context: dict[str, Any]) -> str:
    session = context["session"]
    club = context["club"]
    board = context["board"]
    head = f"{club.name} · {session.name}"
    counted = f"{board.deals_counted} deal{'' if board.deals_counted == 1 else 's'}"
    state = "final" if session.status == "closed" else "so far"
    lines = [head, f"{counted}, {state}", ""]
    for row in context["lines"][:SHARE_LINES]:
        figures = " · ".join(
            f"{cell['text']}{'' if column.quantity == 'money' else ' ' + column.unit}"
            for column, cell in zip(context["columns"], row["cells"], strict=True)
        )
        lines.append(f"{row['rank']}. {row['line'].name}  {figures}".rstrip())
    if len(context["lines"]) > SHARE_LINES:
        lines.append(f"… and {len(context['lines']) - SHARE_LINES} more")
    if not context["lines"]:
        lines.append("No deal counted yet.")
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
            lines.append(f"Round {rounds[-1]['round'].number} of {len(rounds)} drawn so far")
        counted = context["view"].entries_counted
        lines.append(f"{counted} player{'' if counted == 1 else 's'} in the field")
    if public_url:
        lines += ["", public_url]
    return "\n".join(lines).strip() + "\n"
