"""Unstackable as SVG: the cube in isometric view, each layer seen from above, the supply,
the piles and the points.

The isometric view looks down from the corner beyond `(4, 4, 4)`: `x` runs down to the
right, `y` down to the left, `z` up. Cell `(x, y, z)` projects to
`(x − y)·a·cos 30°, (x + y)·a/2 − z·a` for cubes of edge `a`. Layers are drawn bottom to
top and, within a layer, back to front (`x + y` ascending); from this corner no cube of a
lower layer can hide one of a higher layer, so each layer is one group,
`<g class="layer" data-layer="z">`, that the page may hide to see below it.

Page hooks: every cube and every empty cell a cube may go to has `data-cell="x,y,z"`, in
both views; a cube that may be removed now also has `data-move="x,y,z"`; cells where a cube
may be stacked have class `target`. While stacking, the structure is kept in the grid's
corner but may grow before it, so the layer plans also draw targets on `x = -1` or
`y = -1` (just outside the grid, on the bag; a cube placed there shifts the structure by
one). The isometric view leaves them out: from its corner they lie behind the structure.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from cubegames.core.game import Game, Move
from cubegames.core.phrase import Param, Phrase, Seat
from cubegames.games.unstackable import Colour, End, Stack, Unstack, Unstackable
from cubegames.kit.svg import capitalised, document, esc, fmt, ink, points, seat_name, text

EDGE = 40.0
COS30 = math.cos(math.radians(30))
PLAN_CELL = 26.0
LAYER_NAMES = ("layer 0 · on the bag", "layer 1", "layer 2", "layer 3")

STYLE = (
    "svg.cg-unstackable .face{stroke:#3b3b3b;stroke-width:1;stroke-linejoin:round}"
    "svg.cg-unstackable .floor{fill:#efe6d2;stroke:#c9b995;stroke-width:1}"
    "svg.cg-unstackable .target{fill:#d3f0da;fill-opacity:.92;stroke:#2f9e44;"
    "stroke-width:1.5;stroke-dasharray:4 3}"
    "svg.cg-unstackable .target.fits{fill:#7fd493;fill-opacity:1;stroke:#126b2c;"
    "stroke-width:2.5;stroke-dasharray:none}"
    "svg.cg-unstackable .removable .face{stroke:#12b886;stroke-width:3}"
    "svg.cg-unstackable .plan .empty{fill:#f6f1e6;stroke:#c9b995}"
    "svg.cg-unstackable .plan rect{stroke:#555}"
    "svg.cg-unstackable .plan .removable rect,svg.cg-unstackable .plan rect.removable"
    "{stroke:#12b886;stroke-width:3}"
    "svg.cg-unstackable text{pointer-events:none}"
    "svg.cg-unstackable .layer.hidden{display:none}"
)


def _shade(rgb: str, amount: float) -> str:
    """`rgb` darkened by `amount` (0..1); very dark colours are lightened instead, so the
    sides of a black cube still read as sides."""
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    if 0.299 * r + 0.587 * g + 0.114 * b < 60:
        r, g, b = (int(c + (255 - c) * amount * 0.35) for c in (r, g, b))
    else:
        r, g, b = (int(c * (1 - amount)) for c in (r, g, b))
    return f"#{r:02x}{g:02x}{b:02x}"


def project(x: float, y: float, z: float) -> tuple[float, float]:
    """Where the point `(x, y, z)` of the cube's space lands on the drawing."""
    return (x - y) * EDGE * COS30, (x + y) * EDGE / 2 - z * EDGE


