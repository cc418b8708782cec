"""A night's settle-up as its pages show it (the night's page, a tournament's desk): each
transfer's amount, and while unpaid, where to pay it with its QR code."""

from __future__ import annotations

from typing import Any

from clubs.models import Club
from clubs.page_kit.display import club_money
from scoring import figures, table_links
from scoring.formats import points_column


def settle_up_rows(club: Club, transfers: list[figures.SettlementTransfer]) -> list[dict[str, Any]]:
    return [_transfer_row(club, transfer) for transfer in transfers]


def _transfer_row(club: Club, transfer: figures.SettlementTransfer) -> dict[str, Any]:
    """A settle-up line: the amount (money, or points in a club that plays for points only), and
    while unpaid, where to pay it with its QR code (the UPI link, else the payee's own payment
    link) for the payer's phone to scan."""
    pay = transfer.pay
    scanned = None if transfer.paid else (pay.upi_uri or pay.payment_link)
    if transfer.amount_minor is None:
        column = points_column(transfer.game_format or "")
        amount = f"{transfer.points} {column.unit if column else 'points'}"
    else:
        amount = club_money(club, transfer.amount_minor)
    return {
        "transfer": transfer,
        "amount": amount,
        "in_money": transfer.amount_minor is not None,
        "pay": pay if scanned else None,
        "qr": table_links.qr_svg(scanned) if scanned else "",
        "key": f"{transfer.payer_key}-{transfer.payee_key}".replace(":", "-"),
    }
