"""The tutorials' routes (server/tutorials.py): a tutorial game is an ordinary game dealt as
the script says, its moves checked by the rules; the host hands the other seats to the bot
once the guided moves are played, and nobody else can."""

from __future__ import annotations

from typing import Any

import pytest

import cubegames
from cubegames.core import tutorial
from tests.server.helpers import HUMAN, Socket, TestClient, connect, make_game, token


def start(client: TestClient, game: str) -> dict[str, Any]:
    response = client.post(f"/api/tutorials/{game}")
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def host(made: dict[str, Any]) -> dict[str, str]:
    return {"Authorization": f"Bearer {made['host']}"}


def test_the_games_with_a_tutorial_are_listed(client: TestClient) -> None:
    listed = client.get("/api/tutorials").json()["games"]
    assert listed[:4] == ["cubed", "unstackable", "stakd", "cubes"]
    assert "nim" in listed  # the plug-in's own (tests/plugin_game)
    script = client.get("/api/tutorials/stakd").json()
    assert script["learner"] == 0 and script["from"] == 0
    assert script["steps"][0] == {
        "seat": 0,
        "move": "BASE@0:0,0+0,1+1,0+1,1+2,0+2,1",
        "say": "tutorial-stakd-base",
        "text": None,
    }


@pytest.mark.parametrize("game", ["nope", "cube"])
def test_a_game_without_a_tutorial_is_a_404_in_words(client: TestClient, game: str) -> None:
    for response in (client.get(f"/api/tutorials/{game}"), client.post(f"/api/tutorials/{game}")):
        assert response.status_code == 404
        assert response.json()["detail"] == f"{game} has no tutorial"
    ja = client.get(f"/api/tutorials/{game}", headers={"Accept-Language": "ja"})
    assert ja.json()["detail"] == f"{game}にはチュートリアルがありません"


def test_a_tutorial_game_starts_after_its_setup_with_every_seat_here(client: TestClient) -> None:
    made = start(client, "unstackable")
    script = made["tutorial"]
    assert script["from"] == 32 and script["game"] == "unstackable"
    assert all("token" in s and s["kind"] == "human" for s in made["seats"])
    with connect(client, made["id"], token(made, 0)) as session:
        hello, state = Socket(session).opening()
    assert hello["seat"] == 0 and state["ply"] == 32 and state["to_move"] == 0
    assert state["legal"] and state["view"]["stage"] == "stack"


def _walk(client: TestClient, made: dict[str, Any]) -> None:
    """Play every guided step through the websockets, each seat its own."""
    script = made["tutorial"]
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], token(made, 1)) as b,
    ):
        sockets = {0: Socket(a), 1: Socket(b)}
        for s in sockets.values():
            s.opening()
        for i, step in enumerate(script["steps"]):
            ply = script["from"] + i
            sockets[step["seat"]].move(step["move"], ply)
            for s in sockets.values():
                s.state(ply + 1)


def test_the_host_hands_the_other_seat_to_the_bot_once_the_guide_is_over(
    client: TestClient,
) -> None:
    made = start(client, "cubed")
    url = f"/api/tutorials/cubed/{made['id']}/free"
    early = client.post(url, headers=host(made))
    assert early.status_code == 409
    assert early.json()["detail"] == "the guided moves are not over: 8 to go"
    _walk(client, made)
    # only the host: not a seat's credential, not nobody
    assert client.post(url).status_code == 403
    assert (
        client.post(url, headers={"Authorization": f"Bearer {token(made, 0)}"}).status_code == 403
    )
    with connect(client, made["id"], token(made, 0)) as session:
        learner = Socket(session)
        _, before = learner.opening()
        assert before["to_move"] == 1
        freed = client.post(url, headers=host(made))
        assert freed.status_code == 200, freed.text
        assert freed.json() == {"id": made["id"], "handed": [1], "bot": "random"}
        told = learner.until(lambda m: m["type"] == "seat")
        assert told == {"type": "seat", "seat": 1, "event": "zombie", "from": 9, "bot": "random"}
        # the random bot plays its move, checked by the rules as every move
        after = learner.until(lambda m: m["type"] == "state" and m["ply"] > before["ply"])
        assert after["to_move"] == 0 or after["over"]
    again = client.post(url, headers=host(made))
    assert again.status_code == 200 and again.json()["handed"] == []
    seats = client.get(f"/api/games/{made['id']}").json()["seats"]
    assert [(s["kind"], s["bot"]) for s in seats] == [("human", None), ("bot", "random")]


def test_an_ordinary_game_is_not_a_tutorial(client: TestClient) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN], {"players": 2, "sets": 1}, seed=5)
    response = client.post(f"/api/tutorials/cubes/{made['id']}/free", headers=host(made))
    assert response.status_code == 400
    assert response.json()["detail"] == "this game is not a cubes tutorial"
    gone = client.post("/api/tutorials/cubes/nosuchgame/free", headers=host(made))
    assert gone.status_code == 404


def test_every_tutorial_walks_through_the_server(client: TestClient) -> None:
    for game in ("stakd", "cubes"):
        made = start(client, game)
        _walk(client, made)
        info = client.get(f"/api/games/{made['id']}").json()
        found = tutorial.load(cubegames.make(game))
        assert found is not None
        played = [m["move"] for m in info["moves"]]
        assert played == found.setup + [s.move for s in found.steps]
