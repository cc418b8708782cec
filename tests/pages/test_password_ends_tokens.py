"""A new password, by the account page or by the mailed reset link, ends every key the old
one stood behind: the person's API tokens and the apps they signed in to answer 401, while
another person's keys keep working."""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib.auth.tokens import default_token_generator
from django.test import Client
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode
from oauth2_provider.models import AccessToken, Application, RefreshToken

from clubs.models import ApiToken
from clubs.signin.services import api_token_create

OLD, NEW = "the-old-pass-123", "a-new-pass-456!"


def _keys(standing, user, name: str) -> tuple[str, str]:
    """A personal token and an app's access token (with its refresh token) of ``user``."""
    _, personal = api_token_create(
        user=user, name=f"{name} scores", scopes=["read"], club_slugs=[standing.club.slug]
    )
    app = Application.objects.create(
        name=f"{name} app", client_type=Application.CLIENT_PUBLIC,
        authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
        redirect_uris="http://127.0.0.1:9/cb", algorithm="",
    )  # fmt: skip
    access = AccessToken.objects.create(
        user=user, application=app, token=f"app-{name}", scope=f"read club:{standing.club.pk}",
        expires=timezone.now() + timedelta(hours=1),
    )  # fmt: skip
    RefreshToken.objects.create(user=user, application=app, token=f"refresh-{name}",
                                access_token=access)  # fmt: skip
    return personal, f"app-{name}"


def _answer(key: str) -> int:
    return Client(HTTP_AUTHORIZATION=f"Bearer {key}").get("/api/v1/clubs/").status_code


def _all_answer(keys: tuple[str, str]) -> list[int]:
    return [_answer(key) for key in keys]


def test_a_password_changed_on_the_account_page_ends_the_persons_tokens(standing):
    organiser, other = standing.organiser, standing.scorer
    organiser.set_password(OLD)
    organiser.save()
    mine, theirs = _keys(standing, organiser, "mine"), _keys(standing, other, "theirs")
    assert _all_answer(mine) == [200, 200] and _all_answer(theirs) == [200, 200]
    page = Client()
    page.force_login(organiser)
    changed = page.post("/account/password/", {
        "old_password": OLD, "new_password1": NEW, "new_password2": NEW,
    })  # fmt: skip
    assert changed.status_code == 302 and changed["Location"] == "/account/password/done/"
    assert _all_answer(mine) == [401, 401]
    assert _all_answer(theirs) == [200, 200]  # another person's keys go on
    assert not ApiToken.objects.filter(user=organiser, revoked_at__isnull=True).exists()
    assert not RefreshToken.objects.filter(user=organiser, revoked__isnull=True).exists()
    assert page.get("/account/").status_code == 200  # the page's own session stays signed in


def test_a_refused_change_ends_nothing(standing):
    organiser = standing.organiser
    organiser.set_password(OLD)
    organiser.save()
    mine = _keys(standing, organiser, "mine")
    page = Client()
    page.force_login(organiser)
    refused = page.post("/account/password/", {
        "old_password": "not-it", "new_password1": NEW, "new_password2": NEW,
    })  # fmt: skip
    assert refused.status_code == 200
    assert _all_answer(mine) == [200, 200]


def test_a_password_set_by_the_mailed_reset_link_ends_the_persons_tokens(standing):
    organiser = standing.organiser
    mine = _keys(standing, organiser, "mine")
    uid = urlsafe_base64_encode(force_bytes(organiser.pk))
    token = default_token_generator.make_token(organiser)
    browser = Client()
    # Django sends the link's token on to a page of its own before the form.
    form = browser.get(f"/account/password/reset/{uid}/{token}/")
    assert form.status_code == 302
    set_password = browser.post(form["Location"], {"new_password1": NEW, "new_password2": NEW})
    assert set_password.status_code == 302
    assert re.match(r"/account/password/reset/done/", set_password["Location"])
    assert _all_answer(mine) == [401, 401]
