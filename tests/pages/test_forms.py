"""Forms of the pages: a service's refusal is shown on the page with its message (and the field
it names marked), with a 4xx status and never a 500; success redirects."""

from __future__ import annotations

from django.test import TestCase
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from clubs.models import ApiToken, Player
from scoring.models import Deal, RulePreset, Session, Table
from tests.pages.conftest import Pages


def test_session_create_and_empty_name(pages: Pages):
    client = pages.client("organiser")
    response = client.post(f"/clubs/{pages.slug}/sessions/new/", {"name": "Saturday"})
    session = Session.objects.get(name="Saturday")
    assert response.status_code == 302
    assert response["Location"] == f"/clubs/{pages.slug}/sessions/{session.pk}/"
    response = client.post(f"/clubs/{pages.slug}/sessions/new/", {"name": "   "})
    assert response.status_code == 400
    body = response.content.decode()
    assert 'role="alert"' in body and "Name: This field is required." in body
    assert 'aria-invalid="true"' in body


def test_player_add_duplicate_shows_the_service_message(pages: Pages):
    client = pages.client("organiser")
    assert client.post(f"/clubs/{pages.slug}/players/add/", {"name": "Gauri"}).status_code == 302
    response = client.post(f"/clubs/{pages.slug}/players/add/", {"name": "gauri"})
    assert response.status_code == 409
    body = response.content.decode()
    assert "already on the roster" in body
    assert 'value="gauri"' in body  # what was typed is kept


def test_inviting_an_account_never_tells_whether_it_exists(pages: Pages):
    client = pages.client("organiser")
    said = []
    for username in ("nobody", "outsider"):
        response = client.post(
            f"/clubs/{pages.slug}/members/add/", {"username": username, "role": "scorer"},
            follow=True,
        )  # fmt: skip
        assert response.status_code == 200
        said.append(response.content.decode().replace(username, "X"))
    message = "Invited X as Scorer: they join once they accept"  # the role by its name
    assert message in said[0] and message in said[1]
    assert not pages.s.club.memberships.filter(user__username="outsider").exists()
    # An organiser may not grant the organiser role (the form does not offer it; the service
    # refuses a crafted request).
    response = client.post(
        f"/clubs/{pages.slug}/members/add/", {"username": "outsider", "role": "organiser"}
    )
    assert response.status_code == 403
    assert "only an owner can grant" in response.content.decode()
    # The outsider sees the invitation on their home page and accepts it.
    outsider = pages.client("outsider")
    home = outsider.get("/").content.decode()
    assert "Invitations for you" in home and "invites you as scorer" in home
    invitation = pages.s.club.invitations.get(username="outsider")
    joined = outsider.post(f"/account/invitations/{invitation.pk}/", {"answer": "accept"})
    assert joined.status_code == 302 and joined["Location"] == f"/clubs/{pages.slug}/"
    assert pages.s.club.memberships.get(user__username="outsider").role == "scorer"
    assert "Invitations for you" not in outsider.get("/").content.decode()


def test_a_declined_invitation_cannot_be_accepted(pages: Pages):
    pages.client("organiser").post(
        f"/clubs/{pages.slug}/members/add/", {"username": "outsider", "role": "player"}
    )
    invitation = pages.s.club.invitations.get(username="outsider")
    outsider = pages.client("outsider")
    assert outsider.post(f"/account/invitations/{invitation.pk}/", {}).status_code == 302
    again = outsider.post(
        f"/account/invitations/{invitation.pk}/", {"answer": "accept"}, follow=True
    )
    assert "withdrawn or declined" in again.content.decode()
    assert not pages.s.club.memberships.filter(user__username="outsider").exists()
    # Someone else's invitation is not found.
    other = pages.client("player").post(
        f"/account/invitations/{invitation.pk}/", {"answer": "accept"}, follow=True
    )
    assert f"no invitation #{invitation.pk} for you" in other.content.decode()
    assert pages.s.club.memberships.get(user__username="player").role == "player"


