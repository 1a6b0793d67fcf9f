"""A deliberately plain Unstackable engine, to check the real one against.

It works on position dicts (the `to_dict` format) and on moves as text, with loops over the
cells and their six faces: no bitboards, no shared code with the package. Slow and obvious
on purpose; if it and the engine disagree, one of them has a bug.
"""

from __future__ import annotations

import copy
from typing import Any

Cell = tuple[int, int, int]
SIDES = [(1, 0, 0), (-1, 0, 0), (0, 1, 0), (0, -1, 0)]
FACES = [*SIDES, (0, 0, 1), (0, 0, -1)]
PER_TURN = {"Y": 1, "R": 2, "K": 3}
POINTS = ({"Y": 5, "R": 3, "K": 0}, {"Y": 0, "R": 0, "K": 1})
ALL_CELLS = [(x, y, z) for z in range(4) for y in range(4) for x in range(4)]


def inside(x: int, y: int, z: int) -> bool:
    return 0 <= x <= 3 and 0 <= y <= 3 and 0 <= z <= 3


def filled(grid: str, x: int, y: int, z: int) -> bool:
    return inside(x, y, z) and grid[x + 4 * y + 16 * z] != "."


def small_enough(cells: list[Cell]) -> bool:
    """True when the cells span at most 4 along x, y and z (wherever they are)."""
    for axis in range(3):
        values = [cell[axis] for cell in cells]
        if max(values) - min(values) + 1 > 4:
            return False
    return True


def placements(grid: str) -> list[Cell]:
    """Cells where a cube may be stacked, by z, then y, then x (x or y may be -1)."""
    cubes = [cell for cell in ALL_CELLS if filled(grid, *cell)]
    if not cubes:
        return [(0, 0, 0)]
    out = []
    for z in range(-1, 6):
        for y in range(-2, 6):
            for x in range(-2, 6):
                if filled(grid, x, y, z) or z < 0:
                    continue
                if z == 0:
                    ok = any(filled(grid, x + dx, y + dy, 0) for dx, dy, _ in SIDES)
                else:
                    ok = filled(grid, x, y, z - 1)
                if ok and small_enough([*cubes, (x, y, z)]):
                    out.append((x, y, z))
    return out


def place(grid: str, colour: str, x: int, y: int, z: int) -> str:
    """The grid with a cube added, then moved so that its smallest x and y are 0."""
    cubes = {cell: grid[cell[0] + 4 * cell[1] + 16 * cell[2]] for cell in ALL_CELLS}
    cubes = {cell: letter for cell, letter in cubes.items() if letter != "."}
    cubes[(x, y, z)] = colour
    low_x = min(cx for cx, _, _ in cubes)
    low_y = min(cy for _, cy, _ in cubes)
    letters = ["."] * 64
    for (cx, cy, cz), letter in cubes.items():
        letters[(cx - low_x) + 4 * (cy - low_y) + 16 * cz] = letter
    return "".join(letters)


def exposed(grid: str, x: int, y: int, z: int, bag: bool) -> int:
    """How many of the cube's six faces are exposed."""
    count = 0
    for dx, dy, dz in FACES:
        if dz == -1 and z == 0:
            count += 1 if bag else 0
        elif not filled(grid, x + dx, y + dy, z + dz):
            count += 1
    return count


def removable(grid: str, bag: bool) -> list[Cell]:
    """Cubes that may be removed, in index order."""
    return [
        (x, y, z)
        for x, y, z in ALL_CELLS
        if filled(grid, x, y, z)
        and not filled(grid, x, y, z + 1)
        and exposed(grid, x, y, z, bag) >= 3
    ]


def bag_option(pos: dict[str, Any]) -> bool:
    return bool(pos["options"].get("bag_counts_as_exposed", False))


def legal(pos: dict[str, Any]) -> list[str]:
    """The legal moves of a position, as text."""
    if pos["to_move"] is None:
        return []
    grid = pos["grid"]
    if pos["stage"] == "stack":
        colour = pos["turn"]["colour"]
        colours = [colour] if colour else [c for c in "YRK" if pos["supply"][c] > 0]
        cells = placements(grid)
        out = [f"{c}@{x},{y},{z}" for c in colours for x, y, z in cells]
        if colour and pos["options"].get("exact_counts") is False:
            out.append("end")
        return out
    return [f"{x},{y},{z}" for x, y, z in removable(grid, bag_option(pos))]


def play(pos: dict[str, Any], move: str) -> dict[str, Any]:
    """The position after a legal move."""
    new = copy.deepcopy(pos)
    seat = new["to_move"]
    if move == "end":
        colour, placed = new["turn"]["colour"], 0
    if "@" in move:
        colour, cell = move.split("@")
        x, y, z = map(int, cell.split(","))
        new["grid"] = place(new["grid"], colour, x, y, z)
        new["supply"][colour] -= 1
        placed = new["turn"]["placed"] + 1
        if colour == "R":
            new["last_red"] = seat
    if "@" in move or move == "end":
        if 0 < placed < PER_TURN[colour] and new["supply"][colour] > 0:
            new["turn"] = {"colour": colour, "placed": placed}
        elif new["supply"]["Y"] == 0 and new["supply"]["R"] == 0:
            new["grid"] = new["grid"].replace(".", "K")
            new["supply"]["K"] = 0
            new["stage"] = "unstack"
            new["turn"] = {"removed": 0}
            new["to_move"] = 1 - new["last_red"]
        else:
            new["turn"] = {"colour": None, "placed": 0}
            new["to_move"] = 1 - seat
        return new
    x, y, z = map(int, move.split(","))
    i = x + 4 * y + 16 * z
    colour = new["grid"][i]
    new["grid"] = new["grid"][:i] + "." + new["grid"][i + 1 :]
    pile = new["turn"]["removed"]
    new["piles"][seat][pile] += colour
    if pile == 0:
        new["turn"] = {"removed": 1}
    else:
        new["turn"] = {"removed": 0}
        new["to_move"] = None if new["grid"] == "." * 64 else 1 - seat
    return new


def scores(pos: dict[str, Any]) -> list[int]:
    return [
        sum(POINTS[0][c] for c in first) + sum(POINTS[1][c] for c in second)
        for first, second in pos["piles"]
    ]


def perft(pos: dict[str, Any], depth: int) -> int:
    """Move sequences of length `depth` (a finished game is one leaf)."""
    if depth == 0 or pos["to_move"] is None:
        return 1
    moves = legal(pos)
    if depth == 1:
        return len(moves)
    return sum(perft(play(pos, m), depth - 1) for m in moves)
