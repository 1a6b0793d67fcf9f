"""A deliberately plain STAKD move generator, to check the fast one against.

It reads only the position file (`to_dict`), keeps no index, and tries every piece type in
hand, every turn of its shape by 90° (not deduplicated) and every position in a box around
the table, checking each rule of the spec directly. It is slow on purpose: the only thing
it shares with the engine is the edition's shapes and counts.
"""

from __future__ import annotations

from typing import Any

from cubegames.games.stakd import load_edition

Node = tuple[int, int]


def _turn(shape: list[Node], times: int) -> list[Node]:
    for _ in range(times):
        shape = [(-y, x) for x, y in shape]
    return shape


def _touch(a: Node, b: Node) -> bool:
    return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1


class Table:
    """The pieces of a position, with the questions the rules ask of them."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.pieces = [
            (p["type"], p["z"], frozenset((x, y) for x, y in p["nodes"])) for p in data["pieces"]
        ]

    def on_layer(self, z: int) -> list[tuple[str, int, frozenset[Node]]]:
        return [p for p in self.pieces if p[1] == z]

    def resting_on(self, support: frozenset[Node], z: int) -> list[str]:
        """Types of the pieces on layer z + 1 with a node over `support` (on layer z)."""
        return [t for t, pz, nodes in self.pieces if pz == z + 1 and nodes & support]

    def legal(self, kind: str, z: int, nodes: frozenset[Node]) -> bool:
        """The placement rules of steps 1 and 2 (not when a layer may start)."""
        here = self.on_layer(z)
        if any(nodes & other for _, _, other in here):
            return False
        if z == 0:
            if kind != "BASE":
                return False
            if not here:
                return min(nodes) == (0, 0)
            near = sum(1 for n in nodes if any(_touch(n, m) for _, _, o in here for m in o))
            return near >= 2
        if kind == "BASE":
            return False
        below = self.on_layer(z - 1)
        supports = [o for _, _, o in below if o & nodes]
        if sum(len(o & nodes) for o in supports) != len(nodes):
            return False  # some node overhangs
        for support in supports:
            above = self.resting_on(support, z - 1)
            if "BOMBER" in above:
                return False
            if kind != "BOMBER" and kind in above:
                return False
            if support == nodes:
                return False
        if kind == "BOMBER" and any(t == "BOMBER" for t, _, _ in here):
            return False
        return not here or any(_touch(n, m) for n in nodes for _, _, o in here for m in o)


def reference_moves(data: dict[str, Any]) -> list[str]:
    """Every legal move of the seat to move, as sorted notation."""
    seat = data["to_move"]
    if seat is None:
        return []
    edition = load_edition(data["options"]["edition"])
    hand = {t: n for t, n in data["hands"][seat].items() if n > 0}
    table = Table(data)
    shapes = {t.value: list(s) for t, s in edition.shapes.items()}
    bases_left = any(h["BASE"] for h in data["hands"])
    cells = [n for _, _, nodes in table.pieces for n in nodes] or [(0, 0)]
    span = 1 + max(max(abs(x), abs(y)) for s in shapes.values() for x, y in s)
    xs = range(min(x for x, _ in cells) - span - 2, max(x for x, _ in cells) + span + 3)
    ys = range(min(y for _, y in cells) - span - 2, max(y for _, y in cells) + span + 3)

    def placements(kinds: list[str], z: int) -> set[str]:
        found: set[str] = set()
        for kind in kinds:
            for times in range(4):
                shape = _turn(shapes[kind], times)
                for dx in xs:
                    for dy in ys:
                        nodes = frozenset((x + dx, y + dy) for x, y in shape)
                        if table.legal(kind, z, nodes):
                            text = "+".join(f"{x},{y}" for x, y in sorted(nodes))
                            found.add(f"{kind}@{z}:{text}")
        return found

    if bases_left:
        return sorted(placements(["BASE"], 0)) if "BASE" in hand else []
    kinds = [t for t in hand if t != "BASE"]
    top = max(p[1] for p in table.pieces)
    current = placements(kinds, top) if top > 0 else set()
    count = len(table.on_layer(top))
    found = set(current)
    if top == 0 or count >= edition.new_layer_after or not current:
        beside = ("UNI", "BOMBER") if data["options"].get("uni_opens_beside_bombers") else ("UNI",)
        only_unis = all(t in beside for t in kinds)
        openers = [t for t in kinds if t != "BOMBER" and (t != "UNI" or only_unis)]
        found |= placements(openers, top + 1)
    return sorted(found)
