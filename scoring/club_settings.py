"""A club's scoring settings: its rule presets (a new version for each change, old games keep
theirs). Keyword-only, atomic, audited."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.base_user import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext as _

from clubs.audit import audit_record
from clubs.models import Club
from clubs.validation import require_no_money
from config.errors import Conflict, InvalidInput
from config.names import name_checked, require_length
from scoring.models import RulePreset
from scoring.preset_rules import game_rules_from


@transaction.atomic
def preset_create(
    *,
    club: Club,
    actor: AbstractBaseUser,
    key: str,
    name: str,
    format: str,
    variant: str,
    params: dict[str, Any],
) -> RulePreset:
    """A club's preset, or a new version of it when the key exists: old games keep theirs."""
    name = name_checked(name)
    if not name:
        raise InvalidInput("name: " + _("give the preset a name"))
    for field, value in (("key", key), ("name", name), ("variant", variant)):
        require_length(value, field=field, limit=RulePreset._meta.get_field(field).max_length)
    rules = game_rules_from(format=format, variant=variant, params=params)
    require_no_money(club=club, field="point_value_minor", amount=rules.point_value_minor)
    require_no_money(club=club, field="entry_fee_minor", amount=rules.entry_fee_minor)
    if rules.fee.kind != "none":
        require_no_money(club=club, field="fee", amount=1)
    latest = (
        RulePreset.objects.select_for_update()
        .filter(club=club, key=key)
        .order_by("-version")
        .first()
    )
    if latest is not None and latest.format != format:
        raise Conflict(
            "key: "
            + _("preset %(key)s is a %(old)s preset; a new version cannot be %(new)s")
            % {"key": repr(key), "old": latest.format, "new": format}
        )
    preset = RulePreset.objects.create(
        club=club,
        key=key,
        version=(latest.version + 1) if latest else 1,
        name=name,
        format=format,
        variant=variant,
        params=params,
        created_by=actor,
    )
    audit_record(
        actor=actor,
        club=club,
        action="preset.create",
        obj=preset,
        after={"key": key, "version": preset.version, "params": params},
    )
    return preset
