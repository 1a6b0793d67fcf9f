"""A bot's seat tried as an attacker: a take-back and another move, made while the bot
thinks (or waits out its least time a move), bring the game back to the same move number
on another position; the bot must think again, not play the move it chose for the old
one (which the rules may refuse, or which fits a position nobody is in). And a bot's move
the rules refuse is never told to the pages: it names a piece of the bot's hidden hand."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from cubegames.core.game import Move, State
from cubegames.server.app import create_app
from cubegames.server.bots import BotRunner
from cubegames.server.rooms import Room
from tests.server.helpers import HUMAN, Socket, TestClient, bot, connect, make_game, token


@pytest.fixture
def slow_bots(tmp_path: Path) -> Iterator[TestClient]:
    """An app whose bots take at least a second a move: the window a person's page has to
    change the game under a bot that has chosen already."""
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=1.0)
    with TestClient(app) as client:
        yield client


def test_a_take_back_and_another_move_under_a_thinking_bot_make_it_think_again(
    slow_bots: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    thought: list[dict[str, Any]] = []
    thinking = threading.Event()
    think = BotRunner._think

    async def watched(
        self: BotRunner, room: Room, seat: int, bots: Any, snapshot: State[Any]
    ) -> Move:
        thought.append(snapshot.to_dict())
        thinking.set()
        return await think(self, room, seat, bots, snapshot)

    monkeypatch.setattr(BotRunner, "_think", watched)
    made = make_game(slow_bots, "cubed", [HUMAN, bot("random")], {"rounds": 1})
    with connect(slow_bots, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, start = ws.opening()
        first, other = [m for m in start["legal"] if m.endswith("@0,0")][:2]
        ws.move(first, 0)
        ws.state(1)
        assert thinking.wait(10)  # the bot has its position: now change the game under it
        ws.send({"type": "undo"})
        ws.state(0)
        ws.move(other, 0)
        ws.state(1)
        answered = ws.until(
            lambda m: m["type"] == "error" or (m["type"] == "state" and m["ply"] == 2)
        )
    assert answered["type"] == "state", answered
    assert answered["trouble"] is None
    # the move the bot played was thought on the position the game is in
    assert thought[-1]["table"] != thought[0]["table"]
    assert len(thought) == 2


def bot_fails_after_a_placement(client: TestClient) -> tuple[dict[str, Any], str, str]:
    """Seat 0 lays a piece in a CUBED game against a bot whose thinking the test has
    broken: the error the page is told, everything seat 0 heard until a ping's pong, and
    the game's id."""
    made = make_game(client, "cubed", [HUMAN, bot("random")], {"rounds": 1})
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, start = ws.opening()
        ws.move(next(m for m in start["legal"] if "@" in m), 0)
        failed = ws.error()
        ws.send({"type": "ping"})
        heard = ws.transcript_until_pong()
    return failed, " ".join([failed["message"], *ws.transcript, *map(str, heard)]), made["id"]


def test_a_bots_refused_move_is_not_told_to_the_pages(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    held: list[str] = []

    async def wrong(
        self: BotRunner, room: Room, seat: int, bots: Any, snapshot: State[Any]
    ) -> Move:
        hand = snapshot.to_dict()["hands"][seat]
        held.extend(hand)
        parsed: Move = room.game.parse_move(f"{hand[0]}@40,40")  # far from every piece
        return parsed

    monkeypatch.setattr(BotRunner, "_think", wrong)
    failed, told, _game = bot_fails_after_a_placement(client)
    assert failed["code"] == "bot" and "seat 1" in failed["message"]
    assert held[0] not in told
    assert "40,40" not in told


def test_a_bots_exception_is_told_by_its_kind_only(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(
        self: BotRunner, room: Room, seat: int, bots: Any, snapshot: State[Any]
    ) -> Move:
        raise KeyError(f"no {snapshot.to_dict()['hands'][seat][0]} here")

    monkeypatch.setattr(BotRunner, "_think", broken)
    failed, _told, game_id = bot_fails_after_a_placement(client)
    assert failed["message"] == "the bot of seat 1 failed: KeyError"
    # a page opened since is told it in its state, as a phrase of the catalogs too (a
    # Japanese page showed the English words inside its sentence)
    with connect(client, game_id) as session:
        Socket(session).error()  # the bot woke with the page and failed again
        with connect(client, game_id) as later:
            _, state = Socket(later).opening()
    assert state["trouble"] == "the bot of seat 1 failed: KeyError"
    assert state["trouble_say"] == ["trouble-bot-failed", {"who": {"seat": 1}}]


def test_take_backs_in_one_game_are_bounded(tmp_path: Path) -> None:
    """A move and a take-back over and over (against a bot, nobody has to agree) would
    keep a row each and grow every state the pages are sent: a game takes at most
    `Limits.takebacks_per_game`, then says so and keeps nothing more."""
    from cubegames.server.limits import Limits

    app = create_app(
        f"sqlite:///{tmp_path / 'games.sqlite3'}", bot_delay=0, limits=Limits(takebacks_per_game=3)
    )
    with TestClient(app) as client:
        made = make_game(client, "unstackable", [HUMAN, bot("random")])
        with connect(client, made["id"], token(made, 0)) as session:
            ws = Socket(session)
            _, start = ws.opening()
            move = start["legal"][0]
            for _ in range(3):
                ws.move(move, 0)
                ws.state(1)
                ws.send({"type": "undo"})
                assert ws.state(0)["to_move"] == 0
            ws.move(move, 0)
            ws.state(1)
            ws.send({"type": "undo"})
            refused = ws.error()
        assert refused["code"] == "undo-many" and "3 take-backs" in refused["message"]
        assert len(client.get(f"/api/games/{made['id']}").json()["takebacks"]) == 3


def test_a_take_back_never_puts_a_piece_a_bot_showed_back_in_its_hand(client: TestClient) -> None:
    """Against a bot nobody has to agree to a take-back: past a bot's piece laid from its
    hidden hand, take-back after take-back (and another move each time) would show the
    bot's whole hand. Such a take-back is refused, and the game is as it was."""
    made = make_game(client, "cubed", [HUMAN, bot("greedy")], {"rounds": 1})
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, state = ws.opening()
        for _ in range(20):
            placing = next(m for m in state["legal"] if "@" in m)
            ws.move(placing, state["ply"])
            state = ws.until(
                lambda m, ply=state["ply"]: (
                    m["type"] == "state" and m["to_move"] == 0 and m["ply"] > ply + 1
                )
            )
            if "@" in (state["last"]["move"] or "") and state["last"]["seat"] == 1:
                break  # the bot laid a piece: it has shown it
        else:
            pytest.fail("the bot never laid a piece")
        ws.send({"type": "undo"})
        refused = ws.error()
        assert refused["code"] == "undo-hidden", refused
        ws.send({"type": "ping"})
        after = ws.transcript_until_pong()
    assert not any(m["type"] == "state" for m in after)  # nothing taken back
    detail = client.get(f"/api/games/{made['id']}").json()
    assert detail["takebacks"] == [] and len(detail["moves"]) == state["ply"]