def _cube(game: Unstackable, x: int, y: int, z: int, letter: str, attrs: str, cls: str) -> str:
    rgb = game.box.rgb[Colour(letter)]
    name = game.box.colour_names[Colour(letter)]
    top = [project(x, y, z + 1), project(x + 1, y, z + 1)]
    top += [project(x + 1, y + 1, z + 1), project(x, y + 1, z + 1)]
    right = [project(x + 1, y, z), project(x + 1, y + 1, z)]
    right += [project(x + 1, y + 1, z + 1), project(x + 1, y, z + 1)]
    left = [project(x, y + 1, z), project(x + 1, y + 1, z)]
    left += [project(x + 1, y + 1, z + 1), project(x, y + 1, z + 1)]
    parts = [f'<g class="{cls}"{attrs}><title>{esc(name)} cube at {x},{y},{z}</title>']
    for quad, shade, size in ((top, 0.0, 15), (right, 0.22, 11), (left, 0.38, 11)):
        fill = _shade(rgb, shade) if shade else rgb
        parts.append(f'<polygon class="face" points="{points(quad)}" fill="{fill}"/>')
        mx = sum(px for px, _ in quad) / 4
        my = sum(py for _, py in quad) / 4
        parts.append(text(mx, my, letter, size=size, fill=ink(fill), weight="bold"))
    parts.append("</g>")
    return "".join(parts)


def _iso(game: Unstackable, grid: str, targets: set[str], removable: set[str]) -> list[str]:
    out: list[str] = []
    for x in range(4):
        for y in range(4):
            quad = [project(x, y, 0), project(x + 1, y, 0)]
            quad += [project(x + 1, y + 1, 0), project(x, y + 1, 0)]
            out.append(f'<polygon class="floor" points="{points(quad)}"/>')
    order = sorted(((x, y) for x in range(4) for y in range(4)), key=lambda c: (c[0] + c[1], c))
    for z in range(4):
        out.append(f'<g class="layer" data-layer="{z}">')
        for x, y in order:
            cell = f"{x},{y},{z}"
            letter = grid[x + 4 * y + 16 * z]
            if letter != ".":
                attrs = f' data-cell="{cell}"'
                cls = "cube"
                if cell in removable:
                    attrs += f' data-move="{cell}"'
                    cls += " removable"
                out.append(_cube(game, x, y, z, letter, attrs, cls))
            elif cell in targets:
                quad = [project(x, y, z), project(x + 1, y, z)]
                quad += [project(x + 1, y + 1, z), project(x, y + 1, z)]
                out.append(
                    f'<polygon class="target" data-cell="{cell}" points="{points(quad)}">'
                    f"<title>a cube may go on {cell}</title></polygon>"
                )
                cx, cy = project(x + 0.5, y + 0.5, z)
                out.append(text(cx, cy, "+", size=16, fill="#126b2c", weight="bold"))
        out.append("</g>")
    return out


def _plan(
    game: Unstackable,
    grid: str,
    z: int,
    ox: float,
    oy: float,
    targets: set[str],
    removable: set[str],
) -> list[str]:
    """Layer `z` seen from above, `y = 3` at the top so that `(0, 0)` sits bottom left; the
    column `x = -1` left of it and the row `y = -1` under it hold targets only."""
    c = PLAN_CELL
    out = [f'<g class="plan" data-plan="{z}">']
    out.append(text(ox + 2 * c, oy + 8, LAYER_NAMES[z], size=12, weight="bold"))
    for x in range(-1, 4):
        out.append(text(ox + (x + 0.5) * c, oy + 22 + 5 * c + 9, x, size=10, fill="#888"))
    for y in range(-1, 4):
        out.append(text(ox - c - 8, oy + 22 + (3 - y + 0.5) * c, y, size=10, fill="#888"))
        for x in range(-1, 4):
            cell = f"{x},{y},{z}"
            if x < 0 or y < 0:
                if cell in targets:
                    rx, ry = ox + x * c, oy + 22 + (3 - y) * c
                    box = f'x="{fmt(rx)}" y="{fmt(ry)}" width="{fmt(c)}" height="{fmt(c)}"'
                    out.append(
                        f'<rect class="target" data-cell="{cell}" {box}>'
                        f"<title>a cube may go on {cell}, shifting the structure</title></rect>"
                    )
                    out.append(text(rx + c / 2, ry + c / 2, "+", size=14, fill="#126b2c"))
                continue
            letter = grid[x + 4 * y + 16 * z]
            rx, ry = ox + x * c, oy + 22 + (3 - y) * c
            box = f'x="{fmt(rx)}" y="{fmt(ry)}" width="{fmt(c)}" height="{fmt(c)}"'
            if letter != ".":
                rgb = game.box.rgb[Colour(letter)]
                cls = "removable" if cell in removable else "cube"
                move = f' data-move="{cell}"' if cell in removable else ""
                out.append(
                    f'<rect class="{cls}" data-cell="{cell}"{move} {box} fill="{rgb}">'
                    f"<title>{esc(game.box.colour_names[Colour(letter)])} cube at {cell}"
                    "</title></rect>"
                )
                out.append(text(rx + c / 2, ry + c / 2, letter, size=12, fill=ink(rgb)))
            elif cell in targets:
                out.append(
                    f'<rect class="target" data-cell="{cell}" {box}>'
                    f"<title>a cube may go on {cell}</title></rect>"
                )
                out.append(text(rx + c / 2, ry + c / 2, "+", size=14, fill="#126b2c"))
            else:
                out.append(f'<rect class="empty" {box}/>')
    out.append("</g>")
    return out


