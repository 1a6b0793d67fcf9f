"""STAKD in the terminal: one grid per layer, side by side, then the hands and points.

Each node is three characters: the piece's letter and its owner's seat on the owner's
colour (BOMBERs on blue), and a `×` in the third place when the piece is terminated:

    layer 1 · 3 pieces          y runs up the page, x to the right; the row and
     1  D0 D0 ·  +              column numbers are the coordinates to type
     0  Q1 Q1 *0 ·
         0  1  2  3

`·` marks a free node that lies on a piece of the layer below; `+` marks nodes where a
legal move of the viewer could go.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rich.columns import Columns
from rich.console import Group, RenderableType
from rich.style import Style
from rich.table import Table
from rich.text import Text

from cubegames.core.game import Game, Move
from cubegames.games.stakd.game import Stakd
from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.pieces import TYPES
from cubegames.games.stakd.position import Cell, layers_of
from cubegames.kit.terminal import listed, on_colour, t
from cubegames.kit.terminal import seat as seat_name

#: one colour per seat; blue is kept for the BLUE BOMBER
SEAT_COLOURS = (
    "#d62728",
    "#2ca02c",
    "#ff7f0e",
    "#9467bd",
    "#e7ba52",
    "#17becf",
    "#e377c2",
    "#8c564b",
)
BOMBER_COLOUR = "#1f3fff"
LETTER = {"BASE": "=", "UNI": "U", "DUO": "D", "TRIO": "T", "QUAD": "Q", "BOMBER": "*"}


def seat_style(seat: int) -> Style:
    """The coloured background of a seat's pieces."""
    return on_colour(SEAT_COLOURS[seat % len(SEAT_COLOURS)])


def layer_grid(
    view: Mapping[str, Any],
    z: int,
    box: tuple[int, int, int, int],
    targets: set[Cell],
) -> Text:
    """One layer as text, over the bounding box `(x0, y0, x1, y1)` of the whole stack."""
    layers, terminated = layers_of(view)
    here = layers[z] if z < len(layers) else {}
    below = layers[z - 1] if 0 < z <= len(layers) else {}
    x0, y0, x1, y1 = box
    dim = Style(color="grey50")
    hot = Style(color="bright_green", bold=True)
    out = Text()
    for y in range(y1, y0 - 1, -1):
        out.append(f"{y:>3} ", dim)
        for x in range(x0, x1 + 1):
            index = here.get((x, y))
            if index is not None:
                piece = view["pieces"][index]
                style = (
                    on_colour(BOMBER_COLOUR)
                    if piece["type"] == "BOMBER"
                    else seat_style(piece["owner"])
                )
                mark = "×" if index in terminated else " "
                out.append(f"{LETTER[piece['type']]}{piece['owner']}{mark}", style)
            elif (x, y) in targets:
                out.append(" + ", hot)
            elif (x, y) in below and below[x, y] not in terminated:
                out.append(" · ", dim)
            else:
                out.append("   ")
        out.append("\n")
    out.append("    ")
    out.append("".join(f"{x:^3}" for x in range(x0, x1 + 1)), dim)
    return out


def board(view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """Every layer with pieces, plus the next one when a legal move would start it."""
    places = [m for m in legal if isinstance(m, Place)]
    cells: set[Cell] = {(x, y) for p in view["pieces"] for x, y in p["nodes"]}
    cells |= {node for m in places for node in m.nodes}
    if not cells:
        return Text(t("term-stakd-empty"))
    box = (
        min(x for x, _ in cells),
        min(y for _, y in cells),
        max(x for x, _ in cells),
        max(y for _, y in cells),
    )
    top = view["layer"]
    sizes = [0] * (top + 2)
    bombed = set()
    for p in view["pieces"]:
        sizes[p["z"]] += 1
        if p["type"] == "BOMBER":
            bombed.add(p["z"])
    grids: list[RenderableType] = []
    for z in range(top + 2):
        if z > top and not any(m.z == z for m in places):
            continue
        title = Text(t("term-stakd-layer", z=z), style="bold")
        title.append(" · " + t("term-stakd-pieces", pieces=sizes[z]))
        if z < top:
            title.append(" · " + t("term-stakd-closed"))
        elif z > top:
            title.append(" · " + t("term-stakd-new"))
        if z in bombed:
            title.append(" · " + t("term-stakd-bombed"))
        targets = {node for m in places if m.z == z for node in m.nodes}
        grids.append(Group(title, layer_grid(view, z, box, targets)))
    return Columns(grids, padding=(1, 3))


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    """The whole table for one seat: layers, then hands, points and who is out."""
    assert isinstance(game, Stakd)
    seat = view["seat"]
    to_move = view["to_move"]
    head = Text("STAKD", style="bold")
    if game.players == 1:
        total = sum(game.edition.counts[1].values())
        head.append(" · " + t("term-stakd-solo", pieces=total))
    else:
        race = t("term-stakd-race", round=view["round"], points=game.points_to_win)
        head.append(f" · {race}")
    head.append(" · " + t("term-stakd-current", z=view["layer"]))
    parts: list[RenderableType] = [head, Text(), board(view, legal), Text()]

    seats = Table(box=None, padding=(0, 1), show_header=True, header_style="bold")
    seats.add_column(t("term-col-seat"))
    seats.add_column(t("term-col-points"), justify="right")
    for kind in TYPES:
        seats.add_column(kind.value, justify="right")
    seats.add_column("")
    out = set(view["out"])
    for s, hand in enumerate(view["hands"]):
        mark = "▶ " if s == to_move else "  "
        name = Text(mark)
        name.append(f" {s} ", seat_style(s))
        if s == seat:
            name.append(t("term-you-mark"))
        status = t("stakd-out") if s in out else ""
        seats.add_row(
            name, str(view["points"][s]), *(str(hand[kind.value]) for kind in TYPES), status
        )
    parts.append(seats)
    legend = "  ".join(f"{letter} {name}" for name, letter in LETTER.items())
    parts.append(Text(legend + "   " + t("term-stakd-legend"), style="grey50"))
    if view.get("round_winners") and game.players > 1:
        won = listed(
            [
                t("term-stakd-round-won", round=i, who=seat_name(w))
                for i, w in enumerate(view["round_winners"], 1)
            ]
        )
        parts.append(Text(t("term-stakd-won-so-far", rounds=won), style="grey50"))
    return Group(*parts)
