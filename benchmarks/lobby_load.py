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
import gc
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
from websockets.client import ClientProtocol
from websockets.extensions.permessage_deflate import ClientPerMessageDeflateFactory
from websockets.frames import Frame, Opcode
from websockets.uri import parse_uri

from cubegames.server.lobby import apply_patch

sys.path.insert(0, str(Path(__file__).resolve().parent))
from web_load import Server, percentiles, process_cpu

#: every client comes from 127.0.0.1: the per-client caps are raised for the benchmark
LIMITS = (
    "games_per_minute=1000000",
    "open_tables_per_client=1000000",
    "connections_per_client=100000",
    "max_connections=5000",
    "seat_changes_per_client=1000000",
    "seat_changes_per_game=1000",
    "max_rooms=5000",
)


class LobbyServer(Server):
    """`cubegames serve` with the lobby benchmark's caps, once it has settled."""

    def __init__(self, db_url: str) -> None:
        import web_load

        saved = web_load.LIMITS
        web_load.LIMITS = LIMITS
        try:
            super().__init__(db_url)
        finally:
            web_load.LIMITS = saved
        self.settle()

    def settle(self, idle: float = 0.05, most: float = 600.0) -> None:
        """Wait until the server uses less than `idle` of a core over a second: `serve`
        warms the bots' kernels on a thread as it starts, which compiles them where
        numba's cache does not have them (a tree given by `--server-path`, a fresh
        checkout: a minute or more of CPU, holding the interpreter's lock) and would
        otherwise run through the measurement."""
        began = time.monotonic()
        while time.monotonic() - began < most:
            before = process_cpu(self.process.pid)
            time.sleep(1.0)
            if process_cpu(self.process.pid) - before < idle:
                break
        waited = time.monotonic() - began
        if waited > 3:
            print(f"(the server settled after {waited:.0f} s)", file=sys.stderr)


class Watcher(asyncio.Protocol):
    """One watcher as a protocol of the event loop over the websockets library's sans-I/O
    client (permessage-deflate offered, as a browser does): each read is parsed where it
    arrives, with no task, queue or future per message, so that the watchers' own
    processes, which share the machine's cores with the server, spend less of them than
    the library's asyncio client does. Notes when each table first shows and when it
    leaves, as `_watch`; `broken` if its connection failed or was lost."""

    def __init__(
        self, port: int, seen: dict[str, float], gone: dict[str, float], ready: Any
    ) -> None:
        self.conn = ClientProtocol(
            parse_uri(f"ws://127.0.0.1:{port}/ws/lobby"),
            extensions=[ClientPerMessageDeflateFactory()],
            max_size=None,
        )
        self.seen, self.gone, self.ready = seen, gone, ready
        self.listed: set[str] = set()
        self.held: list[dict[str, Any]] = []
        self.parts: list[bytes] = []
        self.first = True
        self.broken = False
        self.closing = False
        self.transport: Any = None

    def connection_made(self, transport: Any) -> None:
        self.transport = transport
        self.conn.send_request(self.conn.connect())
        transport.write(b"".join(self.conn.data_to_send()))

    def data_received(self, data: bytes) -> None:
        moment = time.time()
        self.conn.receive_data(data)
        for event in self.conn.events_received():
            if isinstance(event, Frame):
                if event.opcode in (Opcode.TEXT, Opcode.CONT):
                    self.parts.append(bytes(event.data))
                    if event.fin:
                        self.message(b"".join(self.parts), moment)
                        self.parts = []
            elif event.status_code != 101:  # the handshake's answer
                self.broken = True
        out = self.conn.data_to_send()  # pongs
        if out:
            self.transport.write(b"".join(out))

    def message(self, raw: bytes, moment: float) -> None:
        message = json.loads(raw)
        if message.get("type") == "lobby":
            self.held = message["tables"]
        elif message.get("type") == "lobby-patch":
            self.held = apply_patch(self.held, message)  # as the page does (lobbylist.js)
        else:
            return
        now = {t["id"] for t in self.held}
        for table in now - self.listed:
            self.seen.setdefault(table, moment)
        for table in self.listed - now:
            self.gone.setdefault(table, moment)
        self.listed = now
        if self.first:
            self.ready()
            self.first = False

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.closing:
            self.broken = True


async def _watch(port: int, seen: dict[str, float], gone: dict[str, float], ready: Any) -> int:
    """One watcher through the websockets library's asyncio client (`--asyncio-client`):
    notes when each table first shows and when it leaves; 1 if its connection broke."""
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


