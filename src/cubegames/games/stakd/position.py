"""Reading a STAKD position file (`to_dict`) back, field by field; errors name the field.

The file, beyond `game` and `options` (`players`, `edition`, `points_to_win`):

    pieces          this round's stack in the order laid, each
                    {"type": "DUO", "owner": 0, "z": 1, "nodes": [[0, 0], [1, 0]]}
                    (nodes sorted by x, then y)
    hands           per seat, the count of each type still held, all six types named
    out             seats out for the rest of this round, sorted
    layer           the current layer: the highest one started (0 until then)
    to_move         the seat to move, which always has a legal move; null once it is over
    points          points per seat in the match (solo: 1 once won)
    round           the round being played (the last one, once the match is over)
    round_winners   the seat that won each finished round, in order

When the match ends the last round's stack stays in `pieces` and every seat is `out`.

The pieces are replayed in the order laid through the same placement rules as play, so a
position that breaks them (overlapping or overhanging pieces, a piece on a terminated one,
a closed layer reopened, ...) is refused with the index of the first bad piece. What a
file cannot show (the turn order, the hands at each earlier turn) is not checked: a new
layer's first piece is checked only for not being a BOMBER, not for its timing.

A hand may hold fewer pieces than the box gives (a puzzle may set some aside), never more.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from cubegames.core.data import refuse_other_fields
from cubegames.core.errors import shown
from cubegames.games.stakd.board import Laid
from cubegames.games.stakd.pieces import LIMIT, TYPES, Node, PieceType, normal_form, pack
from cubegames.games.stakd.state import StakdState

Cell = tuple[int, int]


def layers_of(view: Mapping[str, Any]) -> tuple[list[dict[Cell, int]], set[int]]:
    """From a position or view: per layer, node -> index into `view["pieces"]`; and the
    indexes of the pieces a BOMBER has terminated."""
    layers: list[dict[Cell, int]] = []
    terminated: set[int] = set()
    for i, piece in enumerate(view["pieces"]):
        z = piece["z"]
        while len(layers) <= z:
            layers.append({})
        for x, y in piece["nodes"]:
            layers[z][x, y] = i
            if piece["type"] == "BOMBER" and z > 0 and (x, y) in layers[z - 1]:
                terminated.add(layers[z - 1][x, y])
    return layers, terminated


BASE = PieceType.BASE


def _whole(value: Any, where: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{where}: must be a whole number from {low} to {high}")
    return value


def _field(data: Mapping[str, Any], key: str, kind: type) -> Any:
    if key not in data:
        raise ValueError(f'field "{key}" is missing')
    value = data[key]
    if (kind is int and isinstance(value, bool)) or not isinstance(value, kind):
        raise ValueError(f'field "{key}" has the wrong type ({kind.__name__} expected)')
    return value


def _nodes(value: Any, where: str) -> tuple[Node, ...]:
    if not isinstance(value, list) or not value:
        raise ValueError(f"{where}: must be a non-empty list of [x, y] nodes")
    out: list[Node] = []
    for i, node in enumerate(value):
        if (
            not isinstance(node, list)
            or len(node) != 2
            or not all(isinstance(c, int) and not isinstance(c, bool) for c in node)
        ):
            raise ValueError(f"{where}[{i}]: a node is two whole numbers [x, y]")
        if not all(-LIMIT <= c <= LIMIT for c in node):
            raise ValueError(f"{where}[{i}]: coordinates go from -{LIMIT} to {LIMIT}")
        if (node[0], node[1]) in out:
            raise ValueError(f"{where}[{i}]: node {node[0]},{node[1]} is listed twice")
        out.append((node[0], node[1]))
    return tuple(sorted(out))


def _pieces(state: StakdState, listed: list[Any]) -> None:
    board, ed, players = state.board, state.ed, state.game.players
    for i, entry in enumerate(listed):
        where = f"pieces[{i}]"
        if not isinstance(entry, dict) or set(entry) != {"type", "owner", "z", "nodes"}:
            raise ValueError(f'{where}: must be {{"type", "owner", "z", "nodes"}}')
        name = entry["type"]
        if not isinstance(name, str) or name not in PieceType.__members__:
            raise ValueError(f"{where}.type: unknown piece {shown(name)}")
        piece = PieceType(name)
        owner = _whole(entry["owner"], f"{where}.owner", 0, players - 1)
        z = _whole(entry["z"], f"{where}.z", 0, LIMIT)
        nodes = _nodes(entry["nodes"], f"{where}.nodes")
        if normal_form(nodes) not in ed.turns[piece]:
            raise ValueError(f"{where}.nodes: not the shape of a {piece.value}")
        packed = tuple(pack(x, y) for x, y in nodes)
        top = board.top
        if (piece is BASE) != (z == 0):
            raise ValueError(f"{where}.z: bases and only bases lie on layer 0")
        if z == 0:
            if top > 0:
                raise ValueError(f"{where}: a base laid after stacking began")
            reason = board.base_problem(packed)
        else:
            if z < top:
                raise ValueError(f"{where}.z: layer {z} was closed once layer {top} started")
            if z > top + 1 or (z == top + 1 and not board.pieces):
                raise ValueError(f"{where}.z: layer {z} has nothing under it yet")
            if z == top + 1 and piece is PieceType.BOMBER:
                raise ValueError(f"{where}: a new layer never starts with a BOMBER")
            reason = board.stack_problem(piece, z, packed)
        if reason is not None:
            raise ValueError(f"{where}: {reason}")
        board.add(Laid(piece, owner, z, packed))


def _hands(state: StakdState, listed: list[Any]) -> None:
    players = state.game.players
    if len(listed) != players:
        raise ValueError(f'field "hands": needs {players} hands, one per seat')
    box = state.ed.counts[players]
    laid = Counter((p.owner, p.piece) for p in state.board.pieces)
    names = {t.value for t in TYPES}
    for seat, hand in enumerate(listed):
        where = f"hands[{seat}]"
        if not isinstance(hand, dict):
            raise ValueError(f'{where}: must be an object like {{"UNI": 6, ...}}')
        for key in hand:
            if key not in names:
                raise ValueError(f"{where}.{key}: unknown piece")
        for t in TYPES:
            if t.value not in hand:
                raise ValueError(f"{where}.{t.value} is missing")
            held = _whole(hand[t.value], f"{where}.{t.value}", 0, box[t])
            total = held + laid[seat, t]
            if total > box[t]:
                raise ValueError(
                    f"{where}.{t.value}: seat {seat} holds {held} and has laid {laid[seat, t]}, "
                    f"more than the {box[t]} a player gets"
                )
            state.hands[seat][t] = held
    if state.board.top > 0:
        for seat, hand in enumerate(state.hands):
            if hand[BASE]:
                raise ValueError(f"hands[{seat}].BASE: a base is still held, but stacking began")


def _score(state: StakdState, data: Mapping[str, Any]) -> bool:
    """Read round, points and round winners; True when they say the game is over."""
    game = state.game
    players, target = game.players, game.points_to_win
    state.round = _whole(_field(data, "round", int), 'field "round"', 1, 10_000)
    points = _field(data, "points", list)
    if len(points) != players:
        raise ValueError(f'field "points": needs {players} numbers, one per seat')
    state.points = [_whole(p, f"points[{i}]", 0, target) for i, p in enumerate(points)]
    winners = _field(data, "round_winners", list)
    state.round_winners = [
        _whole(w, f"round_winners[{i}]", 0, players - 1) for i, w in enumerate(winners)
    ]
    tally = Counter(state.round_winners)
    if state.points != [tally[s] for s in range(players)]:
        raise ValueError('field "points": they do not match the rounds won ("round_winners")')
    if state.solo:
        if state.round != 1:
            raise ValueError('field "round": solo play is a single round')
        return bool(winners)
    over = max(state.points) >= target
    if sum(1 for p in state.points if p >= target) > 1:
        raise ValueError(f'field "points": only one seat can reach {target}')
    finished = state.round if over else state.round - 1
    if len(winners) != finished:
        raise ValueError(
            f'field "round_winners": {finished} rounds are finished, {len(winners)} listed'
        )
    return over


#: every field a STAKD position file has (the module's docstring)
FIELDS = (
    "game", "options", "pieces", "hands", "out", "layer", "to_move", "points", "round",
    "round_winners",
)  # fmt: skip


def read_position(state: StakdState, data: Mapping[str, Any]) -> None:
    """Fill a fresh `state` from a position dict (its "game" and "options" already checked
    by `Game.state_from_dict`'s guard); ValueError names the first bad field."""
    game = state.game
    players = game.players
    refuse_other_fields(data, FIELDS, "STAKD")
    _pieces(state, _field(data, "pieces", list))
    _hands(state, _field(data, "hands", list))
    layer = _field(data, "layer", int)
    if layer != state.board.top:
        raise ValueError(f'field "layer": the pieces reach layer {state.board.top}, not {layer}')
    over = _score(state, data)

    out = _field(data, "out", list)
    seats = [_whole(s, f"out[{i}]", 0, players - 1) for i, s in enumerate(out)]
    if seats != sorted(set(seats)):
        raise ValueError('field "out": list each seat once, in order')
    state.out = set(seats)

    if "to_move" not in data:
        raise ValueError('field "to_move" is missing')
    to_move = data["to_move"]
    if to_move is None:
        if state.solo:
            if state.base_phase or seats != [0]:
                raise ValueError('field "to_move": null, but the solo game goes on')
            if over != state.solo_won():
                raise ValueError(
                    'field "round_winners": solo is won just when the hand is empty and the '
                    "last piece laid is not a BOMBER"
                )
        elif not over:
            raise ValueError('field "to_move": null, but nobody has won the match')
        elif seats != list(range(players)):
            raise ValueError('field "out": when the match ends, every seat is out')
        state.resume(None)
        return
    seat = _whole(to_move, 'field "to_move"', 0, players - 1)
    if over:
        raise ValueError('field "to_move": the match is over, so nobody is to move')
    if seat in state.out:
        raise ValueError(f'field "to_move": seat {seat} is out for this round')
    if state.base_phase and not state.hands[seat][BASE]:
        raise ValueError(f'field "to_move": seat {seat} has no base left to lay')
    state.resume(seat)
    if not state.legal_moves():
        raise ValueError(f'field "to_move": seat {seat} has no legal placement, so it is out')
