"""Time controls: checked when a table is made, run by the server's clock (a fake one
here: no test sleeps), told to the pages, enforced (a late move refused, a game timed out
by the referee), kept across a restart; resign and abort."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import ExitStack
from typing import Any

import pytest

import cubegames
from cubegames.server.app import create_app
from cubegames.server.clocks import Clocks, TimeControl, parse
from cubegames.server.context import Server
from cubegames.server.limits import Limits
from cubegames.server.records import to_record
from cubegames.server.rooms import forced
from cubegames.server.storage import Store
from tests.server.helpers import BOTH, HUMAN, FakeClock, Socket, TestClient, connect, token

#: the referee's own round is never due by itself: the tests call `check_clocks`
LIMITS = Limits(clock_check_seconds=3600.0)


# -- the rules of the clocks, pure ----------------------------------------------------------


def _clocks(control: TimeControl, players: int = 2) -> Clocks:
    return Clocks.start(control, players, 1000.0, 0, frozenset())


def test_a_real_time_clock_runs_from_a_seats_second_move_and_charges_its_turn() -> None:
    clocks = _clocks(TimeControl.realtime(3, 2))
    assert clocks.running() is None and clocks.deadline() is None  # seat 0's first move
    clocks.after(0, 1030.0, False, 1)  # free
    clocks.after(1, 1050.0, False, 0)  # free
    assert clocks.banks == [180.0, 180.0]
    assert clocks.running() == 0 and clocks.deadline() == 1050.0 + 180.0
    clocks.after(0, 1060.0, False, 1)  # 10 s spent, 2 s back
    assert clocks.banks == [172.0, 180.0]
    assert clocks.left(1070.0) == [172.0, 170.0]


def test_the_increment_never_lifts_a_bank_above_its_start() -> None:
    clocks = _clocks(TimeControl.realtime(3, 2))
    clocks.after(0, 1000.0, False, 1)
    clocks.after(1, 1000.0, False, 0)
    clocks.after(0, 1001.0, False, 1)  # 1 s spent, 2 s back: capped
    assert clocks.banks[0] == 180.0


def test_a_forced_ply_is_not_charged() -> None:
    clocks = _clocks(TimeControl.realtime(3, 0))
    clocks.after(0, 1000.0, False, 1)
    clocks.after(1, 1000.0, False, 0)
    clocks.after(0, 1100.0, True, 1)  # a roll, the only move: 100 s not charged
    assert clocks.banks[0] == 180.0
    clocks.after(1, 1150.0, False, 0)
    assert clocks.banks[1] == 130.0


def test_a_turn_of_several_plies_gets_the_increment_once() -> None:
    clocks = _clocks(TimeControl.realtime(1, 5))
    clocks.after(0, 1000.0, False, 1)
    clocks.after(1, 1000.0, False, 0)
    clocks.after(0, 1010.0, False, 0)  # a first cube; still seat 0's turn
    assert clocks.banks[0] == 50.0 and clocks.running() == 0
    clocks.after(0, 1020.0, False, 1)
    assert clocks.banks[0] == 45.0  # 40 left, 5 back once


def test_a_turn_based_clock_gives_each_turn_its_days() -> None:
    clocks = _clocks(TimeControl.turn(1))
    assert clocks.deadline() == 1000.0 + 86_400.0  # runs from the start
    clocks.after(0, 1000.0 + 80_000, False, 1)
    clocks.after(1, 1000.0 + 90_000, False, 0)
    assert clocks.deadline() == 1000.0 + 90_000 + 86_400.0
    assert clocks.late(1000.0 + 90_000 + 86_401.0)


def test_no_clock_runs_for_a_bot_or_without_a_time_control() -> None:
    none = _clocks(TimeControl())
    assert none.deadline() is None and none.message(0.0) is None
    bot = Clocks.start(TimeControl.turn(1), 2, 0.0, 1, frozenset({1}))
    assert bot.running() is None


def test_the_grace_scales_with_the_time_control() -> None:
    assert TimeControl.realtime(10, 5).grace() == 40.0
    assert TimeControl.realtime(30, 0).grace() == 40.0
    assert TimeControl.realtime(1, 0).grace() == 10.0
    assert 10.0 < TimeControl.realtime(3, 2).grace() < 40.0


@pytest.mark.parametrize(
    ("request_", "field"),
    [
        ({"kind": "realtime", "minutes": math.nan}, "clock.minutes"),
        ({"kind": "realtime", "minutes": math.inf}, "clock.minutes"),
        ({"kind": "realtime", "minutes": -3}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 0}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 1e-300}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 0.24}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 181}, "clock.minutes"),
        ({"kind": "realtime", "minutes": "5"}, "clock.minutes"),
        ({"kind": "realtime", "minutes": True}, "clock.minutes"),
        ({"kind": "realtime", "minutes": 5, "increment": -1}, "clock.increment"),
        ({"kind": "realtime", "minutes": 5, "increment": 61}, "clock.increment"),
        ({"kind": "realtime", "minutes": 5, "increment": math.nan}, "clock.increment"),
        ({"kind": "realtime"}, "clock.minutes"),
        ({"kind": "realtime", "preset": "1+0"}, "clock.preset"),
        ({"kind": "realtime", "preset": "3+2", "minutes": 3}, "clock.preset"),
        ({"kind": "turn", "days": 2}, "clock.days"),
        ({"kind": "turn", "days": 3.0000001}, "clock.days"),
        ({"kind": "turn"}, "clock.days"),
        ({"kind": "blitz"}, "clock.kind"),
        ({"kind": "none", "minutes": 3}, "clock.minutes"),
        ("3+2", "clock"),
    ],
)
def test_a_bad_time_control_is_refused_naming_the_field(request_: Any, field: str) -> None:
    with pytest.raises(ValueError, match=rf"^{field}:"):
        parse(request_, max_minutes=180, max_increment=60)


def test_presets_and_custom_values_are_taken() -> None:
    assert parse({"kind": "realtime", "preset": "3+2"}, max_minutes=180, max_increment=60) == (
        TimeControl.realtime(3, 2)
    )
    assert parse(
        {"kind": "realtime", "minutes": 0.5, "increment": 0}, max_minutes=180, max_increment=60
    ) == TimeControl("realtime", 30.0, 0.0)
    assert parse({"kind": "realtime", "minutes": 0.25}, max_minutes=180, max_increment=60) == (
        TimeControl("realtime", 15.0, 0.0)
    )
    assert parse({"kind": "turn", "days": 7}, max_minutes=1, max_increment=1).per_move == 7 * 86400
    assert parse(None, max_minutes=1, max_increment=1) == TimeControl()
    assert TimeControl.from_json(TimeControl.realtime(10, 5).to_json()) == TimeControl.realtime(
        10, 5
    )


# -- in the app ------------------------------------------------------------------------------


@pytest.fixture
def timed(db_url: str, clock: FakeClock) -> Iterator[TestClient]:
    """A client of an app on the fake clock."""
    with TestClient(create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)) as client:
        yield client


def _server(client: TestClient) -> Server:
    server: Server = client.app.state.server
    return server


def _timed_game(
    client: TestClient, game: str = "cubed", clock: Any = None, players: int = 2
) -> dict[str, Any]:
    response = client.post(
        "/api/games",
        json={
            "game": game,
            "options": {"players": players} if game == "cubed" else {},
            "seats": [HUMAN] * players,
            "seed": 7,
            "clock": clock or {"kind": "realtime", "preset": "3+2"},
        },
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


class Table:
    """One websocket per seat of a game, each holding the latest state it was sent."""

    def __init__(self, client: TestClient, made: dict[str, Any], stack: ExitStack) -> None:
        self.sockets = [
            Socket(stack.enter_context(connect(client, made["id"], token(made, seat))))
            for seat in range(len(made["seats"]))
        ]
        self.states = [ws.opening()[1] for ws in self.sockets]

    def catch_up(self, ply: int) -> None:
        """Every page reads up to the state after move `ply`."""
        for seat, ws in enumerate(self.sockets):
            if self.states[seat]["ply"] < ply:
                self.states[seat] = ws.state(ply)

    def play(self) -> None:
        """The seat to move plays its first legal move; every page reads the new state."""
        state = self.states[0]
        seat = state["to_move"]
        ply = state["ply"]
        legal = self.states[seat]["legal"]
        self.sockets[seat].move(legal[0], ply)
        self.catch_up(ply + 1)

    def ended(self) -> dict[str, Any]:
        """Every page reads the state that ends the game; seat 0's."""
        found = [ws.until(lambda m: m["type"] == "state" and m["over"]) for ws in self.sockets]
        return found[0]


