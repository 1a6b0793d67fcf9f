"""Two parts of a server's move, each against the way it was done before, alternating in
one process, printed as Markdown for benchmarks/README.md.

    .venv/bin/python benchmarks/server_parts.py              # both, about a minute
    .venv/bin/python benchmarks/server_parts.py --part frontier

- `frontier`: CUBED games replayed move by move, each move played from its notation and
  the legal moves written after it (what a room does), with every game of the edition
  sharing one frontier cache (`Frontier.of`, as now; warm from the recording, as a
  running server's is from the games before) against a cache of each game's own (as each
  room had before). CPU time per move.
- `write`: the PostgreSQL writer's usual batch, one move and its news, saved by
  `Store.add_moves_at_once` on one kept cursor (plain values, as now) against the same
  statement from arrays (`_AT_ONCE`, as every batch was before). Client CPU per move (the
  Python work that holds the GIL). Needs PostgreSQL: a throwaway server is started as
  the tests do (`tests/server/pg.py`); skipped, saying why, where there is none.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

from cubegames.core.registry import make
from cubegames.games.cubed.frontier import Frontier

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # for the throwaway PostgreSQL server of the tests


def frontier(games: int, rounds: int) -> None:
    recorded = []
    for seed in range(games):
        state = make("cubed").new_state(seed=seed)
        rng, moves = random.Random(seed), []
        while not state.is_over:
            move = rng.choice(state.legal_moves())
            moves.append(str(move))
            state.play(move)
        recorded.append((seed, moves))
    count = sum(len(moves) for _, moves in recorded)

    def replay(shared: bool) -> float:
        started = time.process_time()
        for seed, moves in recorded:
            game: Any = make("cubed")
            if not shared:
                game.frontier = Frontier(game.edition)
            state = game.new_state(seed=seed)
            for move in moves:
                state.play(move)
                state.legal_texts()
        return (time.process_time() - started) / count * 1e6

    print(f"\nCUBED, {games} games ({count} moves) replayed, µs of CPU a move:\n")
    print("| round | a cache per game (before) | one cache per edition (now) |\n|---|---|---|")
    for i in range(rounds):
        before, now = replay(False), replay(True)
        print(f"| {i + 1} | {before:.0f} | {now:.0f} |")


def write(moves: int, rounds: int) -> None:
    from tests.server import pg

    from cubegames.server.bus import PostgresBus
    from cubegames.server.storage import _AT_ONCE, FINISHED, NewMove, NewSeat, Store, now

    why = pg.unavailable()
    if why is not None:
        print(f"\nwrite: skipped ({why})")
        return
    cluster = pg.Cluster(
        "-c listen_addresses='' -c max_connections=100 -c shared_buffers=64MB -c timezone=UTC"
    )
    cluster.start()
    try:
        _schema, url = cluster.fresh()
        store = Store(url)
        bus = PostgresBus(store)
        raw = store.engine.raw_connection()
        connection: Any = raw.driver_connection
        raw.detach()
        connection.autocommit = True
        cursor = connection.cursor()
        games = [store.create("cubes", {}, i, [NewSeat("human")] * 2)[0] for i in range(8)]
        plies = dict.fromkeys(games, 0)

        def run(arrays: bool) -> float:
            started = time.process_time()
            for i in range(moves):
                game = games[i % len(games)]
                plies[game] += 1
                move = NewMove(game, plies[game], 0, "roll")
                news = bus.news([move])
                if arrays:
                    moment = now()
                    cursor.execute(
                        _AT_ONCE,
                        {
                            "games": [move.game_id],
                            "plies": [move.ply],
                            "seats": [move.seat],
                            "moves": [move.move],
                            "ats": [moment],
                            "at": moment,
                            "finished": FINISHED,
                            "ended": [],
                            "ended_at": [],
                            "results": [],
                            "timed": [],
                            "deadlines": [],
                            "channel": news[0],
                            "news": news[1],
                        },
                    )
                else:
                    store.add_moves_at_once(cursor, [move], news)
            return (time.process_time() - started) / moves * 1e6

        print(f"\nPostgreSQL, {moves} single moves with their news, µs of client CPU a move:\n")
        print("| round | arrays (before) | plain values (now) |\n|---|---|---|")
        for i in range(rounds):
            before, after = run(True), run(False)
            print(f"| {i + 1} | {before:.0f} | {after:.0f} |")
        connection.close()
        store.close()
    finally:
        cluster.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--part", choices=("frontier", "write", "both"), default="both")
    parser.add_argument("--games", type=int, default=300, help="CUBED games replayed (300)")
    parser.add_argument("--moves", type=int, default=1500, help="moves written a round (1500)")
    parser.add_argument("--rounds", type=int, default=3, help="alternating rounds (3)")
    args = parser.parse_args()
    if args.part in ("frontier", "both"):
        frontier(args.games, args.rounds)
    if args.part in ("write", "both"):
        write(args.moves, args.rounds)


if __name__ == "__main__":
    main()
