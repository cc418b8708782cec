"""Players imported from a sheet: reading CSV, XLSX and pastes, the headers matched loosely, each
row's errors by column, the duplicates against the roster with their choices, and the confirm:
nothing stored before it, everything in one transaction, the same sheet twice changing nothing."""

from __future__ import annotations

import io
import zipfile
from typing import Any

import openpyxl
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clubs.models import AuditEntry, Player
from clubs.player_import import MERGE, NEW, SKIP, players_import, rows_checked
from clubs.player_sheet import MAX_BYTES, header_column, sheet_from_paste, sheet_read
from config.errors import InvalidInput


def _xlsx(rows: list[list[Any]]) -> bytes:
    workbook = openpyxl.Workbook()
    sheet = workbook.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    out = io.BytesIO()
    workbook.save(out)
    return out.getvalue()


def _zip_of_text() -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        archive.writestr("hello.txt", "a zip, but no workbook in it")
    return out.getvalue()


def _confirm_rows(preview: Any, **changed: tuple[str, int | None]) -> list[dict[str, Any]]:
    """The preview's rows sent back as a confirm sends them, with some choices changed (by row
    number as a string)."""
    rows = []
    for row in preview.rows:
        choice, into = changed.get(str(row.number), (row.choice, row.merge_into))
        rows.append({"row": row.number, **row.values, "choice": choice, "merge_into": into})
    return rows


@pytest.mark.parametrize(
    ("header", "column"),
    [
        ("Name", "name"), (" NAME ", "name"), ("Player name", "name"), ("E-Mail", "email"),
        ("email address", "email"), ("Mobile No.", "phone"), ("Phone", "phone"),
        ("Membership No", "membership_number"), ("membership_number", "membership_number"),
        ("UPI ID", "upi_id"), ("upi_id", "upi_id"), ("Nick Name", "nickname"),
        ("Favourite game", None), ("", None),
    ],
)  # fmt: skip
def test_headers_are_matched_loosely(header, column):
    assert header_column(header) == column


def test_a_csv_file_is_read_with_its_columns_and_row_numbers():
    content = (
        b"Player Name,E-mail,Mobile,Membership No.,UPI ID,Favourite\n"
        b"Arjun Rao,arjun@example.com,+91 98450 12345,M-1,arjun@okhdfc,pool\n"
        b"\n"
        b"Bhavna,,,\n"
    )
    sheet = sheet_read(content=content, filename="players.csv")
    assert list(sheet.columns) == ["name", "email", "phone", "membership_number", "upi_id"]
    assert sheet.ignored == ["Favourite"]
    assert [number for number, _ in sheet.rows] == [2, 4]
    assert sheet.rows[0][1]["phone"] == "+91 98450 12345"
    assert sheet.rows[1][1] == {
        "name": "Bhavna", "email": "", "phone": "", "membership_number": "", "upi_id": "",
    }  # fmt: skip


def test_a_semicolon_csv_in_the_windows_code_page_is_read():
    content = "Name;Nickname\nZoë;Z\n".encode("cp1252")
    sheet = sheet_read(content=content, filename="roster.csv")
    assert sheet.rows == [(2, {"name": "Zoë", "nickname": "Z"})]


def test_an_xlsx_file_made_by_openpyxl_is_read():
    content = _xlsx(
        [["Name", "Phone", "Membership number"], ["Charu", 9845012345, 17], [None, None, None],
         ["Dev", "080 2222 3333", "M-18"]]
    )  # fmt: skip
    sheet = sheet_read(content=content, filename="roster.xlsx")
    assert sheet.rows == [
        (2, {"name": "Charu", "phone": "9845012345", "membership_number": "17"}),
        (4, {"name": "Dev", "phone": "080 2222 3333", "membership_number": "M-18"}),
    ]


