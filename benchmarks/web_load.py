"""Online play under load: websocket clients playing two-seat games against real servers.

    .venv/bin/python benchmarks/web_load.py            # about 8 minutes
    .venv/bin/python benchmarks/web_load.py --quick    # about 3 minutes, fewer clients

Everything runs on 127.0.0.1 and is started (and stopped) here: the servers (`cubegames
serve`, with the per-client caps raised, since every client comes from one address) and,
for PostgreSQL, a throwaway PostgreSQL server (`tests/server/pg.py`, with fsync on, so its
commits are as durable as a real one's). Three set-ups:

- `sqlite`: one server process on a SQLite file;
- `postgres`: one server process on PostgreSQL;
- `postgres x2`: two server processes on one PostgreSQL database, and the two seats of each
  game on different processes: every move reaches the other seat through the database
  (LISTEN/NOTIFY), so "watcher" below is the cross-process latency.

Two phases on each, on games of CUBED and Unstackable (half each), every seat a client
that picks a random legal move and makes a new game when one ends:

- `paced`: N clients (1,000 = 500 games), each thinking 0.5–1.5 s when its turn comes, so
  each client moves about every 2 s; figures: round trip of a move (sent → the mover's
  new state, which the server sends once the move is committed) p50/p99/max, and the
  time until the other seat sees it ("watcher");
- `flat out`: M clients (200) with no thinking time: moves per second.

Every client connects (and its game is made) before the clock starts; then `--warmup`
seconds of play, then the measured window. For each phase the server processes' CPU time
per move is measured from /proc: a ratio that
holds on a busy machine where latencies and rates do not. Errors count refusals, lost
connections and moves not acknowledged within 10 s. Clients run in `--client-procs`
processes of their own; each notes how late its event loop wakes for a 5 ms timer (its
"loop lag", which the round trips it measures include), so a slow client is not taken
for a slow server; and the CPU time the host of a virtual machine took from it meanwhile
("steal"), when a run goes slow for reasons outside it. Prints the Markdown table for
benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import multiprocessing
import os
import platform
import random
import signal
import socket
import statistics
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

try:
    from cubegames.server.process import quiet_gc
except (
    ImportError
):  # the code before issue #22 (room_cpu.py measures it with this script's `apply`)
    from cubegames.server.app import quiet_gc  # type: ignore[attr-defined,no-redef]

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for the throwaway PostgreSQL server of the tests

GAMES = ("cubed", "unstackable")
#: every client comes from 127.0.0.1: the per-client caps are raised for the benchmark
LIMITS = (
    "games_per_minute=1000000",
    "open_tables_per_client=1000000",
    "connections_per_client=100000",
    "max_rooms=5000",
    "messages_per_second=1000",
    "message_burst=1000",
    "max_connections=5000",
)
#: seconds a move may go unacknowledged before it counts as an error
ACK_TIMEOUT = 10.0
#: a durable PostgreSQL (the tests' one skips fsync)
PG_SETTINGS = "-c listen_addresses='' -c max_connections=100 -c shared_buffers=64MB -c timezone=UTC"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def process_cpu(pid: int, *, children: bool = False) -> float:
    """CPU seconds (user and system) a process has used so far (with `children`: and its
    children that ended and were waited for)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    used = int(fields[11]) + int(fields[12])
    if children:
        used += int(fields[13]) + int(fields[14])
    return used / ticks


def stolen() -> float:
    """CPU seconds the machine's host has taken from this (virtual) machine so far, over
    all its cores ("steal" in /proc/stat; 0 on a machine of its own)."""
    fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()
    return int(fields[8]) / os.sysconf("SC_CLK_TCK") if len(fields) > 8 else 0.0


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by process `root` and every process under it (PostgreSQL's
    server and its backends)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                after = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                parents[int(entry.name)] = int(after[1])
    tree, grew = {root}, True
    while grew:
        found = {pid for pid, parent in parents.items() if parent in tree} - tree
        tree |= found
        grew = bool(found)
    used = 0.0
    for pid in tree:
        with contextlib.suppress(OSError, IndexError, ValueError):
            used += process_cpu(pid, children=pid == root)
    return used


