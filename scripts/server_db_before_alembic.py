"""Make the database file `tests/server/test_migrations.py` upgrades:
`python scripts/server_db_before_alembic.py tests/data/server-before-alembic.sqlite3`.

It was run once, at commit 35f0638 (the last code that made its tables with `create_all`
and `ALTER TABLE`), and its output committed with a JSON file of the games' ids and
credentials. Run today it would make a database that Alembic has already stamped.
"""

import random
import sys
from pathlib import Path

import cubegames
from cubegames.server.api import server_deal
from cubegames.server.rooms import result_of
from cubegames.server.storage import BOT, HUMAN, NewSeat, Store


def main() -> None:
    path = Path(sys.argv[1])
    path.unlink(missing_ok=True)
    store = Store(f"sqlite:///{path}")
    rng = random.Random(2026)

    def play(game_id, game, seed, seats_n, n, start=0):
        state = game.new_state(seed=seed)
        info = store.load(game_id)
        for m in info.moves:
            state.play(m.move, seat=m.seat)
        moves = []
        ply = len(info.moves)
        while not state.is_over and (n is None or len(moves) < n):
            seat = state.to_move
            move = rng.choice(state.legal_moves())
            text = str(move)
            state.play(text)
            ply += 1
            store.add_move(game_id, ply, seat, text, result_of(state) if state.is_over else None)
            moves.append(text)
        return state

    made = {}
    tokens = {}
    # 1. a finished game of unstackable between two people at one screen, picked seed
    g = cubegames.make("unstackable")
    gid, toks = store.create(
        "unstackable",
        g.options,
        7,
        [NewSeat(HUMAN, None, "Ann"), NewSeat(HUMAN, None, "Ben")],
        host="host-one",
    )
    s = play(gid, g, 7, 2, None)
    assert s.is_over
    made["finished"] = gid
    tokens[gid] = toks
    # 2. a cubed game in progress, person against a bot, server deal (seed in `deal`)
    g = cubegames.make("cubed", players=2)
    seed = server_deal()
    gid, toks = store.create(
        "cubed",
        g.options,
        seed,
        [NewSeat(HUMAN, None, "Cleo"), NewSeat(BOT, "greedy", None)],
        host="host-two",
    )
    play(gid, g, seed, 2, 6)
    made["cubed_playing"] = gid
    tokens[gid] = toks
    # 3. cubes with an invited seat, claimed, then reissued, in progress
    g = cubegames.make("cubes", players=3)
    seed = server_deal()
    gid, toks = store.create(
        "cubes",
        g.options,
        seed,
        [
            NewSeat(HUMAN, None, "Dee"),
            NewSeat(HUMAN, None, "Eve", invited=True),
            NewSeat(BOT, "random", None),
        ],
        host="host-three",
    )
    claimed = store.claim(gid, toks[1])
    assert claimed
    invite = store.reissue(gid, 1)
    play(gid, g, seed, 3, 5)
    made["cubes_reissued"] = gid
    tokens[gid] = [toks[0], invite, toks[2]]
    # 4. stakd finished among bots
    g = cubegames.make("stakd", players=2)
    gid, toks = store.create(
        "stakd", g.options, 11, [NewSeat(BOT, "random", None), NewSeat(BOT, "greedy", None)]
    )
    s = play(gid, g, 11, 2, None)
    assert s.is_over
    made["stakd_finished"] = gid
    # 5. a fresh game, no moves yet
    g = cubegames.make("cubed", players=3)
    gid, toks = store.create(
        "cubed",
        g.options,
        12345,
        [NewSeat(HUMAN), NewSeat(HUMAN), NewSeat(HUMAN)],
        host="host-five",
    )
    made["cubed_new"] = gid
    tokens[gid] = toks
    store.close()
    import json

    path.with_suffix(".json").write_text(
        json.dumps(
            {
                "games": made,
                "tokens": tokens,
                "hosts": {
                    made["cubed_playing"]: "host-two",
                    made["cubes_reissued"]: "host-three",
                    made["cubed_new"]: "host-five",
                    made["finished"]: "host-one",
                },
            },
            indent=1,
        )
        + "\n"
    )
    for k, v in made.items():
        print(k, v)


if __name__ == "__main__":
    main()