def test_a_paste_of_names_is_one_player_each():
    assert [cells["name"] for _, cells in sheet_from_paste(text="Arjun, Bhavna, Charu").rows] == [
        "Arjun", "Bhavna", "Charu",
    ]  # fmt: skip
    lines = sheet_from_paste(text="Name\nArjun\n\nBhavna; Charu\n").rows
    assert [(n, c["name"]) for n, c in lines] == [(1, "Arjun"), (2, "Bhavna"), (3, "Charu")]


def test_cells_pasted_from_a_spreadsheet_keep_their_columns():
    sheet = sheet_from_paste(text="Name\tPhone\nArjun\t98450 12345\nBhavna\t\n")
    assert sheet.rows == [
        (2, {"name": "Arjun", "phone": "98450 12345"}),
        (3, {"name": "Bhavna", "phone": ""}),
    ]


@pytest.mark.parametrize(
    ("content", "filename", "code"),
    [
        (b"\x89PNG\r\n\x1a\n\x00\x00", "photo.png", "not_a_sheet"),
        (b"name\nArjun\n", "roster.pdf", "not_a_sheet"),
        (b"PK\x03\x04 not really a zip", "roster.xlsx", "not_a_sheet"),
        (b"\xd0\xcf\x11\xe0 old excel", "roster.xls", "not_a_sheet"),
        (b"Email,Phone\na@b.co,123456\n", "roster.csv", "no_name_column"),
        (b"", "roster.csv", "empty_sheet"),
        (b"Name\n" + b"x" * MAX_BYTES, "roster.csv", "file_too_big"),
        (b'Name\n"' + b"x" * 200_000 + b'"\n', "one-huge-cell.csv", "not_a_sheet"),
        (_zip_of_text(), "not-a-workbook.xlsx", "not_a_sheet"),
    ],
)
def test_a_file_that_cannot_be_read_is_refused_naming_the_file(content, filename, code):
    with pytest.raises(InvalidInput) as refused:
        sheet_read(content=content, filename=filename)
    assert refused.value.code == code
    assert refused.value.message.startswith("file: ")


def test_each_rows_errors_name_their_column(standing):
    content = (
        "Name,Email,Phone,UPI id,Nickname\n"
        "Arjun,not-an-email,,,\n"
        ",x@example.com,,,\n"
        "Bhavna,,12,,\n"
        f"{'K' * 81},,,,\n"
        "Charu,,,charu-at-bank,\n"
        f"Dev,,,,{'n' * 41}\n"
        "Esha,esha@example.com,9845012345,esha@ybl,Eshu\n"
        "esha ,ESHA@example.com,,,\n"
    ).encode()
    preview = rows_checked(club=standing.club, sheet=sheet_read(content=content, filename="a.csv"))
    errors = {row.number: row.errors for row in preview.rows}
    assert set(errors[2]) == {"email"} and errors[2]["email"].startswith("not valid")
    assert errors[3] == {"name": "empty: every row needs a name"}
    assert set(errors[4]) == {"phone"}
    assert errors[5] == {"name": "too long: at most 80 characters (81)"}
    assert set(errors[6]) == {"upi_id"}
    assert set(errors[7]) == {"nickname"}
    assert errors[8] == {}
    assert errors[9] == {
        "name": "duplicate in the file: the same name as row 8",
        "email": "duplicate in the file: the same email as row 8",
    }
    assert all(row.choice == SKIP and row.choices == [SKIP] for row in preview.rows if row.errors)
    assert preview.rows[6].choice == NEW and preview.rows[6].values["phone"] == "9845012345"
    assert Player.objects.filter(club=standing.club).count() == 3  # nothing stored


def _roster(standing) -> dict[str, Player]:
    club = standing.club
    Player.objects.filter(club=club, name="Asha").update(email="asha@example.com")
    made = {
        "Zoë Dsouza": Player.objects.create(club=club, name="Zoë Dsouza"),
        "Ravi Kumar": Player.objects.create(club=club, name="Ravi Kumar", phone="+919845000001"),
        "Gopalan": Player.objects.create(club=club, name="Gopalan", membership_number="M-7"),
    }
    return {p.name: p for p in Player.objects.filter(club=club)} | made


