"""A plug-in game with secret hands (High card, tests/hidden_plugin.py) at the web app: each
seat's frames hold its own hand only, and a table of two seats at one screen is told to hide
each hand behind the pass screen (`hello.info.hidden_hands`), as CUBED's is, while a game
whose seats all see the same (Nim) is not."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

import cubegames
from cubegames.render import web
from cubegames.server.app import create_app
from cubegames.server.limits import Limits
from tests import conformance, hidden_plugin
from tests.server.helpers import HUMAN, Socket, TestClient, connect, make_game, token


@pytest.fixture
def highcard() -> Iterator[None]:
    with hidden_plugin.registered():
        yield


@pytest.mark.usefixtures("highcard")
def test_a_hot_seat_table_of_a_plug_in_with_secret_hands_hides_them(client: TestClient) -> None:
    made = make_game(client, "highcard", [HUMAN, HUMAN], {"players": 2, "cards": 3})
    hands = cubegames.make("highcard", cards=3).new_state(7).to_dict()["hands"]
    for seat in (0, 1):
        with connect(client, made["id"], token(made, seat)) as session:
            ws = Socket(session)
            hello, first = ws.opening()
            assert hello["info"] == {"generic": True, "title": "High card", "hidden_hands": True}
            assert first["view"]["hand"] == sorted(hands[seat])
            # nothing of the other hand in any frame: each card of it is told nowhere
            other = hands[1 - seat]
            frames = " ".join(ws.transcript)
            assert '"hands"' not in frames
            assert all(f'"play {c}"' not in frames for c in other), frames
            assert json.loads(ws.transcript[-1])["view"]["held"] == [3, 3]


@pytest.mark.usefixtures("highcard")
def test_a_spectator_of_a_plug_in_that_keeps_the_default_public_view_sees_no_hand(
    client: TestClient,
) -> None:
    """High card has no `public_view` of its own: a spectator's frames and the replay of the
    game in play show what every seat sees alike, never seat 0's hand (the default was
    `view(0)`)."""
    made = make_game(client, "highcard", [HUMAN, HUMAN], {"players": 2, "cards": 3})
    public = {"game": "highcard", "options": {"players": 2, "cards": 3}, "held": [3, 3]}
    with connect(client, made["id"]) as session:
        ws = Socket(session)
        hello, first = ws.opening()
        assert hello["seat"] is None
        assert first["view"] == {**public, "played": [], "seat": None}
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, mine = ws.opening()
        ws.move(f"play {mine['view']['hand'][0]}", 0)
        ws.state(1)
    replay = client.get(f"/api/games/{made['id']}/replay", params={"ply": 1}).json()
    assert replay["view"] == {
        **public,
        "held": [2, 3],
        "played": [mine["view"]["hand"][0]],
        "seat": None,
    }


def test_a_plug_in_whose_seats_all_see_the_same_needs_no_pass_screen() -> None:
    assert web.info(cubegames.make("nim"))["hidden_hands"] is False
    assert web.info(cubegames.make("cubed", players=2))["hidden_hands"] is True


@pytest.mark.usefixtures("highcard")
def test_the_hidden_plug_in_keeps_the_contract() -> None:
    for seed in range(3):
        conformance.playout("highcard", {"players": 3}, seed, deep=True)
        conformance.check_clone("highcard", {"cards": 3}, seed)


@pytest.mark.usefixtures("highcard")
def test_a_plug_ins_rules_failing_on_a_move_refuse_it_and_keep_the_connection(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A plug-in's `parse_move` that raises something else than `IllegalMove` on text it did
    not expect (a KeyError): the move is refused as unreadable, in words that tell nothing of
    the game, the rules' error is logged, and the page stays connected (the server dropped
    the connection)."""

    def sloppy(self: Any, text: str) -> Any:
        return {"play 1": hidden_plugin.Play(1)}[text]

    monkeypatch.setattr(hidden_plugin.HighCard, "parse_move", sloppy)
    made = make_game(client, "highcard", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.move("play 99", 0)
        error = ws.error()
        assert error["message"] == "this move cannot be read"
        assert error["code"] == "illegal" and error["refusal"]["code"] == "unreadable"
        ws.send({"type": "ping"})
        assert ws.until(lambda m: m["type"] in ("pong", "closed"))["type"] == "pong"
    assert "the rules failed on the move 'play 99'" in caplog.text


@pytest.mark.usefixtures("highcard")
def test_a_bot_that_fails_on_a_plug_in_tells_the_pages_nothing_of_its_hand(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every page is told that a bot failed, in the room's words only: the game's own error
    (here naming the bot's hand, as a plug-in's message may) stays in the server's log (it
    was sent to every seat, as was the move a bot tried that the rules refused)."""

    def no_deal(self: Any, view: Any, seat: int, rng: Any) -> Any:
        raise ValueError(f"cannot deal around the hand {view['hand']}")

    monkeypatch.setattr(hidden_plugin.HighCard, "determinize", no_deal)
    # the bots think in this process, where High card is registered and its bot fails
    app = create_app(db_url, bot_delay=0, limits=Limits(bot_processes=0))
    bot_hand = cubegames.make("highcard").new_state(7).to_dict()["hands"][1]
    with TestClient(app) as client:
        made = make_game(client, "highcard", [HUMAN, {"kind": "bot", "bot": "greedy"}])
        with connect(client, made["id"], token(made, 0)) as session:
            ws = Socket(session)
            _, first = ws.opening()
            ws.move(f"play {first['view']['hand'][0]}", 0)
            error = ws.until(lambda m: m["type"] == "error" and m["code"] == "bot")
            assert error["message"] == "the bot of seat 1 failed: ValueError"  # its kind only
            frames = " ".join(ws.transcript)
            assert "cannot deal" not in frames and str(bot_hand) not in frames


@pytest.mark.usefixtures("highcard")
def test_a_plug_ins_rules_failing_after_a_move_close_the_page_in_one_line(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A plug-in's `legal_moves` that raises once a card is played (a KeyError naming the
    hands, as its words may): the page that moved is told the game failed, by the error's kind
    only, and closed with 4500 (the server dropped it with a traceback of the ASGI app); the
    error is in the server's log."""
    plain = hidden_plugin.HighCardState.legal_moves

    def failing(self: Any) -> Any:
        if self.played:
            raise KeyError(f"the hand {self.hands}")
        return plain(self)

    monkeypatch.setattr(hidden_plugin.HighCardState, "legal_moves", failing)
    made = make_game(client, "highcard", [HUMAN, HUMAN])
    with (
        connect(client, made["id"], token(made, 1)) as other,
        connect(client, made["id"], token(made, 0)) as session,
    ):
        Socket(other).opening()
        ws = Socket(session)
        _, first = ws.opening()
        ws.move(f"play {first['view']['hand'][0]}", 0)  # seat 1's legal moves then fail
        error = ws.error()
        assert error["message"] == "the game failed: KeyError"
        assert ws.receive() == {"type": "closed", "code": 4500}
        assert "the hand" not in " ".join(ws.transcript)
    assert "game " + made["id"] + " failed" in caplog.text


@pytest.mark.usefixtures("highcard")
def test_a_plug_ins_view_failing_late_in_a_game_is_a_409_in_replays(
    client: TestClient, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A plug-in's `view` that raises once a card is played (its words naming the hands):
    the replay of that move is a 409 saying the game cannot be shown there (it was a 500),
    telling nothing of the error's words; the server's log has it."""
    made = make_game(client, "highcard", [HUMAN, HUMAN])
    with connect(client, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        _, first = ws.opening()
        ws.move(f"play {first['view']['hand'][0]}", 0)
        ws.until(lambda m: m["type"] == "state")
    plain = hidden_plugin.HighCardState.view

    def failing(self: Any, seat: int) -> Any:
        if self.played:
            raise KeyError(f"the hand {self.hands}")
        return plain(self, seat)

    monkeypatch.setattr(hidden_plugin.HighCardState, "view", failing)
    late = client.get(f"/api/games/{made['id']}/replay?ply=1")
    assert late.status_code == 409, late.text
    assert "cannot be shown at move 1" in late.json()["detail"]
    assert "the hand" not in late.text
    assert "failed to show move 1" in caplog.text
    # the seat's own record of the game so far (its moves in words) likewise, when the
    # plug-in's words of a move fail
    from cubegames.server import records

    def words_failing(*args: Any, **kwargs: Any) -> Any:
        raise KeyError("the hand of seat 1")

    monkeypatch.setattr(records.web, "worded", words_failing)
    record = client.get(
        f"/api/games/{made['id']}/record", headers={"Authorization": f"Bearer {token(made, 0)}"}
    )
    assert record.status_code == 409 and "the hand" not in record.text
