"""The flat search's playouts for CUBED, compiled with numba: a fresh deal of the hidden
pieces, the root move, a short stretch of a light greedy policy, and an evaluation of the
position reached; and the greedy bot's value of every placement.

They play the rules of `compiled_rules.py` (tested move for move against the Python rules)
and are checked against the Python heuristics of `search_hooks.py` in
`tests/cubed/test_search_kernel.py`. `kernel_bridge.KernelPlayouts` calls them.
"""

from __future__ import annotations

import numpy as np

from cubegames.core import compiled  # noqa: F401  (drops numba caches older than the kernels)
from cubegames.games.cubed.compiled_rules import (
    BITS,
    EMPTIED,
    M_BAG_END,
    M_BAG_HEAD,
    M_BONUS,
    M_END,
    M_GIVE,
    M_NPLAY,
    M_NTAB,
    M_PLAYERS,
    M_TO_MOVE,
    M_VARIANTS,
    M_WINNER,
    MAX_BOX,
    STEP,
    V_BRIDGING,
    V_VOID,
    Arr,
    Game,
    Tables,
    add_piece,
    arcs_and_touches,
    can_draw,
    draw,
    end_turn,
    give,
    hand_add,
    hand_remove,
    inline,
    jit,
    pass_turn,
    place,
    placements,
    skip,
    solo_check,
    splitmix,
    wipe_cells,
)

#: root move kinds: a placement (`rot`, `cell`), a draw, a pass, `draw3` of `rot` pieces,
#: a gift of a piece (least rotation `rot`) to seat `cell`, a skipped gift, or none (the
#: move was played into the template)
PLACE = 0
DRAW = 1
PASS = 2
DRAW3 = 3
GIVE = 4
SKIP = 5
PLAYED = 6


@jit
def copy_search(dst: Game, src: Game) -> None:
    """`copy_game` for a playout: the same position, copying only what is in use (the
    table's cells and their neighbours, the playable cells, the hands, the bag) with plain
    loops, which numba runs about twice as fast as whole-array copies."""
    dmeta, dtab, dedges, dtouch, ddead, dorder = (
        dst.meta,
        dst.tab,
        dst.edges,
        dst.touch,
        dst.dead,
        dst.order,
    )
    wipe_cells(dst)
    meta, tab, edges, touch, dead, order = (
        src.meta,
        src.tab,
        src.edges,
        src.touch,
        src.dead,
        src.order,
    )
    for i in range(meta[M_NTAB]):
        cell = order[i]
        dorder[i] = cell
        for d in range(7):
            other = cell + (STEP[d] if d < 6 else 0)
            dtab[other] = tab[other]
            dtouch[other] = touch[other]
            ddead[other] = dead[other]
            for e in range(6):
                dedges[other * 6 + e] = edges[other * 6 + e]
    for i in range(meta.shape[0]):
        dmeta[i] = meta[i]
    play, dplay = src.play, dst.play
    for i in range(meta[M_NPLAY]):
        dplay[i] = play[i]
    hands, dhands, hsize, dhsize = src.hands, dst.hands, src.hsize, dst.hsize
    for s in range(hsize.shape[0]):
        dhsize[s] = hsize[s]
        for i in range(hsize[s]):
            dhands[s, i] = hands[s, i]
    bag, dbag = src.bag, dst.bag
    for i in range(meta[M_BAG_END]):
        dbag[i] = bag[i]
    have, dhave, hbits, dhbits = src.have, dst.have, src.hbits, dst.hbits
    for s in range(have.shape[0]):
        for key in range(have.shape[1]):
            dhave[s, key] = have[s, key]
        for w in range(hbits.shape[1]):
            dhbits[s, w] = hbits[s, w]


