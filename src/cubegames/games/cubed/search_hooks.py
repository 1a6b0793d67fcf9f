"""What search bots need from CUBED: fast sampling of hidden pieces, a lean rollout with a
light policy, rewards at the end of a round, and the greedy one-ply heuristic.

All of it is pure rules code; the bots in `cubegames.bots` reach it through the hooks of
`cubegames.core.game.Game`, which `game.py` implements by calling this module. Imports go
one way: `game.py` uses this module, this module knows states and the edition, never the
game class.
"""

from __future__ import annotations

import random
from collections.abc import Callable

from cubegames.games.cubed.edition import Edition
from cubegames.games.cubed.frontier import add_piece, fast_placements
from cubegames.games.cubed.notation import CubedMove, Draw, Draw3, Give, Keep, Pass, Place, Skip
from cubegames.games.cubed.pieces import Piece, canonical
from cubegames.games.cubed.state import CubedState

#: in rollouts, how often a player lays its most valuable piece rather than any piece
GREED = 0.75


class PointsTable:
    """Points of a piece in hand, cached per rotation.

    A class rather than a closure so that a game holding one pickles (subprocess vector
    environments and multiprocessing hand games to workers).
    """

    def __init__(self, ed: Edition) -> None:
        self.edition = ed
        self.cache: dict[Piece, int] = {}

    def __call__(self, piece: Piece) -> int:
        found = self.cache.get(piece)
        if found is None:
            found = self.cache[piece] = self.edition.piece_points(piece)
        return found


def points_table(ed: Edition) -> Callable[[Piece], int]:
    """Points of a piece in hand, cached per rotation (a picklable `PointsTable`)."""
    return PointsTable(ed)


def sampler(template: CubedState, seat: int) -> Callable[[random.Random], CubedState]:
    """Determinizations of what `seat` sees, from one full state consistent with it
    (`template`, built once by `Cubed.determinize`): hidden pieces re-dealt per call.

    The hidden pieces (other hands, the bag, another seat's draw3 draw) are shuffled and
    dealt back into the same places in the same numbers: every consistent deal is equally
    likely.
    """
    game = template.game
    others = [s for s in range(game.players) if s != seat]
    sizes = [len(template.hands[s]) for s in others]
    hidden_drawn = len(template.drawn) if template.to_move != seat else 0
    pool = [p for s in others for p in template.hands[s]] + template.bag
    if hidden_drawn:
        pool += template.drawn

    def sample(rng: random.Random) -> CubedState:
        state = template.clone()
        pieces = list(pool)
        rng.shuffle(pieces)
        at = 0
        for s, size in zip(others, sizes, strict=True):
            state.hands[s] = pieces[at : at + size]
            at += size
        if hidden_drawn:
            state.drawn = pieces[at : at + hidden_drawn]
            at += hidden_drawn
        state.bag = pieces[at:]
        return state

    return sample


def rollout(state: CubedState, rng: random.Random) -> None:
    """Play on to the end of the current round (or game) with a light policy: lay a piece
    whenever one fits, usually the most valuable one; draw when nothing fits."""
    points = state.game.ai_points
    start = state.round
    while state.to_move is not None and state.round == start:
        if state.drawn or state.give:
            moves = state.legal_moves()
            state._apply(moves[rng.randrange(len(moves))])
            continue
        found = state.placements()
        if found:
            if rng.random() < GREED:
                best = max(points(rot) for rot, _ in found)
                found = [f for f in found if points(f[0]) == best]
            state.apply_placement(*found[rng.randrange(len(found))])
            continue
        others = state.other_moves(can_place=False)
        draw = next((m for m in others if isinstance(m, Draw)), None)
        state._apply(draw if draw is not None else others[0])


def rewards(state: CubedState) -> list[float]:
    """Rewards in [0, 1] per seat once a round (or the game) has ended.

    Multi-player: 0.8 for the lowest total (shared on a tie) plus up to 0.2 for how far
    below the worst total a seat is. Solo: 1 for a win, else up to 0.5 for few points left.
    """
    game = state.game
    if game.players == 1:
        if state.winners() == [0]:
            return [1.0]
        left = state.scores()[0]
        return [0.5 * max(0.0, 1.0 - left / 60.0)]
    if not state.past_rounds:
        return [1.0 / game.players] * game.players
    totals = state.totals
    low, high = min(totals), max(totals)
    winners = [s for s, t in enumerate(totals) if t == low]
    spread = high - low
    return [
        (0.8 / len(winners) if s in winners else 0.0)
        + (0.2 * (high - t) / spread if spread else 0.0)
        for s, t in enumerate(totals)
    ]