def test_organiser_is_offered_only_roles_they_may_grant(pages: Pages):
    body = pages.client("organiser").get(f"/clubs/{pages.slug}/").content.decode()
    assert '<option value="scorer"' in body and '<option value="organiser"' not in body
    body = pages.client("owner").get(f"/clubs/{pages.slug}/").content.decode()
    assert '<option value="organiser"' in body


def test_table_create_and_duplicate(pages: Pages):
    client = pages.client("organiser")
    url = f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/tables/"
    response = client.post(url, {"name": "Back room"})
    table = Table.objects.get(name="Back room")
    assert response["Location"] == f"/clubs/{pages.slug}/tables/{table.pk}/games/new/"
    response = client.post(url, {"name": "Back room"})
    assert response.status_code == 409
    assert "already has a table named" in response.content.decode()


def test_game_create_needs_two_players_and_redirects(pages: Pages):
    client = pages.client("organiser")
    table = pages.night.game.table
    url = f"/clubs/{pages.slug}/tables/{table.pk}/games/new/"
    form = client.get(url).content.decode()
    assert "Seat 1" in form and "Money per point" in form
    preset = pages.night.game.preset_id
    response = client.post(url, {"preset": preset, "seat_1": pages.night.pid("Asha")})
    assert response.status_code == 400
    assert "seats 2 to 6 players, not 1" in response.content.decode()
    response = client.post(
        url,
        {"preset": preset, "seat_1": pages.night.pid("Asha"), "seat_2": pages.night.pid("Asha")},
    )
    assert response.status_code == 400
    assert "only one seat" in response.content.decode()
    response = client.post(
        url,
        {
            "preset": preset,
            "seat_1": pages.night.pid("Bilal"),
            "seat_2": pages.night.pid("Asha"),
            "point_value": "2.50",
        },
    )
    assert response.status_code == 302
    game = table.games.order_by("-id").first()
    assert game.point_value_minor == 250
    assert [s.player.name for s in game.seats.order_by("position")] == ["Bilal", "Asha"]


def test_deal_entry_bad_wild_is_shown(pages: Pages):
    client = pages.client("scorer")
    url = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/"
    response = client.post(url, pages.form(wild="ZZ"))
    assert response.status_code == 400
    body = response.content.decode()
    assert "wild:" in body and 'role="alert"' in body
    assert pages.night.game.deals.count() == 0
    # The cards typed are still there to fix.
    assert "9S 10S JS | 2D 3D 4D" in body


def test_closing_twice_shows_the_conflict(pages: Pages):
    client = pages.client("organiser")
    url = f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/close/"
    assert client.post(url).status_code == 302
    response = client.post(url)
    assert response.status_code == 409
    assert "already closed" in response.content.decode()


def test_entering_into_a_closed_session_is_refused_on_the_page(pages: Pages):
    client = pages.client("organiser")
    deal, _ = pages.play_deal()
    client.post(f"/clubs/{pages.slug}/sessions/{pages.night.session.pk}/close/")
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(f"/clubs/{pages.slug}/deals/{deal.pk}/result/", pages.form())
    assert response.status_code == 409
    assert "is closed" in response.content.decode()


def test_seat_add_on_the_game_page(pages: Pages):
    from clubs.models import Player

    gauri = Player.objects.create(club=pages.s.club, name="Gauri")
    client = pages.client("organiser")
    url = f"/clubs/{pages.slug}/games/{pages.night.game.pk}/seats/"
    response = client.post(url, {"player": gauri.pk})
    assert response.status_code == 409
    assert "this game is full (6 seats)" in response.content.decode()
    pages.night.game.seats.filter(player__name="Farid").delete()
    assert client.post(url, {"player": gauri.pk}).status_code == 302
    response = client.post(url, {"player": gauri.pk})
    assert response.status_code == 409
    assert "already has a seat" in response.content.decode()


