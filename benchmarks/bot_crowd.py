"""A crowd of bot games at the largest budget, and a person's moves meanwhile.

    .venv/bin/python benchmarks/bot_crowd.py                  # 100 games, mcts:seconds=5
    .venv/bin/python benchmarks/bot_crowd.py --quick          # 6 games, mcts:seconds=1

Issue #24's attack: bot-against-bot CUBED games whose bots search for the longest the
server allows (`mcts:seconds=5`), many at once, while a person plays. Each set-up starts
real processes on 127.0.0.1 (and a throwaway PostgreSQL server, `tests/server/pg.py`, for
the PostgreSQL ones), makes `--games` bot games, opens a spectator on each (so its room
is live and its bots play), waits for the first bot move (the bots' processes start and
load the compiled kernels), lets them think for `--warmup` seconds more, then measures
for `--seconds`:

- **person**: the round trip of a person's move in another game (Unstackable, a page per
  seat, one move every 0.2 s): sent → the mover's new state, p50/p99/max in ms;
- **bot moves/s**: moves saved in the bot games during the window.

Set-ups (`--setups`, comma-separated):

- `sqlite threads`: one server on SQLite, `--limit bot_processes=0` (bots on threads of
  the web process: the state before the pool, for the ratio);
- `sqlite pool`: one server on SQLite, its default pool of processes;
- `postgres 1 worker`, `postgres 2 workers`: one server on PostgreSQL with `--bot-workers`
  and that many `cubegames bots work --jobs 1` processes.

The machine's load average is printed beside each row: on a shared machine a busy
neighbour shows there. Prints a Markdown table for benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for the throwaway PostgreSQL server of the tests
sys.path.insert(0, str(ROOT / "benchmarks"))

import web_load  # noqa: E402
from web_load import Process, apply, fresh_database, postgres  # noqa: E402

#: every client comes from 127.0.0.1: the per-client caps are raised for the benchmark
LIMITS = ("games_per_minute=1000000", "connections_per_client=100000", "max_rooms=5000")
SETUPS = ("sqlite threads", "sqlite pool", "postgres 1 worker", "postgres 2 workers")


class Server(web_load.Server):
    """`cubegames serve` with the crowd's limits."""

    def __init__(self, db_url: str, *extra: str) -> None:
        super().__init__(db_url, *extra, limits=LIMITS)


async def _spectate(port: int, game_id: str, stop: asyncio.Event) -> None:
    """A spectator's page on a bot game: keeps its room live (and its bots playing)."""
    async with connect(
        f"ws://127.0.0.1:{port}/ws/games/{game_id}", compression=None, max_size=2**22
    ) as ws:
        await ws.send(json.dumps({"type": "auth", "token": None}))
        while not stop.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(ws.recv(), 1.0)


async def _person(port: int, http: httpx.AsyncClient, window: list[float]) -> list[float]:
    """Play both seats of an Unstackable game, a move every 0.2 s, new games as they end;
    the round trips (s) of the moves sent within `window`."""
    rtts: list[float] = []
    while time.perf_counter() < window[1]:
        made = (
            await http.post(
                f"http://127.0.0.1:{port}/api/games",
                json={"game": "unstackable", "seats": [{"kind": "human"}, {"kind": "human"}]},
            )
        ).json()
        pages = []
        for seat in (0, 1):
            ws = await connect(
                f"ws://127.0.0.1:{port}/ws/games/{made['id']}", compression=None, max_size=2**22
            )
            await ws.send(json.dumps({"type": "auth", "token": made["seats"][seat]["token"]}))
            pages.append(ws)
        held: list[dict[str, Any]] = [{}, {}]

        try:
            state = await _until(pages[0], held, 0, 0)
            await _until(pages[1], held, 1, 0)
            while not state["over"] and time.perf_counter() < window[1]:
                seat, ply = state["to_move"], state["ply"]
                mine = held[seat]
                sent = time.perf_counter()
                await pages[seat].send(
                    json.dumps({"type": "move", "move": mine["legal"][0], "ply": ply})
                )
                state = await _until(pages[seat], held, seat, ply + 1)
                arrived = time.perf_counter()
                if window[0] <= sent < window[1]:
                    rtts.append(arrived - sent)
                await _until(pages[1 - seat], held, 1 - seat, ply + 1)
                await asyncio.sleep(0.2)
        finally:
            for ws in pages:
                with contextlib.suppress(Exception):
                    await ws.close()
    return rtts


async def _until(ws: Any, held: list[dict[str, Any]], seat: int, ply: int) -> dict[str, Any]:
    """Read `seat`'s page until its state (patches applied into `held`) is at `ply`."""
    while True:
        message = json.loads(await asyncio.wait_for(ws.recv(), 30))
        if message["type"] == "state":
            held[seat] = message
        elif message["type"] == "patch":
            apply(held[seat], message["ops"])
        else:
            continue
        if held[seat].get("ply", -1) >= ply:
            return held[seat]


async def _moves(http: httpx.AsyncClient, port: int, games: list[str]) -> int:
    """Moves stored in `games` so far."""
    total = 0
    for game_id in games:
        answer = await http.get(f"http://127.0.0.1:{port}/api/games/{game_id}")
        total += len(answer.json()["moves"])
    return total


