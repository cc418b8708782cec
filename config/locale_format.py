"""Money, numbers, dates and times in the active language's own way (Babel's CLDR data): the
one place pages and mails format them (docs/languages.md).

English in a club that counts in rupees is Indian English: ``₹1,00,000.00`` as in Hindi; in
German ``100.000,00 ₹``, in Dutch ``₹ 100.000,00``. Money and signed numbers carry no
direction marks: pages show them in a left-to-right span (``<bdi dir="ltr">``) whatever the
language, so that a Hebrew page reads ``−824.00 ₪`` as one piece."""

from __future__ import annotations

import copy
import functools
from datetime import date, datetime, tzinfo
from decimal import Decimal

from babel import Locale
from babel.dates import format_date, format_time, get_datetime_format
from babel.numbers import NumberPattern, format_decimal, get_currency_symbol
from django.utils import timezone, translation

#: Babel's locale for a site language, where the language alone is not its name.
LOCALE_NAMES = {"en": "en", "hi": "hi_IN", "he": "he_IL", "de": "de_DE", "nl": "nl_NL"}
#: Currencies whose English is a country's own (its grouping: Indian English for rupees).
ENGLISH_OF = {"INR": "en_IN"}
_MARKS = str.maketrans("", "", "\u200e\u200f\u061c")


def locale_name(currency: str | None = None) -> str:
    """The Babel locale of the active language (Indian English for rupees in English)."""
    language = (translation.get_language() or "en").split("-")[0]
    if language == "en" and currency in ENGLISH_OF:
        return ENGLISH_OF[currency]
    return LOCALE_NAMES.get(language, "en")


@functools.lru_cache(maxsize=128)
def _money_pattern(locale: str, places: int, *, coded: bool) -> NumberPattern:
    """The locale's currency pattern (its decimal one for a currency written by its code) with
    the currency's own number of places."""
    formats = Locale.parse(locale).decimal_formats if coded else None
    source = formats[None] if formats else Locale.parse(locale).currency_formats["standard"]
    pattern = copy.copy(source)
    pattern.frac_prec = (places, places)
    return pattern


def format_money(minor: int | None, currency: str, places: int, *, signed: bool = False) -> str:
    """``82400`` INR -> ``₹824.00`` (English); a loss reads ``−₹824.00``; ``signed`` adds ``+``
    to gains."""
    minor = minor or 0
    sign = "−" if minor < 0 else ("+" if signed and minor > 0 else "")
    locale = locale_name(currency)
    amount = Decimal(abs(minor)).scaleb(-places)
    # A currency with no symbol of its own is written by its code, after the number.
    coded = get_currency_symbol(currency, locale=locale) == currency
    text = _money_pattern(locale, places, coded=coded).apply(
        amount, Locale.parse(locale), currency=currency, currency_digits=False
    )
    return sign + text.translate(_MARKS) + (f" {currency}" if coded else "")


def format_number(value: int | float | Decimal) -> str:
    """A plain number with the language's grouping and decimal sign."""
    return format_decimal(value, locale=locale_name()).translate(_MARKS)


def _zone() -> tzinfo:
    return timezone.get_current_timezone()


def format_when(moment: datetime | None, length: str = "medium") -> str:
    """A moment in the current time zone (the club's, on its pages): date and time."""
    if moment is None:
        return ""
    local = timezone.localtime(moment, _zone()) if timezone.is_aware(moment) else moment
    locale = locale_name()
    # The day at ``length``, the time to the minute (seconds mean nothing at a club's table).
    both = get_datetime_format(length, locale=locale)
    return (
        both.replace("'", "")
        .replace("{1}", format_date(local, length, locale=locale))
        .replace("{0}", format_time(local, "short", locale=locale))
    )


def format_day(day: date | datetime | None, length: str = "medium") -> str:
    """A day (a moment's day in the current time zone)."""
    if day is None:
        return ""
    if isinstance(day, datetime) and timezone.is_aware(day):
        day = timezone.localtime(day, _zone())
    return format_date(day, length, locale=locale_name())


def format_clock(moment: datetime | None) -> str:
    """A moment's time of day in the current time zone (``7:30 PM``, ``19:30``)."""
    if moment is None:
        return ""
    local = timezone.localtime(moment, _zone()) if timezone.is_aware(moment) else moment
    return format_time(local, "short", locale=locale_name())


#: Hindi's own words for the first places; the others are the number and "वाँ".
_HINDI_ORDINALS = {1: "पहला", 2: "दूसरा", 3: "तीसरा", 4: "चौथा", 6: "छठा"}


def format_ordinal(n: int) -> str:
    """A place in the active language: 1st, 2nd (English); पहला, 5वाँ (Hindi); 1 (Hebrew,
    which says "place 1"); 1. (German); 1e (Dutch). Babel has no ordinals."""
    language = (translation.get_language() or "en").split("-")[0]
    if language == "hi":
        return _HINDI_ORDINALS.get(n, f"{n}वाँ")
    if language == "he":
        return str(n)
    if language == "de":
        return f"{n}."
    if language == "nl":
        return f"{n}e"
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
