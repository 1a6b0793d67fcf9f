"""Helpers for talking to the app in tests: making games and reading websocket messages
with a time limit (the test client's own `receive` waits forever, which would turn a bug
into a hung test run)."""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from datetime import UTC, datetime, timedelta
from typing import Any

import anyio
import pytest

with warnings.catch_warnings():
    # Starlette warns, once on import, that its test client would rather run on `httpx2`;
    # the project pins `httpx`, which the test client still supports.
    warnings.filterwarnings(
        "ignore", message="Using `httpx` with `starlette.testclient`", category=UserWarning
    )
    from fastapi.testclient import TestClient
    from starlette.testclient import WebSocketTestSession

import cubegames
from cubegames.core import chance
from cubegames.server.protocol import patch

TIMEOUT = 15.0


class FakeClock:
    """A server's wall clock (`now=`), moved by the test. It starts at the real time: the
    expiry of abandoned games (30 days) reads the real one."""

    def __init__(self) -> None:
        self.moment = datetime.now(UTC).replace(microsecond=0)

    def __call__(self) -> datetime:
        return self.moment

    def advance(self, seconds: float) -> None:
        self.moment += timedelta(seconds=seconds)


class Seconds:
    """A clock of seconds (a pause's, a queue's, the chat's), set by the test: `now`."""

    def __init__(self, now: float = 1000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def played_record(
    game: str, options: dict[str, Any], seed: int = 4, first: dict[str, Any] | None = None
) -> dict[str, Any]:
    """A record of a whole game between random bots (seeded by seat), played here through
    the engine in the current chance version. `first` is seat 0's entry (a random bot's by
    default, or e.g. a person's: `{"kind": "human", "name": "ANA"}`)."""
    built = cubegames.make(game, **options)
    state = built.new_state(seed=seed)
    bots = [cubegames.bot("random", seed=s) for s in range(built.players)]
    moves = []
    while state.to_move is not None:
        move = bots[state.to_move].choose(state)
        moves.append(str(move))
        state.play(move)
    robot = {"kind": "bot", "bot": "random"}
    return {
        "format": "cubegames-record",
        "version": 1,
        "game": game,
        "options": built.options,
        "seed": seed,
        "chance": chance.CURRENT,
        "seats": [first or robot] + [robot] * (built.players - 1),
        "moves": moves,
        "result": {"scores": state.scores(), "winners": state.winners()},
    }


#: run a test (or with `pytestmark`, a module) on SQLite and on PostgreSQL: through the
#: `backend` fixture, `db_url` and everything over it (`store`, `app`, `client`) follow
BOTH = pytest.mark.parametrize("backend", ["sqlite", "postgresql"], indirect=True)


def make_game(
    client: TestClient,
    game: str,
    seats: list[dict[str, Any]],
    options: dict[str, Any] | None = None,
    seed: int = 7,
) -> dict[str, Any]:
    """Make a game through the API; the answer, with each human seat's token."""
    response = client.post(
        "/api/games", json={"game": game, "options": options or {}, "seats": seats, "seed": seed}
    )
    assert response.status_code == 201, response.text
    made: dict[str, Any] = response.json()
    return made


@contextmanager
def connect(
    client: TestClient, game_id: str, credential: str | None = None
) -> Iterator[WebSocketTestSession]:
    """A websocket to a game that has said who it is in its first message (a seat's
    credential, or None for a spectator), as the page does."""
    with client.websocket_connect(f"/ws/games/{game_id}") as session:
        session.send_json({"type": "auth", "token": credential})
        yield session


def token(made: dict[str, Any], seat: int) -> str:
    """The token of a seat of a game just made."""
    found: str = made["seats"][seat]["token"]
    return found


HUMAN = {"kind": "human"}


def bot(spec: str = "greedy") -> dict[str, Any]:
    """A bot seat."""
    return {"kind": "bot", "bot": spec}


class Socket:
    """A websocket session with receives that give up after `TIMEOUT` seconds, and a
    transcript of every raw message received."""

    def __init__(self, session: WebSocketTestSession) -> None:
        self.session = session
        self.transcript: list[str] = []
        #: the state as the page holds it, patches applied
        self.held: dict[str, Any] | None = None

    def receive(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        """The next message (a dict); TimeoutError if none comes in time."""

        async def wait() -> Any:
            with anyio.fail_after(timeout):
                # the test client has no receive with a time limit: read its stream directly
                return await self.session._send_rx.receive()

        message = self.session.portal.call(wait)
        if message["type"] == "websocket.close":
            return {"type": "closed", "code": message.get("code")}
        text = message["text"]
        self.transcript.append(text)
        parsed: dict[str, Any] = json.loads(text)
        return self._whole(parsed)

    def _whole(self, message: dict[str, Any]) -> dict[str, Any]:
        """A `state` as it is sent; a `patch` applied to the state before it (as the page
        does), given as the `state` it makes, marked `"patched": True`."""
        if message["type"] == "state":
            self.held = message
        elif message["type"] == "patch":
            assert self.held is not None, "a patch came before any state"
            assert message["from"] == self.held["ply"], (message["from"], self.held["ply"])
            doc = {k: v for k, v in self.held.items() if k not in ("type", "log", "patched")}
            log = self.held["log"] + message["log"]
            self.held = {"type": "state", **patch(doc, message["ops"]), "log": log}
            self.held["patched"] = True
            return self.held
        return message

    def until(
        self, test: Callable[[dict[str, Any]], bool], timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        """Receive until a message passes `test`; that message."""
        while True:
            message = self.receive(timeout)
            if test(message):
                return message

    def transcript_until_pong(self, timeout: float = TIMEOUT) -> list[dict[str, Any]]:
        """Every message up to and including the next pong."""
        heard = []
        while True:
            message = self.receive(timeout)
            heard.append(message)
            if message["type"] == "pong":
                return heard

    def state(self, ply: int | None = None) -> dict[str, Any]:
        """The next state message (at move `ply`, if given)."""
        return self.until(lambda m: m["type"] == "state" and (ply is None or m["ply"] == ply))

    def error(self) -> dict[str, Any]:
        """The next error message."""
        return self.until(lambda m: m["type"] == "error")

    def send(self, message: Any) -> None:
        """Send a JSON message."""
        self.session.send_json(message)

    def send_text(self, text: str) -> None:
        """Send a raw text frame."""
        self.session.send_text(text)

    def move(self, move: str, ply: int | None = None) -> None:
        """Ask to play a move."""
        message: dict[str, Any] = {"type": "move", "move": move}
        if ply is not None:
            message["ply"] = ply
        self.send(message)

    def opening(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """The hello and the first state of a new connection."""
        hello = self.until(lambda m: m["type"] == "hello")
        return hello, self.state()


def pieces_in(text: str, letters: str) -> set[str]:
    """Every three-letter word made of colour `letters` in `text`, in its least rotation
    (so the same piece however it is turned)."""
    found = set()
    for word in re.findall(rf"\b[{letters}]{{3}}\b", text):
        found.add(min(word, word[1:] + word[:1], word[2:] + word[:2]))
    return found
