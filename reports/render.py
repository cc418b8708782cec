"""Paper and pictures of a page's figures: a template rendered to PDF with WeasyPrint (fonts from
the system's fontconfig: Debian's Noto, with Devanagari and Hebrew, named in the print
stylesheet), and a PDF's first page drawn as a PNG with PDFium (pypdfium2: WeasyPrint no longer
writes PNG; PDFium is the renderer of Chromium, shipped in the wheel, kept by the same
maintainers for years, and draws text as a browser does)."""

from __future__ import annotations

import io
from functools import cache
from typing import Any

import pypdfium2
from django.conf import settings
from django.http import HttpResponse
from django.template.loader import render_to_string
from django.utils import timezone
from PIL.PngImagePlugin import PngInfo

from config.errors import ServiceError

try:
    from weasyprint import CSS, HTML
    from weasyprint.text.fonts import FontConfiguration
except OSError as missing:  # Pango is not on this machine: the site runs, its reports do not
    WITHOUT_PANGO = (
        "the reports need Pango (apt-get install libpango-1.0-0 libpangoft2-1.0-0 "
        f"fonts-noto-core): {missing}"
    )
else:
    WITHOUT_PANGO = ""


class ReportsUnavailable(ServiceError):
    """This machine lacks the system libraries that draw the reports."""

    status = 503
    default_code = "reports_unavailable"


#: The print stylesheet: the page's size and margins, the font stack, the tables.
STYLESHEET = settings.BASE_DIR / "static" / "css" / "report.css"


@cache
def _stylesheet() -> tuple[CSS, FontConfiguration]:
    """Parsed once per process (fontconfig's lookup of the stack is most of a first render)."""
    fonts = FontConfiguration()
    return CSS(filename=str(STYLESHEET), font_config=fonts), fonts


def pdf_of(template: str, context: dict[str, Any], *, zone: str) -> bytes:
    """The template rendered as a PDF, its times in the club's time zone ``zone``."""
    if WITHOUT_PANGO:
        raise ReportsUnavailable(WITHOUT_PANGO)
    with timezone.override(zone):
        html = render_to_string(template, context)
    stylesheet, fonts = _stylesheet()
    document = HTML(string=html, base_url=str(settings.BASE_DIR))
    return bytes(document.write_pdf(stylesheets=[stylesheet], font_config=fonts))


def png_of(pdf: bytes, *, scale: float = 2.0, description: str = "") -> bytes:
    """The PDF's first page as a PNG (``scale``: pixels per point; 2 is sharp on a phone), with
    ``description`` as its ``Description`` text (PNG's international text chunk, UTF-8)."""
    document = pypdfium2.PdfDocument(pdf)
    try:
        image = document[0].render(scale=scale).to_pil()
    finally:
        document.close()
    out = io.BytesIO()
    info = PngInfo()
    if description:
        info.add_itxt("Description", description)
    image.save(out, format="PNG", optimize=True, pnginfo=info)
    return out.getvalue()


def file_response(body: bytes, content_type: str, filename: str, *, inline: bool = False
                  ) -> HttpResponse:  # fmt: skip
    response = HttpResponse(body, content_type=content_type)
    disposition = "inline" if inline else "attachment"
    response["Content-Disposition"] = f'{disposition}; filename="{filename}"'
    # A report is the club's figures as they stand: never kept by a shared cache.
    response["Cache-Control"] = "private, no-store"
    return response