class Process:
    """A `cubegames` command of our own, stopped with SIGINT (then killed)."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "cubegames", *args],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONWARNINGS": "ignore"},
        )

    def cpu(self) -> float:
        return process_cpu(self.process.pid)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stderr is not None:
            self.process.stderr.close()


class Server(Process):
    """`cubegames serve` on a free port of 127.0.0.1, ready to serve: `extra` arguments
    after the database, and `--limit` settings (by default `LIMITS`)."""

    def __init__(self, db_url: str, *extra: str, limits: tuple[str, ...] | None = None) -> None:
        self.port = free_port()
        args = ["serve", "--port", str(self.port), "--db", db_url, *extra]
        for setting in LIMITS if limits is None else limits:
            args += ["--limit", setting]
        super().__init__(*args)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the server stopped: {self.process.communicate()[1]}")
            try:
                if httpx.get(self.url("/api/catalog"), timeout=2).status_code == 200:
                    return
            except httpx.HTTPError:
                time.sleep(0.2)
        self.stop()
        raise RuntimeError("the server did not start within 60 s")

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


# -- the clients (in processes of their own) ------------------------------------------------


@dataclass
class Tally:
    """What the clients of one process saw in the measured window."""

    rtt: list[float] = field(default_factory=list)
    watch: list[float] = field(default_factory=list)
    moves: int = 0
    errors: Counter[str] = field(default_factory=Counter)
    #: games made again after a kept-alive connection closed under the request
    retried: int = 0
    #: how late the clients' own event loop woke for a 5 ms timer (its lag, which a
    #: round trip measured by the client includes)
    lag: list[float] = field(default_factory=list)


@dataclass
class Plan:
    ports: tuple[int, int]
    tables: int
    think: tuple[float, float]
    warmup: float
    seconds: float
    seed: int


def apply(held: Any, ops: list[list[Any]]) -> None:
    """A patch's operations (docs/protocol.md) applied in place to the state the client
    holds, as the page does: `=` sets, `-` removes, `~` splices a list."""
    for op in ops:
        kind, where = op[0], op[1]
        if kind == "=" and not where:
            held.clear()
            held.update(op[2])
            continue
        parent = held
        for step in where[:-1]:
            parent = parent[step]
        if kind == "=":
            parent[where[-1]] = op[2]
        elif kind == "-":
            del parent[where[-1]]
        elif kind == "~":
            target = parent[where[-1]] if where else parent
            target[op[2] : op[2] + op[3]] = op[4]


async def _seat(
    ws: Any,
    seat: int,
    sent: dict[int, tuple[int, float]],
    plan: Plan,
    tally: Tally,
    window: list[float],
    rng: random.Random,
) -> None:
    """One seat's client: read every message; when the seat is to move, think, then move."""
    clock = time.perf_counter
    held: dict[str, Any] | None = None
    while True:
        try:
            raw = await asyncio.wait_for(ws.recv(), ACK_TIMEOUT)
        except TimeoutError:
            if clock() < window[1]:
                tally.errors["no message for 10 s"] += 1
            return
        arrived = clock()
        message = json.loads(raw)
        kind = message.get("type")
        if kind == "error":
            if arrived < window[1]:
                tally.errors[f"error: {message.get('code')}"] += 1
            continue
        if kind == "state":
            held = message
        elif kind == "patch" and held is not None:
            apply(held, message["ops"])  # what changed since the last state (protocol 2)
            message = held
        else:
            continue
        ply = message["ply"]
        mover = sent.pop(ply * 2 + seat, None)
        if mover is not None and window[0] <= arrived < window[1]:
            who, at = mover
            (tally.rtt if who == seat else tally.watch).append(arrived - at)
            if who == seat:
                tally.moves += 1
        if message["over"]:
            return
        pause = message.get("pause")  # a round just ended: this client has seen it
        if pause and seat in pause["waiting"]:
            await ws.send(json.dumps({"type": "ready"}))
        if message["to_move"] != seat or not message["legal"]:
            continue
        if clock() >= window[1]:
            return
        think = rng.uniform(*plan.think)
        if think > 0:
            await asyncio.sleep(think)
        move = rng.choice(message["legal"])
        moment = clock()
        sent[(ply + 1) * 2 + seat] = (seat, moment)
        sent[(ply + 1) * 2 + 1 - seat] = (seat, moment)
        await ws.send(json.dumps({"type": "move", "move": move, "ply": ply}))


