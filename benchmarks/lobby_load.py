"""The lobby under load: 1,000 pages watching it while public tables open and fill.

    .venv/bin/python benchmarks/lobby_load.py                 # 1,000 watchers, 40 tables
    .venv/bin/python benchmarks/lobby_load.py --quick         # 200 watchers, 20 tables
    .venv/bin/python benchmarks/lobby_load.py --standing 80   # 80 more tables listed all along
    .venv/bin/python benchmarks/lobby_load.py --server-path /tmp/main/src   # another tree's server

A real `cubegames serve` on a SQLite file on 127.0.0.1 (started and stopped here, its
per-client caps raised since every client comes from one address), N websocket clients
watching `/ws/lobby` (in `--client-procs` processes of their own; each keeps the list as
the page does, from the first whole list and the patches after it), and a driver that opens
a public two-seat table (`POST /api/games`, one seat invited) every `1 / --rate` seconds
and fills it (`POST /api/games/{id}/join`) half a period later. Every watcher notes when
it first sees each table listed and when it sees it gone; the figures are the delays from
the moment the server answered the request that opened (or filled) the table to the
moment each watcher saw it, over every watcher and table: p50 / p99 / max, beside the
server's CPU time per change. Errors count watchers that lost their connection or never
saw a table come or go. Prints one Markdown table row for benchmarks/README.md.

Target (benchmarks/README.md, "Online play under load"): p99 < 50 ms with 1,000
watchers, no errors, as for a move's round trip.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from cubegames.server.lobby import apply_patch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import Server, percentiles, process_cpu

#: every client comes from 127.0.0.1: the per-client caps are raised for the benchmark
LIMITS = (
    "games_per_minute=1000000",
    "connections_per_client=100000",
    "max_connections=5000",
    "seat_changes_per_client=1000000",
    "seat_changes_per_game=1000",
    "max_rooms=5000",
)


class LobbyServer(Server):
    """`cubegames serve` with the lobby benchmark's caps."""

    def __init__(self, db_url: str) -> None:
        import web_load

        saved = web_load.LIMITS
        web_load.LIMITS = LIMITS
        try:
            super().__init__(db_url)
        finally:
            web_load.LIMITS = saved


async def _watch(port: int, seen: dict[str, float], gone: dict[str, float], ready: Any) -> int:
    """One watcher: notes when each table first shows and when it leaves; 1 if its
    connection broke."""
    listed: set[str] = set()
    held: list[dict[str, Any]] = []
    try:
        async with connect(f"ws://127.0.0.1:{port}/ws/lobby", max_size=None) as ws:
            first = True
            async for raw in ws:
                moment = time.time()
                message = json.loads(raw)
                if message.get("type") == "lobby":
                    held = message["tables"]
                elif message.get("type") == "lobby-patch":
                    held = apply_patch(held, message)  # as the page does (lobbylist.js)
                else:
                    continue
                now = {t["id"] for t in held}
                for table in now - listed:
                    seen.setdefault(table, moment)
                for table in listed - now:
                    gone.setdefault(table, moment)
                listed = now
                if first:
                    ready()
                    first = False
    except Exception:
        return 1
    return 0


def _client_process(port: int, count: int, out: Any, started: Any, stop: Any) -> None:
    async def run() -> None:
        done = 0

        def ready() -> None:
            nonlocal done
            done += 1
            if done == count:
                started.set()

        logs = [({}, {}) for _ in range(count)]
        tasks = [asyncio.create_task(_watch(port, s, g, ready)) for s, g in logs]
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # the last change on its way
        for task in tasks:
            task.cancel()
        broken = sum(t.result() for t in tasks if t.done() and not t.cancelled())
        out.put({"logs": logs, "broken": broken})

    asyncio.run(run())


def run(watchers: int, tables: int, rate: float, procs: int, standing: int = 0) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = LobbyServer(f"sqlite:///{folder}/lobby.sqlite3")
        try:
            _stand(server, standing)
            return _measure(server, watchers, tables, rate, procs)
        finally:
            server.stop()


