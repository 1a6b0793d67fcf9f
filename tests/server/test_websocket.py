"""The game websocket: what a seat and a spectator are sent, moves, refusals, bots."""

from __future__ import annotations

import json
import time

import pytest

import cubegames
from cubegames.server.app import create_app
from cubegames.server.protocol import BURST, MAX_MESSAGE
from tests.server.helpers import BOTH, HUMAN, Socket, TestClient, bot, connect, make_game, token


def stored_moves(client: TestClient, game_id: str) -> list[str]:
    return [m["move"] for m in client.get(f"/api/games/{game_id}").json()["moves"] if "move" in m]


def test_a_seat_gets_its_view_and_its_legal_moves_never_a_drawing(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1})
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=7)
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        hello, first = ws.opening()
    assert hello["seat"] == 0 and hello["game"] == "cubed"
    assert hello["info"]["palette"]["G"]["name"] == "green"
    assert any("Black sides touch nothing" in line for line in hello["rules"])
    assert first["view"] == state.view(0)
    assert first["legal"] == [str(m) for m in state.legal_moves()]
    assert "svg" not in first and hello["protocol"] == 2
    assert first["hints"] == {"open": [[0, 0]], "dead": []} and first["last"] is None
    assert first["ply"] == 0 and first["to_move"] == 0 and not first["over"]


def test_a_spectator_sees_the_public_view_and_cannot_move(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1})
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=7)
    with connect(client, made["id"]) as session:
        ws = Socket(session)
        hello, first = ws.opening()
        assert hello["seat"] is None
        assert first["view"] == state.public_view()
        assert first["legal"] == [] and first["view"]["hands"][0] is None
        ws.move("draw")
        refused = ws.error()
    assert refused["code"] == "spectator" and "spectator" in refused["message"]
    assert stored_moves(client, made["id"]) == []


def test_a_wrong_token_or_game_is_told_and_closed(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    with connect(client, made["id"], "not-a-token") as session:
        ws = Socket(session)
        said = ws.receive()
        closed = ws.receive()
    assert said["type"] == "error" and "does not open any seat" in said["message"]
    assert closed == {"type": "closed", "code": 4403}
    with connect(client, "nope") as session:
        ws = Socket(session)
        said = ws.receive()
        closed = ws.receive()
    assert "there is no game 'nope'" in said["message"]
    assert closed == {"type": "closed", "code": 4404}


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "a message is a JSON object"),
        ('{"move": "draw"}', 'needs a "type"'),
        ('{"type": "dance"}', "unknown message type 'dance'"),
        ('{"type": "move"}', "move message: move: Field required"),
        ('{"type": "move", "move": 3}', "move message: move: Input should be a valid string"),
        ('{"type": "move", "move": "draw", "x": 1}', "x: is not a field of this message"),
        ('{"type": "move", "move": "draw", "ply": -1}', "ply: Input should be greater than"),
        ('{"type": "move", "move": ""}', "move: String should have at least 1 character"),
        ("x" * (MAX_MESSAGE + 1), "message too long"),
    ],
)
def test_garbage_gets_an_error_naming_the_problem_and_changes_nothing(
    client: TestClient, raw: str, expected: str
) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1})
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.send_text(raw)
        refused = ws.error()
        ws.send({"type": "ping"})
        assert ws.until(lambda m: m["type"] in ("pong", "state"))["type"] == "pong"
    assert expected in refused["message"], refused
    assert stored_moves(client, made["id"]) == []


def test_a_flood_is_dropped_with_one_slow_down_and_the_game_goes_on(db_url: str) -> None:
    moment = [0.0]
    with TestClient(create_app(db_url, clock=lambda: moment[0])) as client:
        _flood_then_move(client, moment)


def _flood_then_move(client: TestClient, moment: list[float]) -> None:
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        for _ in range(3 * BURST):
            ws.send({"type": "ping"})
        heard = [ws.until(lambda m: m["type"] in ("pong", "error"))]
        while heard[-1]["type"] != "error":
            heard.append(ws.until(lambda m: m["type"] in ("pong", "error")))
        moment[0] += 1.5  # long enough to earn a few messages back
        ws.move("Y@0,0,0")
        played = ws.state(ply=1)
    told = [json.loads(t) for t in ws.transcript]
    assert BURST <= len(heard) - 1 <= BURST + 2  # the burst's pongs, then the error
    assert [m["code"] for m in told if m["type"] == "error"] == ["slow-down"]
    assert "too many messages" in heard[-1]["message"]
    assert played["log"][-1]["text"] == (
        "You stacked a yellow cube on the bottom layer, row 1 from the front, 1st from the left."
    )
    assert played["log"][-1]["move"] == "Y@0,0,0"  # its notation, for the page's hover
    assert stored_moves(client, made["id"]) == ["Y@0,0,0"]


