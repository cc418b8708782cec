"""Paging of API lists, one shape for all: ``{"count", "next", "previous", "results"}`` with
absolute links. ``limit`` 1 to 500 (50 unless given) and ``offset`` 0 to 2^31-1, anything else a
400 naming the parameter (DRF's own class ignores a bad value, and a huge offset reached the
database)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import CursorPagination, LimitOffsetPagination
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.serializers import BaseSerializer

from config.fields import query_int
from config.openapi import PAGE_LIMIT_DEFAULT, PAGE_RANGES
from config.openapi import PAGE_LIMIT_MAX as MAX_LIMIT


def page_value(query_params: Any, name: str, default: int) -> int:
    """``limit`` or ``offset`` of a paged read, within its range (``default`` when absent);
    ``ValueError`` naming the parameter otherwise."""
    low, high = PAGE_RANGES[name]
    return query_int(query_params.get(name), name=name, low=low, high=high, default=default)


class StrictLimitOffsetPagination(LimitOffsetPagination):
    default_limit = PAGE_LIMIT_DEFAULT
    max_limit = MAX_LIMIT

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            low, high = PAGE_RANGES[parameter["name"]]
            parameter["schema"].update(minimum=low, maximum=high)
        return parameters

    def get_limit(self, request: Any) -> int:
        return self._param(request, self.limit_query_param, self.default_limit)

    def get_offset(self, request: Any) -> int:
        return self._param(request, self.offset_query_param, 0)

    @staticmethod
    def _param(request: Any, name: str, default: int) -> int:
        try:
            return page_value(request.query_params, name, default)
        except ValueError as exc:
            raise ValidationError({name: [str(exc).split(": ", 1)[1]]}) from None


def page_params(request: Request) -> tuple[int, int]:
    """``limit`` and ``offset`` of a paged read; 400 naming the parameter otherwise."""
    paginator = StrictLimitOffsetPagination()
    return paginator.get_limit(request), paginator.get_offset(request)


def page_links(request: Request, *, count: int, limit: int, offset: int) -> dict[str, Any]:
    """``count``, ``next`` and ``previous`` of a page a selector has already cut."""
    paginator = StrictLimitOffsetPagination()
    paginator.request, paginator.count, paginator.limit, paginator.offset = (
        request, count, limit, offset,
    )  # fmt: skip
    return {
        "count": count,
        "next": paginator.get_next_link(),
        "previous": paginator.get_previous_link(),
    }


def page_asked(raw: str | None) -> int:
    """The page a page's ``?page=`` asks for: a whole number from 1; anything else (a word, 0,
    a sign, a digit Python reads but nobody types, a number too long to read) the first."""
    try:
        return max(1, int(raw or 1))
    except ValueError:
        return 1


def page_response(
    request: Request,
    items: Sequence[Any] | Any,
    item: type[BaseSerializer[Any]],
    *,
    completed: Callable[[list[Any]], list[Any]] | None = None,
    **extra: Any,
) -> Response:
    """A page of ``items`` (a queryset is counted and sliced by the database) in the one shape,
    with ``extra`` fields of the list's own before it. ``completed`` adds to the page's items
    what is read for a page only (e.g. counts that would read the whole history for all)."""
    paginator = StrictLimitOffsetPagination()
    page = paginator.paginate_queryset(items, request) or []
    if completed is not None:
        page = completed(page)
    links = page_links(
        request, count=paginator.count, limit=paginator.limit, offset=paginator.offset
    )
    return Response({**extra, **links, "results": item(page, many=True).data})


class NewestFirstCursorPagination(CursorPagination):
    """Pages of a list that grows at its head while it is read (newest first): a cursor keeps a
    reader's place where an offset would shift. ``limit`` as in every list."""

    ordering = "-id"
    page_size = PAGE_LIMIT_DEFAULT
    page_size_query_param = "limit"
    max_page_size = MAX_LIMIT

    def get_page_size(self, request: Any) -> int:
        return StrictLimitOffsetPagination().get_limit(request)


def cursor_page_response(request: Request, items: Any, item: type[BaseSerializer[Any]]) -> Response:
    """A cursor page of the queryset ``items`` in the one shape (``count`` of all of them)."""
    paginator = NewestFirstCursorPagination()
    page = paginator.paginate_queryset(items, request) or []
    return Response(
        {
            "count": items.count(),
            "next": paginator.get_next_link(),
            "previous": paginator.get_previous_link(),
            "results": item(page, many=True).data,
        }
    )
