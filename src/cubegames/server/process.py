"""What each process of `cubegames serve` runs besides the app: the settings a worker
process reads back (`environment`, `from_environment`: uvicorn calls the latter in every
process of `--workers N`), and the garbage collector set for a long-lived server
(`quiet_gc`)."""

from __future__ import annotations

import dataclasses
import gc
import json
import os
import secrets

from fastapi import FastAPI

from cubegames.server.app import create_app
from cubegames.server.chat import SECRET_VARIABLE
from cubegames.server.limits import Limits

#: how `cubegames serve --workers N` tells each worker process its settings
DB_VARIABLE = "CUBEGAMES_DB"
LIMITS_VARIABLE = "CUBEGAMES_LIMITS"
WORKERS_VARIABLE = "CUBEGAMES_WORKERS"
BOT_WORKERS_VARIABLE = "CUBEGAMES_BOT_WORKERS"


def environment(
    db_url: str, limits: Limits, workers: int, bot_workers: bool = False
) -> dict[str, str]:
    """The environment variables `from_environment` reads back into this app (and one
    secret for the processes to share: the key of the spectators' chat tags)."""
    return {
        SECRET_VARIABLE: secrets.token_hex(32),
        DB_VARIABLE: db_url,
        LIMITS_VARIABLE: json.dumps(dataclasses.asdict(limits)),
        WORKERS_VARIABLE: str(workers),
        BOT_WORKERS_VARIABLE: "1" if bot_workers else "0",
    }


def from_environment() -> FastAPI:
    """The app of `environment(...)`: what each worker process of `cubegames serve
    --workers N` runs (uvicorn calls it in every process)."""
    limits = Limits(**json.loads(os.environ.get(LIMITS_VARIABLE, "{}")))
    workers = int(os.environ.get(WORKERS_VARIABLE, "1"))
    bot_workers = os.environ.get(BOT_WORKERS_VARIABLE) == "1"
    app = create_app(
        os.environ[DB_VARIABLE], limits=limits, workers=workers, bot_workers=bot_workers
    )
    quiet_gc()
    return app


#: container allocations (net) between two collections of the youngest generation (Python's
#: default is 700); a collection's pause grows with it (see `quiet_gc`)
GC_YOUNG = 2_000
#: collections of the youngest generation that make one of the middle one (Python's: 10)
GC_MIDDLE = 1_000
#: collections of the middle generation that may make a full one (Python's own rule also
#: waits until a quarter of the long-lived objects are new)
GC_OLD = 1_000


def quiet_gc() -> None:
    """Set the cyclic garbage collector for a long-lived server process.

    What is loaded at start (the web stack, the engines) is frozen out of every later
    collection. What a move leaves alive (the game's new state, each page's last message)
    lives about as long as a player thinks, so it outlives the young generation and most
    of it is freed later by reference counting, never by the collector; but every
    collection still walks all of it that is alive. A collection's pause is therefore about
    proportional to the objects made since the last one: with 20,000 allocations between
    young collections a pause was about 30 ms, with 2,000 about 4 ms (the same collector
    CPU a second, spread thin), and the middle generation, which holds every live game's
    recent objects, paused 30-50 ms whenever it was collected, so it is collected about
    every few minutes instead of every few seconds (`benchmarks/room_cpu.py --games 500
    --think 1` prints the pauses of each generation: Room.play's p99 went from 14-59 ms to
    6-11 ms). With Python's defaults a server with a few hundred live games spent about a
    tenth of its CPU in the collector and paused for up to 0.1-0.3 s."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_YOUNG, GC_MIDDLE, GC_OLD)


__all__ = ["environment", "from_environment", "quiet_gc"]
