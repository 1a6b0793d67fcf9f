"""Make the database file that `tests/server/test_migrations.py` upgrades to accounts:
`tests/data/server-before-accounts.sqlite3`, and beside it `server-before-accounts.json`
(the games' ids, their seats' credentials and hosts, and their moves).

It was run once with the code of commit ac3870a, the last before accounts (migration 0005):

    git archive ac3870a | tar -x -C /tmp/old
    PYTHONPATH=/tmp/old/src .venv/bin/python scripts/server_db_before_accounts.py \\
        tests/data/server-before-accounts.sqlite3

The games, made through that code's API: CUBES in play against a bot (a move stored), a
CUBED game with an invited seat not yet claimed, a timed CUBES game between two people at
one screen, and a finished game loaded from its record.
"""

from __future__ import annotations

import json
import sys
import warnings
from pathlib import Path
from typing import Any

with warnings.catch_warnings():
    warnings.simplefilter("ignore")
    from fastapi.testclient import TestClient

import cubegames
from cubegames.server.app import create_app


def main() -> None:
    path = Path(sys.argv[1])
    path.unlink(missing_ok=True)
    made: dict[str, Any] = {}
    app = create_app(f"sqlite:///{path}", bot_delay=0)
    with TestClient(app) as client:

        def create(key: str, body: dict[str, Any]) -> dict[str, Any]:
            answer = client.post("/api/games", json=body)
            assert answer.status_code == 201, answer.text
            game = answer.json()
            made[key] = {
                "id": game["id"],
                "host": game["host"],
                "tokens": [s.get("token") for s in game["seats"]],
                "invites": [s.get("invite") for s in game["seats"]],
            }
            return game

        against_bot = create(
            "cubes_bot",
            {
                "game": "cubes",
                "seats": [{"kind": "human", "name": "Ann"}, {"kind": "bot", "bot": "random"}],
                "seed": 5,
            },
        )
        with client.websocket_connect(f"/ws/games/{against_bot['id']}") as ws:
            ws.send_json({"type": "auth", "token": made["cubes_bot"]["tokens"][0]})
            state = None
            while state is None or state.get("type") != "state":
                state = ws.receive_json()
            ws.send_json({"type": "move", "move": state["legal"][0], "ply": state["ply"]})
            while True:
                message = ws.receive_json()
                if message.get("type") in ("state", "patch") and message.get("ply", 0) >= 1:
                    break
        create(
            "cubed_invite",
            {
                "game": "cubed",
                "options": {"rounds": 1},
                "seats": [{"kind": "human"}, {"kind": "human", "invite": True}],
            },
        )
        create(
            "cubes_timed",
            {
                "game": "cubes",
                "seats": [{"kind": "human"}, {"kind": "human"}],
                "clock": {"kind": "realtime", "preset": "10+5"},
            },
        )
        game = cubegames.make("cubes", players=2)
        state = game.new_state(seed=3)
        moves = []
        while not state.is_over:
            move = state.legal_moves()[0]
            moves.append(str(move))
            state.play(move)
        record = {
            "format": "cubegames-record",
            "version": 1,
            "game": "cubes",
            "options": game.options,
            "seed": 3,
            "chance": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}],
            "moves": moves,
        }
        loaded = client.post("/api/records", content=json.dumps(record)).json()
        made["cubes_finished"] = {"id": loaded["id"], "status": loaded["status"]}
        for entry in made.values():
            entry["moves"] = [
                [m["seat"], m["move"]]
                for m in client.get(f"/api/games/{entry['id']}").json()["moves"]
            ]
    path.with_suffix(".json").write_text(json.dumps(made, indent=1) + "\n")


if __name__ == "__main__":
    main()