@jit
def sync_others(st: Game, ed: Tables, seat: int) -> None:
    """`sync_hands` for every hand but `seat`'s (after the hidden pieces are dealt again)."""
    hands, hsize, have, hbits = st.hands, st.hsize, st.have, st.hbits
    canon, rank, rots, nrots = ed.canon, ed.rank, ed.rots, ed.nrots
    for s in range(hsize.shape[0]):
        if s == seat:
            continue
        for key in range(have.shape[1]):
            have[s, key] = 0
        for w in range(hbits.shape[1]):
            hbits[s, w] = 0
        for i in range(hsize[s]):
            key = canon[hands[s, i]]
            have[s, key] += 1
            if have[s, key] == 1:
                for j in range(nrots[key]):
                    r = rank[rots[key, j]]
                    hbits[s, r // BITS] |= 1 << (r % BITS)


#: playout policies (`playout_model`): every seat the light policy; the seats other than
#: the searching one as the greedy bot plays (`greedy_pick`), the searching seat the light
#: policy; every seat as the greedy bot
LIGHT = 0
GREEDY_OTHERS = 1
GREEDY_ALL = 2


@jit
def playout(
    st: Game,
    template: Game,
    ed: Tables,
    seat: int,
    kind: int,
    rot: int,
    cell: int,
    seed: int,
    horizon: int,
    greed: float,
    totals: Arr,
    last_round: bool,
    temperature: float,
    field: bool,
    per_piece: float,
    rewards: Arr,
    out_rot: Arr,
    out_cell: Arr,
) -> None:
    """`playout_model` with the light policy for every seat (`LIGHT`)."""
    room = np.empty((3, 1), dtype=np.int64)
    playout_model(
        st,
        template,
        ed,
        seat,
        kind,
        rot,
        cell,
        seed,
        horizon,
        greed,
        LIGHT,
        totals,
        last_round,
        temperature,
        field,
        per_piece,
        rewards,
        out_rot,
        out_cell,
        room,
    )


@jit
def playout_model(
    st: Game,
    template: Game,
    ed: Tables,
    seat: int,
    kind: int,
    rot: int,
    cell: int,
    seed: int,
    horizon: int,
    greed: float,
    model: int,
    totals: Arr,
    last_round: bool,
    temperature: float,
    field: bool,
    per_piece: float,
    rewards: Arr,
    out_rot: Arr,
    out_cell: Arr,
    room: Arr,
) -> None:
    """One playout of a flat search: the hidden pieces of `template` (other hands and the
    bag, as `seat` cannot see them) dealt afresh, the root move (`kind`, `rot`, `cell`)
    played, then at most `horizon` moves, and the position scored into `rewards` (see
    `evaluate`). The moves: with `model` `LIGHT` every seat plays a light greedy policy
    (lay the piece worth most points with probability `greed`, else any, a bridging bonus
    included; draw only when nothing fits; give the most valuable piece, `give_policy`);
    with `GREEDY_OTHERS` the seats other than `seat` lay the placement the greedy bot
    would (`greedy_pick`, a bridging bonus passed as it would) and `seat` the light
    policy; with `GREEDY_ALL` every seat lays as the greedy bot. `out_rot`, `out_cell` are
    room for the placements of a move, `room` (3 rows of `MAX_MOVES`) for `greedy_pick`'s
    (unused with `LIGHT`). Solo, the light policy plays on by the solo rules
    (`solo_playout`)."""
    copy_search(st, template)
    meta, hands, hsize, bag = st.meta, st.hands, st.hsize, st.bag
    rng_state = np.array([seed], dtype=np.uint64)
    players = meta[M_PLAYERS]
    # deal the hidden pieces again, into the same places in the same numbers
    pool = np.empty(MAX_BOX, dtype=np.int64)
    n = 0
    for s in range(players):
        if s != seat:
            for i in range(hsize[s]):
                pool[n] = hands[s, i]
                n += 1
    for i in range(meta[M_BAG_HEAD], meta[M_BAG_END]):
        pool[n] = bag[i]
        n += 1
    for i in range(n - 1, 0, -1):
        j = splitmix(rng_state) % (i + 1)
        pool[i], pool[j] = pool[j], pool[i]
    at = 0
    for s in range(players):
        if s != seat:
            for i in range(hsize[s]):
                hands[s, i] = pool[at]
                at += 1
    for i in range(meta[M_BAG_HEAD], meta[M_BAG_END]):
        bag[i] = pool[at]
        at += 1
    sync_others(st, ed, seat)
    play_move(st, ed, kind, rot, cell, rng_state, out_rot, out_cell)
    if players == 1:
        solo_playout(st, ed, rng_state, horizon, greed, out_rot, out_cell)
        evaluate(st, ed, totals, last_round, temperature, field, per_piece, rewards)
        return
    moves = 0
    while meta[M_END] == 0 and moves < horizon:
        mover = meta[M_TO_MOVE]
        moves += 1
        if meta[M_GIVE]:
            give_policy(st, ed)
            continue
        count = placements(st, ed, mover, out_rot, out_cell)
        if count == 0:
            if meta[M_BONUS]:
                end_turn(st, True, False)
            elif can_draw(st):
                draw(st, ed)
            else:
                end_turn(st, False, True)
            continue
        if model == GREEDY_ALL or (model == GREEDY_OTHERS and mover != seat):
            pick = greedy_pick(st, ed, count, out_rot, out_cell, room, rng_state)
            if pick < 0:
                end_turn(st, True, False)  # the bonus placement is not worth it
                continue
        else:
            pick = light_pick(ed, count, greed, rng_state, out_rot)
        place(st, ed, out_rot[pick], out_cell[pick])
    evaluate(st, ed, totals, last_round, temperature, field, per_piece, rewards)


@inline
def light_pick(ed: Tables, count: int, greed: float, rng_state: Arr, out_rot: Arr) -> int:
    """The light policy's placement among the `count` in `out_rot`: with probability
    `greed` one worth the most points (ties drawn uniformly), else any."""
    points = ed.points
    if (splitmix(rng_state) % 1000) < greed * 1000:
        best = -1
        ties = 0
        pick = 0
        for i in range(count):
            value = points[out_rot[i]]
            if value > best:
                best = value
                ties = 1
                pick = i
            elif value == best:
                ties += 1
                if splitmix(rng_state) % ties == 0:
                    pick = i
        return pick
    return int(splitmix(rng_state) % count)


@jit
def solo_playout(
    st: Game,
    ed: Tables,
    rng_state: Arr,
    horizon: int,
    greed: float,
    out_rot: Arr,
    out_cell: Arr,
) -> None:
    """A solo game (`players = 1`, spec §8) played on by the light policy for at most
    `horizon` moves: a placement while one fits (`light_pick`), else a draw, the losses of
    `compiled_rules.solo_check` after every move."""
    meta = st.meta
    count = solo_check(st, ed, out_rot, out_cell)
    moves = 0
    while meta[M_END] == 0 and moves < horizon:
        moves += 1
        if count == 0:
            draw(st, ed)
        else:
            pick = light_pick(ed, count, greed, rng_state, out_rot)
            place(st, ed, out_rot[pick], out_cell[pick])
        count = solo_check(st, ed, out_rot, out_cell)


@jit
def greedy_pick(
    st: Game, ed: Tables, count: int, out_rot: Arr, out_cell: Arr, room: Arr, rng_state: Arr
) -> int:
    """The greedy bot's placement for the seat to move among its `count` placements
    (`out_rot`, `out_cell`): the index of the best by `greedy_values`' value, equals drawn
    from `rng_state`; or -1 when the turn holds a bridging bonus and the best is worth less
    than laying nothing (`search_hooks.stay_value`: a placement per placement the hand has,
    -0.5 per playable cell). Each placement is laid on `st`, valued and taken back
    (the playable cells, the neighbours' contacts and the hand restored from `room`, 3 rows
    of `MAX_MOVES` scratch), without copying the position."""
    meta, tab, edges, touch, dead, play = st.meta, st.tab, st.edges, st.touch, st.dead, st.play
    hands, hsize, have, hbits = st.hands, st.hsize, st.have, st.hbits
    points = ed.points
    seat = meta[M_TO_MOVE]
    variants = meta[M_VARIANTS]
    bonus = meta[M_BONUS]
    more_rot, more_cell, saved = room[0], room[1], room[2]
    nplay = meta[M_NPLAY]
    ntab = meta[M_NTAB]
    size = hsize[seat]
    words = hbits.shape[1]
    for i in range(nplay):
        saved[i] = play[i]
    at_hand = nplay
    for i in range(size):
        saved[at_hand + i] = hands[seat, i]
    at_bits = at_hand + size
    for w in range(words):
        saved[at_bits + w] = hbits[seat, w]
    at_near = at_bits + words
    best = -np.inf
    pick = 0
    ties = 0
    for i in range(count):
        rot = out_rot[i]
        cell = out_cell[i]
        for d in range(6):
            other = cell + STEP[d]
            at = at_near + d * 8
            saved[at] = touch[other]
            saved[at + 1] = dead[other]
            for e in range(6):
                saved[at + 2 + e] = edges[other * 6 + e]
        arcs, touches = arcs_and_touches(st, cell) if variants else (0, 0)
        key = ed.canon[rot]
        hand_remove(st, ed, seat, key)
        add_piece(st, ed, rot, cell)
        if hsize[seat] == 0:
            value = 1e9  # going out wins the round
        else:
            mine = placements(st, ed, seat, more_rot, more_cell)
            left = meta[M_NPLAY]
            value = 10.0 * points[rot] + mine - 0.5 * left
            if left > 0 and variants & V_BRIDGING and bonus == 0 and arcs >= 2:
                top = 0
                for j in range(mine):
                    top = max(top, points[more_rot[j]])
                value += 10.0 * top  # the bonus placement
            elif left > 0 and variants & V_VOID and touches == 6:
                if hsize[seat] == 1:
                    value += 1e9  # giving the last piece away goes out
                else:
                    top = 0
                    for j in range(hsize[seat]):
                        top = max(top, points[hands[seat, j]])
                    value += 10.0 * top  # the gift
        # take the placement back
        tab[cell] = -1
        meta[M_NTAB] = ntab
        meta[M_NPLAY] = nplay
        for j in range(nplay):
            play[j] = saved[j]
        for d in range(6):
            other = cell + STEP[d]
            at = at_near + d * 8
            touch[other] = saved[at]
            dead[other] = saved[at + 1]
            for e in range(6):
                edges[other * 6 + e] = saved[at + 2 + e]
        hsize[seat] = size
        for j in range(size):
            hands[seat, j] = saved[at_hand + j]
        have[seat, key] += 1
        for w in range(words):
            hbits[seat, w] = saved[at_bits + w]
        if value > best:
            best = value
            pick = i
            ties = 1
        elif value == best:
            ties += 1
            if splitmix(rng_state) % ties == 0:
                pick = i
    if bonus and best < count - 0.5 * nplay:
        return -1
    return pick


@jit
def play_move(
    st: Game,
    ed: Tables,
    kind: int,
    rot: int,
    cell: int,
    rng_state: Arr,
    out_rot: Arr,
    out_cell: Arr,
) -> None:
    """Play a root move (`kind`, `rot`, `cell`, see `PLACE`...) for the seat to move; a
    draw3's returned pieces go back at places drawn from `rng_state`."""
    if kind == PLACE:
        place(st, ed, rot, cell)
    elif kind == DRAW:
        draw(st, ed)
    elif kind == PASS:
        pass_turn(st, ed, out_rot, out_cell)
    elif kind == DRAW3:
        draw3_keep(st, ed, rot, rng_state, out_rot, out_cell)
    elif kind == GIVE:
        give(st, ed, rot, cell)
    elif kind == SKIP:
        skip(st)
    if st.meta[M_PLAYERS] == 1:
        solo_check(st, ed, out_rot, out_cell)


@jit
def give_policy(st: Game, ed: Tables) -> None:
    """The playouts' gift after filling a void: the mover's most valuable piece (the first
    of equals) to the other seat holding the fewest pieces (the first of equals)."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    seat = meta[M_TO_MOVE]
    best = -1
    key = -1
    for i in range(hsize[seat]):
        value = ed.points[hands[seat, i]]
        if value > best:
            best = value
            key = ed.canon[hands[seat, i]]
    to = -1
    for s in range(meta[M_PLAYERS]):
        if s != seat and (to < 0 or hsize[s] < hsize[to]):
            to = s
    give(st, ed, key, to)


@jit
def draw3_keep(st: Game, ed: Tables, k: int, rng_state: Arr, out_rot: Arr, out_cell: Arr) -> None:
    """`draw3`: draw `k` pieces from the bag, keep one (one that fits now over one that
    does not, then the cheapest, then the first drawn), put the others back into the bag at
    places drawn from `rng_state`, and end the turn."""
    meta, bag = st.meta, st.bag
    seat = meta[M_TO_MOVE]
    head = meta[M_BAG_HEAD]
    base = placements(st, ed, seat, out_rot, out_cell)
    keep = 0
    keep_fits = False
    keep_points = 0
    for i in range(k):
        piece = bag[head + i]
        hand_add(st, ed, seat, piece)
        fits = placements(st, ed, seat, out_rot, out_cell) > base
        hand_remove(st, ed, seat, ed.canon[piece])
        value = ed.points[piece]
        if i == 0 or (fits and not keep_fits) or (fits == keep_fits and value < keep_points):
            keep, keep_fits, keep_points = i, fits, value
    kept = bag[head + keep]
    back = np.empty(3, dtype=np.int64)
    n = 0
    for i in range(k):
        if i != keep:
            back[n] = bag[head + i]
            n += 1
    hand_add(st, ed, seat, kept)
    # each returned piece goes in front of piece `p` of the bag as it is then (`p` drawn
    # from 0 to its size), the pieces before it moving one place towards the bag's head
    end = meta[M_BAG_END]
    for j in range(n):
        first = head + k - j
        p = splitmix(rng_state) % (end - first + 1)
        for i in range(first, first + p):
            bag[i - 1] = bag[i]
        bag[first - 1 + p] = back[j]
    meta[M_BAG_HEAD] = head + k - n
    end_turn(st, False, False)


@jit
def evaluate(
    st: Game,
    ed: Tables,
    totals: Arr,
    last_round: bool,
    temperature: float,
    field: bool,
    per_piece: float,
    rewards: Arr,
) -> None:
    """Rewards in [0, 1] per seat. Each seat's outlook is its match total plus the points
    in its hand (0 for the seat that went out); while the round goes on, plus `per_piece`
    points for every piece it holds and for its place in the turn order (a seat moving
    sooner is a fraction of a piece ahead). At the end of the last round they are exact:
    1 for the lowest outlook, shared on a tie, else 0. Otherwise, without `field`, a seat
    `temperature` points ahead of the best other seat gets 1 / (1 + e^-1) and one level
    with it 1/2; with `field`, each seat gets its chance of ending lowest of all,
    e^(-outlook / temperature) over the sum of every seat's (with two seats the same
    numbers). Solo: 1 for a game won, 0 for one lost."""
    meta, hands, hsize = st.meta, st.hands, st.hsize
    points = ed.points
    players = meta[M_PLAYERS]
    if players == 1:
        # solo: won or lost (a game cut short by the horizon counts as lost)
        rewards[0] = 1.0 if meta[M_END] == EMPTIED else 0.0
        return
    mover = meta[M_TO_MOVE]
    outlook = np.empty(players, dtype=np.float64)
    for s in range(players):
        total = 0.0
        if not (meta[M_END] == EMPTIED and meta[M_WINNER] == s):
            for i in range(hsize[s]):
                total += points[hands[s, i]]
            if per_piece != 0.0 and meta[M_END] == 0:
                total += per_piece * (hsize[s] + ((s - mover) % players) / players)
        outlook[s] = totals[s] + total
    if meta[M_END] != 0 and last_round:
        low = outlook.min()
        winners = 0
        for s in range(players):
            if outlook[s] == low:
                winners += 1
        for s in range(players):
            rewards[s] = 1.0 / winners if outlook[s] == low else 0.0
        return
    if field:
        low = outlook.min()
        weight = 0.0
        for s in range(players):
            rewards[s] = np.exp((low - outlook[s]) / temperature)
            weight += rewards[s]
        for s in range(players):
            rewards[s] /= weight
        return
    for s in range(players):
        best_other = np.inf
        for o in range(players):
            if o != s and outlook[o] < best_other:
                best_other = outlook[o]
        rewards[s] = 1.0 / (1.0 + np.exp((outlook[s] - best_other) / temperature))


@jit
def playout_batch(
    st: Game,
    template: Game,
    ed: Tables,
    seat: int,
    kinds: Arr,
    rots: Arr,
    cells: Arr,
    arms: Arr,
    seeds: Arr,
    horizon: int,
    greed: float,
    model: int,
    totals: Arr,
    last_round: bool,
    temperature: float,
    field: bool,
    per_piece: float,
    rewards: Arr,
    out_rot: Arr,
    out_cell: Arr,
    room: Arr,
    out: Arr,
) -> None:
    """`playout_model` once per entry of `arms` (indexes into the root moves `kinds`, `rots`,
    `cells`) with the seed at the same index of `seeds`, writing `seat`'s reward into `out`:
    a search's batch of playouts in one call."""
    for i in range(arms.shape[0]):
        arm = arms[i]
        playout_model(
            st,
            template,
            ed,
            seat,
            kinds[arm],
            rots[arm],
            cells[arm],
            seeds[i],
            horizon,
            greed,
            model,
            totals,
            last_round,
            temperature,
            field,
            per_piece,
            rewards,
            out_rot,
            out_cell,
            room,
        )
        out[i] = rewards[seat]


