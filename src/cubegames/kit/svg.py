"""What the games' SVG drawings for the web app (`<game package>.web`) share: escaping,
numbers, text, the document around a drawing and a few words.

>>> document("dice", (0, 0, 10, 10), [text(5, 5, "<3")], label="Dice")[-40:]
' font-weight="normal">&lt;3</text></svg>'
"""

from __future__ import annotations

from collections.abc import Sequence
from html import escape

#: the font stack of every drawing (the page's own font where it has one)
FONT = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif"


def esc(text: object) -> str:
    """Text made safe for SVG content and attribute values."""
    return escape(str(text), quote=True)


def ink(rgb: str) -> str:
    """Black or white, whichever reads better on the background `rgb` (`#rrggbb`)."""
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    return "#111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#fff"


def fmt(value: float) -> str:
    """A coordinate, short: at most two decimals, no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def points(coords: Sequence[tuple[float, float]]) -> str:
    """A `points` attribute for a polygon."""
    return " ".join(f"{fmt(x)},{fmt(y)}" for x, y in coords)


def text(
    x: float,
    y: float,
    content: object,
    *,
    size: float = 12,
    fill: str = "#222",
    anchor: str = "middle",
    weight: str = "normal",
    cls: str = "",
) -> str:
    """One line of text; `y` is its middle."""
    klass = f' class="{cls}"' if cls else ""
    return (
        f'<text x="{fmt(x)}" y="{fmt(y)}" font-size="{fmt(size)}" fill="{fill}" '
        f'text-anchor="{anchor}" dominant-baseline="central" font-weight="{weight}"{klass}>'
        f"{esc(content)}</text>"
    )


def document(
    game_id: str,
    box: tuple[float, float, float, float],
    body: Sequence[str],
    *,
    label: str,
    style: str = "",
) -> str:
    """A whole SVG document: `box` is the view box (x, y, width, height).

    The root carries the classes `cg cg-GAME`; `style` rules should start with
    `svg.cg-GAME` so that, inlined in a page, they touch nothing else.
    """
    x, y, w, h = box
    css = f"<style>{style}</style>" if style else ""
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="cg cg-{game_id}" '
        f'viewBox="{fmt(x)} {fmt(y)} {fmt(w)} {fmt(h)}" width="{fmt(w)}" height="{fmt(h)}" '
        f'role="img" aria-label="{esc(label)}" font-family="{esc(FONT)}">'
        f"{css}{''.join(body)}</svg>"
    )


def seat_name(seat: int, viewer: int | None) -> str:
    """`you` for the viewer's own seat, else `seat N`."""
    return "you" if seat == viewer else f"seat {seat}"


def capitalised(sentence: str) -> str:
    """The sentence with its first letter in capitals."""
    return sentence[:1].upper() + sentence[1:]
