from rules.evaluate import evaluate_request


def test_unknown_game_is_an_error_answer():
    answer = evaluate_request({"id": 7, "game": "poker"})
    assert answer == {
        "id": 7,
        "error": {
            "code": "bad_game",
            "message": "unknown game 'poker': use one of indian, rummikub",
            "token": "poker",
        },
    }
