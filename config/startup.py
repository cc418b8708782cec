"""What a serving process does once its application is built (``config.wsgi``, ``config.asgi``)
and a worker's pool process once it has started (``config.celery``).

Everything loaded at start-up (Django, the libraries, every view, the compiled templates: some
150,000 objects) lives as long as the process. Python's collector still walks all of it at each
full collection, a pause of tens of milliseconds that a request caught in it waits out: the
tournament desk on the 1,000,000-deal benchmark answered at 150-200 ms p95 for 84-94 ms p50;
with what is loaded set aside, 80-95 ms p95 (docs/performance.md). ``gc.freeze`` moves what
exists now out of the collector's reach; what requests and tasks create is collected as
before."""

from __future__ import annotations

import gc
import logging
import resource
from pathlib import Path

from django.conf import settings
from django.template.loader import get_template
from django.urls import get_resolver

logger = logging.getLogger("rummyclub.startup")


def serving_process_ready(*, load_pages: bool) -> None:
    """With ``load_pages``, load every URL configuration and view, and compile every page
    template, now (Django would on the first request for each, and they would then stay within
    the collector's reach); then set aside from the garbage collector what the process holds."""
    if load_pages:
        get_resolver().url_patterns  # noqa: B018 (the import of every URLconf is the point)
        for folder in (Path(d) for engine in settings.TEMPLATES for d in engine["DIRS"]):
            for template in sorted(folder.rglob("*.html")):
                get_template(template.relative_to(folder).as_posix())
    gc.collect()
    gc.freeze()


def raise_file_limit() -> int:
    """Raise this process's open file limit to its hard limit (an ASGI process holds a
    connection, so a file, per live screen: ``live.capacity``); the soft limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft >= hard and hard != resource.RLIM_INFINITY:
        return soft
    target = hard if hard != resource.RLIM_INFINITY else max(soft, 1 << 20)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError) as exc:  # a container may refuse it: the old limit holds
        logger.warning("open file limit left at %s (%s)", soft, exc)
        return soft
    return target