@jit
def greedy_values(
    st: Game,
    template: Game,
    ed: Tables,
    rots: Arr,
    cells: Arr,
    values: Arr,
    out_rot: Arr,
    out_cell: Arr,
) -> None:
    """The greedy bot's value of each placement (`rots[i]` on `cells[i]`) by the seat to
    move in `template` (`search_hooks._value`): 10 per point laid, +1 per placement left for
    the rest of the hand, -0.5 per playable cell left, 1e9 for going out; a bridging bonus
    adds 10 per point of the best piece it then lets the mover lay, a void's gift 10 per
    point of the most valuable piece left to give (going out if it is the last). `st` is
    scratch room."""
    points = ed.points
    seat = template.meta[M_TO_MOVE]
    for i in range(rots.shape[0]):
        copy_search(st, template)
        place(st, ed, rots[i], cells[i])
        if st.hsize[seat] == 0:
            values[i] = 1e9
            continue
        mine = placements(st, ed, seat, out_rot, out_cell)
        value = 10.0 * points[rots[i]] + mine - 0.5 * st.meta[M_NPLAY]
        if st.meta[M_BONUS] and not template.meta[M_BONUS] and mine:
            best = 0
            for j in range(mine):
                best = max(best, points[out_rot[j]])
            value += 10.0 * best  # the bonus placement
        elif st.meta[M_GIVE]:
            if st.hsize[seat] == 1:
                value += 1e9  # giving the last piece away goes out
            else:
                best = 0
                for j in range(st.hsize[seat]):
                    best = max(best, points[st.hands[seat, j]])
                value += 10.0 * best  # the gift
        values[i] = value
