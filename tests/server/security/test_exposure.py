"""What a stranger with a script reads about other people's games without being asked in:
an account's public page must not list a private table (its link is its invitation: with
the id, anyone may watch it and read its spectators' chat)."""

from __future__ import annotations

from tests.server.accounting import browser, post, quick_app, sign_up
from tests.server.helpers import TestClient


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
