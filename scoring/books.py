"""Which ledger books a night holds: its games' books and its accounts' (a
tournament's purse). The conditions filter ``Posting`` (or any model with a ``book``)."""

from __future__ import annotations

from django.db.models import Q


def session_books(session_id: int, *, prefix: str = "book__") -> Q:
    """The books of a night: its games' and its accounts'."""
    return Q(**{f"{prefix}game__table__session_id": session_id}) | Q(
        **{f"{prefix}session_account__session_id": session_id}
    )
