"""Money withheld from the API answers of a club that plays for points only (no money shown
anywhere): every field that carries money is null there. A money field is known by its name: an
amount ends in ``_minor`` (integer minor units: ``amount_minor``, ``point_value_minor``,
``shares_minor``), and ``currency`` and a player's payment details (``upi_id``, ``upi_uri``,
``payment_link``) are money too. The schema is the same for every club: each such field of an
answer is declared nullable."""

from __future__ import annotations

from typing import Any

#: Fields that carry money besides the amounts (whose names end in ``_minor``).
MONEY_FIELDS = frozenset({"currency", "upi_id", "upi_uri", "payment_link"})


def is_money_field(name: str) -> bool:
    return name.endswith("_minor") or name in MONEY_FIELDS


def money_withheld(data: Any) -> Any:
    """``data`` (an answer's body) with every money field, at any depth, null."""
    if isinstance(data, dict):
        return {
            key: None if is_money_field(str(key)) else money_withheld(value)
            for key, value in data.items()
        }
    if isinstance(data, list):
        return [money_withheld(item) for item in data]
    return data


def _nullable(schema: dict[str, Any]) -> dict[str, Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "oneOf" in schema and {"type": "null"} in schema["oneOf"]:
        return schema
    described = {k: v for k, v in schema.items() if k in ("description", "default")}
    inner = {k: v for k, v in schema.items() if k not in described}
    return {"oneOf": [inner, {"type": "null"}], **described}


def money_fields_nullable(
    result: dict[str, Any], generator: Any, request: Any, public: bool
) -> dict[str, Any]:
    """drf-spectacular postprocessing hook: every money field of an answer may be null (a club
    that plays for points only); what a request sends is unchanged."""
    for name, schema in result.get("components", {}).get("schemas", {}).items():
        if name.endswith("Request"):
            continue
        properties = schema.get("properties", {})
        for field, field_schema in properties.items():
            if is_money_field(field):
                properties[field] = _nullable(field_schema)
    return result