def turn_text(game: Unstackable, view: Mapping[str, Any], viewer: int | None) -> str:
    """Whose turn it is and what they are doing, in words."""
    to_move, turn = view["to_move"], view["turn"]
    if to_move is None:
        return "the game is over"
    who = seat_name(to_move, viewer)
    if view["stage"] == "stack":
        if turn["colour"] is None:
            return f"{who}: choose a colour and stack"
        colour = Colour(turn["colour"])
        name = game.box.colour_names[colour]
        most = "of" if game.exact_counts else "of up to"
        count = game.box.per_turn[colour]
        return f"{who}: stacking {name}, {turn['placed']} {most} {count} placed"
    return f"{who}: remove a cube for pile {1 + turn['removed']}"


def svg(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """Both views of the cube, the supply, and each seat's piles and points."""
    assert isinstance(game, Unstackable)
    box = game.box
    seat = view.get("seat")
    grid = view["grid"]
    targets = {f"{m.x},{m.y},{m.z}" for m in legal if isinstance(m, Stack)}
    removable = {str(m) for m in legal if isinstance(m, Unstack)}
    stage = "stage 1: stacking" if view["stage"] == "stack" else "stage 2: unstacking"
    head = f"Unstackable · {stage} · {turn_text(game, view, seat)}"
    width = 700.0
    body = [text(width / 2, 14, capitalised(head), size=15, weight="bold")]

    # the isometric cube, its floor's back corner at the top
    iso_x, iso_y = 20 + 4 * EDGE * COS30, 40 + 4 * EDGE
    body.append(f'<g class="iso" transform="translate({fmt(iso_x)},{fmt(iso_y)})">')
    body += _iso(game, grid, targets, removable)
    body.append("</g>")
    iso_bottom = iso_y + 4 * EDGE + 10

    # the four layers from above, two by two
    plans_x = iso_x + 4 * EDGE * COS30 + 50 + PLAN_CELL
    for z in range(4):
        ox = plans_x + (z % 2) * (5 * PLAN_CELL + 40)
        oy = 40 + (z // 2) * (5 * PLAN_CELL + 50)
        body += _plan(game, grid, z, ox, oy, targets, removable)

    y = max(iso_bottom, 40 + 2 * (5 * PLAN_CELL + 50)) + 6
    # the supply
    body.append(text(20, y, "Supply:", size=13, anchor="start", weight="bold"))
    x = 80.0
    for colour in Colour:
        rgb = box.rgb[colour]
        body.append(
            f'<rect x="{fmt(x)}" y="{fmt(y - 10)}" width="20" height="20" fill="{rgb}" '
            f'stroke="#444"><title>{esc(box.colour_names[colour])}</title></rect>'
        )
        body.append(text(x + 10, y, colour.value, size=12, fill=ink(rgb), weight="bold"))
        count = view["supply"][colour.value]
        places = "places" if game.exact_counts else "places up to"
        label = f"×{count} ({places} {box.per_turn[colour]})"
        body.append(text(x + 26, y, label, size=12, anchor="start"))
        x += 150
    y += 30

    # the seats: piles and points
    for s, (first, second) in enumerate(view["piles"]):
        mark = "▶ " if s == view["to_move"] else ""
        who = "You" if s == seat else f"Seat {s}"
        score = box.pile_points(0, first) + box.pile_points(1, second)
        red = " · stacked the last red" if s == view["last_red"] else ""
        line = f"{mark}{who}: {score} points{red}"
        weight = "bold" if s == view["to_move"] else "normal"
        body.append(text(20, y, line, size=13, anchor="start", weight=weight))
        y += 20
        for pile, cubes in enumerate((first, second)):
            body.append(text(36, y, f"pile {pile + 1}:", size=12, anchor="start", fill="#555"))
            if not cubes:
                body.append(text(90, y, "—", size=12, anchor="start", fill="#999"))
            for i, letter in enumerate(cubes):
                rgb = box.rgb[Colour(letter)]
                cx = 90 + i * 17
                body.append(
                    f'<rect x="{fmt(cx)}" y="{fmt(y - 7)}" width="15" height="15" '
                    f'fill="{rgb}" stroke="#444"/>'
                )
                body.append(text(cx + 7.5, y + 0.5, letter, size=10, fill=ink(rgb)))
            y += 19
        y += 6
    return document("unstackable", (0, 0, width, y + 4), body, label=capitalised(head), style=STYLE)


def info(game: Game[Any]) -> dict[str, Any]:
    """The three colours (name, screen colour, cubes per turn) and the scoring table."""
    assert isinstance(game, Unstackable)
    box = game.box
    return {
        "palette": {
            c.value: {
                "name": box.colour_names[c],
                "rgb": box.rgb[c],
                "ink": ink(box.rgb[c]),
                "per_turn": box.per_turn[c],
            }
            for c in Colour
        },
        "points": [{c.value: box.points[p][c] for c in Colour} for p in (0, 1)],
        "exact_counts": game.exact_counts,
        "hidden_hands": False,
    }


#: `words` takes the moves before the one it tells (`earlier`): a place's name depends on
#: how far the structure has shifted since the first cube (`frame_of`)
FRAMED = True

#: the fixed board places are named on: columns A to G from left to right, rows 1 to 7
#: from front to back, the first cube on D4 (a structure at most 4 wide and deep, grown
#: from the first cube any way, stays on it)
COLUMNS = "ABCDEFG"
FIRST = (3, 3)
FRAME_WORDS = "columns A–G left to right, rows 1–7 front to back"


def frame_of(moves: Sequence[str]) -> tuple[int, int]:
    """How far the structure has shifted right and back since its first cube, after
    `moves` (notation): each cube stacked before it (`x = -1` or `y = -1`) shifts it by one.

    >>> frame_of(["R@0,0,0", "K@-1,0,0", "K@0,-1,0", "K@-1,1,0"])
    (2, 1)
    """
    # counted in the moves' text at once (a stacked cube's notation is `C@x,y,z`; a move
    # taken out, `x,y,z`, has no `@`): the server words every move by it
    text = "|".join(moves) + "|"
    return text.count("@-1,"), len(_BEHIND.findall(text))


#: a cube stacked in the row before the structure (`y = -1`)
_BEHIND = re.compile(r"@-?\d+,-1,")


def history_hints(game: Game[Any], moves: Sequence[str]) -> dict[str, Any]:
    """The page's share of `frame_of`: `frame`, the shift to add to a fixed place to find
    it in the grid (the page names places as `place_words` does)."""
    return {"frame": list(frame_of(moves))}


def words(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> str:
    """A move in words, the way a player tells it, saying where with `place_words` (the
    words of the page's hovers) on the board fixed for the whole game (`earlier`: the
    moves before this one), with no coordinates (everything in this game is open). The
    first cube's words say how places are named.

    >>> game = Unstackable()
    >>> words(game, "R@0,0,0", 0, 1)
    'Seat 0 stacked a red cube on the bottom layer at D4 (columns A–G left to right, \
rows 1–7 front to back).'
    >>> words(game, "R@0,2,2", 0, 1, ["R@0,0,0"])
    'Seat 0 stacked a red cube on layer 2 at D6.'
    >>> words(game, "1,0,2", 1, 1, ["R@0,0,0"])
    'You took a cube out of layer 2 at E4.'

    A cube stacked in the new column or row before the structure (`x` or `y` = -1) is named
    where it lands, and the structure's cubes keep their names after it has shifted:

    >>> words(game, "K@-1,0,0", 1, None, ["R@0,0,0"])
    'Seat 1 stacked a black cube on the bottom layer at C4.'
    >>> words(game, "K@1,0,0", 1, None, ["R@0,0,0", "K@-1,0,0"])
    'Seat 1 stacked a black cube on the bottom layer at D4.'
    """
    return str(described(game, move, mover, viewer, earlier))


def described(
    game: Game[Any], move: str, mover: int, viewer: int | None, earlier: Sequence[str] = ()
) -> Phrase:
    """`words` as a phrase (`words-unst-*`): the page words it in its reader's language."""
    assert isinstance(game, Unstackable)
    parsed = game.parse_move(move)
    who = capitalised(seat_name(mover, viewer))
    frame = frame_of(earlier)
    if isinstance(parsed, Stack):
        name = game.box.colour_names[parsed.colour]
        where = place_phrase(parsed.x, parsed.y, parsed.z, frame)
        colour = Phrase(f"unst-colour-{parsed.colour}", {}, name)
        params: dict[str, Param] = {
            "who": Seat(mover),
            "colour": colour,
            "place": where,
        }
        if any("@" in m for m in earlier):
            text = f"{who} stacked a {name} cube on {where}."
            return Phrase("words-unst-stacked", params, text)
        text = f"{who} stacked a {name} cube on {where} ({FRAME_WORDS})."
        return Phrase("words-unst-stacked-first", params, text)
    if isinstance(parsed, End):
        return Phrase("words-unst-ended", {"who": Seat(mover)}, f"{who} ended the turn.")
    assert isinstance(parsed, Unstack)
    where = place_phrase(parsed.x, parsed.y, parsed.z, frame)
    text = f"{who} took a cube out of {where}."
    return Phrase("words-unst-took", {"who": Seat(mover), "place": where}, text)


def place_words(x: int, y: int, z: int, frame: tuple[int, int] = (0, 0)) -> str:
    """Where the grid's cell `(x, y, z)` is, on the board fixed for the game (`FRAME_WORDS`),
    the structure having shifted by `frame` (`frame_of`) since its first cube: its layer
    and its column and row, in the words of the page's hovers (games/unstackable.js
    `placeWords`).

    >>> place_words(0, 0, 0)
    'the bottom layer at D4'
    >>> place_words(0, 2, 2, (1, 0))
    'layer 2 at C6'
    >>> place_words(3, 3, 1, (0, 3))
    'layer 1 at G4'
    """
    return str(place_phrase(x, y, z, frame))


def place_phrase(x: int, y: int, z: int, frame: tuple[int, int] = (0, 0)) -> Phrase:
    """`place_words` as a phrase, in the keys of the page's own `placeWords`."""
    if z == 0:
        layer = Phrase("unst-bottom-layer", {}, "the bottom layer")
    else:
        layer = Phrase("unst-layer", {"z": z}, f"layer {z}")
    cell = f"{COLUMNS[x - frame[0] + FIRST[0]]}{y - frame[1] + FIRST[1] + 1}"
    return Phrase("unst-place", {"layer": layer, "cell": cell}, f"{layer} at {cell}")


def refusal_params(
    code: str, params: Mapping[str, Any], palette: Mapping[str, Any]
) -> dict[str, Param]:
    """A refusal's cube colour (`colour`: its English name) as the catalogs' colour
    (`unst-colour-<letter>`; `kit.words.RefusalWords`)."""
    if "colour" not in params:
        return {}
    name = params["colour"]
    letter = next((c for c, entry in palette.items() if entry["name"] == name), None)
    return {"colour": Phrase(f"unst-colour-{letter}", {}, str(name))}