def test_a_binary_frame_is_refused(client: TestClient) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        session.send_bytes(b'{"type": "move", "move": "roll"}')
        refused = ws.error()
    assert "binary frames are not read" in refused["message"]
    assert stored_moves(client, made["id"]) == []


def test_an_illegal_move_gets_the_engines_reason_and_changes_nothing(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, HUMAN], {"rounds": 1})
    state = cubegames.make("cubed", players=2, rounds=1).new_state(seed=7)
    with pytest.raises(cubegames.IllegalMove) as engine:
        state.clone().play("pass")
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.move("pass")
        refused = ws.error()
        ws.move("GPY@5,5")
        unreadable = ws.error()
    assert refused == {"type": "error", "message": str(engine.value), "code": "illegal"}
    assert unreadable["code"] == "illegal" and unreadable["message"]
    assert stored_moves(client, made["id"]) == []


def test_out_of_turn_and_stale_moves_are_refused(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    with (
        connect(client, made["id"], token(made, 0)) as first,
        connect(client, made["id"], token(made, 1)) as second,
    ):
        zero, one = Socket(first), Socket(second)
        zero.opening()
        one.opening()
        one.move("K@0,0,0")
        out_of_turn = one.error()
        zero.move("K@0,0,0", ply=0)
        zero.state(ply=1)
        zero.move("K@1,0,0", ply=0)
        stale = zero.error()
    assert out_of_turn["code"] == "turn" and "seat 0 is to move" in out_of_turn["message"]
    assert stale["code"] == "stale"
    assert stored_moves(client, made["id"]) == ["K@0,0,0"]


@BOTH
def test_everyone_sees_a_move_as_it_happens(client: TestClient) -> None:
    made = make_game(client, "stakd", [HUMAN, HUMAN])
    with (
        connect(client, made["id"], token(made, 0)) as a,
        connect(client, made["id"], token(made, 1)) as b,
        connect(client, made["id"]) as c,
    ):
        mover, other, watcher = Socket(a), Socket(b), Socket(c)
        _, first = mover.opening()
        other.opening()
        watcher.opening()
        mover.move(first["legal"][0])
        seen = [s.state(ply=1) for s in (mover, other, watcher)]
    assert [s["seat"] for s in seen] == [0, 1, None]
    assert all(s["to_move"] == 1 for s in seen)
    assert seen[1]["said"] == "Seat 0 laid a BASE on the bottom layer."
    assert seen[0]["said"].startswith("You laid a BASE")


@BOTH
@pytest.mark.parametrize("game", ["cubed", "unstackable", "stakd", "cubes"])
def test_a_bot_answers_on_the_server(client: TestClient, game: str) -> None:
    made = make_game(client, game, [HUMAN, bot("greedy")])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, first = ws.opening()
        ws.move(first["legal"][0])
        mine = ws.state(ply=1)
        # in Unstackable a turn may be several cubes: the bot's answer is the next state
        # in which the bot has moved
        answered = ws.until(lambda m: m["type"] == "state" and m["log"][-1]["seat"] == 1)
    assert mine["log"][-1]["seat"] == 0
    assert answered["log"][-1]["text"].startswith("Seat 1 ")


def test_the_server_stays_responsive_while_a_bot_thinks(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, bot("mcts:seconds=1")])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.move("Y@0,0,0")
        ws.state(ply=1)
        started = time.monotonic()
        ws.send({"type": "ping"})
        ws.until(lambda m: m["type"] == "pong")
        answered_in = time.monotonic() - started
        ws.state(ply=2)
        thought = time.monotonic() - started
    assert answered_in < 0.5 < thought


@BOTH
def test_two_moves_at_once_are_played_one_after_the_other(client: TestClient) -> None:
    made = make_game(client, "cubes", [HUMAN, HUMAN])
    seat = token(made, 0)
    with (
        connect(client, made["id"], seat) as a,
        connect(client, made["id"], seat) as b,
    ):
        pages = [Socket(a), Socket(b)]
        for page in pages:
            page.opening()
        for page in pages:
            page.move("roll", ply=0)
        heard: list[dict[str, object]] = []
        for page in pages:
            # a page's messages are handled in order, so its answer to the roll comes
            # before its answer to the ping
            page.send({"type": "ping"})
            heard += page.transcript_until_pong()
    refusals = [m for m in heard if m["type"] == "error"]
    assert len(refusals) == 1 and refusals[0]["code"] == "stale"
    assert stored_moves(client, made["id"]) == ["roll"]