def greedy_move(state: CubedState, rng: random.Random) -> CubedMove:
    """The greedy bot's choice: every move the rules offer, valued one way (`_value`:
    points shed, placements left for its own hand, cells left to the others).

    - A placement sheds its points; one that bridges a gap (`bridging`) is worth the best
      placement it then allows as well, one that fills a void (`void`) the piece it then
      gives away.
    - Nothing fits: drawing one (placing it if it fits) and, with `draw3`, drawing 1 to 3
      and keeping the best are valued by their mean over the pieces the mover cannot see
      (what the bag may hold), and the best is played; a pass when the bag is empty.
    - Drawing while a piece fits is never better by this value (it adds a piece), so a
      placement is played whenever one exists; after a bridging bonus, the bonus placement
      is played if it is worth more than passing.
    - `keep` (draw3) and `give` (void) pick the piece by the same value.
    """
    seat = state.to_move
    assert seat is not None
    game = state.game
    points = game.ai_points
    ed = game.edition
    hand = state.hands[seat]
    if state.drawn:  # draw3: keep the piece that leaves the best hand
        keep = max(state.drawn, key=lambda p: (_hand_value(state, [*hand, p], points), -points(p)))
        return Keep(ed.text(keep))
    if state.give:  # give the piece whose loss leaves the best hand, to the seat nearest out
        if not hand:
            return Skip()
        piece = max(hand, key=lambda p: (_without_value(state, hand, p, points), points(p)))
        target = min(
            (s for s in range(game.players) if s != seat), key=lambda s: len(state.hands[s])
        )
        return Give(ed.text(piece), target)
    found = state.placements()
    if not found:
        others = state.other_moves(can_place=False)
        return _no_fit(state, others, rng)
    best_value = None
    best: list[tuple[Piece, int]] = []
    for rot, cell in found:
        value = _value(state, hand, rot, cell, points)
        if best_value is None or value > best_value:
            best_value, best = value, [(rot, cell)]
        elif value == best_value:
            best.append((rot, cell))
    if state.bonus and best_value is not None and best_value < stay_value(state, hand):
        return Pass()  # the bonus placement would leave a worse position than none
    rot, cell = sorted(best)[rng.randrange(len(best))]
    q, r = divmod(cell, 256)
    return Place(ed.text(rot), q - 128, r - 128)


#: draws sampled from the unseen pieces to value a draw3 of 2 or 3
DRAW_SAMPLES = 24


def _no_fit(state: CubedState, others: list[CubedMove], rng: random.Random) -> CubedMove:
    """Nothing fits: a draw, a draw3 or a pass, whichever `_value` rates best on average
    over the pieces the mover cannot see. Plain rules: the draw (or the pass) as before."""
    draws = [m for m in others if isinstance(m, Draw | Draw3)]
    if not any(isinstance(m, Draw3) for m in draws):
        return next((m for m in others if isinstance(m, Draw)), others[0])
    seat = state.to_move
    assert seat is not None
    points = state.game.ai_points
    hand = state.hands[seat]
    unseen = [p for s in range(state.game.players) if s != seat for p in state.hands[s]]
    unseen += state.bag
    best: CubedMove = draws[0]
    best_value = float("-inf")
    for move in draws:
        if isinstance(move, Draw):
            value = sum(_after_draw(state, hand, p, points) for p in unseen) / len(unseen)
        else:
            k = move.k
            total = 0.0
            for _ in range(DRAW_SAMPLES):
                drawn = rng.sample(unseen, min(k, len(unseen)))
                total += max(_hand_value(state, [*hand, p], points) for p in drawn)
            value = total / DRAW_SAMPLES
        if value > best_value:
            best, best_value = move, value
    return best


