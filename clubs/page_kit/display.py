"""Numbers as pages show them: money in the club's currency (in the active language's way,
config/locale_format.py), and signed points; money and figures put into a translated sentence
isolated left to right (a Hebrew page reads them as one piece)."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from decimal import Decimal

import segno
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe

from clubs.models import Club
from config.locale_format import format_money

#: The symbols a page may show for a currency (in English; the other languages' are Babel's).
CURRENCY_SYMBOLS = {
    "INR": "₹", "USD": "$", "EUR": "€", "GBP": "£", "ILS": "₪", "JPY": "¥", "KRW": "₩",
    "AUD": "A$", "CAD": "C$", "NZD": "NZ$", "SGD": "S$", "HKD": "HK$", "CHF": "CHF ",
}  # fmt: skip


def club_money(club: Club, minor: int | None, *, signed: bool = False) -> str:
    return format_money(minor, club.currency, club.minor_places, signed=signed)


def signed_number(value: int | None) -> str:
    value = value or 0
    return f"+{value}" if value > 0 else (f"−{-value}" if value < 0 else "0")


def ltr_html(text: object) -> SafeString:
    """Money, a signed figure, a score or a card inside a sentence: an isolated left-to-right
    span (``.ltr``), so that ``10.00 ₹`` and ``−101`` are not reordered in Hebrew."""
    return format_html('<bdi class="ltr">{}</bdi>', text)


def sentence_html(words: str, values: Mapping[str, object]) -> SafeString:
    """A translated sentence (the catalog's words, trusted as a template's are) with its values
    put in: escaped, numbers as they are, those already made HTML (``ltr_html``) kept."""
    safe = {
        key: value if isinstance(value, int | float | Decimal) else conditional_escape(value)
        for key, value in values.items()
    }
    return mark_safe(words % safe)  # the values are escaped above


@functools.lru_cache(maxsize=256)
def qr_svg(url: str) -> str:
    """``url`` as a QR code in inline SVG (dark on light, a quiet zone round it), sized by its
    container: a phone's camera in the room opens it. Kept once made: a projector, and the desk's
    polled grid with a table link's code for each table, ask for the same codes every time they
    are drawn, and making one takes several milliseconds."""
    code = segno.make(url, error="m")
    return code.svg_inline(scale=1, border=2, dark="#0d1f18", light="#ffffff", omitsize=True)