def test_duplicates_against_the_roster_and_their_default_choices(standing):
    players = _roster(standing)
    text = (
        "Name,Email,Phone,Membership number,Nickname\n"
        "asha,,,,Ash\n"  # same name but for case
        "Zoe  DSouza,,,,\n"  # accents and spacing
        "Kumar Ravi,,,,\n"  # the words in another order
        "Someone,ASHA@example.com,,,\n"  # same email
        "Ravi K,,098450 00001,,\n"  # same phone, with a trunk 0
        "Gopal,,,M-7,\n"  # same membership number
        "Chitraa,,,,\n"  # one letter from Chitra
        "Nandini,,,,\n"  # no one
    )
    preview = rows_checked(club=standing.club, sheet=sheet_from_paste(text=text))
    found = {row.number: row for row in preview.rows}
    asha, zoe, ravi = players["Asha"].pk, players["Zoë Dsouza"].pk, players["Ravi Kumar"].pk
    assert (found[2].choice, found[2].merge_into) == (MERGE, asha)
    assert found[2].matches[0].reasons == ["same name (case, accents or spacing)"]
    assert found[2].fills == {"nickname": "Ash"}
    assert NEW not in found[2].choices  # the name is taken: merge or skip
    assert (found[3].choice, found[3].merge_into) == (MERGE, zoe)
    assert (found[4].choice, found[4].merge_into) == (MERGE, ravi)
    assert found[4].matches[0].reasons == ["same name, words in another order"]
    assert (found[5].choice, found[5].merge_into) == (MERGE, asha)
    assert found[5].matches[0].reasons == ["same email"]
    assert (found[6].choice, found[6].merge_into) == (MERGE, ravi)
    assert found[6].matches[0].reasons == ["same phone"]
    assert (found[7].choice, found[7].merge_into) == (MERGE, players["Gopalan"].pk)
    # a similar name alone is offered, but the default is a new player
    assert found[8].choice == NEW and found[8].matches[0].reasons == ["similar name"]
    assert found[8].matches[0].player_id == players["Chitra"].pk
    assert found[9].choice == NEW and found[9].matches == []


def test_the_three_choices_are_written_as_chosen(standing):
    players = _roster(standing)
    text = "Name,Email,Phone\nChitraa,c@example.com,\nasha,,98450 11111\nNandini,,\nBilal,,\n"
    preview = rows_checked(club=standing.club, sheet=sheet_from_paste(text=text))
    rows = _confirm_rows(preview, **{"2": (MERGE, players["Chitra"].pk), "5": (SKIP, None)})
    result = players_import(club=standing.club, actor=standing.organiser, rows=rows)
    assert [p.name for p in result.created] == ["Nandini"]
    assert sorted(p.name for p in result.merged) == ["Asha", "Chitra"]
    assert result.skipped == 1 and result.unchanged == 0
    chitra = Player.objects.get(pk=players["Chitra"].pk)
    assert chitra.email == "c@example.com" and chitra.name == "Chitra"
    asha = Player.objects.get(pk=players["Asha"].pk)
    assert (asha.email, asha.phone) == ("asha@example.com", "9845011111")  # only empty filled
    assert not Player.objects.filter(name__in=["Chitraa", "asha"]).exists()
    assert AuditEntry.objects.filter(action="player.create", object_id=str(result.created[0].pk),
                                     after__source="import").exists()  # fmt: skip


