"""What every route of one app shares (`Server`, kept as `app.state.server`), and the
small readings of a request that several routes make."""

from __future__ import annotations

import ipaddress
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime

from fastapi import Request, WebSocket

from cubegames.server.bots import BotRunner
from cubegames.server.bus import Bus
from cubegames.server.chat import Chats
from cubegames.server.hub import Hub
from cubegames.server.lease import Leases
from cubegames.server.limits import Clock, Counter, GameRate, Limits, SeatChanges
from cubegames.server.lobby import Lobby
from cubegames.server.protocol import MAX_TOKEN
from cubegames.server.referee import Referee
from cubegames.server.replays import Replays
from cubegames.server.rooms import Rooms
from cubegames.server.storage import Store
from cubegames.server.writer import Writer


@dataclass
class Server:
    """One app's parts: its database, live games, bots, news and limits."""

    store: Store
    limits: Limits
    rooms: Rooms
    runner: BotRunner
    writer: Writer
    bus: Bus
    leases: Leases
    hub: Hub
    replays: Replays
    executor: ThreadPoolExecutor
    #: games made per client (`limits.games_per_minute`)
    games_made: GameRate
    #: open websockets per client (`limits.connections_per_client`)
    sockets: Counter
    #: open websockets in all (`limits.max_connections`, counted under one key, "")
    all_sockets: Counter
    #: invitations claimed and seats reissued (`limits.seat_changes_per_client`, `_game`)
    seat_changes: SeatChanges
    #: the clock of the pages' message rates (`protocol.Throttle`)
    clock: Clock
    #: ends games without a move: out of time, resigned, aborted (`referee`)
    referee: Referee
    #: the server's wall clock (the games' time controls run on it)
    now: Callable[[], datetime]
    #: the open public tables and the pages watching them (`lobby`)
    lobby: Lobby
    #: the tables' chat (`chat`)
    chats: Chats


def server_of(connection: Request | WebSocket) -> Server:
    """The parts of the app serving `connection`."""
    server: Server = connection.app.state.server
    return server


def parts(request: Request) -> Server:
    """The parts of the app serving `request` (a route's dependency)."""
    return server_of(request)


def client_of(connection: Request | WebSocket) -> str:
    """The client, as the per-client caps count it (`client_key` of its address)."""
    return client_key(connection.client.host) if connection.client is not None else "unknown"


def client_key(host: str) -> str:
    """What the per-client caps count for an address: an IPv4 address itself (an IPv6
    one that carries an IPv4 address as that address), an IPv6 address by its /64, the
    network one subscriber is given whole (counted by address, every cap would be
    2**64 caps to them); a name that is no address (a test client's) as it is.

    >>> client_key("203.0.113.9"), client_key("::ffff:203.0.113.9")
    ('203.0.113.9', '203.0.113.9')
    >>> client_key("2001:db8:1:2:aaaa::1") == client_key("2001:db8:1:2:bbbb::2")
    True
    >>> client_key("2001:db8:1:2::1"), client_key("testclient")
    ('2001:db8:1:2::/64', 'testclient')
    """
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


def bearer(request: Request) -> str | None:
    """The credential of `Authorization: Bearer ...`, or None."""
    header = request.headers.get("authorization", "")
    kind, _, value = header.partition(" ")
    if kind.lower() != "bearer" or not value.strip():
        return None
    return value.strip()[:MAX_TOKEN]


__all__ = ["Server", "bearer", "client_key", "client_of", "parts", "server_of"]
