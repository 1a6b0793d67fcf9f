"""Many CUBED games of random bots in one compiled call, described in the kernel.

`cubegames simulate cubed --bots random` plays games whose every move is a random bot's
`randrange(len(legal_moves()))`; `kernel.play_round_random` plays those very moves. What a
game's row needs besides the moves (the deal from the game's seed, the scores, the pieces
left in each hand by kind, how the rounds ended, and the numbers whose digest is the row's
`final` column) would cost Python several times the game itself, so `play_games` does it
all here, for a whole batch of games, and hands back numbers:

- the deals: the game's generator (SplitMix64 started by its seed, `splitmix.from_seed`,
  `kernel.sm_seed`) shuffles the box for the first deal and for every later one, as
  `Cubed.new_state` and `CubedState._end_round` deal (`kernel.deal`), and the game's row
  keeps its state from round to round as the position does;
- the bots: seat `s` draws from its own SplitMix64 generator (started by
  `bot_seeds[g, s]`, as `RandomBot` starts it) all game long;
- `res[g]`: the fields `R_*` below, then per seat `SEAT_FIELDS` fields (`S_*`);
- `image[g, :image_len[g]]`: the numbers of the least image of the final position under
  the game's symmetries (`games.cubed.digest.image`): the three turns by 120°, and with
  `mirrors` the three mirrors too (`games.cubed.symmetry`), which `Batch.play` digests as
  `digest.final_digest` digests the Python position.

Solo games (`kernel.deal_solo` deals them as `CubedState._solo_setup` does, the pieces it
sets aside kept for the image) and games of two or more players with no variants, all
with the strict colour rule, and seeds below 2**63, are covered (`supported`); the rows
are checked against the Python bots' in `tests/sim/test_fast.py`, the numbers against
`digest.image` in `tests/cubed/test_batch_games.py`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed import digest
from cubegames.games.cubed.compiled_rules import Arr, Game, Tables, inline, jit

#: per game: the last round's ending (`kernel.EMPTIED`...) and the seat that emptied its
#: hand (or -1), the game's moves and turns (runs of moves by one seat), the pieces on the
#: table and in the bag at the end
R_END = 0
R_WINNER = 1
R_MOVES = 2
R_TURNS = 3
R_PLACED = 4
R_BAG = 5
R_SEATS = 6
#: per seat, from `R_SEATS + seat * SEAT_FIELDS`: the match total of points left in hand,
#: moves chosen, then the pieces left in hand at the end of each kind (`PieceKind` order)
S_POINTS = 0
S_CHOICES = 1
S_KINDS = 2
KINDS = 5
SEAT_FIELDS = S_KINDS + KINDS
#: the largest seed covered (seeds are int64 in the kernel)
MAX_SEED = 2**63 - 1


# -- a final position's numbers (`digest.image`) --------------------------------------------


@inline
def put_held(buf: Arr, at: int, code: int, mirrored: bool) -> int:
    """A piece in a hand or the bag, mirrored (abc -> acb) by a mirror."""
    if mirrored:
        code = (code & 0o700) | ((code & 7) << 3) | ((code >> 3) & 7)
    buf[at] = code
    return at + 1


@jit
def write_image(
    buf: Arr,
    st: Game,
    past_scores: Arr,
    past_end: Arr,
    past_winner: Arr,
    rounds: int,
    starter: int,
    totals: Arr,
    rng: np.uint64,
    turns: int,
    mirrored: bool,
    aside: Arr,
    naside: int,
) -> int:
    """The numbers of the last position of a game that ended in round `rounds`
    (`digest.image`, `rng` its generator's state) under a symmetry: mirror if `mirrored`,
    then turn by 120° `turns` times, as `games.cubed.symmetry.CubedSymmetry`. Returns how
    many. The turn is over (no seat to move, nothing drawn, given or bridged, no count of
    idle turns), as `CubedState._end_round` leaves it; a solo game (one seat) keeps its
    count of draws since its last placement, lists no finished rounds (its one round is
    the game) and has the pieces `aside[:naside]` set aside by its deal."""
    meta, tab, order, hands, hsize, bag = st.meta, st.tab, st.order, st.hands, st.hsize, st.bag
    players = meta[k.M_PLAYERS]
    solo = players == 1
    buf[0] = players
    buf[1] = rounds
    buf[2] = starter
    buf[3] = past_end[rounds - 1]
    buf[4] = -1  # nobody to move
    for i in range(5, 11):  # drew, bonus, give, draws, idle, stuck
        buf[i] = 0
    if solo:
        buf[8] = meta[k.M_DRAWS]
    at = 11
    for s in range(players):
        buf[at] = totals[s]
        at += 1
    finished = 0 if solo else rounds
    buf[at] = finished
    at += 1
    for r in range(finished):
        buf[at] = past_end[r]
        buf[at + 1] = past_winner[r]
        at += 2
        for s in range(players):
            buf[at] = past_scores[r, s]
            at += 1
    buf[at] = 1  # a SplitMix64 state, two 32-bit words
    buf[at + 1] = np.int64(rng >> np.uint64(32))
    buf[at + 2] = np.int64(rng & np.uint64(0xFFFFFFFF))
    at += 3
    ntab = meta[k.M_NTAB]
    buf[at] = ntab
    at += 1
    for i in range(ntab):
        cell = order[i]
        code = tab[cell]
        q = cell // k.W - k.OFF
        r = cell % k.W - k.OFF
        a, b, c = code >> 6, (code >> 3) & 7, code & 7
        if mirrored:
            q = -q - r
            b, c = c, b
        for _ in range(turns):
            q, r = r, -q - r
            a, b, c = c, a, b
        buf[at] = q
        buf[at + 1] = r
        buf[at + 2] = a * 64 + b * 8 + c
        at += 3
    for s in range(players):
        buf[at] = hsize[s]
        at += 1
        for i in range(hsize[s]):
            at = put_held(buf, at, hands[s, i], mirrored)
    head, end = meta[k.M_BAG_HEAD], meta[k.M_BAG_END]
    buf[at] = end - head
    at += 1
    for i in range(head, end):
        at = put_held(buf, at, bag[i], mirrored)
    buf[at] = naside
    at += 1
    for i in range(naside):
        at = put_held(buf, at, aside[i], mirrored)
    buf[at] = 0  # nothing drawn
    return at + 1


@inline
def less(a: Arr, na: int, b: Arr, nb: int) -> bool:
    """Whether `a[:na]` sorts before `b[:nb]` (as Python compares lists)."""
    for i in range(min(na, nb)):
        if a[i] != b[i]:
            return bool(a[i] < b[i])
    return na < nb


# -- the games -----------------------------------------------------------------------------


@jit
def play_games(
    st: Game,
    ed: Tables,
    box: Arr,
    hand_size: int,
    rounds: int,
    seeds: Arr,
    bot_seeds: Arr,
    kinds: Arr,
    mirrors: bool,
    past_scores: Arr,
    past_end: Arr,
    past_winner: Arr,
    res: Arr,
    image: Arr,
    image_len: Arr,
) -> None:
    """Every game `g` of a batch, `rounds` rounds: dealt from the generator `seeds[g]`
    starts, played by the bots (the generators `bot_seeds[g]` start, one per seat),
    each round scored as `CubedState._end_round` scores it. Then `image[g]` holds the
    numbers of the least image of the final position under the game's symmetries and
    `res[g]` describes the game (see the module's docstring); `kinds[code]` is a piece's
    kind (0..4)."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    points_of = ed.points
    players = meta[k.M_PLAYERS]
    rng = np.zeros(1, dtype=np.uint64)
    bots = np.zeros(players, dtype=np.uint64)
    log = np.zeros(1 << 14, dtype=np.int8)
    points = np.zeros(players, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    scratch = np.zeros(image.shape[1], dtype=np.int64)
    room = k.fit_scratch(ed)
    solo = players == 1
    aside = np.zeros(box.shape[0], dtype=np.int64)
    for g in range(seeds.shape[0]):
        row = res[g]
        row[:] = 0
        totals[:] = 0
        starter = 0
        last_seat = -1
        rng[0] = k.sm_seed(seeds[g])
        for s in range(players):
            bots[s] = k.sm_seed(bot_seeds[g, s])
        naside = 0
        for r in range(rounds):
            if solo:
                naside = k.deal_solo(st, ed, box, hand_size, rng, aside)
                moves = k.play_solo(st, ed, bots, log, room)
            else:
                k.deal(st, ed, box, hand_size, rng)
                meta[k.M_TO_MOVE] = starter
                moves = k.play_round(st, ed, bots, log, room)
            row[R_MOVES] += moves
            for i in range(moves):
                if log[i] != last_seat:
                    row[R_TURNS] += 1
                    last_seat = log[i]
                row[R_SEATS + log[i] * SEAT_FIELDS + S_CHOICES] += 1
            winner = meta[k.M_WINNER]
            for s in range(players):
                total = 0
                for i in range(hsize[s]):
                    total += points_of[hands[s, i]]
                points[s] = 0 if s == winner else total
                if not solo:  # a solo game's score is its hand, and it keeps no totals
                    totals[s] += points[s]
                past_scores[g, r, s] = points[s]
            past_end[g, r] = meta[k.M_END]
            past_winner[g, r] = winner
            if r < rounds - 1:
                # who starts the next round: this one's winner, else its lowest scorer (a
                # tie: the earliest seat after the last starter)
                if winner < 0:
                    low = points.min()
                    for i in range(players):
                        seat = (starter + 1 + i) % players
                        if points[seat] == low:
                            winner = seat
                            break
                starter = winner
        row[R_END] = meta[k.M_END]
        row[R_WINNER] = meta[k.M_WINNER]
        row[R_PLACED] = meta[k.M_NTAB]
        row[R_BAG] = meta[k.M_BAG_END] - meta[k.M_BAG_HEAD]
        for s in range(players):
            base = R_SEATS + s * SEAT_FIELDS
            row[base + S_POINTS] = points[s] if solo else totals[s]
            for i in range(hsize[s]):
                row[base + S_KINDS + kinds[hands[s, i]]] += 1
        best = image[g]
        size = write_image(
            best, st, past_scores[g], past_end[g], past_winner[g], rounds, starter, totals,
            rng[0], 0, False, aside, naside,
        )  # fmt: skip
        for which in range(1, 6 if mirrors else 3):
            n = write_image(
                scratch, st, past_scores[g], past_end[g], past_winner[g], rounds, starter,
                totals, rng[0], which % 3, which >= 3, aside, naside,
            )  # fmt: skip
            if less(scratch, n, best, size):
                best[:n] = scratch[:n]
                size = n
        image_len[g] = size


class Batch:
    """The edition and option arrays of one game's batches, built once (`cubegames.make`
    gives a `Cubed`); `play(seeds, bot_seeds)` plays a batch, round by round, and returns
    `(res, finals, past_end)` (`finals[g]`: the final position's digest up to symmetry,
    `digest.final_digest`; `past_end[g, r]`: how round `r` of game `g` ended)."""

    def __init__(self, game: Any) -> None:
        from cubegames.games.cubed import kernel_bridge
        from cubegames.games.cubed.pieces import PieceKind, classify
        from cubegames.games.cubed.symmetry import mirror_closed

        ed = game.edition
        self.game = game
        self.players: int = game.players
        self.rounds: int = game.rounds
        self.tables = kernel_bridge.tables(ed)
        self.box = np.array([kernel_bridge.code(p) for p in ed.pieces], dtype=np.int64)
        self.hand_size = ed.hand_size[game.players]
        order = list(PieceKind)
        self.kinds = np.zeros(512, dtype=np.int64)
        for value in range(512):
            found = classify(kernel_bridge.piece_of(value), ed.ordinary, ed.wild, ed.black)
            if found is not None:
                self.kinds[value] = order.index(found)
        self.options = digest.options_text(game.options)
        self.mirrors = mirror_closed(game)
        self.arrays = k.new_game(game.players)
        #: room for one position's numbers (`write_image`): the fields, the rounds, and at
        #: most three numbers a piece of the box plus a length for each list
        players, rounds = self.players, self.rounds
        self.room = 24 + 2 * players + rounds * (2 + players) + 4 * len(self.box)

    def play(self, seeds: Arr, bot_seeds: Arr) -> tuple[Arr, list[str], Arr]:
        res, image, image_len, past_end = self.play_images(seeds, bot_seeds)
        finals = [
            digest.digest(self.options, image[g, :size].astype("<i8").tobytes())
            for g, size in enumerate(image_len.tolist())
        ]
        return res, finals, past_end

    def play_images(self, seeds: Arr, bot_seeds: Arr) -> tuple[Arr, Arr, Arr, Arr]:
        """`play`, with the final positions' least images as numbers (`image[g,
        :image_len[g]]`) instead of their digests: `(res, image, image_len, past_end)`."""
        n, players, rounds = seeds.shape[0], self.players, self.rounds
        res = np.zeros((n, R_SEATS + players * SEAT_FIELDS), dtype=np.int64)
        image = np.zeros((n, self.room), dtype=np.int64)
        image_len = np.zeros(n, dtype=np.int64)
        past_scores = np.zeros((n, rounds, players), dtype=np.int64)
        past_end = np.zeros((n, rounds), dtype=np.int64)
        past_winner = np.zeros((n, rounds), dtype=np.int64)
        play_games(
            self.arrays, self.tables, self.box, self.hand_size, rounds, seeds, bot_seeds,
            self.kinds, self.mirrors, past_scores, past_end, past_winner, res, image,
            image_len,
        )  # fmt: skip
        return res, image, image_len, past_end


def supported(game: Any) -> bool:
    """Whether `play_games` plays this game's rules: solo, or 2+ players with no variants;
    strict colours, a box the kernel's arrays hold."""
    from cubegames.games.cubed import Cubed, kernel_bridge

    if not isinstance(game, Cubed):
        return False
    state = game.new_state(seed=0)
    if game.players == 1:
        return kernel_bridge.searchable(state)
    return kernel_bridge.supported(state)
