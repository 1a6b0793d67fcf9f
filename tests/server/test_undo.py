"""Taking moves back (BGA's policy): your last move and the bots' replies since, within
your turn online, never past a chance event or hidden information revealed (decided from
the states: `takeback.reveals`); the log loses the moves, the game's record and detail say
where they were taken back; another process's pages follow."""

from __future__ import annotations

from contextlib import ExitStack
from typing import Any

import pytest

import cubegames
from cubegames.core import chance
from cubegames.server.app import create_app
from cubegames.server.takeback import hidden_from_all, reveals
from tests.server.helpers import (
    HUMAN,
    Socket,
    TestClient,
    bot,
    connect,
    make_game,
    token,
)


def _first(state: Any, prefix: str) -> Any:
    return next(m for m in state.legal_moves() if str(m).startswith(prefix))


def test_a_draw_and_a_roll_reveal_chance_and_a_placement_does_not() -> None:
    cubed = cubegames.make("cubed")
    state = cubed.new_state(seed=3)
    before = state.clone()
    state.play(_first(state, "draw"))
    assert reveals(before, state, 2)
    before = state.clone()
    placing = next(m for m in state.legal_moves() if "@" in str(m))
    state.play(placing)
    assert not reveals(before, state, 2)
    cubes = cubegames.make("cubes")
    rolled = cubes.new_state(seed=3)
    before = rolled.clone()
    rolled.play("roll")
    assert reveals(before, rolled, 2)
    unstackable = cubegames.make("unstackable").new_state(seed=3)
    assert hidden_from_all(unstackable, 2) is None  # nothing is ever hidden


def _undo(ws: Socket) -> None:
    ws.send({"type": "undo"})


def test_against_a_bot_your_move_and_its_reply_are_taken_back(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, bot("greedy")])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, state = ws.opening()
        while not any(entry["seat"] == 1 for entry in state["log"]):  # the bot answers once
            ws.move(state["legal"][0], state["ply"])
            state = ws.until(
                lambda m, ply=state["ply"]: (
                    m["type"] == "state" and m["to_move"] == 0 and m["ply"] > ply
                )
            )
        mine = [e["ply"] for e in state["log"] if e["seat"] == 0]
        _undo(ws)
        back = ws.until(
            lambda m: m["type"] == "error" or (m["type"] == "state" and m["ply"] == mine[-1] - 1)
        )
        assert back["type"] == "state", back
        assert back["to_move"] == 0 and not back.get("patched")  # a whole state
        assert back["log"] == state["log"][: mine[-1] - 1]
        assert back["takebacks"] == [
            {"ply": mine[-1], "seat": 0, "moves": state["ply"] - mine[-1] + 1}
        ]
    detail = client.get(f"/api/games/{made['id']}").json()
    assert len(detail["moves"]) == mine[-1] - 1
    assert detail["takebacks"][0]["ply"] == mine[-1]


def test_a_move_after_a_draw_cannot_take_the_draw_back(client: TestClient) -> None:
    made = make_game(client, "cubed", [HUMAN, bot("greedy")], {"rounds": 1})
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.move("draw", 0)
        drawn = ws.state(1)
        _undo(ws)
        refused = ws.error()
        assert refused["code"] == "undo-chance" and "chance" in refused["message"]
        placing = next(m for m in drawn["legal"] if "@" in m)
        ws.move(placing, 1)
        answered = ws.until(lambda m: m["type"] == "state" and m["to_move"] == 0 and m["ply"] >= 3)
        # the placement and the bot's reply may be taken back, unless the bot drew (chance)
        # or laid a piece from its hidden hand (shown: taken back, it would be known)
        replies = [e["move"] for e in answered["log"] if e["seat"] == 1]
        first = replies[0] if replies else ""
        _undo(ws)
        if first in (None, "draw") or (first or "").startswith("draw3"):
            assert ws.error()["code"] == "undo-chance"
        elif "@" in (first or ""):
            assert ws.error()["code"] == "undo-hidden"
        else:
            back = ws.until(lambda m: m["type"] == "state" and m["ply"] == 1)
            assert back["legal"] == drawn["legal"]  # the same hand: nothing drawn again


