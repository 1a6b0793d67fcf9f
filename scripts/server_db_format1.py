"""Make the database file of CUBED games in chance version 1 that
`tests/server/test_migrations.py` upgrades: `tests/data/server-format1.sqlite3`, and beside it
`server-format1.json` (the games' ids, credentials, and the position each game had after its
last stored move, as that code rebuilt it).

It was run once with the code of commit 35f0638, the last release whose CUBED games drew
their later deals and draw3 returns from a hash of the position (chance version 1):

    git archive 35f0638 | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python scripts/server_db_format1.py \\
        tests/data/server-format1.sqlite3

The games: CUBED played into round 2 (the server's deal, so with a secret), a draw3 game
with pieces put back into the bag, a finished 3-round match, one against a bot in round 2
(a picked seed), and a CUBES game (whose draws did not change). The same JSON holds the
positions of the games in `tests/data/server-before-alembic.sqlite3`, made by the same code.
Run today it would make chance version 2 games in a database Alembic has already stamped.
"""

from __future__ import annotations

import json
import random
import sqlite3
import sys
from contextlib import closing
from pathlib import Path
from typing import Any

import cubegames
from cubegames.server.app import server_deal
from cubegames.server.rooms import replay, result_of
from cubegames.server.storage import BOT, HUMAN, NewSeat, Store


def main() -> None:
    path = Path(sys.argv[1])
    path.unlink(missing_ok=True)
    store = Store(f"sqlite:///{path}")
    rng = random.Random(2027)
    made: dict[str, str] = {}
    tokens: dict[str, list[str]] = {}
    hosts: dict[str, str] = {}

    def choose(state: Any) -> Any:
        moves = state.legal_moves()
        draw3 = [m for m in moves if str(m).startswith("draw3")]
        if draw3 and rng.random() < 1 / 3:
            return rng.choice(draw3)
        return rng.choice(moves)

    def play(game_id: str, seed: int, done: Any) -> Any:
        """Play random moves, each stored as the server stores them, until `done(state)`."""
        info = store.load(game_id)
        game = cubegames.make(info.game, **info.options)
        state = game.new_state(seed=seed)
        ply = 0
        while not state.is_over and not done(state):
            seat = state.to_move
            text = str(choose(state))
            state.play(text)
            ply += 1
            store.add_move(game_id, ply, seat, text, result_of(state) if state.is_over else None)
        return state

    def make(name: str, game_id: str, toks: list[str], host: str | None) -> None:
        made[name] = game_id
        tokens[game_id] = toks
        if host is not None:
            hosts[game_id] = host

    # 1. CUBED, two people, the server's deal (a secret), stopped in round 2 with a person
    # to move
    options = cubegames.make("cubed", players=2, rounds=3).options
    seed = server_deal()
    gid, toks = store.create(
        "cubed",
        options,
        seed,
        [NewSeat(HUMAN, None, "Ann"), NewSeat(HUMAN, None, "Ben")],
        host="host-round2",
    )
    state = play(gid, seed, lambda s: s.round == 2 and len(s.table) >= 4)
    assert state.round == 2 and not state.is_over
    make("cubed_round2", gid, toks, "host-round2")

    # 2. CUBED with draw3, three people, the server's deal, pieces put back into the bag
    options = cubegames.make("cubed", players=3, rounds=3, variants=["draw3"]).options
    seed = server_deal()
    gid, toks = store.create(
        "cubed",
        options,
        seed,
        [NewSeat(HUMAN), NewSeat(HUMAN), NewSeat(HUMAN)],
        host="host-draw3",
    )
    state = play(
        gid,
        seed,
        lambda s: sum(m.startswith("keep:") for m in moves_of(store, gid)) >= 4 and not s.drawn,
    )
    assert not state.is_over
    make("cubed_draw3", gid, toks, "host-draw3")

    # 3. a finished 3-round CUBED match between bots, the server's deal
    options = cubegames.make("cubed", players=2, rounds=3, variants=["draw3"]).options
    seed = server_deal()
    gid, toks = store.create(
        "cubed", options, seed, [NewSeat(BOT, "random"), NewSeat(BOT, "greedy")]
    )
    state = play(gid, seed, lambda s: False)
    assert state.is_over and state.round == 3
    make("cubed_finished", gid, toks, None)

    # 4. CUBED against a bot, a picked seed (no secret), in round 2 with the person to move
    options = cubegames.make("cubed", players=2, rounds=2).options
    gid, toks = store.create(
        "cubed",
        options,
        4242,
        [NewSeat(HUMAN, None, "Cleo"), NewSeat(BOT, "greedy")],
        host="host-bot",
    )
    state = play(gid, 4242, lambda s: s.round == 2 and s.to_move == 0 and len(s.table) >= 3)
    assert state.round == 2 and state.to_move == 0
    make("cubed_bot", gid, toks, "host-bot")

    # 5. CUBES, three people, the server's deal, in play
    options = cubegames.make("cubes", players=3).options
    seed = server_deal()
    gid, toks = store.create(
        "cubes",
        options,
        seed,
        [NewSeat(HUMAN), NewSeat(HUMAN), NewSeat(HUMAN)],
        host="host-cubes",
    )
    state = play(gid, seed, lambda s: len(moves_of(store, gid)) >= 12)
    assert not state.is_over
    make("cubes_playing", gid, toks, "host-cubes")

    positions = {gid: replay(store.load(gid))[1].to_dict() for gid in made.values()}
    store.close()
    before = Path(__file__).resolve().parents[1] / "tests" / "data"
    positions_before = old_positions(before / "server-before-alembic.sqlite3")
    path.with_suffix(".json").write_text(
        json.dumps(
            {
                "made_by": "35f0638",
                "games": made,
                "tokens": tokens,
                "hosts": hosts,
                "positions": positions,
                "before_alembic_positions": positions_before,
            },
            indent=1,
        )
        + "\n"
    )
    for name, gid in made.items():
        print(name, gid, len(moves_of_file(path, gid)), "moves")


def moves_of(store: Store, game_id: str) -> list[str]:
    info = store.load(game_id)
    return [m.move for m in info.moves]


def moves_of_file(path: Path, game_id: str) -> list[str]:
    with closing(sqlite3.connect(path)) as raw:
        rows = raw.execute("SELECT move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,))
        return [r[0] for r in rows]


def old_positions(path: Path) -> dict[str, Any]:
    """Each game of the database at `path` (read as it is, not opened by a Store, which
    would change it) rebuilt by this code from its seed and moves."""
    out = {}
    with closing(sqlite3.connect(f"file:{path}?immutable=1", uri=True)) as raw:
        games = raw.execute("SELECT id, game, options, seed, deal FROM games").fetchall()
        for game_id, name, options, seed, deal in games:
            game = cubegames.make(name, **json.loads(options))
            state = game.new_state(seed=int(deal) if deal else seed)
            for seat, move in raw.execute(
                "SELECT seat, move FROM moves WHERE game_id = ? ORDER BY ply", (game_id,)
            ):
                state.play(move, seat=seat)
            out[game_id] = state.to_dict()
    return out


if __name__ == "__main__":
    main()
