"""What travels between the page and the server: websocket messages, request bodies and
the record file, as pydantic models, with the limits that keep garbage out.

Websocket, page to server (text frames holding one JSON object, at most
`MAX_MESSAGE` bytes, nested at most `MAX_DEPTH` deep):

- `{"type": "auth", "token": "SEAT-CREDENTIAL"}` (or `"token": null` for a spectator):
  the first message of every connection, within `AUTH_TIMEOUT` seconds; tokens never
  travel in the address (see docs/protocol.md);
- `{"type": "move", "move": "GPY@1,-1", "ply": 12}`: play a move for the connection's
  seat; `ply`, if given, is the number of moves the page had seen, so a stale click is
  refused instead of landing on a position its player never saw;
- `{"type": "ping"}`: answered by `{"type": "pong"}`;
- `{"type": "ready"}`: this seat's player has seen the end of a round (the next round
  waits for it, at most `rooms.ROUND_PAUSE` seconds);
- `{"type": "chat", "text": "..."}`: a line for the table's chat (`chat`: a seat's goes
  to the players, a spectator's to the spectators).

Server to page (protocol version `PROTOCOL`, told in `hello`):

- `{"type": "hello", "protocol": 2, "seat": s | null, "game": ..., "info": {...}}` once,
  on connecting;
- `{"type": "state", "ply": n, "seat": s | null, "view": ..., "legal": [...], "last":
  ..., "hints": ..., ...}` once after `hello`: the whole table, all of it made from
  `view(seat)` (or the public view for a spectator), the legal moves only for the seat
  to move; never a drawing (the page draws the game from this data);
- `{"type": "patch", "ply": n, "from": m, "ops": [...], "log": [...]}` after every move:
  what changed since the connection's last state (`diff`; the page applies it with
  `patch`), and the new entries of the move log;
- `{"type": "presence", "online": [seats]}` when a seat's page connects or leaves;
- `{"type": "error", "message": "...", "code": "..."}` for anything refused; the message
  names the problem (for an illegal move it is the engine's own reason, and `refusal`
  carries that reason as data: `{"code": ..., "params": {...}}`). Nothing changes.

A connection is in one of the states of `Connection`: a spectator may only ping; a seat
may also move; a closed connection receives nothing more. Each connection may send
`RATE` messages a second on average, in bursts of up to `BURST` (`Throttle`); what comes
faster is dropped unread, with one `slow-down` error a second to say so.
"""

from __future__ import annotations

import json
from enum import Enum
from itertools import compress
from operator import ne
from typing import Annotated, Any, Literal

import orjson
from pydantic import BaseModel, ConfigDict, Field, StrictBool, TypeAdapter, ValidationError

from cubegames.core.chance import VERSIONS
from cubegames.core.errors import Refusal
from cubegames.core.phrase import Worded

#: the largest websocket message the server reads, in bytes (a move is a few dozen)
MAX_MESSAGE = 2048
#: the deepest nesting of arrays and objects read in any JSON the server parses
MAX_DEPTH = 32
#: seconds a new websocket connection has to send its `auth` message
AUTH_TIMEOUT = 10.0
#: the longest seat credential or invitation (they are 22 characters)
MAX_TOKEN = 64
#: the largest record file accepted for loading, in bytes
MAX_RECORD = 1_000_000
#: the most moves a record may hold
MAX_MOVES = 20_000
#: the longest move text
MAX_MOVE = 200
#: the longest chat line, in characters
MAX_CHAT = 300
#: seeds a person picks are kept in a signed 64-bit column
MAX_SEED = 2**63 - 1
#: the largest seed a record may hold (the server's own deals take 128 bits)
MAX_DEAL = 2**256 - 1
#: messages a second a connection may send on average, and in one burst
RATE = 10.0
BURST = 30
#: the version of the websocket protocol (docs/protocol.md); 2: the page draws from data
PROTOCOL = 2
#: what identifies a record file
RECORD_FORMAT = "cubegames-record"
RECORD_VERSION = 1


class Connection(Enum):
    """Where a websocket connection stands."""

    SPECTATOR = "spectator"
    SEATED = "seated"
    CLOSED = "closed"


class ProtocolError(ValueError):
    """A message the server cannot take; the text says what is wrong with it."""


