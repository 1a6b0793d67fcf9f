"""The fast placement generator: an incremental frontier of the table.

For every empty cell next to the table the state keeps a 6-tuple `edges`: what touches the
cell across each edge (`EMPTY`, or the neighbour's facing colour, plus `BLOCKING_FLAG` when
the neighbour is a blocking piece). Laying a piece updates the tuples of its six neighbours
and nothing else. Everything the rules ask of a cell (how many pieces it touches, whether
it is dead, which colours each slot accepts, whether a blocking piece fits, how many arcs
its neighbours form) is a pure function of that tuple, computed once per distinct tuple and
cached. Generating placements is then a few bit tests per playable cell and hand piece.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from cubegames.core.hexgrid import ORIGIN, STEP
from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.pieces import Piece, canonical, rotations
from cubegames.games.cubed.placement import SLOT, SLOT_EDGES

EMPTY = -1
BLOCKING_FLAG = 32
Edges = tuple[int, int, int, int, int, int]
NO_EDGES: Edges = (EMPTY,) * 6


@dataclass(frozen=True, slots=True)
class CellInfo:
    """What the rules need to know about one empty cell, from its `edges`."""

    touches: int
    dead: bool
    #: per slot, the colours (as bits) a non-blocking piece may show there
    accept: tuple[int, int, int]
    #: (slot, bit of accepted colour) for each occupied edge, for the loose colour rule
    contacts: tuple[tuple[int, int], ...]
    #: (slot, colour) a blocking piece's coloured diamond must take here, if any fits
    block: tuple[int, int] | None
    #: separate runs of occupied neighbours around the cell
    arcs: int


#: cells remembered per edition before the cache starts again (random play meets about
#: 14,000 distinct edges in 3,000 two-player games, so this is never reached in practice;
#: it bounds the memory a long-running server could give it)
MAX_CELLS = 200_000


class Frontier:
    """Per-edition cache of `CellInfo` by edges tuple. Use `Frontier.of(edition)`: every
    game of an edition shares one, so a server's rooms, or a simulator's games, compute
    each distinct cell once rather than once a game."""

    _shared: ClassVar[dict[int, Frontier]] = {}

    def __init__(self, ed: Edition) -> None:
        self.ed = ed
        self.all_bits = (1 << len(ed.colours)) - 1
        self._cache: dict[Edges, CellInfo] = {}

    @classmethod
    def of(cls, ed: Edition) -> Frontier:
        """The frontier cache shared by every game of edition `ed`."""
        found = cls._shared.get(id(ed))
        if found is None or found.ed is not ed:  # (it holds `ed`: the id is not reused)
            found = cls._shared[id(ed)] = cls(ed)
        return found

    def accept_bits(self, code: int) -> int:
        """Colours a non-blocking piece may show against edge code `code`."""
        ed = self.ed
        if code == EMPTY:
            return self.all_bits
        colour = code & ~BLOCKING_FLAG
        if colour == ed.black:
            return 0
        if code & BLOCKING_FLAG:
            return 1 << colour
        if colour == ed.wild:
            return self.all_bits & ~(1 << ed.black)
        wild = 0 if ed.wild is None else 1 << ed.wild
        return (1 << colour) | wild

    def info(self, edges: Edges) -> CellInfo:
        found = self._cache.get(edges)
        if found is None:
            if len(self._cache) >= MAX_CELLS:
                self._cache.clear()
            found = self._cache[edges] = self._compute(edges)
        return found

    def _compute(self, edges: Edges) -> CellInfo:
        ed = self.ed
        occupied = [e != EMPTY for e in edges]
        touches = sum(occupied)
        dead = any(e != EMPTY and (e & ~BLOCKING_FLAG) == ed.black for e in edges)
        accept = [self.all_bits, self.all_bits, self.all_bits]
        contacts = []
        for d, code in enumerate(edges):
            if code != EMPTY:
                bits = self.accept_bits(code)
                accept[SLOT[d]] &= bits
                contacts.append((SLOT[d], bits))
        block = None
        if touches == 2 and not dead:
            for slot, (a, b) in enumerate(SLOT_EDGES):
                ca, cb = edges[a], edges[b]
                if ca != EMPTY and cb != EMPTY:
                    colour = ca & ~BLOCKING_FLAG
                    if colour == cb & ~BLOCKING_FLAG and colour < ed.ordinary:
                        block = (slot, colour)
        if touches == 6:
            arcs = 1
        else:
            arcs = sum(1 for d in range(6) if occupied[d] and not occupied[d - 1])
        return CellInfo(
            touches, dead, (accept[0], accept[1], accept[2]), tuple(contacts), block, arcs
        )


def add_piece(
    frontier: Frontier,
    front: dict[int, Edges],
    playable: set[int],
    table: dict[int, Piece],
    placed: Piece,
    cell: int,
) -> None:
    """Lay `placed` on `cell` and bring `front` and `playable` up to date."""
    ed = frontier.ed
    table[cell] = placed
    front.pop(cell, None)
    playable.discard(cell)
    flag = BLOCKING_FLAG if ed.black in placed else 0
    n = len(table)
    need = 1 if n == 1 else 2
    for d in range(6):
        other = cell + STEP[d]
        if other in table:
            continue
        edges = list(front.get(other, NO_EDGES))
        edges[(d + 3) % 6] = placed[SLOT[d]] | flag
        new: Edges = (edges[0], edges[1], edges[2], edges[3], edges[4], edges[5])
        front[other] = new
        info = frontier.info(new)
        if info.dead or info.touches < need:
            playable.discard(other)
        else:
            playable.add(other)
    if n == 2:  # from now on a cell must touch two pieces
        for other in list(playable):
            if frontier.info(front[other]).touches < 2:
                playable.discard(other)


def rebuild(frontier: Frontier, table: dict[int, Piece]) -> tuple[dict[int, Edges], set[int]]:
    """The frontier of a table built from scratch (loading a position)."""
    front: dict[int, Edges] = {}
    playable: set[int] = set()
    placed: dict[int, Piece] = {}
    for cell, piece in table.items():
        add_piece(frontier, front, playable, placed, piece, cell)
    if not table:
        playable.add(ORIGIN)
    return front, playable


def fast_placements(
    frontier: Frontier,
    front: dict[int, Edges],
    playable: Iterable[int],
    n: int,
    hand: Iterable[Piece],
    *,
    strict: bool,
) -> list[tuple[Piece, int]]:
    """Every legal placement of a piece from `hand`, as (rotation, cell)."""
    ed = frontier.ed
    black = ed.black
    normal: list[tuple[Piece, int, int, int]] = []
    blocking: dict[int, Piece] = {}
    seen: set[Piece] = set()
    for piece in hand:
        key = canonical(piece)
        if key in seen:
            continue
        seen.add(key)
        if black in key:
            colour = next(c for c in key if c != black)
            blocking[colour] = key
        else:
            for rot in rotations(key):
                normal.append((rot, 1 << rot[0], 1 << rot[1], 1 << rot[2]))
    out: list[tuple[Piece, int]] = []
    if n == 0:
        return [(rot, ORIGIN) for rot, _, _, _ in normal]
    loose = not strict and n >= 2
    for cell in playable:
        info = frontier.info(front[cell])
        if loose:
            contacts = info.contacts
            for rot, b0, b1, b2 in normal:
                bits = (b0, b1, b2)
                if sum(1 for slot, ok in contacts if bits[slot] & ok) >= 2:
                    out.append((rot, cell))
        else:
            a0, a1, a2 = info.accept
            out.extend(
                [(rot, cell) for rot, b0, b1, b2 in normal if b0 & a0 and b1 & a1 and b2 & a2]
            )
        if blocking and n >= 3 and info.block is not None:
            slot, colour = info.block
            if colour in blocking:
                placed = [black, black, black]
                placed[slot] = colour
                out.append(((placed[0], placed[1], placed[2]), cell))
    return out