TEXTS = st.one_of(
    st.text(max_size=40),
    st.sampled_from(["", " ", "10H QS JK", "2H 3H | 4H", "|||", "QX", "♠♥", "-5", "1e9", "80",
                     "winner", "loser", "first_drop", "no_winner", "\x00", "9" * 30]),
)  # fmt: skip


@settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(data=st.data())
def test_the_deal_entry_form_never_answers_500(pages: Pages, data):
    """Whatever the entry form receives, it answers a redirect (stored) or the page again with
    its problem; a refused post stores nothing."""
    form = pages.form()
    for name in data.draw(st.lists(st.sampled_from(sorted(form)), min_size=1, max_size=4)):
        form[name] = data.draw(TEXTS, label=name)
    client = pages.client("scorer")
    deals = Deal.objects.count()
    with TestCase.captureOnCommitCallbacks(execute=True):
        response = client.post(f"/clubs/{pages.slug}/games/{pages.night.game.pk}/deals/new/", form)
    assert response.status_code in (302, 400, 409, 422), (response.status_code, form)
    if response.status_code != 302:
        assert 'role="alert"' in response.content.decode()
        assert Deal.objects.count() == deals


def test_an_overlong_name_is_refused_naming_the_field_never_cut(pages: Pages):
    """A 500-character name is refused on every page that takes one, as the API refuses it: a
    4xx naming the field and its limit, nothing stored. No input carries ``maxlength``, which
    makes a browser cut a pasted name short without a word."""
    organiser, owner = pages.client("organiser"), pages.client("owner")
    slug, session = pages.slug, pages.night.session
    long_name = "N" * 500
    for client, page in (
        (organiser, f"/clubs/{slug}/"),
        (organiser, f"/clubs/{slug}/sessions/{session.pk}/"),
        (organiser, f"/clubs/{slug}/players/{pages.night.pid('Asha')}/"),
        (owner, f"/clubs/{slug}/settings/"),
        (owner, "/account/"),
        (pages.client("scorer"), f"/clubs/{slug}/games/{pages.night.game.pk}/deals/new/"),
    ):
        body = client.get(page).content.decode()
        assert "maxlength" not in body, page
    asha = pages.night.pid("Asha")
    at_most = "Ensure this value has at most"
    preset = {"key": "mine", "format": "points", "params": "{}"}
    for client, path, data, said in (
        (organiser, f"/clubs/{slug}/players/add/", {}, f"Name: {at_most} 80"),
        (organiser, f"/clubs/{slug}/players/{asha}/rename/", {}, f"Name: {at_most} 80"),
        (organiser, f"/clubs/{slug}/sessions/new/", {}, f"Name: {at_most} 120"),
        (organiser, f"/clubs/{slug}/sessions/{session.pk}/tables/", {},
         f"Table name: {at_most} 40"),
        (owner, f"/clubs/{slug}/settings/club/", {"currency": "INR", "timezone": "UTC"},
         f"Name: {at_most} 120"),
        (owner, f"/clubs/{slug}/settings/presets/", preset,
         "name: at most 120 characters (this one has 500)"),
        (owner, "/account/tokens/", {}, "name: at most 80 characters (this one has 500)"),
    ):  # fmt: skip
        response = client.post(path, {**data, "name": long_name})
        assert 400 <= response.status_code < 500, path
        assert said in response.content.decode(), path
    assert not Player.objects.filter(name__startswith="N" * 80).exists()
    assert not Session.objects.filter(name__startswith="N" * 40).exists()
    assert not Table.objects.filter(name__startswith="N" * 40).exists()
    assert not RulePreset.objects.filter(name__startswith="N" * 80).exists()
    assert not ApiToken.objects.filter(name__startswith="N" * 80).exists()
    pages.s.club.refresh_from_db()
    assert not pages.s.club.name.startswith("N" * 80)