def stay_value(state: CubedState, hand: list[Piece]) -> float:
    """`_value` of shedding nothing: +1 per placement `hand` has on the table as it is,
    -0.5 per playable cell."""
    game = state.game
    mine = fast_placements(
        game.frontier,
        state.front,
        state.playable,
        len(state.table),
        hand,
        strict=game.strict_colors,
    )
    return len(mine) - 0.5 * len(state.playable)


def _hand_value(state: CubedState, hand: list[Piece], points: Callable[[Piece], int]) -> float:
    """`_value` of ending the turn holding `hand`, counted from an empty hand: -10 per
    point held, then `stay_value`."""
    return -10.0 * sum(points(p) for p in hand) + stay_value(state, hand)


def _without_value(
    state: CubedState, hand: list[Piece], piece: Piece, points: Callable[[Piece], int]
) -> float:
    """`_hand_value` of `hand` without one copy of `piece` (a piece given away)."""
    rest = list(hand)
    rest.remove(piece)
    return _hand_value(state, rest, points) if rest else 1e9


def _after_draw(
    state: CubedState, hand: list[Piece], drawn: Piece, points: Callable[[Piece], int]
) -> float:
    """The value of drawing `drawn` when nothing in `hand` fits: the best placement it
    then allows (the drawn piece is the only one that can fit), else holding it."""
    bigger = [*hand, drawn]
    found = fast_placements(
        state.game.frontier,
        state.front,
        state.playable,
        len(state.table),
        bigger,
        strict=state.game.strict_colors,
    )
    held = _hand_value(state, bigger, points)
    if not found:
        return held
    base = -10.0 * sum(points(p) for p in bigger)
    return max(held, base + max(_value(state, bigger, rot, cell, points) for rot, cell in found))


#: how many placements, best first by the greedy value, a search considers at its root
ROOT_WIDTH = 10

#: playouts a move of the default flat search runs per seat, with three or more seats
PLAYOUTS_PER_SEAT = 150


#: playouts a move of the default flat search runs with two seats in the Japanese edition
JA_TWO_SEAT_PLAYOUTS = 1000


def flat_budget(players: int, edition: str = "en") -> int | None:
    """The playouts a move of the default flat search runs (`Playouts.budget`): the bot's
    own default (300) with two seats, where it is tuned; with more seats 150 a seat (900
    with 6), since every opponent's hidden hand makes a playout noisier and the bot moves
    less often (its CPU a game stays about the same). Two seats of the Japanese edition
    run 1000: with 300 the search beat `greedy` in only 79.6% to 85.4% of 400 games
    (benchmarks/strength.md), and its games cost about half the CPU of the English ones."""
    if players == 2 and edition == "ja":
        return JA_TWO_SEAT_PLAYOUTS
    return None if players <= 2 else PLAYOUTS_PER_SEAT * players


#: moves of the light policy a flat search's playout plays after its root move, per seat
HORIZON_PER_SEAT = 4


#: solo: a playout plays the game to its end, which every box of the kernel (128 pieces at
#: most) reaches within 256 moves, since each move lays a piece or draws one from the bag
SOLO_HORIZON = 256


def flat_horizon(players: int) -> int:
    """How many moves a flat search's playout plays after its root move: 4 a seat (8 with
    two seats, where it is tuned), so that every seat moves a few times before the position
    is judged; with a fixed 8 an 11-seat playout never came back to the searching seat.
    Solo: to the end of the game (`SOLO_HORIZON`), judged won or lost."""
    if players == 1:
        return SOLO_HORIZON
    return HORIZON_PER_SEAT * players


#: points of difference that count as a clear lead when a playout is judged (`flat_judge`)
TEMPERATURE = 3.0

#: from how many seats a flat search judges a playout as a race to go out (`flat_judge`)
RACE_SEATS = 7
#: in a race, the points a piece in hand counts for besides its own, and the temperature
RACE_PER_PIECE = 10.0
RACE_TEMPERATURE = 6.0