def test_online_the_turn_passed_to_another_person_cannot_be_taken_back(
    client: TestClient,
) -> None:
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    with ExitStack() as stack:
        pages = [
            Socket(stack.enter_context(connect(client, made["id"], token(made, s)))) for s in (0, 1)
        ]
        state = pages[0].opening()[1]
        pages[1].opening()
        # seat 0 plays within its turn: one cube may be taken back while it is still its turn
        pages[0].move(state["legal"][0], 0)
        state = pages[0].state(1)
        if state["to_move"] == 0:
            _undo(pages[0])
            assert pages[0].until(lambda m: m["type"] == "state" and m["ply"] == 0)
            pages[0].move(state["log"][-1]["move"], 0)
            state = pages[0].state(1)
        while state["to_move"] == 0:
            pages[0].move(state["legal"][0], state["ply"])
            state = pages[0].state(state["ply"] + 1)
        _undo(pages[0])
        refused = pages[0].error()
    assert refused["code"] == "undo-passed"
    assert "passed to another player" in refused["message"]


def test_nothing_to_take_back_and_a_spectator_cannot(client: TestClient) -> None:
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        _undo(ws)
        assert ws.error()["code"] == "undo-none"
    with connect(client, made["id"], None) as session:
        ws = Socket(session)
        ws.opening()
        _undo(ws)
        assert ws.error()["code"] == "spectator"


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_the_record_keeps_the_line_played_on_and_says_where_it_was_taken_back(
    client: TestClient,
) -> None:
    made = make_game(client, "unstackable", [HUMAN, bot("greedy")])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, state = ws.opening()
        ws.move(state["legal"][0], 0)
        state = ws.until(lambda m: m["type"] == "state" and m["to_move"] == 0 and m["ply"] >= 1)
        _undo(ws)
        back = ws.until(lambda m: m["type"] == "state" and m["ply"] == 0)
        ws.move(back["legal"][-1], 0)
        ws.state(1)
        ws.send({"type": "resign"})
        ws.until(lambda m: m["type"] == "state" and m["over"])
    record = client.get(f"/api/games/{made['id']}/record").json()
    assert record["moves"][0] == back["legal"][-1]
    assert record["takebacks"][0]["ply"] == 1 and record["takebacks"][0]["seat"] == 0
    assert record["result"]["ended"] == "resigned"
    again = client.post("/api/records", json=record)
    assert again.status_code == 201, again.text
    assert client.get(f"/api/games/{again.json()['id']}").json()["result"]["ended"] == "resigned"


def test_a_replay_after_a_take_back_shows_the_line_played_on(client: TestClient) -> None:
    made = make_game(client, "stakd", [HUMAN, bot("greedy")])  # a piece a turn
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, start = ws.opening()
        ws.move(start["legal"][0], 0)
        ws.until(lambda m: m["type"] == "state" and m["ply"] == 2)
        before = client.get(f"/api/games/{made['id']}/replay", params={"ply": 2}).json()
        client.get(f"/api/games/{made['id']}")  # the moves in words, kept
        _undo(ws)
        ws.until(lambda m: m["type"] == "state" and m["ply"] == 0)
        ws.move(start["legal"][-1], 0)
        now = ws.until(lambda m: m["type"] == "state" and m["ply"] == 2)
    after = client.get(f"/api/games/{made['id']}/replay", params={"ply": 2}).json()
    assert after["view"] != before["view"]  # the same number of moves, another line
    assert after["last"]["move"] == now["log"][-1]["move"]
    told = client.get(f"/api/games/{made['id']}").json()["moves"]
    assert [m["move"] for m in told] == [e["move"] for e in now["log"]]


def _two_people(client: TestClient, stack: ExitStack) -> tuple[list[Socket], dict[str, Any]]:
    """An Unstackable game of two people, seat 0's first turn played: seat 1 to move."""
    made = make_game(client, "unstackable", [HUMAN, HUMAN])
    pages = [
        Socket(stack.enter_context(connect(client, made["id"], token(made, s)))) for s in (0, 1)
    ]
    state = pages[0].opening()[1]
    pages[1].opening()
    while state["to_move"] == 0:
        pages[0].move(state["legal"][0], state["ply"])
        state = pages[0].state(state["ply"] + 1)
    pages[1].state(state["ply"])
    return pages, state