@BOTH
def test_the_table_is_made_with_a_checked_time_control(timed: TestClient) -> None:
    response = timed.post(
        "/api/games",
        content=b'{"game": "cubed", "seats": [{"kind": "human"}, {"kind": "human"}], '
        b'"clock": {"kind": "realtime", "minutes": NaN}}',
        headers={"content-type": "application/json"},
    )
    assert response.status_code == 400
    assert response.json()["detail"].startswith("clock.minutes: expected a finite number")
    made = _timed_game(timed, clock={"kind": "turn", "days": 3})
    detail = timed.get(f"/api/games/{made['id']}").json()
    assert detail["clock"] == {"kind": "turn", "per_move": 3 * 86400.0}


def test_a_server_cap_on_the_bank_is_a_limit(db_url: str, clock: FakeClock) -> None:
    limits = Limits(clock_max_minutes=10.0, clock_check_seconds=3600.0)
    with TestClient(create_app(db_url, bot_delay=0, limits=limits, now=clock)) as client:
        response = client.post(
            "/api/games",
            json={
                "game": "cubed",
                "seats": [HUMAN, HUMAN],
                "clock": {"kind": "realtime", "preset": "30+0"},
            },
        )
    assert response.status_code == 400
    assert response.json()["detail"] == "clock.minutes: at most 10 on this server (got 30)"


