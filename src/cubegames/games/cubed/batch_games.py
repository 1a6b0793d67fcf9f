"""Many CUBED games of random bots in one compiled call, described in the kernel.

`cubegames simulate cubed --bots random` plays games whose every move is a random bot's
`randrange(len(legal_moves()))`; `kernel.play_round_random` plays those very moves. What a
game's row needs besides the moves (the deal from the game's seed, the scores, the pieces
left in each hand by kind, how the rounds ended, and the text whose digest is the row's
`final` column) would cost Python several times the game itself, so `play_games` does it
all here, for a whole batch of games, and hands back numbers and position texts:

- the first deal: `random.Random(seed)` seeded as Python seeds it (`mt_seed`), the box
  shuffled with it as `CubedState.deal` does (`kernel.deal`), and its next 64 bits the
  position's generator (`Cubed.new_state`); a later round's deal shuffles the box with
  that generator (`kernel.deal_later`, SplitMix64 as `core.splitmix`), which the game's
  row keeps from round to round as the position does;
- the bots: seat `s` draws from `random.Random(bot_seeds[g, s])` all game long;
- `res[g]`: the fields `R_*` below, then per seat `SEAT_FIELDS` fields (`S_*`);
- `text[g, :text_len[g]]`: the JSON text (`symmetry.position_key`) of the least image of
  the final position under the game's symmetries, which `sim.play.final_key` digests: the
  three turns by 120°, and with `mirrors` the three mirrors too (`games.cubed.symmetry`).

Games of two or more players with the strict colour rule and no variants, and seeds below
2**63, are covered (`supported`); the rows are checked against the Python bots' in
`tests/sim/test_fast.py`, the texts against `to_dict` in `tests/cubed/test_batch_games.py`.
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from cubegames.games.cubed import compiled_rules as k
from cubegames.games.cubed.compiled_rules import Arr, Game, Tables, inline, jit
from cubegames.games.cubed.formats import VERSION

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
#: bytes of room for one position text
TEXT = 8192
#: the largest seed covered (seeds are int64 in the kernel)
MAX_SEED = 2**63 - 1


def _bytes(text: str) -> Arr:
    return np.frombuffer(text.encode("ascii"), dtype=np.uint8).copy()


# the fixed parts of a position's text at the end of a round (JSON, sorted keys, no spaces)
T_BAG = _bytes('{"bag":[')
T_END = _bytes('],"end":"')
T_HANDS = _bytes('","game":"cubed","hands":[')
T_OPTIONS = _bytes('],"options":')
T_PAST = _bytes(',"past_rounds":[')
T_RNG = _bytes('}],"rng":"')
T_ROUND = _bytes('","round":')
T_ENTRY = _bytes('{"end":"')
T_SCORES = _bytes('","scores":[')
T_WINNER = _bytes('],"winner":')
T_STARTER = _bytes(',"starter":')
T_TABLE = _bytes(',"table":[')
T_CELL = _bytes('{"cell":[')
T_SLOTS = _bytes('],"slots":"')
T_TOTALS = _bytes('],"to_move":null,"totals":[')
T_TAIL = _bytes(f'],"turn":{{"bonus":false,"drew":false}},"version":{VERSION}}}')
T_NULL = _bytes("null")


# -- Python's seeding of `random.Random(n)` ------------------------------------------------


def _init_genrand(seed: int) -> Arr:
    """CPython's `init_genrand(seed)`: the state every `init_by_array` starts from."""
    out = np.zeros(624, dtype=np.int64)
    out[0] = seed
    for i in range(1, 624):
        prev = int(out[i - 1])
        out[i] = (1812433253 * (prev ^ (prev >> 30)) + i) & 0xFFFFFFFF
    return out


#: `init_genrand(19650218)`, the same for every seed
INIT = _init_genrand(19650218)


@inline
def mt_seed(mt: Arr, pos: Arr, row: int, low: int, high: int) -> None:
    """Row `row` of `mt` becomes the state of `random.Random(n)` for `n = high * 2**32 +
    low` (0 <= n < 2**64, given as its two 32-bit words): CPython's `init_by_array` over
    the words of `n` (one word when `high` is 0)."""
    length = 2 if high else 1
    m = mt[row]
    for i in range(624):
        m[i] = INIT[i]
    prev = m[0]
    i = 1
    j = 0
    for _ in range(624):
        word = low if j == 0 else high
        prev = ((m[i] ^ ((prev ^ (prev >> 30)) * 1664525)) + word + j) & 0xFFFFFFFF
        m[i] = prev
        i += 1
        j += 1
        if i >= 624:
            m[0] = prev
            i = 1
        if j >= length:
            j = 0
    for _ in range(623):
        prev = ((m[i] ^ ((prev ^ (prev >> 30)) * 1566083941)) - i) & 0xFFFFFFFF
        m[i] = prev
        i += 1
        if i >= 624:
            m[0] = prev
            i = 1
    m[0] = 0x80000000
    pos[row] = 624