async def _crowd(port: int, args: argparse.Namespace) -> dict[str, Any]:
    spec = f"mcts:seconds={args.bot_seconds:g}"
    stop = asyncio.Event()
    async with httpx.AsyncClient(timeout=60) as http:
        games = []
        for i in range(args.games):
            answer = await http.post(
                f"http://127.0.0.1:{port}/api/games",
                json={
                    "game": "cubed",
                    "options": {"rounds": 3},
                    "seats": [{"kind": "bot", "bot": spec}] * 2,
                    "seed": i,
                },
            )
            answer.raise_for_status()
            games.append(answer.json()["id"])
        watching = [asyncio.create_task(_spectate(port, g, stop)) for g in games]
        # the bots' first move waits for their processes to start (and load the compiled
        # kernels): the warm-up counts from then
        deadline = time.monotonic() + 300
        while await _moves(http, port, games) == 0:
            if time.monotonic() > deadline:
                raise RuntimeError("no bot moved within 300 s")
            await asyncio.sleep(0.5)
        await asyncio.sleep(args.warmup)
        window = [time.perf_counter(), time.perf_counter() + args.seconds]
        before = await _moves(http, port, games)
        load_before = os.getloadavg()[0]
        rtts = await _person(port, http, window)
        after = await _moves(http, port, games)
        elapsed = time.perf_counter() - window[0]
        stop.set()
        for failed in await asyncio.gather(*watching, return_exceptions=True):
            if isinstance(failed, Exception):
                print(f"a spectator failed: {failed!r}", file=sys.stderr)
    ms = sorted(r * 1000 for r in rtts)
    p99 = ms[min(len(ms) - 1, int(0.99 * len(ms)))] if ms else float("nan")
    return {
        "samples": len(ms),
        "p50": statistics.median(ms) if ms else float("nan"),
        "p99": p99,
        "max": ms[-1] if ms else float("nan"),
        "bot_rate": (after - before) / elapsed,
        "load": (load_before, os.getloadavg()[0]),
    }


def measure(name: str, db_url: str, args: argparse.Namespace) -> dict[str, Any]:
    extra: list[str] = []
    workers = 0
    if name == "sqlite threads":
        extra = ["--limit", "bot_processes=0"]
    elif name.startswith("postgres"):
        extra = ["--bot-workers"]
        workers = int(name.split()[1])
    started: list[Process] = []
    server = Server(db_url, *extra)
    try:
        started += [Process("bots", "work", "--db", db_url, "--jobs", "1") for _ in range(workers)]
        row = asyncio.run(_crowd(server.port, args))
    finally:
        for process in started:
            process.stop()
        server.stop()
    row["setup"] = name
    print(
        f"{name}: person p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, max "
        f"{row['max']:.1f} ms ({row['samples']} moves); bots {row['bot_rate']:.2f} moves/s; "
        f"load {row['load'][0]:.1f} -> {row['load'][1]:.1f}",
        file=sys.stderr,
    )
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="6 games at mcts:seconds=1")
    parser.add_argument("--games", type=int, default=None, help="bot games (100)")
    parser.add_argument("--bot-seconds", type=float, default=None, help="the bots' budget (5)")
    parser.add_argument("--seconds", type=float, default=None, help="measured window (60)")
    parser.add_argument("--warmup", type=float, default=None, help="seconds before (15)")
    parser.add_argument("--setups", default=",".join(SETUPS), help="comma-separated")
    args = parser.parse_args()
    chosen = {"games": 6, "bot_seconds": 1.0, "seconds": 10.0, "warmup": 4.0}
    if not args.quick:
        chosen = {"games": 100, "bot_seconds": 5.0, "seconds": 60.0, "warmup": 15.0}
    for key, value in chosen.items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    setups = [s.strip() for s in args.setups.split(",") if s.strip()]
    unknown = set(setups) - set(SETUPS)
    if unknown:
        parser.error(f"unknown set-ups {sorted(unknown)}; choose from {', '.join(SETUPS)}")
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="cubegames-crowd-") as scratch:
        for name in setups:
            if name.startswith("sqlite"):
                rows.append(measure(name, f"sqlite:///{scratch}/{len(rows)}.sqlite3", args))
        if any(s.startswith("postgres") for s in setups):
            with postgres() as cluster:
                for name in setups:
                    if cluster is not None and name.startswith("postgres"):
                        with fresh_database(cluster) as url:
                            rows.append(measure(name, url, args))
    print(
        f"\n{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores; {args.games} CUBED games among mcts:seconds="
        f"{args.bot_seconds:g} bots, {args.seconds:g} s measured after {args.warmup:g} s\n"
    )
    print("| set-up | person p50 | person p99 | person max | moves | bot moves/s | load avg |")
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print(
            f"| {r['setup']} | {r['p50']:.1f} ms | {r['p99']:.1f} ms | {r['max']:.1f} ms | "
            f"{r['samples']} | {r['bot_rate']:.2f} | {r['load'][0]:.1f} → {r['load'][1]:.1f} |"
        )


if __name__ == "__main__":
    main()
