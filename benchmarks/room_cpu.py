"""Server CPU per move, in one process: the room and protocol path without the network.

    .venv/bin/python benchmarks/room_cpu.py                  # 100 games, 20 s
    .venv/bin/python benchmarks/room_cpu.py --games 50 --seconds 10 --profile

N two-seat games (CUBED and Unstackable, half each) are made in a SQLite file and played
side by side through what the server runs for a move: `Room.play` (seat and turn checks,
the engine's rules on a copy of the state, the group-commit writer, every seat's new
view, legal moves, hints, log and patch) and each page's `Peer`, whose socket here is
handed the message as the app hands it to uvicorn (JSON text). The page reads it, patches
its copy of the state and, when its seat is to move, plays a random legal move from it at
once; a finished game is replaced by a new one. Left out: the websocket framing, the HTTP
server and the event loop's network work, which `web_load.py` measures with real servers.

Prints the CPU time of the whole process (all threads: the writer's too) per move and the
event loop thread's alone, both without the pages' own work (reading the messages,
choosing a move); how long `Room.play` took from call to return (p50, p99, max); and the
garbage collector's time a move and longest pause (with the server's settings, as
`cubegames serve` sets them, unless `--python-gc`). `--think S` has each seat think about S
seconds before moving (the paced load). `--parts` times each part of a move in CPU time;
`--profile` adds a cProfile breakdown (its overhead inflates the parts, so compare them
with each other and across versions, not with the totals). `--check` compares each
page's patched copy with the whole state its seat would be sent, at the end of every game.
`--no-words` leaves every move's words out (what wording them costs is the difference).
The script also runs on the code before issue #22 (`PYTHONPATH=/tmp/old22/src`), so one
measuring script compares two versions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import json
import os
import platform
import pstats
import random
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# this tree's code, unless PYTHONPATH names another version's (which is then measured)
if os.environ.get("PYTHONPATH"):
    sys.path.append(str(ROOT / "src"))
else:
    sys.path.insert(0, str(ROOT / "src"))

from web_load import apply  # noqa: E402  (the clients' patching, as the page does it)

try:
    from cubegames.server.api import server_deal
except ImportError:  # the code before issue #22 (35f0638), which this script also measures
    from cubegames.server.app import server_deal  # type: ignore[attr-defined,no-redef]
from cubegames.server.rooms import Peer, Room, Rooms  # noqa: E402
from cubegames.server.storage import HUMAN, NewSeat, Store  # noqa: E402
from cubegames.server.writer import Writer  # noqa: E402

GAMES = ("cubed", "unstackable")

#: the parts of a move, by the functions (file fragment, name) whose cumulative time they
#: are ("~": built-in functions, whose names hold `name`)
PARTS: list[tuple[str, str, str]] = [
    ("engine: copy the state", "games", "clone"),
    ("engine: play the move", "core/game.py", "play"),
    ("writer: wait for the commit", "writer.py", "write"),
    ("state messages (all below)", "rooms.py", "state_message"),
    ("  view", "", "view"),
    ("  public view", "", "public_view"),
    ("  legal moves", "", "legal_moves"),
    ("  hints", "rooms.py", "hints"),
    ("  log and last move", "rooms.py", "log_for"),
    ("patches (diff)", "rooms.py", "update"),
    ("encode (JSON text)", "~", "dumps"),
]


def timed_parts() -> tuple[dict[str, float], dict[str, int]]:
    """Wrap the functions of each part of a move so that each call adds its CPU time
    (this thread's) to the part's total; returns (seconds, calls) by part. Nested parts
    (the view inside a state message) count in both."""
    from cubegames.core.game import State
    from cubegames.games.cubed.game import Cubed
    from cubegames.games.cubed.state import CubedState
    from cubegames.games.unstackable.game import Unstackable
    from cubegames.games.unstackable.state import UnstackableState
    from cubegames.server import rooms

    spent: dict[str, float] = {}
    calls: dict[str, int] = {}

    def wrap(owner: Any, name: str, label: str) -> None:
        plain = getattr(owner, name, None)
        spent[label], calls[label] = 0.0, 0
        if plain is None:  # an older version of the server, without this part
            return

        def timed(*args: Any, **kwargs: Any) -> Any:
            began = time.thread_time()
            try:
                return plain(*args, **kwargs)
            finally:
                spent[label] += time.thread_time() - began
                calls[label] += 1

        setattr(owner, name, timed)

    wrap(State, "play", "engine: play the move")
    for state in (CubedState, UnstackableState):
        wrap(state, "clone", "engine: copy the state")
        wrap(state, "view", "  view")
        wrap(state, "public_view", "  public view")
        wrap(state, "legal_moves", "  legal moves")
    for game in (Cubed, Unstackable):
        wrap(game, "parse_move", "engine: read the move")
    wrap(rooms.Room, "state_message", "state messages (all below)")
    wrap(rooms.Room, "hints", "  hints")
    wrap(rooms.Room, "log_for", "  log and last move")
    wrap(rooms.Peer, "update", "patches (diff)")
    wrap(rooms, "encode", "encode (JSON text)")
    return spent, calls


class Collector:
    """Wall time spent in the cyclic garbage collector, its longest pause, and each
    generation's pauses (a collection of generation 1 also collects generation 0)."""

    def __init__(self) -> None:
        self.spent = 0.0
        self.longest = 0.0
        self.pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self._began = 0.0
        gc.callbacks.append(self._heard)

    def _heard(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._began = time.perf_counter()
        else:
            pause = time.perf_counter() - self._began
            self.spent += pause
            self.longest = max(self.longest, pause)
            self.pauses[int(info["generation"])].append(pause)

    def summary(self) -> str:
        """Each generation's collections: how many, their mean and longest pause."""
        return "; ".join(
            f"generation {g}: {len(p)}, mean {1e3 * sum(p) / len(p):.1f} ms, "
            f"longest {1e3 * max(p):.1f} ms"
            for g, p in self.pauses.items()
            if p
        )


class Socket:
    """A page's websocket, and the page: it reads every message it is sent (JSON text),
    patches its copy of the state as the page does, and says when that copy changed.
    Its work is the client's, not the server's: its CPU time goes to `client`."""

    def __init__(self, tally: dict[str, Any]) -> None:
        self.tally = tally
        self.held: dict[str, Any] | None = None
        self.changed = asyncio.Event()

    async def send_text(self, text: str) -> None:
        began = time.thread_time()
        self._read(text)
        self.tally["client"] += time.thread_time() - began

    def _read(self, text: str) -> None:
        self.tally["bytes"] += len(text.encode("utf-8"))
        self.tally["frames"] += 1
        self._follow(json.loads(text))

    async def send_bytes(self, data: bytes) -> None:
        await self.send_text(data.decode("utf-8"))

    async def send_json(self, message: dict[str, Any]) -> None:  # what starlette does
        await self.send_text(json.dumps(message, separators=(",", ":"), ensure_ascii=False))

    def _follow(self, message: dict[str, Any]) -> None:
        if message["type"] == "state":
            self.held = {k: v for k, v in message.items() if k not in ("type", "log")}
        elif message["type"] == "patch":
            assert self.held is not None and message["from"] == self.held["ply"]
            apply(self.held, message["ops"])
            self.held["ply"] = message["ply"]
        else:
            return
        self.changed.set()


async def seat_player(
    room: Room,
    seat: int,
    sockets: list[Socket],
    rng: random.Random,
    stop: float,
    think: tuple[float, float],
) -> None:
    """One seat: whenever its page shows it to move, a random legal move at once; when it
    stops (the game is over, or the time), it wakes the other seat to see that too."""
    socket = sockets[seat]
    tally = socket.tally
    try:
        while True:
            await socket.changed.wait()
            socket.changed.clear()
            held = socket.held
            if held is None or held["over"] or time.perf_counter() >= stop:
                return
            pause = held.get("pause")
            if pause is not None and seat in pause["waiting"]:
                # the end of a round, seen at once: the page says `ready` (else the next
                # round would wait the pause's 20 s with the table idle)
                room.ready(seat)
                continue
            if held["to_move"] != seat or not held["legal"] or held["ply"] != room.ply:
                continue
            if think[1] > 0:
                await asyncio.sleep(rng.uniform(*think))
            began = time.thread_time()
            move = rng.choice(held["legal"])
            tally["client"] += time.thread_time() - began
            sent = time.perf_counter()
            await room.play(seat, move, held["ply"])
            tally["waits"].append(time.perf_counter() - sent)
            tally["moves"] += 1
    finally:
        for other in sockets:
            other.changed.set()


async def table(
    index: int,
    rooms: Rooms,
    store: Store,
    stop: list[float],
    tally: dict[str, Any],
    check: bool,
    think: tuple[float, float],
) -> None:
    """Games of one kind, one after another, each seat played by a task of its own."""
    rng = random.Random(index)
    game = GAMES[index % 2]
    while time.perf_counter() < stop[0]:
        game_id, _tokens = await asyncio.to_thread(
            store.create, game, {}, server_deal(), [NewSeat(HUMAN), NewSeat(HUMAN)]
        )
        room = await rooms.get(game_id)
        assert room is not None
        sockets = [Socket(tally), Socket(tally)]
        peers = [Peer(sockets[seat], seat) for seat in (0, 1)]  # type: ignore[arg-type]
        for peer in peers:
            room.join(peer)
            await peer.send(room.hello(peer.seat))
            await peer.send(peer.update(room.state_message(peer.seat)))
        await asyncio.gather(*(seat_player(room, s, sockets, rng, stop[0], think) for s in (0, 1)))
        for peer in peers:
            await peer.flush()
            if check:
                held = peer.socket.held  # type: ignore[attr-defined]
                whole = json.loads(json.dumps(room.state_message(peer.seat)))
                # the page's copy, patched move after move, is the state it would be sent
                # (but for `online`, which `presence` messages keep up to date)
                skip = ("type", "log", "online")
                shown = {k: v for k, v in whole.items() if k not in skip}
                assert held is not None
                assert {k: v for k, v in held.items() if k not in skip} == shown, (
                    f"game {game_id}, seat {peer.seat}: the patches drifted"
                )
        for peer in peers:
            room.leave(peer)
        rooms.release(room, busy=False)
        tally["games"] += 1


async def run(
    games: int,
    seconds: float,
    warmup: float,
    check: bool,
    parts: dict[str, float] | None = None,
    think: tuple[float, float] = (0.0, 0.0),
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory(prefix="cubegames-room-cpu-") as scratch:
        store = Store(f"sqlite:///{scratch}/games.sqlite3")
        writer = Writer(store)
        rooms = Rooms(store, lambda _room: None, max_rooms=10 * games, writer=writer)
        tally: dict[str, Any] = {
            "moves": 0,
            "games": 0,
            "bytes": 0,
            "frames": 0,
            "client": 0.0,
            "waits": [],
        }
        stop = [time.perf_counter() + warmup + seconds]
        tasks = [
            asyncio.create_task(table(i, rooms, store, stop, tally, check, think))
            for i in range(games)
        ]
        await asyncio.sleep(warmup)
        moves0, bytes0, frames0 = tally["moves"], tally["bytes"], tally["frames"]
        client0 = tally["client"]
        waits0 = len(tally["waits"])
        collector = Collector()
        parts0 = dict(parts or {})
        cpu0, main0, wall0 = time.process_time(), time.thread_time(), time.perf_counter()
        await asyncio.gather(*tasks)
        gc.callbacks.remove(collector._heard)
        client = tally["client"] - client0
        cpu, main, wall = (
            time.process_time() - cpu0 - client,
            time.thread_time() - main0 - client,
            time.perf_counter() - wall0,
        )
        writer.close()
        store.close()
    moves = tally["moves"] - moves0
    return {
        "moves": moves,
        "rate": moves / wall,
        "cpu_us": 1e6 * cpu / max(1, moves),
        "main_us": 1e6 * main / max(1, moves),
        "bytes": (tally["bytes"] - bytes0) / max(1, moves),
        "frames": (tally["frames"] - frames0) / max(1, moves),
        "all_moves": tally["moves"],
        "waits": sorted(tally["waits"][waits0:]),
        "gc_us": 1e6 * collector.spent / max(1, moves),
        "gc_longest": 1e3 * collector.longest,
        "gc_pauses": collector.summary(),
        "parts": {k: 1e6 * (v - parts0[k]) / max(1, moves) for k, v in (parts or {}).items()},
    }


def breakdown(profile: cProfile.Profile, moves: int) -> list[tuple[str, float]]:
    """µs a move of each part in `PARTS` (cumulative time of its functions)."""
    stats = pstats.Stats(profile)
    table: dict[tuple[str, int, str], Any] = stats.stats  # type: ignore[attr-defined]

    def cumulative(where: str, name: str) -> float:
        found = (
            v[3]
            for (path, _, func), v in table.items()
            if (func == name or (where == "~" and name in func)) and where in path
        )
        return 1e6 * float(sum(found)) / max(1, moves)

    every = 1e6 * float(sum(v[2] for v in table.values())) / max(1, moves)  # own times
    pages = cumulative("room_cpu.py", "_read")
    rows = [("all (event loop thread, profiled, without the pages)", every - pages)]
    rows += [(label, cumulative(where, name)) for label, where, name in PARTS]
    return rows


def wordless() -> None:
    """Every move told in no words (`--no-words`): the English and the catalogs' phrase
    of the log, `last` and `said` left empty, so that a run with and one without show
    what wording the moves costs, and the rest of the path can be compared across
    versions whose words differ (before issue #26 they were English only)."""
    from cubegames.render import web

    if hasattr(web, "worded"):
        web.worded = lambda *_a, **_k: ("", None)  # type: ignore[assignment]
        web.telling = lambda *_a, **_k: (None, None)  # type: ignore[assignment]
    else:  # the code before issue #22: English words only
        web.words = lambda *_a, **_k: ""  # type: ignore[assignment]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="games played at once (100)")
    parser.add_argument("--seconds", type=float, default=20.0, help="measured seconds (20)")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds before measuring")
    parser.add_argument(
        "--think",
        type=float,
        default=0.0,
        help="seconds a seat thinks on average (0.5x to 1.5x) before it moves (0: none)",
    )
    parser.add_argument(
        "--python-gc",
        action="store_true",
        help="keep Python's garbage collector settings (by default: the server's own)",
    )
    parser.add_argument(
        "--parts", action="store_true", help="time the parts of a move (CPU time, no profiler)"
    )
    parser.add_argument(
        "--no-words",
        action="store_true",
        help="leave every move's words out of the messages (what they cost: the difference)",
    )
    parser.add_argument("--profile", action="store_true", help="also a cProfile breakdown")
    parser.add_argument("--top", type=int, default=0, help="with --profile: print N hot spots")
    parser.add_argument(
        "--check", action="store_true", help="apply every patch as a page does and compare"
    )
    args = parser.parse_args()
    if args.no_words:
        wordless()
    server_gc = False
    if not args.python_gc:
        try:
            from cubegames.server import process
        except ImportError:  # before issue #22 it lived in the app's module
            from cubegames.server import app as process  # type: ignore[no-redef]

        if hasattr(process, "quiet_gc"):  # as `cubegames serve` does (older versions did not)
            process.quiet_gc()
            server_gc = True
    spent = timed_parts()[0] if args.parts else None
    think = (0.5 * args.think, 1.5 * args.think)
    plain = asyncio.run(run(args.games, args.seconds, args.warmup, args.check, spent, think))
    print(
        f"{platform.python_implementation()} {platform.python_version()}, "
        f"load average {os.getloadavg()[0]:.1f}; {args.games} games at once, "
        f"{args.seconds:g} s after {args.warmup:g} s of warm-up"
    )
    print(
        f"{plain['moves']} moves, {plain['rate']:.0f} moves/s on one core; CPU per move: "
        f"{plain['cpu_us']:.0f} µs (process), {plain['main_us']:.0f} µs (event loop thread); "
        f"{plain['frames']:.1f} frames, {plain['bytes']:.0f} bytes sent a move"
    )
    waits = plain["waits"] or [0.0]
    print(
        "Room.play, from the call to its return (checked, committed, every page's message "
        f"queued): p50 {1e3 * waits[len(waits) // 2]:.1f} / p99 "
        f"{1e3 * waits[int(0.99 * (len(waits) - 1))]:.1f} / max {1e3 * waits[-1]:.1f} ms"
    )
    print(
        f"garbage collector ({'the server settings' if server_gc else 'Python defaults'})"
        f": {plain['gc_us']:.0f} µs a move, longest pause {plain['gc_longest']:.0f} ms"
        f" ({plain['gc_pauses'] or 'no collections'})"
    )
    if args.parts:
        print("\n| part (event loop thread) | µs a move |\n|---|---|")
        for label, us in plain["parts"].items():
            print(f"| {label} | {us:.0f} |")
        top = [us for label, us in plain["parts"].items() if not label.startswith(" ")]
        rest = plain["main_us"] - sum(top)
        print(f"| everything else (asyncio, hand-over to the writer) | {rest:.0f} |")
    if args.profile:
        profile = cProfile.Profile()
        profile.enable()
        profiled = asyncio.run(run(args.games, args.seconds, args.warmup, False))
        profile.disable()
        # the profile spans the warm-up too: count every move made while it ran
        print("\n| part | µs a move (profiled) |\n|---|---|")
        for label, us in breakdown(profile, int(profiled["all_moves"])):
            print(f"| {label} | {us:.0f} |")
        if args.top:
            pstats.Stats(profile).sort_stats("tottime").print_stats(args.top)


if __name__ == "__main__":
    main()
