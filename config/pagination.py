"""Paging of API lists: ``limit`` 1 to 500 and ``offset`` 0 to 2^31-1, anything else a 400 naming
the parameter (DRF's own class ignores a bad value, and a huge offset reached the database)."""

from __future__ import annotations

from typing import Any

from rest_framework.exceptions import ValidationError
from rest_framework.pagination import LimitOffsetPagination

from config.fields import query_int
from config.openapi import PAGE_LIMIT_MAX as MAX_LIMIT
from config.openapi import PAGE_RANGES


def page_value(query_params: Any, name: str, default: int) -> int:
    """``limit`` or ``offset`` of a paged read, within its range (``default`` when absent);
    ``ValueError`` naming the parameter otherwise."""
    low, high = PAGE_RANGES[name]
    return query_int(query_params.get(name), name=name, low=low, high=high, default=default)


class StrictLimitOffsetPagination(LimitOffsetPagination):
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