class WordedProtocolError(ProtocolError, Worded):
    """A `ProtocolError` with its phrase of the catalogs (`Worded`): a bad record file,
    worded in the language of the request that sent it."""


class _Message(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True)


class MoveMessage(_Message):
    """Play a move for this connection's seat."""

    type: Literal["move"]
    move: Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]
    ply: Annotated[int, Field(ge=0)] | None = None


class PingMessage(_Message):
    """Are you there?"""

    type: Literal["ping"]


class ReadyMessage(_Message):
    """This seat's player has seen the end of the round (pressed "Next round")."""

    type: Literal["ready"]


class AuthMessage(_Message):
    """Who this connection is: a seat's credential, or None for a spectator. The first
    message of every connection, and only that one."""

    type: Literal["auth"]
    token: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)] | None = None


class EndMessage(_Message):
    """The connection's seat resigns (any time) or aborts the game (before every
    person's seat has moved): see `referee`."""

    type: Literal["resign", "abort", "undo"]


class UndoMessage(_Message):
    """Ask the others to agree to take back this seat's last move and every move since
    (`ask`), or answer such a request (`accept`, `decline`)."""

    type: Literal["undo-ask", "undo-accept", "undo-decline"]


class ClaimMessage(_Message):
    """The seat to move in a real-time game has had no page for longer than the grace:
    this connection's seat claims the win (2 seats) or hands that seat to the bot."""

    type: Literal["claim"]
    outcome: Literal["win", "bot"]


class ChatMessage(_Message):
    """A line for the table's chat: a seat's goes to the players, a spectator's to the
    spectators (`chat`; at most `MAX_CHAT` characters of text)."""

    type: Literal["chat"]
    #: its length is checked by the chat (`chat.clean`), which says so in its own words
    text: str


ClientMessage = Annotated[
    MoveMessage
    | ChatMessage
    | PingMessage
    | ReadyMessage
    | AuthMessage
    | EndMessage
    | ClaimMessage
    | UndoMessage,
    Field(discriminator="type"),
]
_CLIENT = TypeAdapter(ClientMessage)
TYPES = (
    "move",
    "chat",
    "ping",
    "ready",
    "auth",
    "resign",
    "abort",
    "claim",
    "undo",
    "undo-ask",
    "undo-accept",
    "undo-decline",
)


def too_deep(text: str | bytes, limit: int = MAX_DEPTH) -> bool:
    """Whether the JSON `text` nests arrays and objects more than `limit` deep (counted
    outside strings, so it is checked before `json.loads`, whose recursion a deep enough
    text would exhaust).

    >>> too_deep("[[1]]", 2), too_deep("[[[1]]]", 2), too_deep('["[[[["]', 2)
    (False, True, False)
    """
    if isinstance(text, str):
        brackets = text.count("[") + text.count("{")
    else:
        brackets = text.count(b"[") + text.count(b"{")
    if brackets <= limit:
        return False  # too few brackets to nest that deep (every message a page sends)
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    depth = 0
    in_string = False
    escaped = False
    for byte in data:
        if in_string:
            if escaped:
                escaped = False
            elif byte == 0x5C:  # backslash
                escaped = True
            elif byte == 0x22:  # quote
                in_string = False
        elif byte == 0x22:
            in_string = True
        elif byte in (0x5B, 0x7B):  # [ {
            depth += 1
            if depth > limit:
                return True
        elif byte in (0x5D, 0x7D):
            depth -= 1
    return False


def describe_error(exc: ValidationError, *, tagged: bool = False) -> str:
    """The first problem pydantic found, as `field: what is wrong`; `tagged` drops the
    message type that a tagged union puts first in the field's path."""
    first = exc.errors()[0]
    loc = first["loc"][1:] if tagged else first["loc"]
    where = ".".join(str(part) for part in loc)
    message = str(first["msg"])
    if first["type"] == "extra_forbidden":
        message = "is not a field of this message"
    return f"{where}: {message}" if where else message