class Start:
    """The clients' common start: every table connected first, then the window opens."""

    def __init__(self, tables: int) -> None:
        self.waiting = tables
        self.connected = asyncio.Event()
        self.go = asyncio.Event()
        #: [start, end) of the measured window (perf_counter), known once `go` is set
        self.window = [math.inf, math.inf]
        #: games being made and connected at once
        self.opening = asyncio.Semaphore(64)

    def one_connected(self) -> None:
        self.waiting -= 1
        if self.waiting <= 0:
            self.connected.set()


async def _make_game(http: httpx.AsyncClient, port: int, game: str, tally: Tally) -> Any:
    """POST a new game. A kept-alive connection that the server closed for idleness just
    as the request went out fails at once (httpx does not send a POST again by itself):
    that request never reached the server, so it is sent again, once, and counted."""
    url = f"http://127.0.0.1:{port}/api/games"
    body = {"game": game, "seats": [{"kind": "human"}, {"kind": "human"}]}
    try:
        return await http.post(url, json=body)
    except (httpx.ReadError, httpx.RemoteProtocolError):
        tally.retried += 1
        return await http.post(url, json=body)


async def _table(
    index: int, plan: Plan, tally: Tally, start: Start, http: httpx.AsyncClient
) -> None:
    """Two seats of one game at a time, a new game when one ends, until the window ends."""
    rng = random.Random(plan.seed * 100_003 + index)
    game = GAMES[index % 2]
    window = start.window
    first = True
    while time.perf_counter() < window[1]:
        sockets = []
        try:
            async with start.opening:
                answer = await _make_game(http, plan.ports[0], game, tally)
                answer.raise_for_status()
                made = answer.json()
                for seat in (0, 1):
                    ws = await connect(
                        f"ws://127.0.0.1:{plan.ports[seat]}/ws/games/{made['id']}",
                        compression=None,
                        max_size=2**22,
                        open_timeout=60,
                    )
                    sockets.append(ws)
                    token = made["seats"][seat]["token"]
                    await ws.send(json.dumps({"type": "auth", "token": token}))
            if first:
                first = False
                start.one_connected()
                await start.go.wait()
            sent: dict[int, tuple[int, float]] = {}
            await asyncio.gather(
                *(
                    _seat(ws, seat, sent, plan, tally, window, rng)
                    for seat, ws in enumerate(sockets)
                )
            )
        except Exception as exc:
            if time.perf_counter() < window[1]:
                tally.errors[type(exc).__name__] += 1
                await asyncio.sleep(1)
        finally:
            if first:  # never connected: do not hold the others back
                first = False
                start.one_connected()
            for ws in sockets:
                with contextlib.suppress(Exception):
                    await ws.close()


async def _clients(plan: Plan, parent: Any) -> Tally:
    tally = Tally()
    start = Start(plan.tables)
    limits = httpx.Limits(max_connections=64)
    async with httpx.AsyncClient(timeout=60, limits=limits) as http:
        tasks = [
            asyncio.create_task(_table(i, plan, tally, start, http)) for i in range(plan.tables)
        ]
        await start.connected.wait()
        # the clients' own collector pauses (0.1-0.2 s with Python's settings, for a
        # process holding 500 connections) would count as the server's latency: the
        # clients collect as the server does
        quiet_gc()
        parent.send("connected")
        opened: float = await asyncio.to_thread(parent.recv)
        start.window[:] = [opened + plan.warmup, opened + plan.warmup + plan.seconds]
        start.go.set()
        ticking = asyncio.create_task(_ticker(start.window, tally))
        await asyncio.gather(*tasks)
        await ticking
    return tally


async def _ticker(window: list[float], tally: Tally, period: float = 0.005) -> None:
    """Note how late this process's event loop wakes for a timer, through the window."""
    clock = time.perf_counter
    while clock() < window[1]:
        before = clock()
        await asyncio.sleep(period)
        if window[0] <= before < window[1]:
            tally.lag.append(max(0.0, clock() - before - period))


def _client_process(plan: Plan, parent: Any) -> None:
    tally = asyncio.run(_clients(plan, parent))
    parent.send((tally.rtt, tally.watch, tally.moves, dict(tally.errors), tally.retried, tally.lag))
    parent.close()