def test_across_turns_a_take_back_needs_the_others_agreement(client: TestClient) -> None:
    with ExitStack() as stack:
        pages, state = _two_people(client, stack)
        last = max(e["ply"] for e in state["log"] if e["seat"] == 0)
        pages[0].send({"type": "undo-ask"})
        asked = pages[1].until(lambda m: m["type"] == "undo")
        assert (asked["event"], asked["asker"], asked["waiting"]) == ("asked", 0, [1])
        pages[0].send({"type": "undo-accept"})  # the asker cannot answer for the others
        assert pages[0].error()["code"] == "undo-none"
        pages[1].send({"type": "undo-decline"})
        declined = pages[0].until(lambda m: m["type"] == "undo")
        assert (declined["event"], declined["seat"]) == ("declined", 1)
        pages[1].send({"type": "undo-accept"})  # nothing is asked any more
        assert pages[1].error()["code"] == "undo-none"
        pages[0].send({"type": "undo-ask"})
        pages[1].until(lambda m: m["type"] == "undo" and m["event"] == "asked")
        pages[1].send({"type": "undo-accept"})
        back = pages[0].until(lambda m: m["type"] == "state" and m["ply"] == last - 1)
    assert back["to_move"] == 0 and back["takebacks"][0]["seat"] == 0


def test_a_move_made_meanwhile_voids_a_take_back_request(client: TestClient) -> None:
    with ExitStack() as stack:
        pages, state = _two_people(client, stack)
        pages[0].send({"type": "undo-ask"})
        pages[1].until(lambda m: m["type"] == "undo")
        legal = pages[1].held["legal"] if pages[1].held else []
        pages[1].move(legal[0], state["ply"])
        pages[1].state(state["ply"] + 1)
        pages[1].send({"type": "undo-accept"})
        assert pages[1].error()["code"] == "undo-none"


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_another_process_follows_a_take_back(db_url: str) -> None:
    """A game played on one process (against a bot) and watched from another: the
    take-back reaches the watcher as a whole state at the earlier move (requests for
    agreement across processes: tests/server/test_cross_process.py)."""
    one_app = create_app(db_url, bot_delay=0)
    two_app = create_app(db_url, bot_delay=0)
    with TestClient(one_app) as one, TestClient(two_app) as two, ExitStack() as stack:
        made = make_game(one, "stakd", [HUMAN, bot("greedy")])
        ws = Socket(stack.enter_context(connect(one, made["id"], token(made, 0))))
        watcher = Socket(stack.enter_context(connect(two, made["id"], None)))
        _, start = ws.opening()
        watcher.opening()
        ws.move(start["legal"][0], 0)
        ws.until(lambda m: m["type"] == "state" and m["ply"] == 2)
        watcher.until(lambda m: m["type"] == "state" and m["ply"] == 2)
        _undo(ws)
        ws.until(lambda m: m["type"] == "state" and m["ply"] == 0)
        back = watcher.until(lambda m: m["type"] == "state" and m["ply"] == 0)
        assert not back.get("patched") and back["log"] == []
        assert back["takebacks"] == [{"ply": 1, "seat": 0, "moves": 2}]


def test_a_game_of_an_older_chance_version_takes_a_move_back(client: TestClient) -> None:
    """A game dealt by chance version 1 (a record of an older release) is checked for
    chance on its own deal: on today's, its first move is not even in the hand, and
    the check broke the asker's connection."""
    seed = 2**100 + 12345
    old = chance.new_state(cubegames.make("cubed"), seed, 1)
    today = cubegames.make("cubed").new_state(seed=seed)
    move = next(str(m) for m in old.legal_moves() if "@" in str(m) and m not in today.legal_moves())
    record = {
        "format": "cubegames-record",
        "version": 1,
        "game": "cubed",
        "seed": seed,
        "chance": 1,
        "seats": [HUMAN, HUMAN],
        "moves": [],
    }
    made = client.post("/api/records", json=record).json()
    with ExitStack() as stack:
        pages = [
            Socket(stack.enter_context(connect(client, made["id"], token(made, s)))) for s in (0, 1)
        ]
        for page in pages:
            page.opening()
        pages[0].move(move, 0)
        pages[1].state(1)
        pages[0].send({"type": "undo-ask"})
        pages[1].until(lambda m: m["type"] == "undo" and m["event"] == "asked")
        pages[1].send({"type": "undo-accept"})
        back = pages[0].until(lambda m: m["type"] == "state" and m["ply"] == 0)
    assert back["takebacks"] == [{"ply": 1, "seat": 0, "moves": 1}]


