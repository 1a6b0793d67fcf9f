"""CUBED in the terminal: the table as a hex grid of little cubes, the hand, the scores.

Each piece takes two text rows, drawn like an isometric cube: its top diamond above, its
left and right diamonds below, each as a coloured block with the colour's letter:

      [T ]          cell (q, r) starts at column 6q + 3r, row 2r
     [L][R]

Empty cells where a piece may go show their coordinates; dead cells show a cross.
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
from cubegames.core.hexgrid import pack, unpack
from cubegames.games.cubed.frontier import rebuild
from cubegames.games.cubed.game import Cubed
from cubegames.games.cubed.notation import Place
from cubegames.kit.terminal import on_colour, t
from cubegames.kit.words import has

Cell = list[tuple[str, Style | None]]


def _piece_styles(game: Cubed, slots: str) -> list[Style]:
    ed = game.edition
    return [on_colour(ed.colours[ed.index[ch]].rgb) for ch in slots]


def piece_text(game: Cubed, letters: str) -> Text:
    """A piece as three coloured letters, e.g. for a hand."""
    text = Text()
    for ch, style in zip(letters, _piece_styles(game, letters), strict=True):
        text.append(f" {ch} ", style)
    return text


def board(game: Cubed, view: Mapping[str, Any], legal: Sequence[Move] = ()) -> Text:
    """The table with playable and dead cells marked."""
    ed = game.edition
    table = {pack(*e["cell"]): e["slots"] for e in view["table"]}
    pieces = {cell: ed.read_piece(slots, "table") for cell, slots in table.items()}
    front, playable = rebuild(game.frontier, pieces)
    targets = {pack(m.q, m.r) for m in legal if isinstance(m, Place)}
    dead_cells = {c for c, edges in front.items() if game.frontier.info(edges).dead}
    cells = set(table) | playable | dead_cells
    coords = [unpack(c) for c in cells]
    xs = [6 * q + 3 * r for q, r in coords]
    ys = [2 * r for _, r in coords]
    x0, y0 = min(xs), min(ys)
    width, height = max(xs) - x0 + 6, max(ys) - y0 + 2
    grid: list[list[tuple[str, Style | None]]] = [[(" ", None)] * width for _ in range(height)]

    def put(x: int, y: int, text: str, style: Style | None) -> None:
        for i, ch in enumerate(text):
            if 0 <= x + i < width:
                grid[y][x + i] = (ch, style)

    dim = Style(color="grey50")
    hot = Style(color="bright_green", bold=True)
    dead = Style(color="red")
    for cell in cells:
        q, r = unpack(cell)
        x, y = 6 * q + 3 * r - x0, 2 * r - y0
        if cell in table:
            top, left, right = _piece_styles(game, table[cell])
            t, lt, rt = table[cell]
            put(x + 1, y, f" {t}  ", top)
            put(x, y + 1, f" {lt} ", left)
            put(x + 3, y + 1, f" {rt} ", right)
        elif cell in playable:
            put(x, y, f"{q},{r}".center(6), hot if cell in targets else dim)
            put(x, y + 1, "  ·   ", hot if cell in targets else dim)
        else:
            put(x, y, "  ×   ", dead)
    out = Text()
    for y, row in enumerate(grid):
        line = Text()
        for ch, style in row:
            line.append(ch, style or "")
        out.append_text(line)
        if y < height - 1:
            out.append("\n")
    return out


def draw(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> RenderableType:
    assert isinstance(game, Cubed)
    seat = view["seat"]
    ed = game.edition
    to_move = view["to_move"]
    edition = f"edition-cubed-{ed.id}"
    head = Text(f"CUBED · {t(edition) if has(edition) else ed.name}", style="bold")
    if game.players > 1:
        head.append(" · " + t("play-round-of", round=view["round"], rounds=game.rounds))
    head.append(" · " + t("cubed-bag", count=view["bag"]))
    if game.variants:
        names = [t(f"variant-cubed-{v}") if has(f"variant-cubed-{v}") else v for v in game.variants]
        head.append(" · " + t("term-cubed-variants", variants=", ".join(names)))
    parts: list[RenderableType] = [head, Text(), board(game, view, legal), Text()]

    seats = Table(box=None, padding=(0, 2), show_header=True, header_style="bold")
    seats.add_column(t("term-col-seat"))
    seats.add_column(t("term-col-pieces"), justify="right")
    total_column = t("term-col-total") if game.players > 1 else t("term-col-in-hand")
    seats.add_column(total_column, justify="right")
    for s, size in enumerate(view["hand_sizes"]):
        mark = "▶ " if s == to_move else "  "
        you = t("term-you-mark") if s == seat else ""
        hand_of_s = view["hands"][s]
        if game.players > 1:
            total = str(view["totals"][s])
        elif hand_of_s is None:  # a spectator does not see the solo player's hand
            total = "?"
        else:
            total = str(sum(ed.piece_points(ed.read_piece(p, "hand")) for p in hand_of_s))
        seats.add_row(f"{mark}{s}{you}", str(size), total)
    parts.append(seats)
    if seat is None:  # a spectator's view: no hand to show
        return Group(*parts)

    hand = view["hands"][seat]
    parts += [Text(), Text(t("term-cubed-hand", pieces=len(hand)), style="bold")]
    parts.append(Columns([piece_text(game, letters) for letters in hand], padding=(0, 1)))
    drawn = view["turn"].get("drawn")
    if isinstance(drawn, list) and to_move == seat:
        pick = Text(t("term-cubed-keep-one") + " ", style="bold")
        for letters in drawn:
            pick.append_text(piece_text(game, letters))
            pick.append(" ")
        parts.append(pick)
    if view.get("past_rounds"):
        for i, past in enumerate(view["past_rounds"], 1):
            scores = ", ".join(str(v) for v in past["scores"])
            end = t(f"term-cubed-end-{past['end']}")
            parts.append(
                Text(t("term-cubed-past", round=i, scores=scores, end=end), style="grey50")
            )
    if game.players == 1 and view.get("end"):  # solo has no past rounds to say how it ended
        end = t(f"term-cubed-end-{view['end']}")
        parts += [Text(), Text(t("term-cubed-solo-ended", end=end), style="bold")]
    return Group(*parts)