def load(
    ports: tuple[int, int],
    clients: int,
    think: tuple[float, float],
    warmup: float,
    seconds: float,
    procs: int,
    servers: list[Server],
    database: int | None = None,
) -> dict[str, Any]:
    """Connect `clients` clients (2 a game), then let them play for `warmup` + `seconds`;
    the figures of the last `seconds`."""
    tables = clients // 2
    context = multiprocessing.get_context("spawn")
    running = []
    for i in range(procs):
        share = tables // procs + (i < tables % procs)
        plan = Plan(ports, share, think, warmup, seconds, seed=i)
        mine, theirs = context.Pipe()
        process = context.Process(target=_client_process, args=(plan, theirs))
        process.start()
        running.append((process, mine))
    for _process, mine in running:
        if not mine.poll(300):
            raise RuntimeError("the clients did not connect within 300 s")
        assert mine.recv() == "connected"
    opened = time.perf_counter() + 0.1
    for _process, mine in running:
        mine.send(opened)
    time.sleep(max(0.0, opened + warmup - time.perf_counter()))
    cpu = sum(s.cpu() for s in servers)
    own = sum(process_cpu(p.pid) for p, _ in running if p.pid is not None)
    db = 0.0 if database is None else tree_cpu(database)
    steal = stolen()
    time.sleep(max(0.0, opened + warmup + seconds - time.perf_counter()))
    cpu = sum(s.cpu() for s in servers) - cpu
    own = sum(process_cpu(p.pid) for p, _ in running if p.pid is not None) - own
    db = 0.0 if database is None else tree_cpu(database) - db
    steal = stolen() - steal
    tally = Tally()
    for process, mine in running:
        rtt, watch, moves, errors, retried, lag = mine.recv()
        process.join(timeout=60)
        tally.rtt += rtt
        tally.watch += watch
        tally.moves += moves
        tally.errors.update(errors)
        tally.retried += retried
        tally.lag += lag
    return {
        "clients": clients,
        "moves": tally.moves,
        "rate": tally.moves / seconds,
        "rtt": percentiles(tally.rtt),
        "watch": percentiles(tally.watch),
        "cpu_ms": 1000 * cpu / max(1, tally.moves),
        "cpu_cores": cpu / seconds,
        "client_ms": 1000 * own / max(1, tally.moves),
        "client_cores": own / seconds,
        "db_ms": 1000 * db / max(1, tally.moves),
        "db_cores": db / seconds,
        "errors": dict(tally.errors),
        "retried": tally.retried,
        "lag": percentiles(tally.lag),
        "steal": steal / seconds,
    }


def percentiles(samples: list[float]) -> tuple[float, float, float]:
    """(p50, p99, max) in milliseconds (zeros without samples)."""
    if not samples:
        return (0.0, 0.0, 0.0)
    ordered = sorted(samples)
    p99 = ordered[min(len(ordered) - 1, int(0.99 * len(ordered)))]
    return (1000 * statistics.median(ordered), 1000 * p99, 1000 * ordered[-1])