def parse_client(
    raw: str | bytes | None,
) -> (
    MoveMessage
    | ChatMessage
    | PingMessage
    | ReadyMessage
    | AuthMessage
    | EndMessage
    | ClaimMessage
    | UndoMessage
):
    """A page's message, or `ProtocolError` naming what is wrong with it."""
    if raw is None:
        raise ProtocolError("empty message")
    if isinstance(raw, bytes):
        raise ProtocolError("binary frames are not read: send text holding a JSON object")
    size = len(raw.encode("utf-8"))
    if size > MAX_MESSAGE:
        raise ProtocolError(f"message too long: {size} bytes, at most {MAX_MESSAGE}")
    if too_deep(raw):
        raise ProtocolError(f"message nested too deep: at most {MAX_DEPTH} levels")
    try:
        data = json.loads(raw)
    except json.JSONDecodeError as exc:
        raise ProtocolError(f"not JSON: {exc.msg} at column {exc.colno}") from None
    if not isinstance(data, dict):
        raise ProtocolError('a message is a JSON object with a "type"')
    kind = data.get("type")
    if kind is None:
        raise ProtocolError(f'a message needs a "type" (one of: {", ".join(TYPES)})')
    if kind not in TYPES:
        raise ProtocolError(f"unknown message type {kind!r}; expected one of: {', '.join(TYPES)}")
    try:
        return _CLIENT.validate_python(data)
    except ValidationError as exc:
        raise ProtocolError(f"{kind} message: {describe_error(exc, tagged=True)}") from None


class Throttle:
    """A token bucket: `allow(now)` is True for a message that keeps the connection within
    `rate` messages a second on average, in bursts of up to `burst`. `now` is in seconds on
    any clock that only goes forward.

    >>> t = Throttle(rate=1, burst=2)
    >>> [t.allow(0.0), t.allow(0.0), t.allow(0.0), t.allow(1.0)]
    [True, True, False, True]
    """

    def __init__(self, rate: float = RATE, burst: int = BURST) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.last: float | None = None
        #: when the connection was last told to slow down
        self.warned: float | None = None

    def allow(self, now: float) -> bool:
        """Whether a message arriving at `now` may be read."""
        if self.last is not None:
            self.tokens = min(self.burst, self.tokens + (now - self.last) * self.rate)
        self.last = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False

    def warn(self, now: float) -> bool:
        """Whether to tell the sender to slow down now (at most once a second)."""
        if self.warned is not None and now - self.warned < 1:
            return False
        self.warned = now
        return True


def encode(message: Any) -> str:
    """The JSON text of a server message, compact (as starlette's `send_json` writes it),
    made by orjson; a value orjson does not take (an integer beyond 64 bits) falls back to
    the standard library's encoder, which writes the same JSON.

    >>> encode({"type": "patch", "ops": [["=", ["to_move"], 1]], "said": "Placé"})
    '{"type":"patch","ops":[["=",["to_move"],1]],"said":"Placé"}'
    >>> encode({"n": 2**70})
    '{"n":1180591620717411303424}'
    """
    try:
        return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()
    except TypeError:  # orjson.JSONEncodeError
        return json.dumps(message, separators=(",", ":"), ensure_ascii=False)


def error(
    message: str, code: str = "bad-message", refusal: Refusal | None = None
) -> dict[str, Any]:
    """The error message sent back for anything refused; for a move the rules refuse, with
    the rules' reason as data (`refusal`: its code and parameters), which a page words.

    >>> error("there is no seat 5", "illegal", Refusal("no-seat", "there is no seat 5", seat=5))
    ... # doctest: +NORMALIZE_WHITESPACE
    {'type': 'error', 'message': 'there is no seat 5', 'code': 'illegal',
     'refusal': {'code': 'no-seat', 'params': {'seat': 5}}}
    """
    out: dict[str, Any] = {"type": "error", "message": message, "code": code}
    if refusal is not None:
        out["refusal"] = {"code": refusal.code, "params": refusal.params}
    return out


# -- state patches ----------------------------------------------------------------------

#: an equal-length list with at most this many changed items is patched item by item
_ITEMWISE = 4

#: keys whose values change as a whole from one move to the next (the last move, and a
#: phrase: a catalog key with nested parameters): set whole when they differ, without
#: looking into them, which would cost more calls and bytes than it saves
_WHOLE = frozenset({"last", "say", "note_say"})

Path = list[str | int]