def test_each_page_is_told_the_clocks(timed: TestClient, clock: FakeClock) -> None:
    made = _timed_game(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        first = table.states[0]["clock"]
        assert first["running"] is None and first["left_ms"] == [180_000, 180_000]
        assert first["describe"] == "3+2"
        table.play()
        table.play()  # both first moves are free
        clock.advance(30)
        table.play()  # seat 0: 30 s spent, 2 s back
        told = table.states[1]["clock"]
        assert told["running"] == 1 and told["left_ms"] == [152_000, 180_000]
        assert told["deadline"] == round((clock().timestamp() + 180) * 1000)
        assert told["now"] == round(clock().timestamp() * 1000)


def test_a_move_after_the_deadline_is_refused_in_words(timed: TestClient, clock: FakeClock) -> None:
    made = _timed_game(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.play()
        clock.advance(180.5)
        seat0 = table.sockets[0]
        seat0.move(table.states[0]["legal"][0], 2)
        refused = seat0.error()
    assert refused["code"] == "late"
    assert "your time ran out" in refused["message"]


@BOTH
def test_out_of_time_in_a_two_seat_game_the_other_seat_wins(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed)
    server = _server(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.play()
        clock.advance(179)
        assert timed.portal.call(server.referee.check_clocks) == []
        clock.advance(2)
        assert timed.portal.call(server.referee.check_clocks) == [made["id"]]
        over = table.ended()
    assert over["result"]["winners"] == [1]
    assert over["result"]["ended"] == "time" and over["result"]["seat"] == 0
    assert over["to_move"] is None and over["legal"] == []
    assert over["clock"]["running"] is None and over["clock"]["left_ms"] == [0, 180_000]
    detail = timed.get(f"/api/games/{made['id']}").json()
    assert detail["status"] == "finished" and detail["result"]["winners"] == [1]


def test_out_of_time_with_three_seats_the_bot_plays_the_seat_on(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed, players=3)
    server = _server(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        for _ in range(3):
            table.play()  # every seat's first move
        late = table.states[0]["to_move"]
        clock.advance(181)
        assert timed.portal.call(server.referee.check_clocks) == [made["id"]]
        # the greedy bot plays the late seat's move, and the game goes on
        answered = table.sockets[0].until(
            lambda m: m["type"] == "state" and m["ply"] == 4 and m["log"][-1]["seat"] == late
        )
        assert not answered["over"]
        assert answered["clock"]["running"] == answered["to_move"] != late
    detail = timed.get(f"/api/games/{made['id']}").json()
    seat = detail["seats"][late]
    assert (seat["kind"], seat["bot"], seat["zombie_from"]) == ("bot", "greedy", 4)
    assert detail["status"] == "playing"
    # the game's record says from which move the bot played the seat, and loads back
    info = server.store.load(made["id"])
    assert info is not None
    record = to_record(info)
    assert record["seats"][late] == {"kind": "bot", "bot": "greedy", "zombie_from": 4}
    assert timed.post("/api/records", json=record).status_code == 201


def test_a_forced_move_is_not_charged(timed: TestClient, clock: FakeClock) -> None:
    made = _timed_game(timed, game="cubes")  # every CUBES move is a roll: forced
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.play()
        clock.advance(100)
        seat = table.states[0]["to_move"]
        table.play()
        assert table.states[0]["clock"]["left_ms"][seat] == 180_000


@BOTH
def test_the_clocks_survive_a_restart(db_url: str, clock: FakeClock) -> None:
    with TestClient(create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)) as client:
        made = _timed_game(client)
        with ExitStack() as stack:
            table = Table(client, made, stack)
            table.play()
            table.play()
            clock.advance(40)
            table.play()
            clock.advance(15)
            before = table.states[0]["clock"]
    # a new server process on the same database, on the same clock
    app = create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)
    with TestClient(app) as client, ExitStack() as stack:
        table = Table(client, made, stack)
        after = table.states[1]["clock"]
        assert (
            after["left_ms"]
            == [142_000, 165_000]
            == [
                before["left_ms"][0],
                before["left_ms"][1] - 15_000,
            ]
        )
        clock.advance(166)
        server = _server(client)
        assert client.portal.call(server.referee.check_clocks) == [made["id"]]
        assert table.ended()["result"]["winners"] == [0]


def test_resign_hands_the_win_to_the_other_seat(timed: TestClient) -> None:
    made = _timed_game(timed, clock={"kind": "none"})
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.sockets[1].send({"type": "resign"})
        over = table.ended()
        assert over["result"]["winners"] == [0] and over["result"]["ended"] == "resigned"
        table.sockets[0].send({"type": "resign"})
        assert table.sockets[0].error()["code"] == "over"


def test_abort_before_every_seat_has_moved_and_not_after(timed: TestClient) -> None:
    made = _timed_game(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.play()
        table.sockets[0].send({"type": "abort"})
        assert table.sockets[0].error()["code"] == "abort-late"
    made = _timed_game(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.sockets[1].send({"type": "abort"})
        over = table.ended()
    assert over["result"]["winners"] == [] and over["result"]["ended"] == "aborted"
    assert timed.get(f"/api/games/{made['id']}").json()["status"] == "finished"


def test_a_spectator_cannot_resign(timed: TestClient) -> None:
    made = _timed_game(timed)
    with connect(timed, made["id"], None) as session:
        ws = Socket(session)
        ws.opening()
        ws.send({"type": "resign"})
        assert ws.error()["code"] == "spectator"


@BOTH
def test_the_stored_deadline_is_written_with_each_move(db_url: str, clock: FakeClock) -> None:
    with TestClient(create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)) as client:
        made = _timed_game(client)
        store: Store = _server(client).store
        at = clock().timestamp()
        assert store.due(at + 10**6) == []  # no clock runs before the first moves
        with ExitStack() as stack:
            table = Table(client, made, stack)
            table.play()
            table.play()
        assert store.due(at + 179) == [] and store.due(at + 181) == [made["id"]]


# -- a player gone on their turn -------------------------------------------------------------

GRACE_3_2 = TimeControl.realtime(3, 2).grace()


def _first_moves(client: TestClient, made: dict[str, Any]) -> None:
    """Every seat makes its first move (the real-time clocks run from then on)."""
    with ExitStack() as stack:
        table = Table(client, made, stack)
        for _ in made["seats"]:
            table.play()


def test_a_player_gone_past_the_grace_can_be_claimed_against(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed)
    _first_moves(timed, made)  # seat 0 to move; every page closed
    with connect(timed, made["id"], token(made, 1)) as session:
        ws = Socket(session)
        _hello, state = ws.opening()
        assert state["clock"]["grace_ms"] == round(GRACE_3_2 * 1000)
        clock.advance(GRACE_3_2 - 1)
        ws.send({"type": "claim", "outcome": "win"})
        early = ws.error()
        assert early["code"] == "claim-early" and "may still come back" in early["message"]
        clock.advance(2)
        ws.send({"type": "claim", "outcome": "win"})
        over = ws.until(lambda m: m["type"] == "state" and m["over"])
    assert over["result"]["winners"] == [1] and over["result"]["ended"] == "gone"


def test_a_player_who_comes_back_before_a_claim_plays_on(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed)
    _first_moves(timed, made)
    clock.advance(GRACE_3_2 + 5)
    with ExitStack() as stack:
        table = Table(timed, made, stack)  # seat 0 is back
        table.sockets[1].send({"type": "claim", "outcome": "win"})
        refused = table.sockets[1].error()
        assert refused["code"] == "claim-none" and "seat 0 is here" in refused["message"]
        table.play()  # seat 0 moves, charged for the time it was away
        assert table.states[1]["clock"]["left_ms"][0] == round((180 - GRACE_3_2 - 5 + 2) * 1000)


def test_a_gone_player_of_three_is_handed_to_the_bot_not_beaten(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed, players=3)
    _first_moves(timed, made)  # seat 0 to move
    with connect(timed, made["id"], token(made, 2)) as session:
        ws = Socket(session)
        ws.opening()
        clock.advance(GRACE_3_2 + 1)
        ws.send({"type": "claim", "outcome": "win"})
        assert ws.error()["code"] == "claim-none"
        ws.send({"type": "claim", "outcome": "bot"})
        handed = ws.until(lambda m: m["type"] == "seat" and m["event"] == "zombie")
        assert handed["seat"] == 0 and handed["from"] == 4
        moved = ws.until(lambda m: m["type"] == "state" and m["ply"] == 4)
        assert moved["log"][-1]["seat"] == 0 and not moved["over"]


def test_nothing_can_be_claimed_against_a_player_whose_clock_does_not_run(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed, clock={"kind": "turn", "days": 1})
    with connect(timed, made["id"], token(made, 1)) as session:
        ws = Socket(session)
        ws.opening()
        clock.advance(3600)
        ws.send({"type": "claim", "outcome": "win"})
        assert ws.error()["code"] == "claim-none"
        ws.send({"type": "claim", "outcome": "maybe"})
        assert ws.error()["code"] == "bad-message"


# -- two server processes on one database ----------------------------------------------------


@pytest.mark.parametrize("backend", ["postgresql"], indirect=True)
def test_two_processes_run_the_same_clocks_and_one_times_the_game_out(
    db_url: str, clock: FakeClock
) -> None:
    """A game played on one process and watched from another: both show the same clocks
    (the move's news carries its time), and the referee of the other process, taking the
    game's lease, times it out; the first process's pages are told."""
    one_app = create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)
    two_app = create_app(db_url, bot_delay=0, limits=LIMITS, now=clock)
    with TestClient(one_app) as one, TestClient(two_app) as two, ExitStack() as stack:
        made = _timed_game(one)
        table = Table(one, made, stack)
        watcher = Socket(stack.enter_context(connect(two, made["id"], token(made, 1))))
        watcher.opening()
        table.play()
        table.play()
        clock.advance(25)
        table.play()
        seen = watcher.state(3)["clock"]  # told before the clock moves on
        assert seen["left_ms"] == table.states[1]["clock"]["left_ms"] == [157_000, 180_000]
        clock.advance(181)
        assert two.portal.call(_server(two).referee.check_clocks) == [made["id"]]
        over = table.ended()
        assert over["result"]["winners"] == [0] and over["result"]["ended"] == "time"
        assert (
            watcher.until(lambda m: m["type"] == "state" and m["over"])["result"]
            == (over["result"])
        )
        # the other process finds nothing more to do
        assert one.portal.call(_server(one).referee.check_clocks) == []


# -- whose turn, for the start page ----------------------------------------------------------


def test_the_turn_of_a_game_is_told_live_or_from_the_stored_moves(
    timed: TestClient, clock: FakeClock
) -> None:
    made = _timed_game(timed)
    with ExitStack() as stack:
        table = Table(timed, made, stack)
        table.play()
        table.play()
        clock.advance(10)
        live = timed.get(f"/api/games/{made['id']}/turn").json()
        assert (live["ply"], live["to_move"]) == (2, 0)
        assert live["clock"]["running"] == 0 and live["clock"]["left_ms"] == [170_000, 180_000]
    stored = timed.get(f"/api/games/{made['id']}/turn").json()  # nobody here: not live
    assert made["id"] not in _server(timed).rooms.rooms
    assert stored == live
    assert timed.get("/api/games/nosuchgame/turn").status_code == 404


def test_a_game_another_process_ended_first_does_not_stop_the_round(
    timed: TestClient, clock: FakeClock
) -> None:
    """Two games out of time; the first was ended meanwhile elsewhere (its stored row
    says so, its room here does not know yet): the referee says nothing of it and still
    times out the second."""
    server = _server(timed)
    first, second = _timed_game(timed), _timed_game(timed)
    with ExitStack() as stack:
        tables = [Table(timed, made, stack) for made in (first, second)]
        for table in tables:
            table.play()
            table.play()
        clock.advance(1)
        store = server.store
        assert store.finish(first["id"], {"ended": "resigned"}, 2)
        store.set_deadline(first["id"], clock().timestamp())  # as if written before the end
        clock.advance(180)
        assert timed.portal.call(server.referee.check_clocks) == [second["id"]]
        assert tables[1].ended()["result"]["ended"] == "time"


def test_a_forced_move_from_a_hidden_hand_is_charged_so_it_tells_nothing() -> None:
    """A CUBED seat whose only move is to draw (nothing in its hand fits) is charged like
    any other: a clock that stopped would tell the others about its hidden hand."""
    game = cubegames.make("cubed")
    state = game.new_state(seed=0)
    while len(state.legal_moves()) != 1:
        state.play(state.legal_moves()[0])
    assert not forced(state)
    cubes = cubegames.make("cubes").new_state(seed=0)  # a roll: forced, and public
    assert forced(cubes)


def test_alone_resigning_or_running_out_of_time_ends_the_game_with_no_winner(
    timed: TestClient, clock: FakeClock
) -> None:
    """A solo game has no others for whom it must go on: a player who resigns or runs out
    of time ends it (it was handed to the greedy bot, which played the solo game out under
    the player's seat)."""
    server = _server(timed)
    made = _timed_game(timed, players=1)
    with connect(timed, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        ws.opening()
        ws.send({"type": "resign"})
        over = ws.until(lambda m: m["type"] == "state" and m["over"])
    assert over["result"]["ended"] == "resigned" and over["result"]["winners"] == []
    detail = timed.get(f"/api/games/{made['id']}").json()
    assert detail["status"] == "finished" and detail["seats"][0]["kind"] == "human"
    made = _timed_game(timed, players=1)
    with connect(timed, made["id"], token(made, 0)) as session:
        ws = Socket(session)
        state = ws.opening()[1]
        for ply in range(2):  # the clock runs from the second move
            legal = [m for m in state["legal"] if m != "draw"] or state["legal"]
            ws.move(legal[0], state["ply"])
            state = ws.state(ply + 1)
        clock.advance(181)
        assert timed.portal.call(server.referee.check_clocks) == [made["id"]]
        over = ws.until(lambda m: m["type"] == "state" and m["over"])
    assert over["result"]["ended"] == "time" and over["result"]["winners"] == []