@jit
def seeded(seeds: Arr) -> tuple[Arr, Arr]:
    """The generator states of `random.Random(s)` for each of `seeds` (below 2**63; for
    the tests)."""
    mt = np.zeros((seeds.shape[0], 624), dtype=np.int64)
    pos = np.zeros(seeds.shape[0], dtype=np.int64)
    for i in range(seeds.shape[0]):
        mt_seed(mt, pos, i, seeds[i] & 0xFFFFFFFF, seeds[i] >> 32)
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


@inline
def put_name(buf: Arr, at: int, names: Arr, end: int) -> int:
    """The text of ending `end` (its row of `names`, padded with spaces)."""
    for i in range(names.shape[1]):
        if names[end, i] == 32:
            break
        buf[at] = names[end, i]
        at += 1
    return at


@inline
def put_hex(buf: Arr, at: int, value: int) -> int:
    """A SplitMix64 state (`np.uint64`) as 16 lowercase hex digits (`splitmix.to_text`)."""
    for i in range(16):
        nibble = (value >> np.uint64(60 - 4 * i)) & np.uint64(15)
        buf[at + i] = 48 + nibble if nibble < 10 else 87 + nibble
    return at + 16


@inline
def put_ints(buf: Arr, at: int, values: Arr) -> int:
    """Whole numbers, comma-separated."""
    for s in range(values.shape[0]):
        if s:
            buf[at] = 44  # ","
            at += 1
        at = put_int(buf, at, values[s])
    return at


