"""Unstackable in the terminal: the four layers side by side, the supply, the piles, the score.

Each layer is a 4×4 grid seen from above, `y = 3` on top so that `(0, 0)` sits bottom left;
a cube is its letter on its colour, an empty cell a dot:

     z=0 (bag)          z=1              z=2              z=3
     0  1  2  3         0  1  2  3       ...
  3  .  .  .  .      3  .  .  .  .
  2  .  K  .  .      2  .  .  .  .
  1  .  R  K  .      1  .  R  .  .
  0  R  K  +  .      0  .  .  .  .

Cells where the mover may act now are marked: `+` on an empty cell a cube may go to,
brackets `[K]` around a cube that may be removed. While stacking, each layer also has a
column `x = -1` on the left and a row `y = -1` at the bottom: the structure may grow there
too (it then shifts by one, staying in the grid's corner), so the bag shows `+` there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from cubegames.core.game import Game, Move
from cubegames.games.unstackable import Colour, Stack, Unstack, Unstackable
from cubegames.games.unstackable.box import Box
from cubegames.kit.terminal import on_colour, seat, t

_DIM = Style(color="grey50")
_HOT = Style(color="bright_green", bold=True)


def _marked(legal: Sequence[Move]) -> set[tuple[int, int, int]]:
    return {(m.x, m.y, m.z) for m in legal if isinstance(m, (Stack, Unstack))}


def cube_text(box: Box, letters: str) -> Text:
    """Cubes as coloured letters, e.g. a pile."""
    out = Text()
    for letter in letters:
        out.append(f" {letter} ", on_colour(box.rgb[Colour(letter)]))
    return out


def layer(
    box: Box, grid: str, z: int, marked: set[tuple[int, int, int]], edges: bool = False
) -> Text:
    """One layer of the grid as text, with its column and row numbers; with `edges`, also
    the column `x = -1` and the row `y = -1` before the structure."""
    low = -1 if edges else 0
    name = t("term-unst-bag") if z == 0 else f"z={z}"
    room = max(0, 15 + 3 * -low - cell_len(name))  # a Japanese letter takes two cells
    out = Text(" " * (room // 2) + name + " " * (room - room // 2) + "\n", style="bold")
    out.append("   " + "".join(f"{x:>2} " for x in range(low, 4)) + "\n", _DIM)
    for y in reversed(range(low, 4)):
        out.append(f"{y:<3}", _DIM)
        for x in range(low, 4):
            hot = (x, y, z) in marked
            if x < 0 or y < 0:
                out.append(" + " if hot else "   ", _HOT)
                continue
            letter = grid[x + 4 * y + 16 * z]
            if letter == ".":
                out.append(" + " if hot else " · ", _HOT if hot else _DIM)
            else:
                style = on_colour(box.rgb[Colour(letter)])
                out.append(f"[{letter}]" if hot else f" {letter} ", style)
        if y > low:
            out.append("\n")
    return out


def board(box: Box, view: Mapping[str, Any], legal: Sequence[Move] = ()) -> Table:
    """The four layers side by side."""
    marked = _marked(legal)
    edges = view["stage"] == "stack"
    table = Table.grid(padding=(0, 3))
    for _ in range(4):
        table.add_column()
    table.add_row(*(layer(box, view["grid"], z, marked, edges) for z in range(4)))
    return table


def _turn_text(box: Box, view: Mapping[str, Any]) -> str:
    to_move, turn = view["to_move"], view["turn"]
    if to_move is None:
        return t("game-over")
    who = seat(to_move)
    if view["stage"] == "stack":
        if turn["colour"] is None:
            return t("term-unst-choose", who=who)
        colour = Colour(turn["colour"])
        return t(
            "term-unst-stacking",
            who=who,
            colour=t(f"unst-colour-{colour.value}"),
            placed=turn["placed"],
            per=box.per_turn[colour],
            exact="yes" if view["options"].get("exact_counts", True) else "no",
        )
    return t("term-unst-remove", who=who, pile=1 + turn["removed"])


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The whole table as `view["seat"]` sees it (everything is open in this game)."""
    assert isinstance(game, Unstackable)
    box = game.box
    stage = t("term-unst-stage-stack") if view["stage"] == "stack" else t("term-unst-stage-unstack")
    head = Text("Unstackable", style="bold")
    head.append(f" · {stage} · {_turn_text(box, view)}")
    if game.bag_counts_as_exposed:
        head.append(" · " + t("term-unst-bag-exposed"))
    if not game.exact_counts:
        head.append(" · " + t("term-unst-fewer"))
    parts: list[RenderableType] = [head, Text(), board(box, view, legal), Text()]

    supply = Text(t("term-unst-supply") + " ", style="bold")
    for colour in Colour:
        supply.append_text(cube_text(box, colour.value))
        supply.append(f" ×{view['supply'][colour.value]}  ")
    parts.append(supply)

    seats = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    seats.add_column(t("term-col-seat"), overflow="fold")  # wrapped, not cut, in any script
    seats.add_column(t("term-col-pile", pile=1))
    seats.add_column(t("term-col-pile", pile=2))
    seats.add_column(t("term-col-points"), justify="right")
    for number, (first, second) in enumerate(view["piles"]):
        mark = "▶ " if number == view["to_move"] else "  "
        you = t("term-you-mark") if number == view.get("seat") else ""
        red = t("term-unst-last-red") if number == view["last_red"] else ""
        points = box.pile_points(0, first) + box.pile_points(1, second)
        seats.add_row(
            f"{mark}{number}{you}{red}",
            cube_text(box, first) if first else Text("—", _DIM),
            cube_text(box, second) if second else Text("—", _DIM),
            str(points),
        )
    parts += [Text(), seats]
    return Group(*parts)