def _asked_in_a_game_of_three(client: TestClient, stack: ExitStack) -> list[Socket]:
    """A CUBED game of three people, a page per seat (kept open by `stack`): seat 0 has
    laid a piece (no chance drawn) and asks to take it back; seat 1 has heard the request."""
    made = make_game(client, "cubed", [HUMAN] * 3, {"players": 3, "rounds": 1})
    pages = [
        Socket(stack.enter_context(connect(client, made["id"], token(made, s)))) for s in range(3)
    ]
    state = pages[0].opening()[1]
    for ws in pages[1:]:
        ws.opening()
    pages[0].move(next(m for m in state["legal"] if m != "draw"), 0)  # no chance drawn
    for ws in pages:
        ws.state(1)
    pages[0].send({"type": "undo-ask"})
    asked = pages[1].until(lambda m: m["type"] == "undo")
    assert asked["waiting"] == [1, 2]
    return pages


def test_a_seat_handed_to_the_bot_has_no_say_in_a_take_back(client: TestClient) -> None:
    """Seat 2 resigns (a game of three: the bot plays it on) while seat 0 asks to take its
    move back: its old page cannot decline (nor agree) for the bot, and the request no
    longer waits for it."""
    with ExitStack() as stack:
        pages = _asked_in_a_game_of_three(client, stack)
        pages[2].send({"type": "resign"})
        pages[1].until(lambda m: m["type"] == "seat" and m["event"] == "zombie")
        pages[2].send({"type": "undo-decline"})
        assert pages[2].error()["code"] == "bot-seat"
        pages[1].send({"type": "undo-accept"})  # seat 1 is to move: the bot has not moved
        back = pages[0].until(lambda m: m["type"] == "state" and m["ply"] == 0)
    assert back["takebacks"] == [{"ply": 1, "seat": 0, "moves": 1}]


def test_a_take_back_asked_by_a_seat_since_handed_to_the_bot_is_void(client: TestClient) -> None:
    with ExitStack() as stack:
        pages = _asked_in_a_game_of_three(client, stack)
        pages[0].send({"type": "resign"})
        pages[1].until(lambda m: m["type"] == "seat" and m["event"] == "zombie")
        pages[1].send({"type": "undo-accept"})
        pages[2].send({"type": "undo-accept"})
        assert pages[2].error()["code"] == "undo-none"


def test_the_last_seat_to_answer_handed_to_the_bot_lets_the_take_back_happen(
    client: TestClient,
) -> None:
    """Seat 1 agrees, then seat 2 (still to answer) resigns: nobody is left to answer, so
    the move is taken back then, not at some later answer that cannot come."""
    with ExitStack() as stack:
        pages = _asked_in_a_game_of_three(client, stack)
        pages[1].send({"type": "undo-accept"})
        agreed = pages[0].until(lambda m: m["type"] == "undo" and m["event"] == "agreed")
        assert agreed["waiting"] == [2]
        pages[2].send({"type": "resign"})
        back = pages[0].until(lambda m: m["type"] == "state" and m["ply"] == 0)
    assert back["takebacks"] == [{"ply": 1, "seat": 0, "moves": 1}]


def test_a_seat_handed_to_the_bot_before_answering_is_no_longer_waited_for(
    client: TestClient,
) -> None:
    with ExitStack() as stack:
        pages = _asked_in_a_game_of_three(client, stack)
        pages[2].send({"type": "resign"})
        told = pages[0].until(lambda m: m["type"] == "undo" and m["event"] == "waiting")
        assert (told["seat"], told["asker"], told["waiting"]) == (2, 0, [1])


def test_the_asker_handed_to_the_bot_withdraws_its_request_at_once(client: TestClient) -> None:
    with ExitStack() as stack:
        pages = _asked_in_a_game_of_three(client, stack)
        pages[0].send({"type": "resign"})
        told = pages[1].until(lambda m: m["type"] == "undo")
        assert (told["event"], told["seat"]) == ("withdrawn", 0)
        pages[1].send({"type": "undo-accept"})
        assert pages[1].error()["code"] == "undo-none"
