"""Scoring's refusals read in the reader's language: the API's in its ``Accept-Language`` (their
codes unchanged), a table link's pages in its club's. The expected words are read from the
catalogs; the English stays what it was."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import translation
from django.utils.translation import gettext as _
from rest_framework.test import APIClient

from clubs.services import club_update
from scoring import table_links
from scoring.nights import session_close
from tests.api.test_errors import assert_error
from tests.scoring.conftest import Night, make_night


@pytest.fixture(autouse=True)
def _fresh_counters() -> None:
    cache.clear()


def _in(language: str, text: str, values: dict | None = None) -> str:
    with translation.override(language):
        said = _(text)
    return said % values if values else said


def _deal(night: Night) -> dict:
    return {
        "wild": "QH",
        "results": night.results(
            Asha={"outcome": "loser", "points": 10}, Bilal={"outcome": "loser", "points": 20},
            Chitra={"outcome": "loser", "points": 30}, Dev={"outcome": "first_drop"},
            Esther={"outcome": "middle_drop"}, Farid={"outcome": "winner"},
        ),
    }  # fmt: skip


def _member(night: Night, language: str | None, who: str = "scorer") -> APIClient:
    app = night.standing.client(who)
    if language:
        app.credentials(HTTP_ACCEPT_LANGUAGE=language)
    return app


def test_a_deal_on_a_closed_night_is_refused_in_the_apps_language(standing) -> None:
    night = make_night(standing)
    session_close(session=night.session, actor=standing.organiser)
    path = f"/api/v1/clubs/home/games/{night.game.pk}/deals/"
    english = assert_error(_member(night, None).post(path, _deal(night), format="json"), 409,
                           "session_closed")  # fmt: skip
    assert english["message"] == "session 'Friday' is closed"
    for language in ("hi", "he", "de"):
        answer = _member(night, language).post(path, _deal(night), format="json")
        error = assert_error(answer, 409, "session_closed")
        assert answer["Content-Language"] == language
        expected = _in(language, "session %(name)s is closed", {"name": "'Friday'"})
        assert error["message"] == expected != english["message"]


def test_a_night_that_cannot_close_says_why_in_german(standing) -> None:
    night = make_night(standing)
    entered = _member(night, None).post(
        f"/api/v1/clubs/home/games/{night.game.pk}/deals/", _deal(night), format="json"
    )
    assert entered.status_code == 202, entered.content  # its check runs after the commit
    path = f"/api/v1/clubs/home/sessions/{night.session.pk}/close/"
    error = assert_error(_member(night, "de", "organiser").post(path), 409, "session_not_finished")
    blocker = _in("de", "%(table)s: deal %(number)s has a result being checked",
                  {"table": "Table 1", "number": 1})  # fmt: skip
    assert error["message"] == _in("de", "the night cannot close yet: %(blockers)s",
                                   {"blockers": blocker})  # fmt: skip
    assert error["details"]["blockers"][0]["message"] == blocker
    assert "Runde 1" in blocker
    english = assert_error(
        _member(night, None, "organiser").post(path), 409, "session_not_finished"
    )
    assert english["message"] == (
        "the night cannot close yet: Table 1: deal 1 has a result being checked"
    )


def test_a_table_apps_refusals_follow_accept_language(standing) -> None:
    night = make_night(standing)
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode="confirm"
    )
    api = f"/api/v1/table/{table_links.link_token(link)}"
    app = APIClient(HTTP_ACCEPT_LANGUAGE="hi")
    body = {**_deal(night), "seat": 9}
    error = assert_error(app.post(f"{api}/deals/", body, format="json"), 400, "seat_unknown")
    assert error["message"] == "seat: " + _in("hi", "this table has no seat %(number)s",
                                              {"number": 9})  # fmt: skip
    table_links.table_link_revoke(link=link, actor=standing.organiser)
    for language in ("hi", "he", "nl"):
        app = APIClient(HTTP_ACCEPT_LANGUAGE=language)
        error = assert_error(app.get(f"{api}/"), 410, "table_link_revoked")
        assert error["message"] == _in(
            language, "this table link was withdrawn by the desk; ask the desk for the new one"
        )
    english = assert_error(APIClient().get(f"{api}/"), 410, "table_link_revoked")
    assert english["message"].startswith("this table link was withdrawn by the desk")


def test_a_table_links_gone_pages_speak_the_clubs_language(standing) -> None:
    club_update(club=standing.club, actor=standing.owner, language="hi")
    night = make_night(standing)
    (link,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode="confirm"
    )
    path = table_links.link_path(link)
    phone = Client(headers={"accept-language": "en"})
    table_links.table_link_revoke(link=link, actor=standing.organiser)
    withdrawn = phone.get(path)
    assert withdrawn.status_code == 410 and withdrawn["Content-Language"] == "hi"
    body = withdrawn.content.decode()
    assert (
        _in("hi", "this table link was withdrawn by the desk; ask the desk for the new one") in body
    )
    assert _in("hi", "This table link takes no entries now") in body
    assert "withdrawn" not in body
    # A link still live whose night is closed: gone, said in the club's language too.
    club_update(club=standing.club, actor=standing.owner, language="he")
    (fresh,) = table_links.table_links_ensure(
        tables=[night.game.table], actor=standing.organiser, mode="confirm"
    )
    session_close(session=night.session, actor=standing.organiser)
    closed = phone.get(table_links.link_path(fresh))
    assert closed.status_code == 410 and closed["Content-Language"] == "he"
    assert _in("he", "this table's night is closed") in closed.content.decode()
