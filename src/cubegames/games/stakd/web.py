"""STAKD as SVG: one grid per layer, side by side, then every seat's pieces and points.

Each grid covers the same stretch of the lattice (the stack and the viewer's legal moves,
with a free row and column around them), `y` running up the page. A laid piece fills its
nodes with its owner's colour (a BOMBER is blue) and names itself in each node: the
piece's letter and its owner's seat, e.g. `D1`; a terminated piece is hatched and marked
`×`; thick lines trace each piece's outline.

Page hooks: every node of every grid is `<rect data-z="z" data-node="x,y">`; nodes that
a legal move of the viewer covers have class `open`, free nodes resting on a piece of the
layer below have class `support`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from cubegames.core.game import Game, Move
from cubegames.core.phrase import Param, Phrase, Seat
from cubegames.games.stakd.game import Stakd
from cubegames.games.stakd.notation import Place
from cubegames.games.stakd.pieces import TYPES
from cubegames.games.stakd.position import Cell, layers_of
from cubegames.games.stakd.terminal import BOMBER_COLOUR, LETTER, SEAT_COLOURS
from cubegames.kit.svg import capitalised, document, esc, fmt, ink, seat_name, text

NODE = 26.0
PER_ROW = 4
NAMES = {
    "BASE": "BASE",
    "UNI": "UNI",
    "DUO": "DUO",
    "TRIO": "TRIO",
    "QUAD": "QUAD",
    "BOMBER": "BLUE BOMBER",
}

STYLE = (
    "svg.cg-stakd .node{fill:#fbf8f1;stroke:#e2dccd}"
    "svg.cg-stakd .node.support{fill:#efe4c8;stroke:#cdbb8f}"
    "svg.cg-stakd .node.open{fill:#d3f0da;stroke:#2f9e44}"
    "svg.cg-stakd .node.fits{fill:#8fdca2;stroke:#126b2c;stroke-width:2}"
    "svg.cg-stakd .node.preview{fill:#3fa35a;stroke:#0b4d1f;stroke-width:2}"
    "svg.cg-stakd .node.preview.bad{fill:#e8a0a0;stroke:#a12a2a}"
    "svg.cg-stakd .laid{stroke:#555;stroke-width:.5}"
    "svg.cg-stakd .outline{stroke:#111;stroke-width:2.5;stroke-linecap:square}"
    "svg.cg-stakd text{pointer-events:none}"
)


def seat_colour(seat: int) -> str:
    """The colour of a seat's pieces."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def svg(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The layers, then a table of each seat's pieces, points and status."""
    assert isinstance(game, Stakd)
    seat = view["seat"]
    to_move = view["to_move"]
    places = [m for m in legal if isinstance(m, Place)]
    layers, terminated = layers_of(view)
    top = view["layer"]
    cells: set[Cell] = {(x, y) for p in view["pieces"] for x, y in p["nodes"]}
    cells |= {node for m in places for node in m.nodes}
    if not cells:
        cells = {(0, 0)}
    x0 = min(x for x, _ in cells) - 1
    x1 = max(x for x, _ in cells) + 1
    y0 = min(y for _, y in cells) - 1
    y1 = max(y for _, y in cells) + 1
    shown = [z for z in range(top + 2) if z <= top or any(m.z == z for m in places)]
    grid_w = (x1 - x0 + 1) * NODE
    grid_h = (y1 - y0 + 1) * NODE
    cols = min(PER_ROW, len(shown))
    width = max(cols * (grid_w + 40) + 30, 640.0)

    if game.players == 1:
        total = sum(game.edition.counts[1].values())
        head = f"STAKD · solo: lay all {total} pieces to win"
    else:
        head = f"STAKD · round {view['round']} · first to {game.points_to_win} points"
    head += f" · current layer {top}"
    body = [text(width / 2, 14, head, size=15, weight="bold")]

    sizes = [0] * (top + 2)
    bombed: set[int] = set()
    for p in view["pieces"]:
        sizes[p["z"]] += 1
        if p["type"] == "BOMBER":
            bombed.add(p["z"])
    row_h = grid_h + 62
    for k, z in enumerate(shown):
        ox = 34 + (k % PER_ROW) * (grid_w + 40)
        oy = 40 + (k // PER_ROW) * row_h
        title = f"layer {z} · {sizes[z]} piece{'s' if sizes[z] != 1 else ''}"
        notes = ["closed" if z < top else "new" if z > top else "current"]
        if z in bombed:
            notes.append("bomber used")
        body.append(text(ox + grid_w / 2, oy - 6, title, size=12, weight="bold"))
        body.append(text(ox + grid_w / 2, oy + 9, " · ".join(notes), size=11, fill="#666"))
        targets = {node for m in places if m.z == z for node in m.nodes}
        here = layers[z] if z < len(layers) else {}
        below = layers[z - 1] if 0 < z <= len(layers) else {}
        body.append(f'<g class="grid" data-layer="{z}">')
        outline: list[str] = []
        for ny in range(y1, y0 - 1, -1):
            ry = oy + 20 + (y1 - ny) * NODE
            if k % PER_ROW == 0:
                body.append(text(ox - 10, ry + NODE / 2, ny, size=10, fill="#888"))
            for x in range(x0, x1 + 1):
                rx = ox + (x - x0) * NODE
                box = f'x="{fmt(rx)}" y="{fmt(ry)}" width="{fmt(NODE)}" height="{fmt(NODE)}"'
                where = f'data-z="{z}" data-node="{x},{ny}"'
                index = here.get((x, ny))
                if index is None:
                    cls = "node"
                    if (x, ny) in targets:
                        cls += " open"
                    elif (x, ny) in below and below[x, ny] not in terminated:
                        cls += " support"
                    body.append(f'<rect class="{cls}" {where} {box}/>')
                    continue
                piece = view["pieces"][index]
                bomber = piece["type"] == "BOMBER"
                fill = BOMBER_COLOUR if bomber else seat_colour(piece["owner"])
                name = f"{NAMES[piece['type']]} of seat {piece['owner']}"
                if index in terminated:
                    name += " (terminated: nothing more goes on it)"
                body.append(
                    f'<rect class="laid" {where} {box} fill="{fill}">'
                    f"<title>{esc(name)}</title></rect>"
                )
                label = f"{LETTER[piece['type']]}{piece['owner']}"
                if index in terminated:
                    body.append(
                        f'<path d="M{fmt(rx)},{fmt(ry)}l{fmt(NODE)},{fmt(NODE)}'
                        f'M{fmt(rx + NODE)},{fmt(ry)}l-{fmt(NODE)},{fmt(NODE)}" '
                        f'stroke="{ink(fill)}" stroke-width="1" opacity=".55"/>'
                    )
                    label += "×"
                body.append(
                    text(
                        rx + NODE / 2, ry + NODE / 2, label, size=10, fill=ink(fill), weight="bold"
                    )
                )
                # a thick edge wherever the neighbour is not the same piece
                sides = (
                    ((x, ny + 1), (rx, ry, NODE, 0)),
                    ((x, ny - 1), (rx, ry + NODE, NODE, 0)),
                    ((x - 1, ny), (rx, ry, 0, NODE)),
                    ((x + 1, ny), (rx + NODE, ry, 0, NODE)),
                )
                for near, (lx, ly, dx, dy) in sides:
                    if here.get(near) != index:
                        outline.append(
                            f'<path class="outline" d="M{fmt(lx)},{fmt(ly)}l{fmt(dx)},{fmt(dy)}"/>'
                        )
        body += outline
        body.append("</g>")
        for x in range(x0, x1 + 1):
            rx = ox + (x - x0) * NODE + NODE / 2
            body.append(text(rx, oy + 20 + grid_h + 9, x, size=10, fill="#888"))
    rows = (len(shown) + PER_ROW - 1) // PER_ROW
    y = 40.0 + rows * row_h + 4

    # the seats: points, pieces in hand, who is out
    columns = [180.0 + 64 * i for i in range(len(TYPES))]
    body.append(text(20, y, "seat", size=12, anchor="start", weight="bold"))
    body.append(text(120, y, "points", size=12, weight="bold"))
    for cx, t in zip(columns, TYPES, strict=True):
        body.append(text(cx, y, t.value, size=12, weight="bold"))
    y += 22
    out = set(view["out"])
    for s, hand in enumerate(view["hands"]):
        fill = seat_colour(s)
        mark = "▶" if s == to_move else ""
        body.append(text(12, y, mark, size=12))
        body.append(
            f'<rect x="22" y="{fmt(y - 9)}" width="18" height="18" fill="{fill}" stroke="#444"/>'
        )
        body.append(text(31, y, s, size=11, fill=ink(fill), weight="bold"))
        if s == seat:
            body.append(text(46, y, "you", size=12, anchor="start", weight="bold"))
        body.append(text(120, y, view["points"][s], size=12))
        for cx, t in zip(columns, TYPES, strict=True):
            count = hand[t.value]
            body.append(text(cx, y, count, size=12, fill="#222" if count else "#bbb"))
        if s in out:
            body.append(
                text(columns[-1] + 40, y, "out this round", size=12, anchor="start", fill="#a33")
            )
        y += 22
    winners = view.get("round_winners") or []
    if winners and game.players > 1:
        won = ", ".join(f"round {i}: {seat_name(w, seat)}" for i, w in enumerate(winners, 1))
        body.append(text(20, y, f"Won so far: {won}", size=12, anchor="start", fill="#555"))
        y += 20
    legend = "  ".join(f"{letter} {NAMES[name]}" for name, letter in LETTER.items())
    body.append(text(20, y, f"{legend}   × terminated", size=11, anchor="start", fill="#666"))
    return document("stakd", (0, 0, width, y + 14), body, label=head, style=STYLE)


def info(game: Game[Any]) -> dict[str, Any]:
    """Each piece type's turns (lists of `[x, y]` nodes), names, letters and seat colours."""
    assert isinstance(game, Stakd)
    ed = game.edition
    return {
        "shapes": {t.value: [[list(n) for n in turn] for turn in ed.turns[t]] for t in TYPES},
        "names": NAMES,
        "letters": LETTER,
        "seat_colours": [seat_colour(s) for s in range(game.players)],
        "bomber_colour": BOMBER_COLOUR,
        "hidden_hands": False,
    }


def words(game: Game[Any], move: str, mover: int, viewer: int | None) -> str:
    """A move in words, the way a player tells it ("Seat 1 laid a DUO on layer 2."), with
    no nodes (hands are open in this game)."""
    return str(described(game, move, mover, viewer))


def described(game: Game[Any], move: str, mover: int, viewer: int | None) -> Phrase:
    """`words` as a phrase (`words-stakd-laid`): the page words it in its reader's
    language (piece names stay as they are)."""
    parsed = game.parse_move(move)
    assert isinstance(parsed, Place)
    who = capitalised(seat_name(mover, viewer))
    name = NAMES[parsed.piece.value]
    where = "on the bottom layer" if parsed.z == 0 else f"on layer {parsed.z}"
    params: dict[str, Param] = {"who": Seat(mover), "piece": name, "z": parsed.z}
    return Phrase("words-stakd-laid", params, f"{who} laid a {name} {where}.")