def diff(old: Any, new: Any, path: Path | None = None) -> list[list[Any]]:
    """The operations that turn the JSON value `old` into `new` (`patch(old, ops) == new`):

    - `["=", path, value]`: set the value at `path` (a list of keys and indices; `[]` is
      the whole value);
    - `["-", path]`: remove the key at `path` from its object;
    - `["~", path, at, remove, items]`: in the list at `path`, remove `remove` items from
      index `at` and put `items` there.

    >>> diff({"a": 1, "b": [1, 2, 3]}, {"a": 2, "b": [1, 3]})
    [['=', ['a'], 2], ['~', ['b'], 1, 1, []]]
    """
    where: Path = [] if path is None else path
    # (no comparison of two whole objects or lists first: below, each key is compared
    # before it is looked into, and a list's ends by slices, so a first comparison of the
    # whole would walk all of a message's unchanged parts once more)
    kind = type(new)
    if kind is dict and type(old) is dict:
        ops: list[list[Any]] = [["-", [*where, key]] for key in old if key not in new]
        for key, value in new.items():
            if key not in old:
                ops.append(["=", [*where, key], value])
                continue
            was = old[key]
            if was is value:
                continue  # most of a state stays as it was: no call for it
            part = type(value)
            if part is type(was):
                if was == value:
                    continue
                if (part is dict or part is list) and key not in _WHOLE:
                    ops += diff(was, value, [*where, key])  # only containers are looked into
                    continue
            ops.append(["=", [*where, key], value])
        return ops
    if kind is list and type(old) is list:
        if len(old) == len(new):
            changed = list(compress(range(len(new)), map(ne, old, new)))  # a loop in C
            if len(changed) <= _ITEMWISE:
                found: list[list[Any]] = []
                for i in changed:
                    was, value = old[i], new[i]
                    part = type(value)
                    if part is type(was) and (part is dict or part is list):
                        found += diff(was, value, [*where, i])
                    else:
                        found.append(["=", [*where, i], value])
                return found
        # the longest common head, then the longest common tail of what is left; one
        # comparison of slices first (a list that only grew or shrank at one end, as a
        # table or a hand does, needs no loop)
        shorter = min(len(old), len(new))
        head = shorter
        if old[:shorter] != new[:shorter]:
            head = 0
            while old[head] == new[head]:
                head += 1
        rest = shorter - head
        tail = rest
        if rest and old[len(old) - rest :] != new[len(new) - rest :]:
            tail = 0
            while old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
                tail += 1
        return [["~", where, head, len(old) - head - tail, new[head : len(new) - tail]]]
    if kind is type(old) and old == new:
        return []
    return [["=", where, new]]


def patch(value: Any, ops: list[list[Any]]) -> Any:
    """`value` with the operations of `diff` applied (a new value; `value` is not changed).

    >>> patch({"a": 1, "b": [1, 2, 3]}, [["=", ["a"], 2], ["~", ["b"], 1, 1, []]])
    {'a': 2, 'b': [1, 3]}
    """
    result = json.loads(json.dumps(value))
    for op in ops:
        kind, where = op[0], op[1]
        if kind == "=" and not where:
            result = op[2]
            continue
        parent = result
        for step in where[:-1]:
            parent = parent[step]
        last = where[-1] if where else None
        if kind == "=":
            parent[last] = op[2]
        elif kind == "-":
            del parent[last]
        elif kind == "~":
            target = parent[last] if where else parent
            target[op[2] : op[2] + op[3]] = op[4]
        else:
            raise ProtocolError(f"unknown patch operation {kind!r}")
    return result


# -- request bodies ---------------------------------------------------------------------


