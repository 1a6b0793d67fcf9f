"""A seat handed to the bot (its player resigned, ran out of time or was claimed against,
in a game of three or more) is the bot's: the person who held it sees the table as a
spectator does from then on, on the page still open and on one opened again with the
old credential, in the replays and in the record of the game in play (docs/security.md,
"Hidden information")."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

from cubegames.server.app import create_app
from cubegames.server.context import Server
from cubegames.server.limits import Limits
from tests.server.helpers import HUMAN, FakeClock, Socket, TestClient, connect, token

LIMITS = Limits(messages_per_second=1000, message_burst=1000)


@pytest.fixture
def client(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    with TestClient(create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)) as made:
        yield made


def _game(client: TestClient, timed: bool = False) -> dict[str, Any]:
    response = client.post(
        "/api/games",
        json={
            "game": "cubed",
            "options": {"players": 3, "rounds": 1, "variants": ["draw3"]},
            "seats": [HUMAN] * 3,
            "clock": {"kind": "realtime", "preset": "3+2"} if timed else {"kind": "none"},
        },
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


def _bare(state: dict[str, Any], since: int = 0) -> dict[str, Any]:
    """`state` without what may differ between pages shown the same: the log's entries
    before move `since` (a page keeps those it was told while it held the seat)."""
    bare = {k: v for k, v in state.items() if k not in ("patched", "online")}
    bare["log"] = [e for e in state["log"] if e["ply"] >= since]
    return bare


def _as_spectator(page: Socket, spectator: Socket, seat: int, since: int) -> None:
    """Once the bot has played `seat` (from move `since`), `page` holds what
    `spectator` holds."""

    def bot_moved(m: dict[str, Any]) -> bool:
        log = m.get("log") or [{"seat": None}]
        return m["type"] == "state" and log[-1]["seat"] == seat and m["to_move"] != seat

    held = page.until(bot_moved)
    seen = spectator.until(lambda m: m["type"] == "state" and m["ply"] == held["ply"])
    assert held["seat"] is None and held["legal"] == []
    assert held["view"]["hands"] == [None, None, None]
    assert _bare(held, since) == _bare(seen, since)


def _held(page: Socket) -> dict[str, Any]:
    assert page.held is not None
    return page.held


def _pages(client: TestClient, made: dict[str, Any], stack: ExitStack) -> list[Socket]:
    """Seat 0's, 1's and 2's pages, and a spectator's last, each past its opening."""
    pages = [
        Socket(stack.enter_context(connect(client, made["id"], credential)))
        for credential in [token(made, seat) for seat in range(3)] + [None]
    ]
    for ws in pages:
        ws.opening()
    return pages


def test_a_resigned_player_sees_the_table_as_a_spectator_on_the_open_page_and_back(
    client: TestClient,
) -> None:
    made = _game(client)
    with ExitStack() as stack:
        pages = _pages(client, made, stack)
        mine = pages[0].held
        assert mine is not None and mine["view"]["hands"][0]  # its own hand while it plays
        pages[0].send({"type": "resign"})
        handed = pages[0].until(lambda m: m["type"] == "seat" and m["event"] == "zombie")
        assert handed["seat"] == 0
        _as_spectator(pages[0], pages[3], 0, handed["from"])  # seat 0 was to move: the bot plays
        pages[0].move("draw")
        assert pages[0].error()["code"] in ("bot-seat", "turn", "stale")
    # the old credential, opened again, is shown the table as a spectator is
    with (
        connect(client, made["id"], token(made, 0)) as session,
        connect(client, made["id"], None) as watching,
    ):
        ws, spectator = Socket(session), Socket(watching)
        hello, state = ws.opening()
        assert hello["seats"][0]["kind"] == "bot" and hello["seats"][0]["zombie_from"] == 1
        assert hello["seats"][1]["zombie_from"] is None
        assert state["seat"] is None and state["view"]["hands"] == [None, None, None]
        assert _bare(state) == _bare(spectator.opening()[1])


def test_a_player_out_of_time_sees_the_table_as_a_spectator_and_in_replays_and_records(
    client: TestClient, clock: FakeClock
) -> None:
    made = _game(client, timed=True)
    server: Server = client.app.state.server
    with ExitStack() as stack:
        pages = _pages(client, made, stack)
        moved: set[int] = set()
        while len(moved) < 3:  # every seat's first move (the clocks run from the second)
            seat, ply = _held(pages[0])["to_move"], _held(pages[0])["ply"]
            pages[seat].move(next(m for m in _held(pages[seat])["legal"] if m != "draw"), ply)
            moved.add(seat)
            for ws in pages:
                ws.state(ply + 1)
        late = _held(pages[0])["to_move"]
        clock.advance(181)
        assert client.portal.call(server.referee.check_clocks) == [made["id"]]
        handed = pages[late].until(lambda m: m["type"] == "seat" and m["event"] == "zombie")
        _as_spectator(pages[late], pages[3], late, handed["from"])
    # the seat's replay and record of the game in play stop where its player left it
    bearer = {"Authorization": f"Bearer {token(made, late)}"}
    since = client.get(f"/api/games/{made['id']}").json()["seats"][late]["zombie_from"]
    url = f"/api/games/{made['id']}/replay"
    after = client.get(url, params={"ply": since, "seat": late}, headers=bearer)
    assert after.status_code == 403 and after.json()["code"] == "error-seat-handed"
    before = client.get(url, params={"ply": since - 1, "seat": late}, headers=bearer)
    assert before.status_code == 200 and before.json()["view"]["hands"][late]
    record = client.get(f"/api/games/{made['id']}/record", headers=bearer)
    assert record.status_code == 200
    for ply, move in enumerate(record.json()["moves"], start=1):
        if ply >= since and move["seat"] == late:
            assert not move["text"].startswith("You"), move
