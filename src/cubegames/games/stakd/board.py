"""The stack: laid pieces with the indexes the placement rules need, and those rules.

`Board` knows nothing of turns or hands. It answers "may this piece go here?" with a reason
(`base_problem`, `stack_problem`) and lists every placement of some piece types on one
layer (`base_placements`, `stack_placements`). Both read the same indexes:

- `layers[z]`: packed node -> index of the piece covering it, one dict per layer, so
  "what lies under this node?" is one lookup and nothing rescans the piece list;
- `carries[i]`: a bit mask of the types laid directly on piece `i`; the BOMBER bit set means
  the piece is terminated;
- `bombed[z]` and `sizes[z]`: whether layer `z` has its bomber, and how many pieces it holds.

Candidates for a layer come from the free nodes of the layer below (not covered, not on a
terminated piece): a placement is legal only if all its nodes are free, so each turn of each
shape is tried once per free node, anchored by its least node.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass

from cubegames.core.errors import Refusal
from cubegames.games.stakd.pieces import STEPS, PieceType, label

BOMBER = PieceType.BOMBER


@dataclass(frozen=True, slots=True)
class Laid:
    """A piece on the stack: its type, owner, layer and packed nodes (sorted)."""

    piece: PieceType
    owner: int
    z: int
    nodes: tuple[int, ...]


def _rim(nodes: Iterable[int]) -> set[int]:
    """The empty nodes orthogonally next to `nodes`."""
    inside = set(nodes)
    return {n + d for n in inside for d in STEPS} - inside


class Board:
    """The pieces laid this round, in order, with per-layer indexes.

    >>> board = Board()
    >>> board.add(Laid(PieceType.BASE, 0, 0, (0, 1, 4096, 4097, 8192, 8193)))
    >>> problem = board.stack_problem(PieceType.UNI, 1, (3 * 4096,))
    >>> problem.code, str(problem)
    ('overhang', 'overhang: node 3,0 has nothing under it on layer 0')
    """

    __slots__ = ("bombed", "carries", "layers", "pieces", "sizes")

    def __init__(self) -> None:
        self.pieces: list[Laid] = []
        self.layers: list[dict[int, int]] = [{}]
        self.carries: list[int] = []
        self.bombed: list[bool] = [False]
        self.sizes: list[int] = [0]

    @property
    def top(self) -> int:
        """The current layer: the highest one started (0 while only bases are down)."""
        return len(self.layers) - 1

    def clone(self) -> Board:
        """An independent copy.

        Only the top layer's index can still change (lower layers are closed, and a new
        layer is a new dict), so the lower ones are shared.
        """
        other = Board.__new__(Board)
        other.pieces = list(self.pieces)
        other.layers = [*self.layers[:-1], dict(self.layers[-1])]
        other.carries = list(self.carries)
        other.bombed = list(self.bombed)
        other.sizes = list(self.sizes)
        return other

    def add(self, laid: Laid) -> None:
        """Put a piece down (already checked) and update the indexes."""
        z = laid.z
        index = len(self.pieces)
        if z == len(self.layers):
            self.layers.append({})
            self.bombed.append(False)
            self.sizes.append(0)
        here = self.layers[z]
        for node in laid.nodes:
            here[node] = index
        self.sizes[z] += 1
        self.pieces.append(laid)
        self.carries.append(0)
        if z > 0:
            below = self.layers[z - 1]
            for support in {below[n] for n in laid.nodes}:
                self.carries[support] |= laid.piece.bit
        if laid.piece is BOMBER:
            self.bombed[z] = True

    def terminated(self, index: int) -> bool:
        """True when a BOMBER lies on piece `index`."""
        return bool(self.carries[index] & BOMBER.bit)

    # -- the rules, with reasons -------------------------------------------------------

    def base_problem(self, nodes: tuple[int, ...]) -> Refusal | None:
        """Why a BASE may not cover `nodes` on layer 0, or None."""
        ground = self.layers[0]
        if not ground:
            if nodes[0] != 0:
                return Refusal(
                    "first-base",
                    "the first base goes with its first node (least x, then least y) at 0,0",
                )
            return None
        for n in nodes:
            if n in ground:
                return Refusal(
                    "occupied", f"node {label(n)} on layer 0 is already taken", node=label(n), z=0
                )
        rim = _rim(ground)
        touching = sum(1 for n in nodes if n in rim)
        if touching < 2:
            return Refusal(
                "base-touch",
                "a base must touch the other bases with at least 2 of its nodes; "
                f"this one touches with {touching}",
                touching=touching,
            )
        return None

    def stack_problem(self, piece: PieceType, z: int, nodes: tuple[int, ...]) -> Refusal | None:
        """Why `piece` may not cover `nodes` on layer `z` (1 to top + 1), or None.

        Turn-dependent rules (when a new layer may start, and with what) are the state's.
        """
        below = self.layers[z - 1]
        here: Mapping[int, int] = self.layers[z] if z < len(self.layers) else {}
        for n in nodes:
            if n in here:
                return Refusal(
                    "occupied", f"node {label(n)} on layer {z} is already taken", node=label(n), z=z
                )
        for n in nodes:
            if n not in below:
                return Refusal(
                    "overhang",
                    f"overhang: node {label(n)} has nothing under it on layer {z - 1}",
                    node=label(n),
                    z=z,
                )
        seen: set[int] = set()
        for n in nodes:
            s = below[n]
            if s in seen:
                continue
            seen.add(s)
            under = self.pieces[s].piece.value
            if self.terminated(s):
                return Refusal(
                    "bombed",
                    f"the {under} under {label(n)} is terminated by a BOMBER",
                    under=under,
                    node=label(n),
                )
            if piece is not BOMBER and self.carries[s] & piece.bit:
                return Refusal(
                    "carries",
                    f"the {under} under {label(n)} already carries a {piece.value}",
                    under=under,
                    node=label(n),
                    piece=piece.value,
                )
            if self.pieces[s].nodes == nodes:
                return Refusal(
                    "identical",
                    f"identical stacking: the {piece.value} would cover exactly the {under} "
                    f"under it",
                    piece=piece.value,
                    under=under,
                )
        if piece is BOMBER and z < len(self.bombed) and self.bombed[z]:
            return Refusal("one-bomber", f"layer {z} already has its BOMBER (one per layer)", z=z)
        if here and not any(n + d in here for n in nodes for d in STEPS):
            return Refusal(
                "alone",
                f"the {piece.value} must touch another piece of layer {z} side by side",
                piece=piece.value,
                z=z,
            )
        return None

    # -- generating placements ---------------------------------------------------------

    def base_placements(self, turns: tuple[tuple[int, ...], ...]) -> Iterator[tuple[int, ...]]:
        """Every legal BASE placement, given the base's turns as packed offsets."""
        ground = self.layers[0]
        if not ground:
            # the first base is anchored by convention: its least node at 0,0
            yield from turns
            return
        rim = _rim(ground)
        seen: set[tuple[int, ...]] = set()
        for offs in turns:
            for cell in sorted(rim):
                for o in offs:
                    anchor = cell - o
                    nodes = tuple(anchor + p for p in offs)
                    if nodes in seen:
                        continue
                    seen.add(nodes)
                    if any(n in ground for n in nodes):
                        continue
                    if sum(1 for n in nodes if n in rim) >= 2:
                        yield nodes

    def stack_placements(
        self,
        z: int,
        types: Iterable[PieceType],
        turns: Mapping[PieceType, tuple[tuple[int, ...], ...]],
    ) -> Iterator[tuple[PieceType, tuple[int, ...]]]:
        """Every legal placement of `types` on layer `z` (1 to top + 1), lazily."""
        below = self.layers[z - 1]
        here: Mapping[int, int] = self.layers[z] if z < len(self.layers) else {}
        carries = self.carries
        pieces = self.pieces
        stop = BOMBER.bit
        free = {n for n, s in below.items() if not carries[s] & stop and n not in here}
        if not free:
            return
        anchors = sorted(free)
        rim = _rim(here) if here else None
        has_bomber = z < len(self.bombed) and self.bombed[z]
        for piece in types:
            if piece is BOMBER and has_bomber:
                continue
            # a BOMBER may join any type on a support; others may not repeat their own type
            bit = 0 if piece is BOMBER else piece.bit
            for offs in turns[piece]:
                for anchor in anchors:
                    nodes = tuple(anchor + o for o in offs)
                    if not all(n in free for n in nodes):
                        continue
                    if rim is not None and not any(n in rim for n in nodes):
                        continue
                    for n in nodes:
                        s = below[n]
                        if carries[s] & bit or pieces[s].nodes == nodes:
                            break
                    else:
                        yield piece, nodes
