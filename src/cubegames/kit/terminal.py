"""What the games' terminal drawings (`<game package>.terminal`, drawn with rich) share."""

from __future__ import annotations

from rich.style import Style


def on_colour(rgb: str) -> Style:
    """A background `rgb` with black or white text, whichever reads better.

    >>> on_colour("#ffd43b").color.name
    'black'
    """
    r, g, b = (int(rgb[i : i + 2], 16) for i in (1, 3, 5))
    light = 0.299 * r + 0.587 * g + 0.114 * b > 140
    return Style(bgcolor=rgb, color="black" if light else "white", bold=True)
