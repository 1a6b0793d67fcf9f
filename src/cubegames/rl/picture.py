"""Pictures of a game as RGB arrays, for `render_mode="rgb_array"` and for recording
episodes as video.

The picture is the web app's SVG drawing of one seat's view (`cubegames.render.web`),
rasterised by resvg (the `resvg-py` package) and centred on a white canvas of a fixed size,
so every frame of an episode has the same shape however large the table grows.

>>> import cubegames
>>> state = cubegames.make("unstackable").new_state()
>>> frame = rgb(state, 0)
>>> frame.shape, frame.dtype.name
((480, 640, 3), 'uint8')
"""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import numpy.typing as npt

from cubegames.core.game import State

#: the default frame: height, width
SIZE = (480, 640)


def rgb(state: State[Any], seat: int | None, size: tuple[int, int] = SIZE) -> npt.NDArray[np.uint8]:
    """`state` as `seat` sees it (None: a spectator), `(height, width, 3)` uint8, with the
    seat's legal moves pointed out when it is to move."""
    import resvg_py
    from PIL import Image

    from cubegames.render.web import draw

    height, width = size
    if height < 16 or width < 16:
        raise ValueError(f"a picture is at least 16x16 pixels, not {height}x{width}")
    view = state.public_view() if seat is None else state.view(seat)
    legal = state.legal_moves() if seat is not None and state.to_move == seat else []
    svg = draw(state.game, view, legal)
    png = bytes(resvg_py.svg_to_bytes(svg_string=svg, background="#ffffff"))
    picture = Image.open(io.BytesIO(png)).convert("RGB")
    picture.thumbnail((width, height), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (width, height), (255, 255, 255))
    canvas.paste(picture, ((width - picture.width) // 2, (height - picture.height) // 2))
    return np.asarray(canvas, dtype=np.uint8).copy()
