"""What a stranger with a script reads about other people's games without being asked in:
an account's public page must not list a private table (its link is its invitation: with
the id, anyone may watch it and read its spectators' chat)."""

from __future__ import annotations

from tests.server.accounting import browser, post, quick_app, sign_up
from tests.server.helpers import Socket, TestClient, connect


def test_a_players_page_lists_no_private_game(db_url: str) -> None:
    app = quick_app(db_url)
    with browser(app) as ada:
        sign_up(ada, "ada")
        made = {}
        for public in (False, True):
            answer = post(
                ada,
                "/api/games",
                json={
                    "game": "cubed",
                    "seats": [{"kind": "human"}, {"kind": "human", "invite": True}],
                    "public": public,
                },
            )
            assert answer.status_code == 201, answer.text
            made[public] = answer.json()["id"]
        mine = {g["id"] for g in ada.get("/api/account/games").json()}
        assert mine >= set(made.values())  # her own list has both
    with TestClient(app) as stranger:
        page = stranger.get("/api/players/ada").json()
    listed = {g["id"] for g in page["games"]}
    assert made[True] in listed
    assert made[False] not in listed


def test_a_game_that_no_longer_replays_is_told_without_its_move(client: TestClient) -> None:
    """A stored move that no longer replays (an engine fixed since, a row written behind
    the app's back) is named by its number only: its notation and the engine's reason
    could name a piece of a hidden hand (a kept draw, a bot's placement)."""
    from cubegames.server.storage import HUMAN, NewSeat, Store

    store: Store = client.app.state.server.store
    game_id, _ = store.create("cubed", {"rounds": 1}, 2**70, [NewSeat(HUMAN), NewSeat(HUMAN)])
    store.add_move(game_id, 1, 0, "GPY@0,0", None)  # most likely in no hand of this deal
    with connect(client, game_id) as session:
        ws = Socket(session)
        said = ws.receive()
        assert ws.receive() == {"type": "closed", "code": 4500}
    answers = [client.get(f"/api/games/{game_id}{path}") for path in ("/turn", "/replay")]
    told = [said["message"], *(a.json()["detail"] for a in answers)]
    assert all(a.status_code == 409 for a in answers)
    for words in told:
        assert f"move 1 of game {game_id}" in words, words
        assert "GPY" not in words and "hand" not in words, words
