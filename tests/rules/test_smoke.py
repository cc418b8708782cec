from rules.evaluate import evaluate_request


def test_unknown_game_is_an_error_answer():
    answer = evaluate_request({"id": 7, "game": "poker"})
    assert answer == {
        "id": 7,
        "error": {
            "player": None,
            "player_name": None,
            "seat": None,
            "code": "bad_game",
            "message": "unknown game 'poker': use one of indian, okey, rummikub",
            "token": "poker",
            "details": {},
        },
    }


def test_batch_command_survives_an_unreadable_number(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    source = tmp_path / "in.jsonl"
    huge = "9" * 5000
    source.write_text(f'{{"id": 1, "decks": {huge}}}\n{{"id": 2, "game": "x"}}\n')
    repo = Path(__file__).resolve().parents[2]
    result = subprocess.run(
        [sys.executable, "manage.py", "evaluate_hands", "--input", str(source)],
        cwd=repo, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    first, second = result.stdout.splitlines()
    assert '"code":"bad_json"' in first
    assert '"id":2' in second and "bad_game" in second
