"""CUBED as SVG: the table on its hex grid, the viewer's hand, the seats and totals.

A piece is a pointy-top hexagon cut into three diamonds, drawn like an isometric cube:
the *top* slot covers edges NE and NW, *left* W and SW, *right* SE and E. Cell `(q, r)`
has its centre at `x = √3·s·(q + r/2)`, `y = 1.5·s·r` for a hexagon of radius `s`.

Page hooks: a table piece is `<g class="piece" data-cell="q,r">`; an empty cell where a
piece may go is `<polygon class="cell" data-cell="q,r">` (class `open` when the viewer can
lay something there now); a dead cell has class `dead`; a hand piece is
`<g class="hand-piece" data-hand="i" data-piece="GPY">` whose diamonds carry
`data-slot="0|1|2"` (top, left, right), so the page can show it turned; a piece drawn for
draw3 carries `data-move="keep:GPY"`.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from typing import Any

from cubegames.core.game import Game, Move, State
from cubegames.core.hexgrid import pack, unpack
from cubegames.core.phrase import Param, Phrase, Seat
from cubegames.games.cubed.frontier import rebuild
from cubegames.games.cubed.game import Cubed
from cubegames.games.cubed.notation import Draw, Draw3, Give, Keep, Pass, Place, Skip
from cubegames.games.cubed.state import CubedState
from cubegames.kit.svg import capitalised, document, esc, fmt, ink, points, seat_name, text

SQRT3 = math.sqrt(3)
#: hexagon radius on the table and in the hand
TABLE_R = 28.0
HAND_R = 22.0
#: the corners of a pointy-top hexagon, by angle (degrees, counter-clockwise from east)
_CORNERS = (30, 90, 150, 210, 270, 330)
#: the corners of each slot's diamond besides the centre: top, left, right
_SLOT_CORNERS = ((30, 90, 150), (150, 210, 270), (270, 330, 30))

STYLE = (
    "svg.cg-cubed .d{stroke:#333;stroke-width:1}"
    "svg.cg-cubed .cell{fill:#f3efe6;stroke:#b5ab97;stroke-dasharray:4 3}"
    "svg.cg-cubed .cell.open{fill:#e3f4e6;stroke:#2f9e44}"
    "svg.cg-cubed .cell.fits{fill:#a9e5b8;stroke:#126b2c;stroke-width:2.5;stroke-dasharray:none}"
    "svg.cg-cubed .cell.hover{fill:#7fd493}"
    "svg.cg-cubed .dead{fill:#f8e3e3;stroke:#c98b8b}"
    "svg.cg-cubed .hand-piece.playable .rim{stroke:#2f9e44;stroke-width:3}"
    "svg.cg-cubed .hand-piece.selected .rim{stroke:#111;stroke-width:4}"
    "svg.cg-cubed .rim{fill:none;stroke:transparent}"
    "svg.cg-cubed .coord{fill:#8a8170;pointer-events:none}"
    "svg.cg-cubed text{pointer-events:none}"
)


def _corner(cx: float, cy: float, r: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    return cx + r * math.cos(a), cy - r * math.sin(a)


def centre(q: int, r: int, size: float = TABLE_R) -> tuple[float, float]:
    """The centre of cell `(q, r)` on the drawing."""
    return SQRT3 * size * (q + r / 2), 1.5 * size * r


def hexagon(cx: float, cy: float, r: float) -> str:
    """The `points` of a pointy-top hexagon."""
    return points([_corner(cx, cy, r, a) for a in _CORNERS])


def piece_svg(
    game: Cubed, cx: float, cy: float, r: float, slots: str, attrs: str = "", cls: str = "piece"
) -> str:
    """A piece with colours `slots` (top, left, right) centred on `(cx, cy)`."""
    ed = game.edition
    parts = [f'<g class="{cls}"{attrs}>']
    for slot, (letter, corners) in enumerate(zip(slots, _SLOT_CORNERS, strict=True)):
        colour = ed.colours[ed.index[letter]]
        quad = [(cx, cy), *(_corner(cx, cy, r, a) for a in corners)]
        mx = sum(x for x, _ in quad) / 4
        my = sum(y for _, y in quad) / 4
        parts.append(
            f'<polygon class="d" data-slot="{slot}" points="{points(quad)}" fill="{colour.rgb}">'
            f"<title>{esc(colour.name)}</title></polygon>"
        )
        parts.append(text(mx, my, letter, size=r * 0.5, fill=ink(colour.rgb), weight="bold"))
    parts.append(f'<polygon class="rim" points="{hexagon(cx, cy, r)}"/>')
    parts.append("</g>")
    return "".join(parts)


def svg(game: Game[Any], view: Mapping[str, Any], legal: Sequence[Move] = ()) -> str:
    """The table, the hand of the viewing seat (if any) and the seats' totals."""
    assert isinstance(game, Cubed)
    ed = game.edition
    seat = view["seat"]
    to_move = view["to_move"]
    said = {str(m) for m in legal}

    # the table: pieces, cells where a piece may go, dead cells
    table = {pack(*e["cell"]): e["slots"] for e in view["table"]}
    pieces = {cell: ed.read_piece(slots, "table") for cell, slots in table.items()}
    front, playable = rebuild(game.frontier, pieces)
    dead = {c for c, edges in front.items() if game.frontier.info(edges).dead}
    open_cells = {pack(m.q, m.r) for m in legal if isinstance(m, Place)}
    cells = set(table) | playable | dead
    centres = {c: centre(*unpack(c)) for c in cells}
    xs = [x for x, _ in centres.values()] or [0.0]
    ys = [y for _, y in centres.values()] or [0.0]
    margin = TABLE_R + 6
    tx0, tx1 = min(xs) - margin, max(xs) + margin
    ty0, ty1 = min(ys) - margin, max(ys) + margin
    table_w = tx1 - tx0

    hand = view["hands"][seat] if seat is not None else None
    drawn = view["turn"].get("drawn")
    pitch = SQRT3 * HAND_R + 10
    per_row = max(8, int(table_w // pitch))
    width = max(table_w, per_row * pitch + 20, 560.0)
    body: list[str] = []
    y = 0.0

    head = f"CUBED · {ed.name}"
    if game.players > 1:
        head += f" · round {view['round']} of {game.rounds}"
    head += f" · bag {view['bag']}"
    if game.variants:
        head += f" · {', '.join(game.variants)}"
    body.append(text(width / 2, y + 14, head, size=15, weight="bold"))
    y += 30

    # centre the table horizontally; shift every cell by (dx, dy)
    dx = (width - table_w) / 2 - tx0
    dy = y - ty0
    body.append(f'<g class="table" transform="translate({fmt(dx)},{fmt(dy)})">')
    for cell in sorted(cells, key=lambda c: unpack(c)[::-1]):
        q, r = unpack(cell)
        cx, cy = centres[cell]
        where = f' data-cell="{q},{r}"'
        if cell in table:
            body.append(piece_svg(game, cx, cy, TABLE_R, table[cell], where))
        elif cell in playable:
            cls = "cell open" if cell in open_cells else "cell"
            body.append(
                f'<polygon class="{cls}"{where} points="{hexagon(cx, cy, TABLE_R * 0.93)}">'
                f"<title>cell {q},{r}</title></polygon>"
            )
            body.append(text(cx, cy, f"{q},{r}", size=10, cls="coord"))
        else:
            body.append(
                f'<polygon class="dead" points="{hexagon(cx, cy, TABLE_R * 0.93)}">'
                f"<title>dead cell {q},{r}: it touches a black side</title></polygon>"
            )
            body.append(text(cx, cy, "×", size=18, fill="#b04a4a"))
    body.append("</g>")
    y += ty1 - ty0 + 8

    if isinstance(drawn, list) and seat is not None and to_move == seat:
        body.append(text(12, y + 10, "Drawn for draw3 — keep one:", size=13, anchor="start"))
        y += 24
        for i, letters in enumerate(drawn):
            move = str(Keep(letters))
            attrs = f' data-move="{esc(move)}"' if move in said else ""
            cx = 12 + pitch / 2 + i * pitch
            body.append(piece_svg(game, cx, y + HAND_R, HAND_R, letters, attrs, "drawn-piece"))
        y += 2 * HAND_R + 12

    if hand is not None:
        label = f"Your hand · {len(hand)} piece{'s' if len(hand) != 1 else ''}"
        body.append(text(12, y + 10, label, size=13, anchor="start", weight="bold"))
        y += 24
        fits = {m.slots for m in legal if isinstance(m, Place)}
        for i, letters in enumerate(hand):
            row, col = divmod(i, per_row)
            cx = 12 + pitch / 2 + col * pitch
            cy = y + HAND_R + row * (2 * HAND_R + 8)
            turns = {letters, letters[1:] + letters[:1], letters[2:] + letters[:2]}
            cls = "hand-piece playable" if turns & fits else "hand-piece"
            attrs = f' data-hand="{i}" data-piece="{esc(letters)}"'
            body.append(piece_svg(game, cx, cy, HAND_R, letters, attrs, cls))
        rows = max(1, math.ceil(len(hand) / per_row))
        y += rows * (2 * HAND_R + 8) + 6

    # the seats: pieces in hand, totals, who is to move
    y += 6
    for s, size in enumerate(view["hand_sizes"]):
        mark = "▶ " if s == to_move else ""
        who = "You" if s == seat else f"Seat {s}"
        line = f"{mark}{who}: {size} piece{'s' if size != 1 else ''}"
        if game.players > 1:
            line += f" · total {view['totals'][s]}"
        weight = "bold" if s == to_move else "normal"
        body.append(text(12, y + 9, line, size=13, anchor="start", weight=weight))
        y += 20
    for i, past in enumerate(view.get("past_rounds", []), 1):
        scores = ", ".join(f"{seat_name(s, seat)} {v}" for s, v in enumerate(past["scores"]))
        body.append(text(12, y + 9, f"Round {i}: {scores}", size=12, anchor="start", fill="#666"))
        y += 18
    return document("cubed", (0, 0, width, y + 8), body, label=f"CUBED table: {head}", style=STYLE)


def hints(game: Game[Any], view: Mapping[str, Any]) -> dict[str, Any]:
    """The empty cells where a piece may go (`open`, by the table alone: whoever's turn it
    is) and the dead cells (`dead`: they touch a black side), as `[q, r]` pairs."""
    assert isinstance(game, Cubed)
    ed = game.edition
    table = {pack(*e["cell"]): e["slots"] for e in view["table"]}
    pieces = {cell: ed.read_piece(slots, "table") for cell, slots in table.items()}
    front, playable = rebuild(game.frontier, pieces)
    dead = {c for c, edges in front.items() if game.frontier.info(edges).dead}
    return {
        "open": sorted(list(unpack(c)) for c in playable),
        "dead": sorted(list(unpack(c)) for c in dead),
    }


def state_hints(game: Game[Any], state: State[Any]) -> dict[str, Any]:
    """`hints` of the public view of `state`, read from the frontier the state keeps up to
    date move by move instead of rebuilding it from the table (the same answer, a fraction
    of the work). The frontier is made from the table alone, which every seat sees."""
    assert isinstance(game, Cubed) and isinstance(state, CubedState)
    info = game.frontier.info
    return {
        "open": sorted(list(unpack(c)) for c in state.playable),
        "dead": sorted(list(unpack(c)) for c, edges in state.front.items() if info(edges).dead),
    }


def info(game: Game[Any]) -> dict[str, Any]:
    """Colours (letter, name, screen colour, text colour) and the game's settings: the
    edition's blocking (`black`) and wild (`wild`, None without one) letters and
    `strict_colors`, which the page's check of a placement reads (docs/rules/cubed.md §3-4)."""
    assert isinstance(game, Cubed)
    ed = game.edition
    return {
        "palette": {
            c.letter: {"name": c.name, "rgb": c.rgb, "ink": ink(c.rgb)} for c in ed.colours
        },
        "black": ed.letters[ed.black],
        "wild": None if ed.wild is None else ed.letters[ed.wild],
        "strict_colors": game.strict_colors,
        "hidden_hands": game.players > 1,
        "edition": ed.name,
        "rounds": game.rounds,
        "variants": list(game.variants),
    }


def colour_phrase(name: str) -> Phrase:
    """A CUBED colour's name as the catalogs word it (`cubed-colour-NAME`)."""
    return Phrase(f"cubed-colour-{name.replace(' ', '-')}", {}, name)


def piece_words(game: Cubed, letters: str, the: bool = False) -> str:
    """A piece as a person says it: "a green, purple and yellow piece", "an all-white
    piece" (its colours in the order they show, each named once); `the`: "the ... piece"."""
    return str(piece_phrase(game, letters, the))


def piece_phrase(game: Cubed, letters: str, the: bool = False) -> Phrase:
    """`piece_words` as a phrase: its colours (`c1` to `c3`, `count` of them) and `first`,
    the first colour's name as a key (English picks "a" or "an" by it)."""
    names = {c.letter: c.name for c in game.edition.colours}
    shown = [names.get(ch, ch) for ch in dict.fromkeys(letters)]
    listed = f"all-{shown[0]}" if len(shown) == 1 else ", ".join(shown[:-1]) + f" and {shown[-1]}"
    article = "the" if the else "an" if listed[0] in "aeiou" else "a"
    params: dict[str, Param] = {
        "count": len(shown),
        "first": shown[0].replace(" ", "-"),
    }
    for i in range(3):
        params[f"c{i + 1}"] = colour_phrase(shown[i]) if i < len(shown) else ""
    key = "words-cubed-the-piece" if the else "words-cubed-a-piece"
    return Phrase(key, params, f"{article} {listed} piece")


def _half_cells(halves: int) -> str:
    """A count of half cells in words: "½ cell", "1 cell", "2½ cells"."""
    whole, half = divmod(halves, 2)
    amount = f"{whole or ''}{'½' if half else ''}"
    return f"{amount} cell{'' if halves in (1, 2) else 's'}"


def place_words(q: int, r: int) -> str:
    """Where cell `(q, r)` is, in words a player can follow on the table: rows up or
    down and cells left or right of the first piece, which sits at `(0, 0)` (the page
    marks it, and names its lit cells the same way: `placeWords` in games/cubed.js).

    >>> place_words(1, -1)
    '1 row up, ½ cell right of the first piece'
    >>> place_words(-2, 0), place_words(-1, 2)
    ('2 cells left of the first piece', '2 rows below the first piece')
    >>> place_words(0, 0)
    'the middle of the table'
    """
    return str(place_phrase(q, r))


def place_phrase(q: int, r: int) -> Phrase:
    """`place_words` as a phrase, in the keys of the page's own `placeWords`."""
    if q == 0 and r == 0:
        return Phrase("cubed-middle", {}, "the middle of the table")
    halves = 2 * q + r  # half-cell widths right of the first piece (rows are offset)
    up = "up" if r < 0 else "down"
    rows = f"{abs(r)} row{'' if abs(r) == 1 else 's'}" if r else ""
    if not halves:
        text = f"{rows} {'above' if r < 0 else 'below'} the first piece"
        return Phrase("cubed-rows-only", {"rows": abs(r), "dir": up}, text)
    whole, half = divmod(abs(halves), 2)
    amount = f"{whole or ''}{'½' if half else ''}"
    cells = Phrase("cubed-cells", {"halves": abs(halves), "text": amount}, _half_cells(abs(halves)))
    side = "right" if halves > 0 else "left"
    across = Phrase("cubed-across", {"cells": cells, "dir": side}, f"{cells} {side}")
    if not r:
        return Phrase(
            "cubed-place",
            {"rows": "", "across": across, "both": "false"},
            f"{across} of the first piece",
        )
    vertical = Phrase("cubed-rows", {"rows": abs(r), "dir": up}, f"{rows} {up}")
    text = f"{vertical}, {across} of the first piece"
    return Phrase("cubed-place", {"rows": vertical, "across": across, "both": "true"}, text)


def words(game: Game[Any], move: str, mover: int, viewer: int | None) -> str:
    """A move in words, the way a player tells it ("Seat 1 laid a green, purple and
    yellow piece 1 row up, ½ cell right of the first piece."): no notation. A piece kept
    from draw3 or given away is named only to the seats that see it (the mover, and for
    a gift its receiver); where a piece is laid is open to all, as the table is."""
    return str(described(game, move, mover, viewer))


def described(game: Game[Any], move: str, mover: int, viewer: int | None) -> Phrase:
    """`words` as a phrase (`words-cubed-*`): the page words it in its reader's language."""
    assert isinstance(game, Cubed)
    parsed = game.parse_move(move)
    who = capitalised(seat_name(mover, viewer))
    params: dict[str, Param] = {"who": Seat(mover)}
    if isinstance(parsed, Place):
        place = place_phrase(parsed.q, parsed.r)
        where = f"in {place}" if place.key == "cubed-middle" else str(place)
        piece = piece_phrase(game, parsed.slots)
        params |= {"piece": piece, "where": place}
        key, did = "laid", f"laid {piece} {where}"
        if place.key == "cubed-middle":
            key = "laid-middle"
    elif isinstance(parsed, Draw) or (isinstance(parsed, Draw3) and parsed.k == 1):
        key, did = "drew", "drew a piece"
    elif isinstance(parsed, Pass):
        key, did = "passed", "passed"
    elif isinstance(parsed, Draw3):
        params["count"] = parsed.k
        key, did = "drew-many", f"drew {parsed.k} pieces to keep one"
    elif isinstance(parsed, Keep):
        if viewer == mover:
            piece = piece_phrase(game, parsed.piece, the=True)
            params["piece"] = piece
            key, did = "kept", f"kept {piece}"
        else:
            key, did = "kept-secret", "kept one of the drawn pieces"
    elif isinstance(parsed, Give):
        to = seat_name(parsed.to, viewer)
        params["to"] = Seat(parsed.to)
        if viewer in (mover, parsed.to):
            piece = piece_phrase(game, parsed.piece)
            params["piece"] = piece
            key, did = "gave", f"gave {piece} to {to}"
        else:
            key, did = "gave-secret", f"gave a piece to {to}"
    elif isinstance(parsed, Skip):
        key, did = "skipped", "gave nothing away"
    else:  # pragma: no cover - every CUBED move is listed above
        raise AssertionError(f"a CUBED move of no known kind: {move}")
    return Phrase(f"words-cubed-{key}", params, f"{who} {did}.")


def visible(game: Game[Any], move: str, mover: int, viewer: int | None) -> bool:
    """Whether `viewer` may read the notation of `move`: a kept or given piece is secret
    from everyone but the mover (and, for a gift, its receiver)."""
    parsed = game.parse_move(move)
    if isinstance(parsed, Keep):
        return viewer == mover
    if isinstance(parsed, Give):
        return viewer in (mover, parsed.to)
    return True


def refusal_params(
    code: str, params: Mapping[str, Any], palette: Mapping[str, Any]
) -> dict[str, Param]:
    """A colour mismatch's two colours (`mine`, `theirs`: letters) as the catalogs' colour
    names (`cubed-colour-…`; `kit.words.RefusalWords`)."""
    if code not in ("blocking-mismatch", "mismatch"):
        return {}
    return {side: _colour_phrase(palette, params.get(side)) for side in ("mine", "theirs")}


def _colour_phrase(palette: Mapping[str, Any], letter: Any) -> Phrase:
    entry = palette.get(letter) if isinstance(letter, str) else None
    if entry is None:
        return Phrase("refusal-another-colour", {}, "another colour")
    name = str(entry["name"])
    return Phrase(f"cubed-colour-{name.replace(' ', '-')}", {}, name)
