"""``{% load locale_format %}``: dates, times and numbers in the page's language, in the current
time zone (the club's, on its pages): ``{{ deal.created_at|when }}``, ``|day``, ``|clock``,
``|number`` (config/locale_format.py); ``|ltr`` for a figure inside a translated sentence."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from django import template
from django.utils.html import format_html

from config import locale_format

register = template.Library()


@register.filter
def when(moment: datetime | None, length: str = "medium") -> str:
    return locale_format.format_when(moment, length)


@register.filter
def day(value: date | datetime | None, length: str = "medium") -> str:
    return locale_format.format_day(value, length)


@register.filter
def clock(moment: datetime | None) -> str:
    return locale_format.format_clock(moment)


@register.filter
def number(value: int | float | Decimal | None) -> str:
    return "" if value is None else locale_format.format_number(value)


@register.filter
def ordinal(value: int | None) -> str:
    """A place in the page's language: ``{{ 2|ordinal }}`` is 2nd, दूसरा, 2, 2. or 2e."""
    return "" if value is None else locale_format.format_ordinal(value)


@register.filter
def ltr(value: object) -> str:
    """A figure (money, a signed number) read left to right inside right-to-left text, where the
    figure is a sentence's placeholder: ``{% blocktranslate with value=amount|ltr %}``."""
    return format_html('<bdi class="ltr">{}</bdi>', value)
