"""The roster's contact details on the player page and in the API, the roster's search by
nickname and phone, and players imported through the "Import players" page and the API: the
preview stores nothing, the confirm stores the rows as chosen, a file that cannot be read is a
400 naming the file. The desk's paste of names enters one player a name."""

from __future__ import annotations

import base64
import html
import io
import json
import re

import openpyxl
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from clubs.models import Player
from clubs.player_sheet import MAX_BYTES
from tests.api.test_errors import assert_error
from tests.tournaments.helpers import new_tournament

PAGE = "/clubs/home/players/import/"
API = "/api/v1/clubs/home/players/import"


def _client(standing, who: str = "organiser") -> Client:
    client = Client()
    client.force_login(getattr(standing, who))
    return client


def test_contact_details_are_kept_from_the_player_page_and_shown(standing):
    asha = Player.objects.get(club=standing.club, name="Asha")
    client = _client(standing)
    url = f"/clubs/home/players/{asha.pk}/details/"
    details = {"nickname": "Ash", "email": "asha@example.com", "phone": "+91 98450-12345",
               "membership_number": "M-1"}  # fmt: skip
    assert client.post(url, details).status_code == 302
    asha.refresh_from_db()
    assert (asha.nickname, asha.email, asha.phone, asha.membership_number) == (
        "Ash", "asha@example.com", "+919845012345", "M-1",
    )  # fmt: skip
    page = _client(standing, "player").get(f"/clubs/home/players/{asha.pk}/").content.decode()
    assert 'href="tel:+919845012345"' in page and "asha@example.com" in page
    assert 'action="/clubs/home/players/' not in page.split("player-details")[0]  # no form
    bilal = Player.objects.get(club=standing.club, name="Bilal")
    taken = client.post(f"/clubs/home/players/{bilal.pk}/details/",
                        {**details, "email": "", "phone": ""})  # fmt: skip
    assert taken.status_code == 409 and "membership_number" in taken.content.decode()
    long = client.post(url, {**details, "nickname": "N" * 500}).content.decode()
    assert "Nickname: Ensure this value has at most 40" in long  # refused, never cut
    bad = client.post(url, {**details, "email": "not an email"})
    assert bad.status_code == 400 and 'id="player-email"' in bad.content.decode()
    asha.refresh_from_db()
    assert asha.email == "asha@example.com"


def test_the_roster_is_searched_by_name_nickname_and_phone(standing):
    Player.objects.filter(name="Asha").update(nickname="Ashu", phone="+919845012345")
    Player.objects.filter(name="Bilal").update(nickname="Billu")
    client = _client(standing, "player")

    def found(q: str) -> list[str]:
        page = client.get("/clubs/home/players/", {"q": q}).content.decode()
        return re.findall(r'href="/clubs/home/players/\d+/">([^<]+)</a>', page)

    assert found("bil") == ["Bilal"]
    assert found("BILLU") == ["Bilal"]
    assert found("ash") == ["Asha"]
    assert found("98450 123") == ["Asha"]
    assert found("12") == []  # two digits are not a phone search
    api = standing.client("player").get("/api/v1/clubs/home/players/", {"q": "billu"}).json()
    assert [p["name"] for p in api["results"]] == ["Bilal"]
    assert api["results"][0]["nickname"] == "Billu" and "membership_number" in api["results"][0]


def test_the_page_previews_a_csv_stores_nothing_then_imports_as_chosen(standing):
    client = _client(standing)
    players = client.get("/clubs/home/players/").content.decode()
    assert f'href="{PAGE}"' in players
    sheet = b"Name,Email,Phone\nArjun,arjun@example.com,98450 11111\nasha,,\nOmar,bad,\n"
    upload = SimpleUploadedFile("players.csv", sheet, content_type="text/csv")
    preview = client.post(PAGE, {"file": upload, "preview": "1"})
    shown = preview.content.decode()
    assert preview.status_code == 200 and shown.count("<tr data-row=") == 3
    assert "same name (case, accents or spacing)" in shown and "not valid" in shown
    assert Player.objects.filter(club=standing.club).count() == 3
    rows = re.search(r'name="rows" value="([^"]+)"', shown)
    assert rows is not None
    asha = Player.objects.get(name="Asha").pk
    posted = {"rows": html.unescape(rows[1]), "confirm": "1", "choice-2": "new",
              "choice-3": f"merge:{asha}", "choice-4": "skip"}  # fmt: skip
    done = client.post(PAGE, posted)
    assert done.status_code == 302 and done["Location"] == "/clubs/home/players/"
    arjun = Player.objects.get(club=standing.club, name="Arjun")
    assert (arjun.email, arjun.phone) == ("arjun@example.com", "9845011111")
    assert not Player.objects.filter(name__in=["Omar", "asha"]).exists()
    again = client.post(PAGE, {**posted, "choice-2": "new"})  # Arjun is on the roster now
    assert again.status_code == 400 and "row 2: choice: &#x27;new&#x27; is not possible" in (
        again.content.decode()
    )
    assert Player.objects.filter(club=standing.club).count() == 4
    shown = again.content.decode()
    assert shown.count("<tr data-row=") == 3  # the preview again, to put it right
    assert 'value="merge:' in shown and "Arjun: same email, same name" in shown
    lost = client.post(PAGE, {"rows": "[{", "confirm": "1"})
    assert lost.status_code == 400 and "rows: the preview was lost" in lost.content.decode()


