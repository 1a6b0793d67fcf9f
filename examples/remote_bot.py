"""A bot that plays one seat of a game on a `cubegames serve` server, over the websocket
protocol (docs/protocol.md), as any remote program may: it holds the seat's credential,
sends it in its first message, keeps the state up to date from the server's patches and
plays one of its legal moves whenever it is its turn.

    CUBEGAMES_TOKEN=SEAT-CREDENTIAL python examples/remote_bot.py http://127.0.0.1:8000 GAME-ID

The credential is the seat's `token` from `POST /api/games` (or from claiming an
invitation). It is read from the environment or from `--token-file`, never from the
command line, where other users of the machine could read it. The bot picks moves at
random (`--seed` makes it repeatable); replace `choose` with something cleverer.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import connect

from cubegames.server.protocol import patch


def choose(state: dict[str, Any], rng: random.Random) -> str:
    """The move to play in `state` (whose `legal` is not empty)."""
    moves: list[str] = state["legal"]
    return rng.choice(moves)


def socket_url(server: str, game_id: str) -> str:
    """The websocket address of a game on `server` (http → ws, https → wss)."""
    parts = urlsplit(server)
    scheme = "wss" if parts.scheme == "https" else "ws"
    return f"{scheme}://{parts.netloc}/ws/games/{game_id}"


def play(server: str, game_id: str, token: str, seed: int | None = None) -> dict[str, Any]:
    """Play the seat of `token` until the game is over; the last state, with its result."""
    rng = random.Random(seed)
    state: dict[str, Any] | None = None
    asked: int | None = None  # the move number a move was last sent for
    with connect(socket_url(server, game_id), open_timeout=10) as ws:
        ws.send(json.dumps({"type": "auth", "token": token}))
        while True:
            message = json.loads(ws.recv(timeout=120))
            kind = message["type"]
            if kind == "state":
                state = message
            elif kind == "patch":
                if state is None or message["from"] != state["ply"]:
                    raise RuntimeError("a patch for a state this bot does not hold")
                state = patch(state, message["ops"])
            elif kind == "error":
                print(f"server: {message['message']}", file=sys.stderr)
                if message["code"] in ("closed", "reissued"):
                    raise RuntimeError(message["message"])
                asked = None  # refused: think again
                continue
            else:
                continue
            assert state is not None
            if state["over"]:
                return state
            pause = state.get("pause")  # a round just ended: this bot has seen it
            if pause and state["seat"] in pause["waiting"]:
                ws.send(json.dumps({"type": "ready"}))
            if state["legal"] and asked != state["ply"]:
                asked = state["ply"]
                move = choose(state, rng)
                ws.send(json.dumps({"type": "move", "move": move, "ply": state["ply"]}))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("server", help="the server's address, e.g. http://127.0.0.1:8000")
    parser.add_argument("game", help="the game's id")
    parser.add_argument(
        "--token-file",
        type=Path,
        help="a file holding the seat's credential (default: $CUBEGAMES_TOKEN)",
    )
    parser.add_argument("--seed", type=int, help="seed of the bot's own choices")
    args = parser.parse_args(argv)
    token = (
        args.token_file.read_text().strip()
        if args.token_file
        else os.environ.get("CUBEGAMES_TOKEN", "")
    )
    if not token:
        parser.error("no credential: set CUBEGAMES_TOKEN or give --token-file")
    try:
        end = play(args.server, args.game, token, args.seed)
    except (OSError, RuntimeError) as exc:
        print(f"remote_bot: {exc}", file=sys.stderr)
        return 1
    result = end["result"] or {}
    print(
        f"game over after {end['ply']} moves: scores {result.get('scores')}, "
        f"winners {result.get('winners')}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
