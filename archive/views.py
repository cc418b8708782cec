"""The club's archive as a download from its settings page (owners only). The file is written
to a temporary file in one snapshot of the database, then sent: a big club's archive never sits
in memory, and the request holds no transaction while the file goes out."""

from __future__ import annotations

import io
import tempfile

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import FileResponse, HttpRequest
from django.utils import timezone
from django.views.decorators.http import require_GET

from archive.export import club_export
from clubs.models import Role
from clubs.page_kit.pages import club_for_page


@login_required
@require_GET
def club_archive_download(request: HttpRequest, club_slug: str) -> FileResponse:
    club = club_for_page(request, club_slug, Role.OWNER)
    written = tempfile.TemporaryFile()  # noqa: SIM115 (the response closes it once sent)
    text = io.TextIOWrapper(written, encoding="utf-8", newline="\n")
    club_export(club=club, stream=text, instance=settings.PUBLIC_URL)
    text.flush()
    text.detach()
    written.seek(0)
    day = timezone.localdate().isoformat()
    return FileResponse(
        written,
        as_attachment=True,
        filename=f"{club.slug}-archive-{day}.jsonl",
        content_type="application/jsonl; charset=utf-8",
    )
