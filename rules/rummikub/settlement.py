"""Settling an International Rummikub session: every player pays every other player the
difference of their scores times the rate. Player i's net is ``rate x (n x score_i - sum of
scores)``, computed exactly in ``Decimal``; the nets sum to zero."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import (
    MAX_EMAX,
    MIN_EMIN,
    Context,
    Decimal,
    DivisionByZero,
    Inexact,
    InvalidOperation,
    Overflow,
    localcontext,
)

from rules.errors import InvariantError, RuleViolation, shown

#: Bounds that keep amounts printable: at most 18 decimal places, below 10^15, scores below 10^15.
MAX_RATE_PLACES = 18
MAX_RATE = Decimal(10) ** 15
MAX_SCORE = 10**15


def settle_session(scores: Mapping[str, int], rate: Decimal | int) -> dict[str, Decimal]:
    """Net amount of each player (positive: receives) for a session's total ``scores`` at
    ``rate`` per point of difference, exact. Floats are refused: they are not exact."""
    if isinstance(rate, bool) or not isinstance(rate, (Decimal, int)):
        raise RuleViolation(
            "bad_rate",
            'the rate must be a Decimal or a whole number (give it as a string such as "0.10"): '
            "floats are not exact",
            token=shown(rate),
        )
    exact = Decimal(rate)
    exponent = exact.as_tuple().exponent
    if (
        not exact.is_finite()
        or exact < 0
        or exact >= MAX_RATE
        or (isinstance(exponent, int) and exponent < -MAX_RATE_PLACES)
    ):
        raise RuleViolation(
            "bad_rate",
            f"the rate must be an amount from 0 to 10^15 with at most {MAX_RATE_PLACES} decimal "
            f"places, not {shown(rate) if isinstance(rate, int) else str(rate)[:40]}",
            token=shown(rate) if isinstance(rate, int) else str(rate)[:40],
        )
    for name, score in scores.items():
        if isinstance(score, bool) or not isinstance(score, int) or abs(score) >= MAX_SCORE:
            raise RuleViolation(
                "bad_field",
                f"the score of {shown(name)} must be a whole number below 10^15, "
                f"not {shown(score)}",
                token=name,
            )
    if len(scores) < 2:
        raise RuleViolation("bad_players", "a settlement needs at least 2 players")
    count = len(scores)
    total = sum(scores.values())
    exact_only = Context(
        prec=100,
        Emax=MAX_EMAX,
        Emin=MIN_EMIN,
        traps=[Inexact, Overflow, InvalidOperation, DivisionByZero],
    )
    with localcontext(exact_only):
        nets = {name: exact * (count * score - total) for name, score in scores.items()}
        if sum(nets.values()) != 0:  # pragma: no cover - exact arithmetic guarantees it
            raise InvariantError(f"settlement does not sum to zero: {nets}")
    return nets