def _stand(server: LobbyServer, count: int) -> None:
    """Open `count` public tables that wait for a player all along (a longer list)."""
    body = {
        "game": "cubed",
        "seats": [{"kind": "human", "name": "Host"}, {"kind": "human", "invite": True}],
        "public": True,
    }
    with httpx.Client(timeout=30) as http:
        for _ in range(count):
            assert http.post(server.url("/api/games"), json=body).status_code == 201


def _measure(
    server: LobbyServer, watchers: int, tables: int, rate: float, procs: int
) -> dict[str, Any]:
    out: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    started = [multiprocessing.Event() for _ in range(procs)]
    shares = [watchers // procs + (i < watchers % procs) for i in range(procs)]
    clients = [
        multiprocessing.Process(target=_client_process, args=(server.port, n, out, s, stop))
        for n, s in zip(shares, started, strict=True)
    ]
    for client in clients:
        client.start()
    for event in started:
        if not event.wait(120):
            raise RuntimeError("the watchers did not all connect within 120 s")
    opened: dict[str, float] = {}
    filled: dict[str, float] = {}
    period = 1.0 / rate
    body = {
        "game": "cubed",
        "seats": [{"kind": "human"}, {"kind": "human", "invite": True}],
        "public": True,
    }
    cpu_before = process_cpu(server.process.pid)
    began = time.monotonic()
    with httpx.Client(timeout=30) as http:
        for i in range(tables):
            made = http.post(server.url("/api/games"), json=body).json()
            opened[made["id"]] = time.time()
            time.sleep(period / 2)
            joined = http.post(server.url(f"/api/games/{made['id']}/join"), json={"name": f"p{i}"})
            filled[made["id"]] = time.time()
            assert joined.status_code == 200, joined.text
            time.sleep(max(0.0, began + (i + 1) * period - time.monotonic()))
    cpu = process_cpu(server.process.pid) - cpu_before
    stop.set()
    results = [out.get(timeout=120) for _ in clients]
    for client in clients:
        client.join(timeout=30)
    came: list[float] = []
    went: list[float] = []
    missed = 0
    for result in results:
        for seen, gone in result["logs"]:
            for table, at in opened.items():
                if table in seen:
                    came.append(max(0.0, seen[table] - at))
                else:
                    missed += 1
                if table in gone:
                    went.append(max(0.0, gone[table] - filled[table]))
                else:
                    missed += 1
    return {
        "watchers": watchers,
        "tables": tables,
        "changes": 2 * tables,
        "came": percentiles(came),
        "went": percentiles(went),
        "cpu_per_change": cpu / (2 * tables) * 1000,
        "errors": missed + sum(r["broken"] for r in results),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--watchers", type=int, default=1000)
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--rate", type=float, default=2.0, help="tables opened a second")
    parser.add_argument("--client-procs", type=int, default=2)
    parser.add_argument("--quick", action="store_true", help="200 watchers, 20 tables")
    parser.add_argument(
        "--standing", type=int, default=0, help="public tables listed all along (at most 99)"
    )
    parser.add_argument(
        "--server-path", help="run the server from the code in this folder (PYTHONPATH)"
    )
    args = parser.parse_args()
    if args.quick:
        args.watchers, args.tables = 200, 20
    if not 0 <= args.standing <= 99:
        parser.error("--standing must be from 0 to 99 (the lobby lists 100 tables)")
    if args.server_path:  # the watchers (forked) keep this tree's code
        os.environ["PYTHONPATH"] = args.server_path
    row = run(args.watchers, args.tables, args.rate, args.client_procs, args.standing)
    when = time.strftime("%Y-%m-%d %H:%M")
    head = ("run", "watchers", "tables opened and filled", "listed p50 / p99 / max")
    head += ("gone p50 / p99 / max", "server CPU per change", "errors")
    print("| " + " | ".join(head) + " |")
    print("|---|---|---|---|---|---|---|")
    came, went = row["came"], row["went"]
    print(
        f"| {when} | {row['watchers']} | {row['tables']} | "
        f"{came[0]:.0f} / **{came[1]:.0f}** / {came[2]:.0f} ms | "
        f"{went[0]:.0f} / **{went[1]:.0f}** / {went[2]:.0f} ms | "
        f"{row['cpu_per_change']:.1f} ms | {row['errors']} |"
    )


if __name__ == "__main__":
    main()
