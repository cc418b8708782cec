"""How a payer pays a player of the settle-up: a UPI payment link (and its QR code) when the
club keeps its money in rupees and the payee keeps a UPI id, and the payee's own payment link
in any currency."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from clubs.models import Club, Player

#: UPI apps cut a longer transaction note; a note of this length reads whole in all of them.
UPI_NOTE_LENGTH = 50


@dataclass(frozen=True)
class PayLinks:
    """Where a transfer's payer pays: ``upi_uri`` (a ``upi://pay`` link) and ``payment_link``
    (the payee's own https page), each None when there is none."""

    upi_uri: str | None = None
    payment_link: str | None = None


NO_PAY_LINKS = PayLinks()


def upi_pay_uri(*, upi_id: str, payee_name: str, amount_minor: int, note: str) -> str:
    """The ``upi://pay`` link of NPCI's UPI linking specification: payee address and name, the
    amount in rupees with two decimals, the currency and a note, each URL-encoded (a space as
    %20, as UPI apps read it; the ``@`` of the address as is)."""
    rupees, paise = divmod(amount_minor, 100)
    query = urlencode(
        {
            "pa": upi_id,
            "pn": payee_name,
            "am": f"{rupees}.{paise:02d}",
            "cu": "INR",
            "tn": note[:UPI_NOTE_LENGTH],
        },
        quote_via=quote,
        safe="@",
    )
    return f"upi://pay?{query}"


def pay_links(*, club: Club, payee: Player | None, amount_minor: int, note: str) -> PayLinks:
    """The links a payer of ``amount_minor`` to ``payee`` pays by: none for a club that plays
    for points only, or a payee that is no player (the club, a pot) or keeps neither."""
    if club.points_only or payee is None or amount_minor <= 0:
        return NO_PAY_LINKS
    upi_uri = None
    if payee.upi_id and club.currency == "INR":
        upi_uri = upi_pay_uri(
            upi_id=payee.upi_id, payee_name=payee.name, amount_minor=amount_minor, note=note
        )
    return PayLinks(upi_uri=upi_uri, payment_link=payee.payment_link or None)
