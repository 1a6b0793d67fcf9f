"""Many one-round CUBED games of random bots in one compiled call, described in the kernel.

`cubegames simulate cubed --bots random` plays games whose every move is a random bot's
`randrange(len(legal_moves()))`; `kernel.play_round_random` plays those very moves. What a
game's row needs besides the moves (the deal from the game's seed, the scores, the pieces
left in each hand by kind, how the round ended, and the text whose digest is the row's
`final` column) would cost Python several times the game itself, so `random_games` does it
all here, for a whole batch of games, and hands back numbers and position texts:

- the deal: `random.Random(seed)` seeded as Python seeds it (`mt_seed`), then the box
  shuffled with it as `CubedState.deal` does (`kernel.deal`);
- the bots: seat `s` draws from `random.Random(bot_seeds[g, s])`;
- `res[g]`: the fields `R_*` below, then per seat `R_SEAT` fields (`S_*`);
- `text[g, :text_len[g]]`: the JSON text (`symmetry.position_key`) of the least image of
  the final position under the game's symmetries, which `sim.play.final_key` digests: the
  three turns by 120°, and with `mirrors` the three mirrors too (`symmetry.cubed`).

Only one-round games of two or more players with the strict colour rule and no variants,
and seeds below 2**63, are covered (`supported`); the rows are checked against the Python
bots' in `tests/sim/test_fast.py`, the texts against `to_dict` in `tests/cubed/test_batch.py`.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from cubegames.games.cubed import kernel as k
from cubegames.games.cubed.kernel import Arr, Arrays, inline, jit

#: per game: the round's ending (`kernel.EMPTIED`...), the seat that emptied its hand (or
#: -1), moves, turns (runs of moves by one seat), pieces on the table, pieces in the bag
R_END = 0
R_WINNER = 1
R_MOVES = 2
R_TURNS = 3
R_PLACED = 4
R_BAG = 5
R_SEATS = 6
#: per seat, from `R_SEATS + seat * SEAT_FIELDS`: points left in hand, moves chosen, then
#: the pieces left in hand of each kind (`pieces.PieceKind` order)
S_POINTS = 0
S_CHOICES = 1
S_KINDS = 2
KINDS = 5
SEAT_FIELDS = S_KINDS + KINDS
#: bytes of room for one position text
TEXT = 8192
#: the largest seed covered (seeds are int64 in the kernel)
MAX_SEED = 2**63 - 1


def _bytes(text: str) -> Arr:
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).copy()


# the fixed parts of a final position's text (JSON with sorted keys, no spaces)
T_BAG = _bytes('{"bag":[')
T_END = _bytes('],"end":"')
T_HANDS = _bytes('","game":"cubed","hands":[')
T_OPTIONS = _bytes('],"options":')
T_PAST = _bytes(',"past_rounds":[{"end":"')
T_SCORES = _bytes('","scores":[')
T_WINNER = _bytes('],"winner":')
T_TABLE = _bytes('}],"round":1,"table":[')
T_CELL = _bytes('{"cell":[')
T_SLOTS = _bytes('],"slots":"')
T_TOTALS = _bytes('],"to_move":null,"totals":[')
T_TAIL = _bytes('],"turn":{"bonus":false,"drew":false}}')
T_NULL = _bytes("null")


# -- Python's seeding of `random.Random(n)` ------------------------------------------------


@inline
def mt_seed(mt: Arr, pos: Arr, row: int, seed: int) -> None:
    """Row `row` of `mt` becomes the state of `random.Random(seed)` (0 <= seed < 2**63):
    CPython's `init_by_array` over the seed's 32-bit words."""
    low = seed & 0xFFFFFFFF
    high = (seed >> 32) & 0xFFFFFFFF
    length = 2 if high else 1
    mt[row, 0] = 19650218
    for i in range(1, 624):
        prev = mt[row, i - 1]
        mt[row, i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    i = 1
    j = 0
    for _ in range(max(624, length)):
        prev = mt[row, i - 1]
        word = low if j == 0 else high
        mt[row, i] = ((mt[row, i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & 0xFFFFFFFF
        i += 1
        j += 1
        if i >= 624:
            mt[row, 0] = mt[row, 623]
            i = 1
        if j >= length:
            j = 0
    for _ in range(623):
        prev = mt[row, i - 1]
        mt[row, i] = ((mt[row, i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        i += 1
        if i >= 624:
            mt[row, 0] = mt[row, 623]
            i = 1
    mt[row, 0] = 0x80000000
    pos[row] = 624


@jit
def seeded(seeds: Arr) -> tuple[Arr, Arr]:
    """The generator states of `random.Random(s)` for each of `seeds` (for the tests)."""
    mt = np.zeros((seeds.shape[0], 624), dtype=np.int64)
    pos = np.zeros(seeds.shape[0], dtype=np.int64)
    for i in range(seeds.shape[0]):
        mt_seed(mt, pos, i, seeds[i])
    return mt, pos


# -- writing a position's text -----------------------------------------------------------


@inline
def put(buf: Arr, at: int, text: Arr) -> int:
    n: int = text.shape[0]
    for i in range(n):
        buf[at + i] = text[i]
    return at + n


@inline
def put_int(buf: Arr, at: int, value: int) -> int:
    if value < 0:
        buf[at] = 45  # "-"
        at += 1
        value = -value
    digits = 1
    rest = value // 10
    while rest:
        digits += 1
        rest //= 10
    for i in range(digits - 1, -1, -1):
        buf[at + i] = 48 + value % 10
        value //= 10
    return at + digits


@inline
def put_piece(buf: Arr, at: int, letters: Arr, a: int, b: int, c: int) -> int:
    buf[at] = 34  # '"'
    buf[at + 1] = letters[a]
    buf[at + 2] = letters[b]
    buf[at + 3] = letters[c]
    buf[at + 4] = 34
    return at + 5


@inline
def put_held(buf: Arr, at: int, letters: Arr, code: int, mirrored: bool) -> int:
    """A piece in a hand or the bag: its text, mirrored (abc -> acb) by a mirror."""
    a, b, c = code >> 6, (code >> 3) & 7, code & 7
    if mirrored:
        return put_piece(buf, at, letters, a, c, b)
    return put_piece(buf, at, letters, a, b, c)


@jit
def write_image(
    buf: Arr,
    st: Arrays,
    letters: Arr,
    options: Arr,
    name: Arr,
    points: Arr,
    winner: int,
    turns: int,
    mirrored: bool,
) -> int:
    """The text of the final position's image under a symmetry (mirror if `mirrored`, then
    turn by 120° `turns` times, as `symmetry.cubed.CubedSymmetry`); returns its length."""
    meta, tab, order, hands, hsize, bag = st[0], st[1], st[5], st[7], st[8], st[9]
    players = meta[k.M_PLAYERS]
    at = put(buf, 0, T_BAG)
    for i in range(meta[k.M_BAG_HEAD], meta[k.M_BAG_END]):
        if i > meta[k.M_BAG_HEAD]:
            buf[at] = 44  # ","
            at += 1
        at = put_held(buf, at, letters, bag[i], mirrored)
    at = put(buf, at, T_END)
    at = put(buf, at, name)
    at = put(buf, at, T_HANDS)
    for s in range(players):
        if s:
            buf[at] = 44
            at += 1
        buf[at] = 91  # "["
        at += 1
        for i in range(hsize[s]):
            if i:
                buf[at] = 44
                at += 1
            at = put_held(buf, at, letters, hands[s, i], mirrored)
        buf[at] = 93  # "]"
        at += 1
    at = put(buf, at, T_OPTIONS)
    at = put(buf, at, options)
    at = put(buf, at, T_PAST)
    at = put(buf, at, name)
    at = put(buf, at, T_SCORES)
    for s in range(players):
        if s:
            buf[at] = 44
            at += 1
        at = put_int(buf, at, points[s])
    at = put(buf, at, T_WINNER)
    at = put(buf, at, T_NULL) if winner < 0 else put_int(buf, at, winner)
    at = put(buf, at, T_TABLE)
    for i in range(meta[k.M_NTAB]):
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
        if i:
            buf[at] = 44
            at += 1
        at = put(buf, at, T_CELL)
        at = put_int(buf, at, q)
        buf[at] = 44
        at = put_int(buf, at + 1, r)
        at = put(buf, at, T_SLOTS)
        buf[at] = letters[a]
        buf[at + 1] = letters[b]
        buf[at + 2] = letters[c]
        buf[at + 3] = 34
        buf[at + 4] = 125  # "}"
        at += 5
    at = put(buf, at, T_TOTALS)
    for s in range(players):
        if s:
            buf[at] = 44
            at += 1
        at = put_int(buf, at, points[s])
    return put(buf, at, T_TAIL)


@inline
def less(a: Arr, na: int, b: Arr, nb: int) -> bool:
    """Whether text `a[:na]` sorts before `b[:nb]` (as Python compares ASCII strings)."""
    for i in range(min(na, nb)):
        if a[i] != b[i]:
            return bool(a[i] < b[i])
    return na < nb


# -- the games -----------------------------------------------------------------------------


@jit
def random_games(
    st: Arrays,
    ed: Arrays,
    box: Arr,
    hand_size: int,
    seeds: Arr,
    bot_seeds: Arr,
    kinds: Arr,
    letters: Arr,
    options: Arr,
    names: Arr,
    mirrors: bool,
    res: Arr,
    text: Arr,
    text_len: Arr,
) -> None:
    """Deal and play one-round game `g` for each of `seeds` (its bots seeded with
    `bot_seeds[g]`), writing its description into `res[g]` and its final text into
    `text[g]` (see the module's docstring). `kinds[code]` is a piece's kind (0..4),
    `letters[colour]` a colour's letter, `names[end]` the text of an ending, padded with
    spaces (ASCII 32), `options` the options' text."""
    meta, hands, hsize = st[0], st[7], st[8]
    points_of = ed[3]
    players = meta[k.M_PLAYERS]
    deal_mt = np.zeros((1, 624), dtype=np.int64)
    deal_pos = np.zeros(1, dtype=np.int64)
    mt = np.zeros((players, 624), dtype=np.int64)
    pos = np.zeros(players, dtype=np.int64)
    log = np.zeros(1 << 14, dtype=np.int8)
    points = np.zeros(players, dtype=np.int64)
    scratch = np.zeros(TEXT, dtype=np.uint8)
    for g in range(seeds.shape[0]):
        mt_seed(deal_mt, deal_pos, 0, seeds[g])
        for s in range(players):
            mt_seed(mt, pos, s, bot_seeds[g, s])
        k.deal(st, ed, box, hand_size, deal_mt, deal_pos)
        moves = k.play_round_random(st, ed, mt, pos, log)
        row = res[g]
        row[:] = 0
        end = meta[k.M_END]
        winner = meta[k.M_WINNER]
        row[R_END] = end
        row[R_WINNER] = winner
        row[R_MOVES] = moves
        turns = 0
        for i in range(moves):
            if i == 0 or log[i] != log[i - 1]:
                turns += 1
            row[R_SEATS + log[i] * SEAT_FIELDS + S_CHOICES] += 1
        row[R_TURNS] = turns
        row[R_PLACED] = meta[k.M_NTAB]
        row[R_BAG] = meta[k.M_BAG_END] - meta[k.M_BAG_HEAD]
        for s in range(players):
            base = R_SEATS + s * SEAT_FIELDS
            total = 0
            for i in range(hsize[s]):
                piece = hands[s, i]
                total += points_of[piece]
                row[base + S_KINDS + kinds[piece]] += 1
            points[s] = 0 if s == winner else total
            row[base + S_POINTS] = points[s]
        # the name of the ending, without its padding
        length = names.shape[1]
        while names[end, length - 1] == 32:
            length -= 1
        name = names[end, :length]
        best = text[g]
        size = write_image(best, st, letters, options, name, points, winner, 0, False)
        for image in range(1, 6 if mirrors else 3):
            n = write_image(
                scratch, st, letters, options, name, points, winner, image % 3, image >= 3
            )
            if less(scratch, n, best, size):
                best[:n] = scratch[:n]
                size = n
        text_len[g] = size


class Batch:
    """The edition and option arrays of one game's batches, built once (`cubegames.make`
    gives a `Cubed`); `play(seeds, bot_seeds)` fills and returns `(res, text, text_len)`."""

    def __init__(self, game: Any) -> None:
        from cubegames.games.cubed import fast
        from cubegames.games.cubed.pieces import PieceKind, classify
        from cubegames.symmetry.cubed import mirror_closed

        ed = game.edition
        self.game = game
        self.players: int = game.players
        self.tables = fast.tables(ed)
        self.box = np.array([fast.code(p) for p in ed.pieces], dtype=np.int64)
        self.hand_size = ed.hand_size[game.players]
        order = list(PieceKind)
        self.kinds = np.zeros(512, dtype=np.int64)
        for value in range(512):
            found = classify(fast.piece_of(value), ed.ordinary, ed.wild, ed.black)
            if found is not None:
                self.kinds[value] = order.index(found)
        self.letters = _bytes(ed.letters)
        self.options = _bytes(json.dumps(game.options, sort_keys=True, separators=(",", ":")))
        width = max(len(name) for name in fast.ENDINGS.values())
        self.names = np.full((5, width), 32, dtype=np.uint8)
        for code, name in fast.ENDINGS.items():
            self.names[code, : len(name)] = _bytes(name)
        self.mirrors = mirror_closed(game)
        self.arrays = k.new_game(game.players)

    def play(self, seeds: Arr, bot_seeds: Arr) -> tuple[Arr, Arr, Arr]:
        n = seeds.shape[0]
        res = np.zeros((n, R_SEATS + self.players * SEAT_FIELDS), dtype=np.int64)
        text = np.zeros((n, TEXT), dtype=np.uint8)
        text_len = np.zeros(n, dtype=np.int64)
        random_games(
            self.arrays,
            self.tables,
            self.box,
            self.hand_size,
            seeds,
            bot_seeds,
            self.kinds,
            self.letters,
            self.options,
            self.names,
            self.mirrors,
            res,
            text,
            text_len,
        )
        return res, text, text_len


def supported(game: Any) -> bool:
    """Whether `random_games` plays this game's rules: one round, 2+ players, strict
    colours, no variants, a box the kernel's arrays hold."""
    from cubegames.games.cubed import Cubed, fast

    if not isinstance(game, Cubed) or game.rounds != 1:
        return False
    return fast.supported(game.new_state(seed=0))
