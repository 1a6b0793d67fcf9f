"""Drawing games for people: the terminal (`render.terminal`, rich) and SVG for the web
(`render.web`, one module per game). Both draw from what one seat may see, never more.

>>> import cubegames
>>> from cubegames.render import svg
>>> state = cubegames.make("unstackable").new_state()
>>> svg(state, 0).startswith("<svg")
True
"""

from __future__ import annotations

from typing import Any

from cubegames.core.game import State


def svg(state: State[Any], seat: int | None = None) -> str:
    """An SVG drawing of `state` as `seat` sees it (`None`: a spectator's public view).

    The seat to move also gets its legal moves pointed out (the cells and pieces the web
    page makes clickable). Nothing hidden from `seat` reaches the drawing: it is made from
    `state.view(seat)` (or `state.public_view()`) alone.
    """
    from cubegames.render.web import draw

    if seat is None:
        view = state.public_view()
        legal: list[Any] = []
    else:
        view = state.view(seat)
        legal = state.legal_moves() if state.to_move == seat else []
    return draw(state.game, view, legal)