@jit
def write_image(
    buf: Arr,
    st: Game,
    letters: Arr,
    options: Arr,
    names: Arr,
    past_scores: Arr,
    past_end: Arr,
    past_winner: Arr,
    rounds: int,
    starter: int,
    totals: Arr,
    rng: int,
    turns: int,
    mirrored: bool,
) -> int:
    """The text of the last position of a game that ended in round `rounds` (`to_dict()`,
    `rng` its generator's state) under a symmetry: mirror if `mirrored`, then turn by 120°
    `turns` times, as `games.cubed.symmetry.CubedSymmetry`. Returns its length."""
    meta, tab, order, hands, hsize, bag = st.meta, st.tab, st.order, st.hands, st.hsize, st.bag
    players = meta[k.M_PLAYERS]
    at = put(buf, 0, T_BAG)
    for i in range(meta[k.M_BAG_HEAD], meta[k.M_BAG_END]):
        if i > meta[k.M_BAG_HEAD]:
            buf[at] = 44
            at += 1
        at = put_held(buf, at, letters, bag[i], mirrored)
    at = put(buf, at, T_END)
    at = put_name(buf, at, names, past_end[rounds - 1])
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
    for r in range(rounds):
        if r:
            buf[at] = 125  # "}"
            buf[at + 1] = 44
            at += 2
        at = put(buf, at, T_ENTRY)
        at = put_name(buf, at, names, past_end[r])
        at = put(buf, at, T_SCORES)
        at = put_ints(buf, at, past_scores[r])
        at = put(buf, at, T_WINNER)
        winner = past_winner[r]
        at = put(buf, at, T_NULL) if winner < 0 else put_int(buf, at, winner)
    at = put(buf, at, T_RNG)
    at = put_hex(buf, at, rng)
    at = put(buf, at, T_ROUND)
    at = put_int(buf, at, rounds)
    if starter:
        at = put(buf, at, T_STARTER)
        at = put_int(buf, at, starter)
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
    at = put_ints(buf, at, totals)
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
def play_games(
    st: Game,
    ed: Tables,
    box: Arr,
    hand_size: int,
    rounds: int,
    seeds: Arr,
    bot_seeds: Arr,
    bot_mt: Arr,
    bot_pos: Arr,
    kinds: Arr,
    letters: Arr,
    options: Arr,
    names: Arr,
    mirrors: bool,
    past_scores: Arr,
    past_end: Arr,
    past_winner: Arr,
    res: Arr,
    text: Arr,
    text_len: Arr,
) -> None:
    """Every game `g` of a batch, `rounds` rounds: dealt from `random.Random(seeds[g])`
    and later from the position's generator, played by the bots (`bot_mt[g]`, seeded from
    `bot_seeds[g]`), each round scored as `CubedState._end_round` scores it. Then `text[g]`
    holds the least image of the final position under the game's symmetries and `res[g]`
    describes the game (see the module's docstring); `kinds[code]` is a piece's kind
    (0..4), `letters[colour]` a colour's letter, `names[end]` the text of an ending padded
    with spaces, `options` the options' text."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    points_of = ed.points
    players = meta[k.M_PLAYERS]
    deal_mt = np.zeros((1, 624), dtype=np.int64)
    deal_pos = np.zeros(1, dtype=np.int64)
    rng = np.zeros(1, dtype=np.uint64)
    log = np.zeros(1 << 14, dtype=np.int8)
    points = np.zeros(players, dtype=np.int64)
    totals = np.zeros(players, dtype=np.int64)
    scratch = np.zeros(TEXT, dtype=np.uint8)
    room = k.fit_scratch(ed)
    for g in range(seeds.shape[0]):
        row = res[g]
        row[:] = 0
        totals[:] = 0
        starter = 0
        last_seat = -1
        for s in range(players):
            seed = bot_seeds[g, s]
            mt_seed(bot_mt[g], bot_pos[g], s, seed & 0xFFFFFFFF, seed >> 32)
        mt_seed(deal_mt, deal_pos, 0, seeds[g] & 0xFFFFFFFF, seeds[g] >> 32)
        k.deal(st, ed, box, hand_size, deal_mt, deal_pos)
        rng[0] = k.mt_bits64(deal_mt, deal_pos, 0)
        for r in range(rounds):
            if r:
                k.deal_later(st, ed, box, hand_size, rng)
            meta[k.M_TO_MOVE] = starter
            moves = k.play_round(st, ed, bot_mt[g], bot_pos[g], log, room)
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
            row[base + S_POINTS] = totals[s]
            for i in range(hsize[s]):
                row[base + S_KINDS + kinds[hands[s, i]]] += 1
        best = text[g]
        size = write_image(
            best, st, letters, options, names, past_scores[g], past_end[g], past_winner[g],
            rounds, starter, totals, rng[0], 0, False,
        )  # fmt: skip
        for image in range(1, 6 if mirrors else 3):
            n = write_image(
                scratch, st, letters, options, names, past_scores[g], past_end[g],
                past_winner[g], rounds, starter, totals, rng[0], image % 3, image >= 3,
            )  # fmt: skip
            if less(scratch, n, best, size):
                best[:n] = scratch[:n]
                size = n
        text_len[g] = size


class Batch:
    """The edition and option arrays of one game's batches, built once (`cubegames.make`
    gives a `Cubed`); `play(seeds, bot_seeds)` plays a batch, round by round, and returns
    `(res, text, text_len, past_end)` (`past_end[g, r]`: how round `r` of game `g` ended)."""

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
        self.letters = _bytes(ed.letters)
        self.options = _bytes(json.dumps(game.options, sort_keys=True, separators=(",", ":")))
        width = max(len(name) for name in kernel_bridge.ENDINGS.values())
        self.names = np.full((5, width), 32, dtype=np.uint8)
        for code, name in kernel_bridge.ENDINGS.items():
            self.names[code, : len(name)] = _bytes(name)
        self.mirrors = mirror_closed(game)
        self.arrays = k.new_game(game.players)

    def play(self, seeds: Arr, bot_seeds: Arr) -> tuple[Arr, Arr, Arr, Arr]:
        n, players, rounds = seeds.shape[0], self.players, self.rounds
        res = np.zeros((n, R_SEATS + players * SEAT_FIELDS), dtype=np.int64)
        text = np.zeros((n, TEXT), dtype=np.uint8)
        text_len = np.zeros(n, dtype=np.int64)
        bot_mt = np.zeros((n, players, 624), dtype=np.int64)
        bot_pos = np.zeros((n, players), dtype=np.int64)
        past_scores = np.zeros((n, rounds, players), dtype=np.int64)
        past_end = np.zeros((n, rounds), dtype=np.int64)
        past_winner = np.zeros((n, rounds), dtype=np.int64)
        play_games(
            self.arrays, self.tables, self.box, self.hand_size, rounds, seeds, bot_seeds,
            bot_mt, bot_pos, self.kinds, self.letters, self.options, self.names, self.mirrors,
            past_scores, past_end, past_winner, res, text, text_len,
        )  # fmt: skip
        return res, text, text_len, past_end


def supported(game: Any) -> bool:
    """Whether `play_games` plays this game's rules: 2+ players, strict colours, no
    variants, a box the kernel's arrays hold."""
    from cubegames.games.cubed import Cubed, kernel_bridge

    if not isinstance(game, Cubed):
        return False
    return kernel_bridge.supported(game.new_state(seed=0))