class SeatSpec(BaseModel):
    """Who sits in a seat: a person (`human`, playing through the seat's link) or a bot by
    name with parameters (`bot: "mcts:seconds=1"`)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(min_length=1, max_length=120)] | None = None
    name: Annotated[str, Field(max_length=40)] | None = None
    #: a person elsewhere: the answer holds a one-time invitation for the seat instead of
    #: its credential
    invite: bool = False


class ClaimSeat(BaseModel):
    """Take the seat of a one-time invitation."""

    model_config = ConfigDict(extra="forbid", strict=True)

    invite: Annotated[str, Field(min_length=1, max_length=MAX_TOKEN)]


class CreateGame(BaseModel):
    """A new game: which one, its options, who sits where, optionally its seed, and its
    time control (`clocks.parse`: checked by the API, which names the bad field)."""

    model_config = ConfigDict(extra="forbid", strict=True)

    game: Annotated[str, Field(max_length=32)]
    options: dict[str, Any] = Field(default_factory=dict)
    seats: Annotated[list[SeatSpec], Field(min_length=1, max_length=20)]
    seed: Annotated[int, Field(ge=0, le=MAX_SEED)] | None = None
    clock: Any = None
    #: a rated table (`ratings`): made signed in, timed, dealt by the server, its other
    #: people invited (each claims the seat signed in)
    rated: bool = False
    #: listed in the lobby: anyone may take a free (invited) seat with one click
    public: StrictBool = False


class RecordSeat(BaseModel):
    """A seat as written in a record file."""

    model_config = ConfigDict(extra="forbid", strict=True)

    kind: Literal["human", "bot"]
    bot: Annotated[str, Field(min_length=1, max_length=120)] | None = None
    name: Annotated[str, Field(max_length=40)] | None = None
    #: a person's seat the bot played from this move on (informative)
    zombie_from: Annotated[int, Field(ge=1)] | None = None


class Record(BaseModel):
    """A game record file: enough to replay the game move by move through the engine.

    `result` is informative; when present it must agree with the replay.
    """

    model_config = ConfigDict(extra="forbid", strict=True)

    format: Literal["cubegames-record"]
    #: 1 (a number: `true`, which equals 1 in Python, is refused)
    version: Annotated[int, Field(ge=1, le=1)]
    game: Annotated[str, Field(max_length=32)]
    options: dict[str, Any] = Field(default_factory=dict)
    seed: Annotated[int, Field(ge=0, le=MAX_DEAL)]
    #: the chance version the game was dealt in (`core.chance`); records written before
    #: chance version 2 have none, and are of version 1
    chance: Annotated[int, Field(strict=True, ge=VERSIONS[0], le=VERSIONS[-1])] = VERSIONS[0]
    seats: Annotated[list[RecordSeat], Field(min_length=1, max_length=20)]
    moves: Annotated[
        list[Annotated[str, Field(min_length=1, max_length=MAX_MOVE)]],
        Field(max_length=MAX_MOVES),
    ]
    result: dict[str, Any] | None = None
    created: str | None = None
    #: where moves were taken back (informative: the moves are the line played on)
    takebacks: Annotated[list[dict[str, Any]], Field(max_length=MAX_MOVES)] | None = None
    finished: str | None = None
    id: str | None = None


def read_record(raw: bytes) -> Record:
    """A record from the bytes of a file, or `ProtocolError` naming the problem."""
    if len(raw) > MAX_RECORD:
        raise WordedProtocolError(
            "error-record-too-large",
            f"the file is too large: {len(raw)} bytes, at most {MAX_RECORD}",
            bytes=len(raw),
            most=MAX_RECORD,
        )
    if too_deep(raw):
        raise WordedProtocolError(
            "error-record-too-deep",
            f"this file nests too deep: at most {MAX_DEPTH} levels",
            levels=MAX_DEPTH,
        )
    try:
        data = json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        # worded as `cubegames moves` and `check` word a position that is not JSON
        # (cli-not-json), so that `cubegames replay` says the same
        line, column = (exc.lineno, exc.colno) if isinstance(exc, json.JSONDecodeError) else (0, 0)
        where = (
            f" ({exc.msg} at line {line} column {column})"
            if isinstance(exc, json.JSONDecodeError)
            else ""
        )
        raise WordedProtocolError(
            "error-record-not-json", f"not valid JSON{where}", line=line, column=column
        ) from None
    except ValueError:  # an integer of more digits than Python converts (4300)
        raise WordedProtocolError(
            "error-record-long-number", "this file holds a number too long to read"
        ) from None
    if not isinstance(data, dict) or data.get("format") != RECORD_FORMAT:
        raise WordedProtocolError(
            "error-record-not-record",
            f'this is not a game record (no "format": "{RECORD_FORMAT}")',
            format=RECORD_FORMAT,
        )
    try:
        return Record.model_validate(data)
    except ValidationError as exc:
        loc = exc.errors(include_url=False)[0]["loc"]
        field = ".".join(str(part) for part in loc)[:80] or "record"
        raise WordedProtocolError(
            "error-record-field", f"bad record: {describe_error(exc)}", field=field
        ) from None