def test_nothing_is_stored_before_the_confirm_and_the_same_sheet_twice_changes_nothing(standing):
    content = _xlsx(
        [["Name", "Email", "Phone", "Membership number", "UPI id"],
         ["Arjun", "arjun@example.com", "+91 98450 12345", "M-1", "arjun@okhdfc"],
         ["Bhavna", "", "", "", ""], ["asha", "asha@example.com", "", "", ""]]
    )  # fmt: skip
    club = standing.club
    before = (Player.objects.count(), AuditEntry.objects.count())
    preview = rows_checked(club=club, sheet=sheet_read(content=content, filename="r.xlsx"))
    assert (Player.objects.count(), AuditEntry.objects.count()) == before
    first = players_import(club=club, actor=standing.organiser, rows=_confirm_rows(preview))
    assert sorted(p.name for p in first.created) == ["Arjun", "Bhavna"]
    assert [p.name for p in first.merged] == ["Asha"]
    arjun = Player.objects.get(club=club, name="Arjun")
    assert (arjun.phone, arjun.upi_id, arjun.membership_number) == (
        "+919845012345", "arjun@okhdfc", "M-1",
    )  # fmt: skip
    stored = list(Player.objects.filter(club=club).order_by("pk").values())
    audits = AuditEntry.objects.count()
    again = rows_checked(club=club, sheet=sheet_read(content=content, filename="r.xlsx"))
    assert all(row.choice == MERGE and not row.fills for row in again.rows)
    second = players_import(club=club, actor=standing.organiser, rows=_confirm_rows(again))
    assert (second.created, second.merged, second.unchanged) == ([], [], 3)
    assert list(Player.objects.filter(club=club).order_by("pk").values()) == stored
    assert AuditEntry.objects.count() == audits


def test_a_refused_row_refuses_the_lot_naming_row_and_column(standing):
    text = "Name,Email\nNandini,\nOmar,not-an-email\n"
    preview = rows_checked(club=standing.club, sheet=sheet_from_paste(text=text))
    rows = _confirm_rows(preview, **{"3": (NEW, None)})
    with pytest.raises(InvalidInput) as refused:
        players_import(club=standing.club, actor=standing.organiser, rows=rows)
    assert refused.value.message.startswith("row 3: email: not valid")
    assert refused.value.details == {"rows": {"3": {"email": preview.rows[1].errors["email"]}}}
    assert not Player.objects.filter(name="Nandini").exists()
    rows = _confirm_rows(preview, **{"2": (NEW, None), "3": (SKIP, None)})
    rows[0]["name"] = "Asha"  # a new player of a name the roster holds
    with pytest.raises(InvalidInput) as taken:
        players_import(club=standing.club, actor=standing.organiser, rows=rows)
    assert taken.value.message.startswith("row 2: choice: 'new' is not possible")
    nul = [{"row": 1, "name": "Nan\x00dini", "choice": NEW}]
    with pytest.raises(InvalidInput) as refused_nul:
        players_import(club=standing.club, actor=standing.organiser, rows=nul)
    assert refused_nul.value.message.startswith("row 1: name: a NUL character cannot be stored")


def test_the_confirm_writes_in_one_transaction(standing):
    """New players in one statement, merges in another, their audit entries in two more; a
    membership number taken meanwhile refuses the whole import."""
    rows = [{"row": n, "name": f"Player {n:03}", "choice": NEW} for n in range(1, 101)]
    rows.append({"row": 101, "name": "asha", "email": "asha@example.com", "choice": MERGE,
                 "merge_into": Player.objects.get(name="Asha").pk})  # fmt: skip
    with CaptureQueriesContext(connection) as queries:
        result = players_import(club=standing.club, actor=standing.organiser, rows=rows)
    assert len(result.created) == 100 and len(result.merged) == 1
    sql = [q["sql"] for q in queries.captured_queries]
    assert sum(1 for q in sql if q.startswith('INSERT INTO "clubs_player"')) == 1
    assert sum(1 for q in sql if q.startswith('INSERT INTO "clubs_auditentry"')) == 2
    assert sum(1 for q in sql if q.startswith('UPDATE "clubs_player"')) == 1  # the merge
    Player.objects.filter(name="Bilal").update(membership_number="M-9")
    clash = [{"row": 1, "name": "Nandini", "choice": NEW},
             {"row": 2, "name": "Omar", "membership_number": "m-9", "choice": NEW}]  # fmt: skip
    count = Player.objects.count()
    with pytest.raises(InvalidInput) as refused:
        players_import(club=standing.club, actor=standing.organiser, rows=clash)
    assert refused.value.message == "row 2: membership_number: already Bilal's"
    assert Player.objects.count() == count
