"""A table's chat: its players' chat, its spectators' chat (which the host may close), and
system lines (a seat taken, a resignation, a timeout, an abort, moves taken back) that
everyone at the table sees in the same stream.

- A seat's page writes to the players and reads the players' lines; a spectator's page
  writes to the spectators and reads theirs (players never see the spectators' chat, which
  could help them); system lines (channel `table`) go to every page.
- Text only: at most `MAX_CHAT` characters after trimming, no control character, no
  bidirectional override or isolate, no zero-width or other invisible character (as a
  name: `names.invisible`), not blank (`clean`). The
  page builds every line as a text node, never as markup.
- Rates: per connection `Limits.chat_per_second` in bursts of `chat_burst`, and per
  address `chat_per_minute` over all its connections, on the server's injectable clock.
- Stored (`storage.ChatRow`), the newest `HISTORY` lines of each channel of a table kept,
  and sent to a page when it connects (`chat-history`); carried to the other processes'
  pages by the bus (`{"kind": "chat", ...}`).
- Nothing in it comes from hidden information: a player's line is what they typed; a
  system line names seats and counts only (never a move's notation, a hand or a deal).

A player may mute another, and a spectator another spectator: that is the viewer's own
choice, kept by their page. A spectator's lines carry a tag (`spectator`, eight hex digits)
that names them at that table without saying who they are: an HMAC of the table and the
spectator (their account when signed in, else their browser's own guest id, the
`cubegames_guest` cookie every page gives, else their address) under the server's secret
(`SECRET_VARIABLE`, shared by every process of `serve --workers N`; a process alone makes
its own), so it stays the same when they come back and cannot be turned back into the
account, the guest id or the address. Two guests behind one address (one NAT) have tags
of their own, so a mute hides one of them only; a guest who clears their cookies comes
back with a new tag, as one who changed address did. Programs, which keep no cookie, are
tagged by their address. A spectator's page is told its own tag (`you` in
`chat-history`).

A refusal's `code` says why, for the page to word (`refusal-CODE` in the catalogs):
`chat-blank`, `chat-long`, `chat-hidden` (a control or invisible character), `chat-slow`,
`chat-closed`, `chat` (the line could not be stored); its English `message` is for programs.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import logging
import os
import secrets
import unicodedata
from dataclasses import replace
from typing import Any

from cubegames.server.bus import Bus, Event
from cubegames.server.limits import Clock, Limits, RateLimit, share
from cubegames.server.names import invisible
from cubegames.server.protocol import MAX_CHAT, Throttle, encode
from cubegames.server.rooms import Peer, Room, Rooms
from cubegames.server.storage import CHAT_LENGTH, ChatLine, Store, Unstorable, iso

log = logging.getLogger("cubegames.server")

PLAYERS = "players"
SPECTATORS = "spectators"
TABLE = "table"
#: lines of each channel of a table kept, and sent to a page when it connects
HISTORY = 200
#: how `cubegames serve --workers N` gives its processes one secret for spectators' tags
SECRET_VARIABLE = "CUBEGAMES_CHAT_SECRET"
#: the system lines there are (their words are the page's: `chat-system-KIND`)
SYSTEM = ("joined", "time", "resigned", "gone", "aborted", "zombie", "takeback", "closed", "opened")


assert MAX_CHAT <= CHAT_LENGTH


class ChatRefused(Exception):
    """A chat line not taken; `str()` says why (for programs), `code` its kind, which the
    page words (`chat-blank`, `chat-long`, `chat-hidden`, `chat-slow`, `chat-closed`;
    `chat` when it could not be stored)."""

    def __init__(self, message: str, code: str = "chat") -> None:
        super().__init__(message)
        self.code = code


def clean(text: str) -> str:
    """`text` as a chat line (trimmed, NFC), or ChatRefused naming the problem.

    >>> clean("  good game! ")
    'good game!'
    >>> clean("a\\u202eb")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    cubegames.server.chat.ChatRefused: a chat line cannot hold ... character (U+202E)
    """
    line = unicodedata.normalize("NFC", text.strip())
    if not line:
        raise ChatRefused("a chat line cannot be blank", "chat-blank")
    if len(line) > MAX_CHAT:
        raise ChatRefused(
            f"a chat line is at most {MAX_CHAT} characters; this one has {len(line)}", "chat-long"
        )
    for char in line:
        # control characters, and the invisible ones that disguise what a line says (as a
        # name refuses them): bidi overrides, zero-width characters, tag characters
        if unicodedata.category(char) in ("Cc", "Cs") or invisible(char):
            point = f"U+{ord(char):04X}"
            raise ChatRefused(
                f"a chat line cannot hold a control or invisible character ({point})",
                "chat-hidden",
            )
    return line


def channels_of(seat: int | None) -> tuple[str, str]:
    """The channels a page reads: a seat's, the players' and the table's; a spectator's,
    the spectators' and the table's."""
    return (PLAYERS, TABLE) if seat is not None else (SPECTATORS, TABLE)


def message_of(line: ChatLine) -> dict[str, Any]:
    """A stored line as the page is sent it."""
    out: dict[str, Any] = {"type": "chat", "id": line.id, "channel": line.channel}
    if line.system is not None:
        out["system"] = line.system
        out["params"] = line.params or {}
    else:
        out["seat"] = line.seat
        out["who"] = line.who
        out["text"] = line.text
        tag = (line.params or {}).get("spectator")
        if line.seat is None and isinstance(tag, str):
            out["spectator"] = tag
    out["at"] = iso(line.at)
    return out


class Chats:
    """The chat of every table this process serves (see the module)."""

    def __init__(
        self,
        store: Store,
        rooms: Rooms,
        bus: Bus,
        limits: Limits,
        clock: Clock,
        workers: int = 1,
        secret: bytes | None = None,
    ) -> None:
        self.store = store
        self.rooms = rooms
        self.bus = bus
        self.limits = limits
        self.clock = clock
        #: lines a minute per address, this process's share
        self.per_address = RateLimit(share(limits.chat_per_minute, workers), clock=clock)
        #: each connection's bucket (made when it first chats)
        self._buckets: dict[int, Throttle] = {}
        #: the key of the spectators' tags: given, or the one `serve --workers N` shares
        #: among its processes, or this process's own
        shared = os.environ.get(SECRET_VARIABLE)
        self._secret = secret or (bytes.fromhex(shared) if shared else secrets.token_bytes(32))

    def spectator_tag(self, game_id: str, speaker: str) -> str:
        """A spectator's tag at a table (`speaker`: `account:ID`, `guest:ID` or
        `address:ADDRESS`): the same for one speaker at one table, unrelated between
        tables, and not the speaker."""
        said = f"{game_id}\x00{speaker}".encode("utf-8", "surrogatepass")
        return hmac.new(self._secret, said, hashlib.sha256).hexdigest()[:8]

    def forget(self, peer: Peer) -> None:
        """A page went away: its bucket goes too."""
        self._buckets.pop(id(peer), None)

    async def history(self, room: Room, seat: int | None, speaker: str) -> dict[str, Any]:
        """What a page is sent when it connects: the newest lines of the channels it
        reads, whether the spectators' chat is open, and a spectator's own tag (`you`)."""
        lines = await asyncio.to_thread(self.store.chat, room.id, channels_of(seat), 2 * HISTORY)
        out = {
            "type": "chat-history",
            "lines": [message_of(line) for line in lines],
            "spectators_open": room.info.spectators_chat,
        }
        if seat is None:
            out["you"] = self.spectator_tag(room.id, speaker)
        return out

    async def say(
        self, room: Room, peer: Peer, text: str, address: str, speaker: str | None = None
    ) -> None:
        """`peer` says `text` at its table (from `address`; `speaker` who it is, for a
        spectator's tag: by default its address); ChatRefused (nothing stored, nobody
        told) if the line or its rate is refused."""
        line = clean(text)
        bucket = self._buckets.setdefault(
            id(peer), Throttle(self.limits.chat_per_second, self.limits.chat_burst)
        )
        moment = self.clock()
        if not bucket.allow(moment):
            raise ChatRefused(
                f"too many chat lines: at most {self.limits.chat_burst} at once, then one "
                f"every {1 / self.limits.chat_per_second:g} seconds",
                "chat-slow",
            )
        if self.per_address.wait(address) is not None:
            raise ChatRefused(
                f"too many chat lines from your address: at most "
                f"{self.limits.chat_per_minute} a minute",
                "chat-slow",
            )
        seat = peer.seat
        if seat is None and not room.info.spectators_chat:
            raise ChatRefused("the host has closed the spectators' chat", "chat-closed")
        self.per_address.allow(address)
        channel = PLAYERS if seat is not None else SPECTATORS
        who = room.seats[seat].name if seat is not None and seat < len(room.seats) else None
        who_said = speaker if speaker is not None else f"address:{address}"
        tag = None if seat is not None else {"spectator": self.spectator_tag(room.id, who_said)}
        try:
            stored = await asyncio.to_thread(
                self.store.add_chat,
                room.id,
                channel,
                seat=seat,
                who=who,
                said=line,
                params=tag,
                keep=HISTORY,
            )
        except Unstorable as exc:
            raise ChatRefused(str(exc)) from None
        await self._tell(room.id, stored)

    async def system(self, game_id: str, kind: str, **params: Any) -> None:
        """A system line at a table (`kind` one of `SYSTEM`; `params` seats and counts
        only), stored and told to every page of it, on every process. A failure is
        logged, never raised: the chat must not stop a game."""
        assert kind in SYSTEM, kind
        try:
            stored = await asyncio.to_thread(
                self.store.add_chat, game_id, TABLE, system=kind, params=params, keep=HISTORY
            )
        except Exception:
            log.exception("game %s: a chat line could not be stored", game_id)
            return
        await self._tell(game_id, stored)

    async def _tell(self, game_id: str, line: ChatLine) -> None:
        message = message_of(line)
        room = self.rooms.rooms.get(game_id)
        if room is not None:
            self.deliver(room, message)
        event: Event = {"kind": "chat", "game": game_id, "line": message}
        try:
            await asyncio.to_thread(self.bus.publish, event)
        except Exception:
            log.exception("game %s: a chat line could not be told to the other processes", game_id)

    def deliver(self, room: Room, message: dict[str, Any]) -> None:
        """Send a chat message to the pages of `room` that read its channel."""
        channel = message.get("channel")
        text = encode(message)
        for peer in list(room.peers):
            if channel in channels_of(peer.seat):
                peer.post(text)

    async def set_spectators(self, game_id: str, open_: bool) -> None:
        """The host opens or closes the spectators' chat: stored, every page told, and a
        system line said."""
        await asyncio.to_thread(self.store.set_spectators_chat, game_id, open_)
        room = self.rooms.rooms.get(game_id)
        if room is not None:
            self.spectators_changed(room, open_)
        event: Event = {"kind": "chat-spectators", "game": game_id, "open": open_}
        await asyncio.to_thread(self.bus.publish, event)
        await self.system(game_id, "opened" if open_ else "closed")

    def spectators_changed(self, room: Room, open_: bool) -> None:
        """Every page of `room` learns that the spectators' chat is open or closed."""
        room.info = replace(room.info, spectators_chat=open_)
        text = encode({"type": "chat-spectators", "open": open_})
        for peer in list(room.peers):
            peer.post(text)

    def hear(self, event: Event) -> None:
        """Another process's chat news: told to this process's pages of that table."""
        room = self.rooms.rooms.get(str(event.get("game")))
        if room is None:
            return
        if event.get("kind") == "chat" and isinstance(event.get("line"), dict):
            self.deliver(room, event["line"])
        elif event.get("kind") == "chat-spectators" and isinstance(event.get("open"), bool):
            self.spectators_changed(room, event["open"])


__all__ = [
    "HISTORY",
    "PLAYERS",
    "SECRET_VARIABLE",
    "SPECTATORS",
    "SYSTEM",
    "TABLE",
    "ChatRefused",
    "Chats",
    "channels_of",
    "clean",
    "message_of",
]