def flat_judge(players: int) -> tuple[bool, float, float]:
    """How a flat search judges the position a playout reaches (`search_kernel.evaluate`):
    `(field, per_piece, temperature)`. Up to six seats by the points in hand against the
    best other seat, a lead of 3 points counting as clear (`TEMPERATURE`; two seats are
    tuned so). From seven seats (Japanese edition) as a race: with 7 to 11 hands of 7 to 11
    pieces most rounds end when one seat goes out (77% of 200 games among greedy bots with
    8 seats, 91% with 11), and that seat wins, so a piece in hand (a turn still to play)
    weighs 10 points besides its own and the turn order a fraction of a piece, and the
    judgement is each seat's chance of ending lowest of the whole field at a temperature of
    6 points. Over 400 games a row (benchmarks/strength.md, "CUBED with 7 to 11 seats") the
    race read 0 to 0.21 times the fair share better than the points in the plain game at
    every seat count from 7 to 11, and as well on the whole with all three variants (from
    0.28 worse to 0.29 better, summing to nothing)."""
    if players < RACE_SEATS:
        return False, 0.0, TEMPERATURE
    return True, RACE_PER_PIECE, RACE_TEMPERATURE


def flat_model(players: int, variants: bool) -> int:
    """How the seats play in a flat search's playouts (`search_kernel.playout_model`):
    every seat the light policy (`LIGHT`, 0), at every seat count. Playing the other seats
    as the greedy bot does (`GREEDY_OTHERS`, 1) was measured from 7 to 11 seats over 400
    games a row (benchmarks/strength.md, "CUBED with 7 to 11 seats: playouts that model the
    opponents as `greedy`"): with all three variants it read from 0.18 times the fair share
    worse to 0.36 better (+0.05 a row on average), in the plain game no better, at three
    times the CPU a game, so it is not the default. Nor with deals of the hidden pieces
    that agree with what the seat has read of the record (benchmarks/strength.md, "deals
    that agree with the record"); the kernel keeps the model for such experiments."""
    return 0


def root_moves(state: CubedState) -> list[CubedMove]:
    """The legal moves worth searching: the best `ROOT_WIDTH` placements by the greedy
    value, and every move that is not a placement (drawing can be right even when a piece
    fits)."""
    seat = state.to_move
    if seat is None or state.drawn or state.give:
        return state.legal_moves()
    found = state.placements()
    if len(found) <= ROOT_WIDTH:
        return state.legal_moves()
    points = state.game.ai_points
    hand = state.hands[seat]
    ranked = sorted(found, key=lambda pc: (-_value(state, hand, pc[0], pc[1], points), pc))
    ed = state.ed
    moves: list[CubedMove] = []
    for rot, cell in ranked[:ROOT_WIDTH]:
        q, r = divmod(cell, 256)
        moves.append(Place(ed.text(rot), q - 128, r - 128))
    return moves + state.other_moves(can_place=True)


def _value(
    state: CubedState, hand: list[Piece], rot: Piece, cell: int, points: Callable[[Piece], int]
) -> float:
    """10 per point shed, +1 per placement left for my remaining hand, -0.5 per playable
    cell left for the others. With `bridging`, a placement that bridges a gap (outside a
    bonus) adds 10 per point of the best piece it then lets me place; with `void`, one that
    fills a void adds 10 per point of the most valuable piece left to give away (going out
    if it is the last)."""
    game = state.game
    info = game.frontier.info(state.front.get(cell, (-1,) * 6)) if game.variants else None
    front = dict(state.front)
    playable = set(state.playable)
    table = dict(state.table)
    add_piece(game.frontier, front, playable, table, rot, cell)
    rest = list(hand)
    key = canonical(rot)
    rest.pop(next(i for i, p in enumerate(rest) if canonical(p) == key))
    if not rest:
        return 1e9  # going out wins the round
    mine = fast_placements(
        game.frontier, front, playable, len(table), rest, strict=game.strict_colors
    )
    value = 10.0 * points(rot) + len(mine) - 0.5 * len(playable)
    if info is None or not playable:
        return value
    if "bridging" in game.variants and not state.bonus and info.arcs >= 2 and mine:
        value += 10.0 * max(points(r) for r, _ in mine)  # the bonus placement
    elif "void" in game.variants and info.touches == 6:
        value += 1e9 if len(rest) == 1 else 10.0 * max(points(p) for p in rest)  # the gift
    return value
