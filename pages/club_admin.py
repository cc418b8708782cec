"""Running the club from its pages: members' roles and removal, players renamed, retired and
restored, the club's own details, and presets (a new one, or a new version of one). Each write
is a service of ``clubs`` or ``scoring``; a refusal shows on the page it came from."""

from __future__ import annotations

import json
from functools import partial

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext
from django.views.decorators.http import require_POST

from clubs import selectors, services
from clubs.forms import (
    ClubForm,
    PlayerDetailsForm,
    PlayerEditForm,
    PlayerMergeForm,
    PlayerPaymentForm,
    RoleForm,
)
from clubs.models import Role
from clubs.page_kit.display import club_money
from clubs.page_kit.pages import GET, club_for_page, club_url, form_post, found
from config.errors import InvalidInput, ServiceError
from pages.views import _settings_page, club_home_page, player_page_view
from scoring.club_settings import preset_create
from scoring.formats import handler_for
from scoring.preset_rules import game_rules_from
from tournaments.services import merge as tournament_merge


@login_required
@require_POST
def member_role(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    membership = found(selectors.membership_get, club=club, membership_id=membership_id)
    form = RoleForm(request.POST)

    def change() -> HttpResponse:
        changed = services.membership_change_role(
            membership=membership, actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            role=form.cleaned_data["role"],
        )  # fmt: skip
        messages.success(
            request,
            gettext("%(who)s is now %(role)s.")
            % {"who": changed.user.get_username(), "role": changed.get_role_display().lower()},
        )
        return redirect(club_url("club-home", club) + "#members")

    page = partial(club_home_page, request, club, form_name="members")
    return form_post(form, change, page, fields={"role"})


@login_required
@require_POST
def member_remove(request: HttpRequest, club_slug: str, membership_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    membership = found(selectors.membership_get, club=club, membership_id=membership_id)

    def remove() -> HttpResponse:
        services.membership_remove(
            membership=membership, actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
        )  # fmt: skip
        messages.success(
            request,
            gettext("%(who)s is no longer a member.") % {"who": membership.user.get_username()},
        )
        return redirect(club_url("club-home", club) + "#members")

    return form_post(None, remove, partial(club_home_page, request, club, form_name="members"))


@login_required
@require_POST
def player_rename(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    club = club_for_page(request, club_slug, Role.ORGANISER)
    player = found(selectors.player_get, club=club, player_id=player_id)
    form = PlayerEditForm(request.POST)

    def rename() -> HttpResponse:
        renamed = services.player_update(
            player=player,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            name=form.cleaned_data["name"],
        )
        messages.success(
            request,
            gettext("Renamed: %(name)s. Their history is unchanged.") % {"name": renamed.name},
        )
        return redirect(club_url("player-page", club, player.pk))

    page = partial(player_page_view, request, club, player.pk, form_name="player")
    return form_post(form, rename, page, fields={"name"})


@login_required
@require_POST
def player_details(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """A player's nickname, email, phone and membership number, kept by an organiser."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    player = found(selectors.player_get, club=club, player_id=player_id)
    form = PlayerDetailsForm(request.POST)

    def save() -> HttpResponse:
        services.player_update(
            player=player,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            **form.cleaned_data,
        )
        messages.success(request, gettext("%(name)s's details are saved.") % {"name": player.name})
        return redirect(club_url("player-page", club, player.pk))

    page = partial(player_page_view, request, club, player.pk, form_name="details")
    return form_post(form, save, page, fields=set(services.PLAYER_DETAILS))


@login_required
@require_POST
def player_payment(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """A player's payment details (UPI id, payment link), set by the player or an organiser."""
    club = club_for_page(request, club_slug)
    player = found(selectors.player_get, club=club, player_id=player_id)
    form = PlayerPaymentForm(request.POST)

    def save() -> HttpResponse:
        services.player_update(
            player=player,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            upi_id=form.cleaned_data["upi_id"],
            payment_link=form.cleaned_data["payment_link"],
        )
        messages.success(
            request, gettext("%(name)s's payment details are saved.") % {"name": player.name}
        )
        return redirect(club_url("player-page", club, player.pk))

    page = partial(player_page_view, request, club, player.pk, form_name="payment")
    return form_post(form, save, page, fields={"upi_id", "payment_link"})


@login_required
@require_POST
def player_retire(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """Retire a player (no new seats; the history stays) or restore them."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    player = found(selectors.player_get, club=club, player_id=player_id)
    active = request.POST.get("active") == "1"

    def retire() -> HttpResponse:
        services.player_update(
            player=player,
            actor=request.user,
            actor_role=club.caller_role,  # type: ignore[attr-defined]
            active=active,
        )
        said = (
            gettext("%(name)s is playing again.")
            if active
            else gettext("%(name)s is retired: no new seats, the history stays.")
        )
        messages.success(request, said % {"name": player.name})
        return redirect(club_url("player-page", club, player.pk))

    page = partial(player_page_view, request, club, player.pk, form_name="player")
    return form_post(None, retire, page)


@login_required
@require_POST
def player_merge(request: HttpRequest, club_slug: str, player_id: int) -> HttpResponse:
    """Merge this player (a duplicate entry) into the one chosen: the history moves there."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    player = found(selectors.player_get, club=club, player_id=player_id)
    form = PlayerMergeForm(request.POST)

    def merge() -> HttpResponse:
        target = selectors.player_pick(
            club=club,
            field="into",
            player_id=form.cleaned_data["into"],
            name=form.cleaned_data["into_name"],
        )
        kept = tournament_merge.player_merge(source=player, target=target, actor=request.user)
        messages.success(
            request,
            gettext("%(name)s is merged into %(kept)s: the history is all here now.")
            % {"name": player.name, "kept": kept.name},
        )
        return redirect(club_url("player-page", club, kept.pk))

    page = partial(player_page_view, request, club, player.pk, form_name="merge")
    return form_post(form, merge, page, fields={"into", "confirm"})


@login_required
@require_POST
def club_details(request: HttpRequest, club_slug: str) -> HttpResponse:
    """The club's name, currency, time zone and confirmation (owners)."""
    club = club_for_page(request, club_slug, Role.OWNER)
    form = ClubForm(request.POST)

    def update() -> HttpResponse:
        updated = services.club_update(club=club, actor=request.user, **form.changes())
        messages.success(request, gettext("The club's details are saved."))
        return redirect(club_url("club-settings", updated) + "#club")

    page = partial(_settings_page, request, club, form_name="club")
    return form_post(form, update, page, fields=set(ClubForm.base_fields))


@login_required
@require_POST
def preset_new(request: HttpRequest, club_slug: str) -> HttpResponse:
    """A preset of the club's own, or a new version of one (games keep the version they use)."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    data = request.POST

    def create() -> HttpResponse:
        try:
            params = json.loads(data.get("params") or "{}")
        except json.JSONDecodeError as exc:
            raise InvalidInput(
                "params: "
                + gettext("not JSON (%(why)s at character %(position)s)")
                % {"why": exc.msg, "position": exc.pos}
            ) from None
        if not isinstance(params, dict):
            raise InvalidInput("params: " + gettext("give an object of settings, e.g. {}"))
        preset = preset_create(
            club=club, actor=request.user, key=(data.get("key") or "").strip(),
            name=(data.get("name") or "").strip(), format=data.get("format") or "",
            variant=data.get("variant") or "", params=params,
        )  # fmt: skip
        messages.success(
            request,
            gettext("Preset “%(name)s” version %(version)s is saved.")
            % {"name": preset.shown_name, "version": preset.version},
        )
        return redirect(club_url("club-settings", club) + "#presets")

    page = partial(_settings_page, request, club, form_name="presets")
    return form_post(None, create, page, fields={"key", "name", "format", "variant", "params"})


@login_required
@GET
def preset_preview(request: HttpRequest, club_slug: str) -> HttpResponse:
    """What a deal under the preset being written would score: the table and the rate, and what
    the preset's format says of its own rules (``preset_preview``). A fragment the settings form
    fetches as the organiser types; nothing is stored."""
    club = club_for_page(request, club_slug, Role.ORGANISER)
    query = request.GET
    context: dict[str, object] = {"club": club}
    try:
        params = json.loads(query.get("params") or "{}")
        if not isinstance(params, dict):
            raise InvalidInput("params: " + gettext("give an object of settings, e.g. {}"))
        rules = game_rules_from(
            format=query.get("format") or "", variant=query.get("variant") or "", params=params
        )
    except json.JSONDecodeError as exc:
        context["problem"] = "params: " + gettext("not JSON yet (%(why)s)") % {"why": exc.msg}
    except ServiceError as exc:
        context["problem"] = exc.message
    else:
        context["rules"] = rules
        context["preview"] = handler_for(rules.format).preset_preview(rules=rules)
        context["point_value"] = club_money(club, rules.point_value_minor)
    return render(request, "clubs/_preset_preview.html", context)