def _client_process(
    port: int,
    count: int,
    out: Any,
    started: Any,
    stop: Any,
    collect: bool = False,
    plain: bool = False,
) -> None:
    """`count` watchers in this process's event loop. Once they are all connected, what
    they hold is frozen out of the garbage collector and, unless `collect`, the collector
    is off until the end: a pause of this process (up to half a second for a full
    collection of 500 connections) would delay 500 watchers at once, which 500 browsers
    would not be. The watchers are `Watcher`s, or with `plain` the websockets library's
    asyncio clients (`_watch`)."""
    pauses: list[tuple[float, int, float]] = []  # the collector's: when, generation, seconds
    began: list[float] = []

    def collected(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            began[:] = [time.perf_counter()]
        elif began:
            pauses.append((time.time(), info["generation"], time.perf_counter() - began[0]))

    gc.callbacks.append(collected)
    cpu: list[float] = []  # this process's CPU time when all were connected, at the end

    async def run() -> None:
        done = 0

        def ready() -> None:
            nonlocal done
            done += 1
            if done == count:
                gc.collect()
                gc.freeze()
                if not collect:
                    gc.disable()
                cpu[:] = [time.process_time()]
                started.set()

        logs: list[tuple[dict[str, float], dict[str, float]]] = [({}, {}) for _ in range(count)]
        loop = asyncio.get_running_loop()
        tasks = []
        watchers: list[Watcher] = []
        if plain:
            tasks = [asyncio.create_task(_watch(port, s, g, ready)) for s, g in logs]
        else:
            watchers = [Watcher(port, s, g, ready) for s, g in logs]
            made = await asyncio.gather(
                *(loop.create_connection(lambda w=w: w, "127.0.0.1", port) for w in watchers),
                return_exceptions=True,
            )
            for watcher, result in zip(watchers, made, strict=True):
                watcher.broken |= isinstance(result, BaseException)
        while not stop.is_set():
            await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)  # the last change on its way
        cpu.append(time.process_time())
        for task in tasks:
            task.cancel()
        broken = sum(t.result() for t in tasks if t.done() and not t.cancelled())
        broken += sum(w.broken for w in watchers)
        for watcher in watchers:
            watcher.closing = True
            if watcher.transport is not None:
                watcher.transport.close()
        out.put({"logs": logs, "broken": broken, "pauses": pauses, "cpu": cpu[-1] - cpu[0]})

    asyncio.run(run())


def run(
    watchers: int,
    tables: int,
    rate: float,
    procs: int,
    standing: int = 0,
    collect: bool = False,
    plain: bool = False,
) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = LobbyServer(f"sqlite:///{folder}/lobby.sqlite3")
        try:
            _stand(server, standing)
            return _measure(server, watchers, tables, rate, procs, collect, plain)
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
    server: LobbyServer,
    watchers: int,
    tables: int,
    rate: float,
    procs: int,
    collect: bool,
    plain: bool,
) -> dict[str, Any]:
    out: Any = multiprocessing.Queue()
    stop = multiprocessing.Event()
    started = [multiprocessing.Event() for _ in range(procs)]
    shares = [watchers // procs + (i < watchers % procs) for i in range(procs)]
    clients = [
        multiprocessing.Process(
            target=_client_process, args=(server.port, n, out, s, stop, collect, plain)
        )
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
    ended = time.time()
    stop.set()
    results = [out.get(timeout=120) for _ in clients]
    for client in clients:
        client.join(timeout=30)
    came: list[float] = []
    went: list[float] = []
    each: dict[str, tuple[list[float], list[float]]] = {t: ([], []) for t in opened}
    missed = 0
    for result in results:
        for seen, gone in result["logs"]:
            for table, at in opened.items():
                if table in seen:
                    came.append(max(0.0, seen[table] - at))
                    each[table][0].append(came[-1])
                else:
                    missed += 1
                if table in gone:
                    went.append(max(0.0, gone[table] - filled[table]))
                    each[table][1].append(went[-1])
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
        "per_table": [(percentiles(a), percentiles(b)) for a, b in each.values()],
        "watchers_cpu_per_change": sum(r["cpu"] for r in results) / (2 * tables) * 1000,
        "watcher_pauses": [
            (round(1000 * (at - min(opened.values()))), generation, 1000 * took)
            for result in results
            for at, generation, took in result["pauses"]
            if min(opened.values()) - 1 <= at <= ended + 1 and took > 0.005
        ],
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
    parser.add_argument(
        "--watchers-collect",
        action="store_true",
        help="leave the watchers' garbage collector on while measuring (its pauses then "
        "delay hundreds of watchers at once)",
    )
    parser.add_argument(
        "--asyncio-client",
        action="store_true",
        help="watch through the websockets library's asyncio client (about twice the "
        "watchers' CPU) instead of its sans-I/O protocol",
    )
    parser.add_argument(
        "--per-table",
        action="store_true",
        help="also print each table's delays, in the order opened (where the tail is)",
    )
    args = parser.parse_args()
    if args.quick:
        args.watchers, args.tables = 200, 20
    if not 0 <= args.standing <= 99:
        parser.error("--standing must be from 0 to 99 (the lobby lists 100 tables)")
    if args.server_path:  # the watchers (forked) keep this tree's code
        os.environ["PYTHONPATH"] = args.server_path
    row = run(
        args.watchers,
        args.tables,
        args.rate,
        args.client_procs,
        args.standing,
        args.watchers_collect,
        args.asyncio_client,
    )
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
    if args.per_table:
        print("\ntable  listed p50 / p99 / max  gone p50 / p99 / max (ms)")
        for i, (listed, left) in enumerate(row["per_table"]):
            print(f"{i:5}  " + " / ".join(f"{v:4.0f}" for v in (*listed, *left)))
        print(
            f"the watchers' processes: {row['watchers_cpu_per_change']:.1f} ms of CPU a change "
            "(all of them, connected to the end)"
        )
        print("the watchers' collector pauses over 5 ms (ms after the first table, gen, ms):")
        print(row["watcher_pauses"])


if __name__ == "__main__":
    main()