def test_a_file_that_is_no_sheet_is_a_400_naming_the_file_on_the_page(standing):
    client = _client(standing)
    cases = [
        (SimpleUploadedFile("photo.png", b"\x89PNG\r\n\x00"), "not a CSV or XLSX file"),
        (SimpleUploadedFile("big.csv", b"Name\n" + b"a" * MAX_BYTES), "KB are read"),
        (SimpleUploadedFile("r.csv", b"Email\nx@example.com\n"), "no name column"),
    ]
    for upload, words in cases:
        refused = client.post(PAGE, {"file": upload, "preview": "1"})
        assert refused.status_code == 400, upload.name
        assert words in refused.content.decode(), upload.name
    assert Player.objects.filter(club=standing.club).count() == 3


def _xlsx_base64(rows: list[list[object]]) -> str:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return base64.b64encode(out.getvalue()).decode()


def test_the_api_previews_and_imports_an_xlsx_file(standing):
    api = standing.client("organiser")
    file = _xlsx_base64([["Name", "Mobile No."], ["Arjun", 9845011111], ["chitra", None]])
    body = {"file_base64": file, "filename": "players.xlsx"}
    preview = api.post(f"{API}/preview/", body, format="json")
    assert preview.status_code == 200, preview.content
    rows = preview.json()["rows"]
    assert [(r["row"], r["choice"]) for r in rows] == [(2, "new"), (3, "merge")]
    assert rows[1]["matches"][0]["name"] == "Chitra" and rows[0]["values"]["phone"] == "9845011111"
    assert Player.objects.filter(club=standing.club).count() == 3
    sent = [{"row": r["row"], **r["values"], "choice": r["choice"],
             "merge_into": r["merge_into"]} for r in rows]  # fmt: skip
    done = api.post(f"{API}/", {"rows": sent}, format="json")
    assert done.status_code == 200, done.content
    assert [p["name"] for p in done.json()["created"]] == ["Arjun"]
    assert done.json()["unchanged"] == 1
    again = api.post(f"{API}/", {"rows": sent[1:]}, format="json").json()
    assert (again["created"], again["merged"], again["unchanged"]) == ([], [], 1)


def test_the_api_refuses_what_it_cannot_read_naming_the_field(standing):
    api = standing.client("organiser")
    no_names = base64.b64encode(b"x,y\n1,2\n").decode()
    for body, field, code in [
        ({"file_base64": "***", "filename": "a.csv"}, "file_base64", "invalid"),
        ({"file_base64": no_names, "filename": "a.csv"}, "file", "no_name_column"),
        ({"file_base64": no_names, "filename": "a.pdf"}, "file", "not_a_sheet"),
        ({}, "text", "invalid"),
    ]:
        error = assert_error(api.post(f"{API}/preview/", body, format="json"), 400, code)
        assert error["message"].startswith(f"{field}: "), error
    bad_row = [{"row": 1, "name": "Nandini", "email": "nope", "choice": "new"}]
    error = assert_error(api.post(f"{API}/", {"rows": bad_row}, format="json"), 400, "invalid")
    assert error["message"].startswith("row 1: email: not valid")
    assert error["details"]["rows"]["1"]["email"].startswith("not valid")
    assert not Player.objects.filter(name="Nandini").exists()


def test_the_desks_paste_of_three_names_with_commas_enters_three(standing):
    cup = new_tournament(standing)
    url = f"/clubs/home/tournaments/{cup.pk}/entries/paste/"
    added = _client(standing).post(url, {"names": "Arjun, Bhavna, Charu", "add": "1"})
    assert added.status_code == 302
    assert sorted(cup.entries.values_list("player__name", flat=True)) == [
        "Arjun", "Bhavna", "Charu",
    ]  # fmt: skip


def test_the_preview_page_carries_its_rows_as_json(standing):
    page = _client(standing).post(PAGE, {"text": "Arjun, Bhavna, Charu", "preview": "1"})
    rows = re.search(r'name="rows" value="([^"]+)"', page.content.decode())
    assert rows is not None
    assert [r["name"] for r in json.loads(html.unescape(rows[1]))] == ["Arjun", "Bhavna", "Charu"]