def measure_setup(
    name: str, urls: list[str], args: argparse.Namespace, database: int | None = None
) -> list[dict[str, Any]]:
    """Both phases on servers for `urls`; `database`: the PostgreSQL server's process."""
    servers = [Server(url) for url in urls]
    try:
        ports = (servers[0].port, servers[-1].port)
        paced = load(
            ports,
            args.clients,
            (0.5, 1.5),
            args.warmup,
            args.seconds,
            args.client_procs,
            servers,
            database,
        )
        flat = load(
            ports,
            args.flat_clients,
            (0.0, 0.0),
            args.warmup,
            args.flat_seconds,
            args.client_procs,
            servers,
            database,
        )
    finally:
        for server in servers:
            server.stop()
    return [
        {"setup": name, "phase": "paced", **paced},
        {"setup": name, "phase": "flat out", **flat},
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--quick", action="store_true", help="about 3 minutes: fewer clients, shorter windows"
    )
    parser.add_argument("--clients", type=int, default=None, help="paced clients (1000)")
    parser.add_argument("--flat-clients", type=int, default=None, help="flat-out clients (200)")
    parser.add_argument("--seconds", type=float, default=None, help="paced window (60)")
    parser.add_argument("--flat-seconds", type=float, default=None, help="flat-out window (30)")
    parser.add_argument(
        "--warmup", type=float, default=None, help="seconds of play before measuring"
    )
    parser.add_argument("--client-procs", type=int, default=2, help="client processes")
    parser.add_argument(
        "--setups", default="sqlite,postgres,postgres x2", help="comma-separated, of the three"
    )
    args = parser.parse_args()
    quick = {
        "clients": 200,
        "flat_clients": 100,
        "seconds": 8.0,
        "flat_seconds": 6.0,
        "warmup": 4.0,
    }
    full = {
        "clients": 1000,
        "flat_clients": 200,
        "seconds": 60.0,
        "flat_seconds": 30.0,
        "warmup": 15.0,
    }
    for key, value in (quick if args.quick else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    setups = [s.strip() for s in args.setups.split(",")]
    rows: list[dict[str, Any]] = []
    import tempfile

    with tempfile.TemporaryDirectory(prefix="cubegames-load-") as scratch:
        if "sqlite" in setups:
            rows += measure_setup("sqlite", [f"sqlite:///{scratch}/games.sqlite3"], args)
        if any(s.startswith("postgres") for s in setups):
            with postgres() as cluster:
                for name, count in (("postgres", 1), ("postgres x2", 2)):
                    if cluster is not None and name in setups:
                        with fresh_database(cluster) as url:
                            rows += measure_setup(name, [url] * count, args, cluster.pid())
    print_table(rows, args)


@contextlib.contextmanager
def postgres() -> Iterator[Any]:
    """A throwaway PostgreSQL server of the tests' kind (`tests/server/pg.py`) with
    `PG_SETTINGS`, stopped afterwards; None, with the reason on stderr, where the machine
    cannot run one."""
    from tests.server import pg

    reason = pg.unavailable()
    if reason is not None:
        print(f"PostgreSQL set-ups skipped: {reason}", file=sys.stderr)
        yield None
        return
    cluster = pg.Cluster(PG_SETTINGS)
    cluster.start()
    try:
        yield cluster
    finally:
        cluster.stop()


@contextlib.contextmanager
def fresh_database(cluster: Any) -> Iterator[str]:
    """The URL of a new, empty schema of `cluster`, dropped afterwards."""
    schema, url = cluster.fresh()
    try:
        yield url
    finally:
        cluster.drop(schema)


def print_table(rows: list[dict[str, Any]], args: argparse.Namespace) -> None:
    load_now = os.getloadavg()[0]
    print(
        f"\n{platform.python_implementation()} {platform.python_version()}, "
        f"{os.cpu_count()} cores, load average {load_now:.1f} at the end; "
        f"paced {args.seconds:g} s, flat out {args.flat_seconds:g} s after {args.warmup:g} s"
        " of warm-up\n"
    )
    print(
        "| set-up | phase | clients | moves/s | move round trip p50 / p99 / max | "
        "watcher p50 / p99 / max | server CPU per move | server cores busy | errors |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        rtt = " / ".join(f"{v:.0f}" for v in r["rtt"])
        watch = " / ".join(f"{v:.0f}" for v in r["watch"])
        errors = ", ".join(f"{k} {v}" for k, v in r["errors"].items()) or "0"
        print(
            f"| {r['setup']} | {r['phase']} | {r['clients']} | {r['rate']:.0f} | {rtt} ms | "
            f"{watch} ms | {r['cpu_ms']:.2f} ms | {r['cpu_cores']:.2f} | {errors} |"
        )
    retried = {f"{r['setup']} {r['phase']}": r["retried"] for r in rows if r["retried"]}
    if retried:
        print(
            "\nGames made again after the server closed an idle kept-alive connection just "
            "as the request went out (not errors): "
            + ", ".join(f"{k} {v}" for k, v in retried.items())
        )
    print("\nThe load's own clients and PostgreSQL's server (on the same cores):\n")
    print(
        "| set-up | phase | client CPU per move | client cores busy | client loop lag "
        "p50 / p99 / max | PostgreSQL CPU per move | PostgreSQL cores busy | cores taken by "
        "the host |\n|---|---|---|---|---|---|---|---|"
    )
    for r in rows:
        db = (
            f"{r['db_ms']:.2f} ms | {r['db_cores']:.2f}"
            if r["setup"].startswith("postgres")
            else "– | –"
        )
        lag = " / ".join(f"{v:.0f}" for v in r["lag"])
        print(
            f"| {r['setup']} | {r['phase']} | {r['client_ms']:.2f} ms | {r['client_cores']:.2f} "
            f"| {lag} ms | {db} | {r['steal']:.2f} |"
        )


if __name__ == "__main__":
    main()
