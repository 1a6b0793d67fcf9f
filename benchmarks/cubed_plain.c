/* The plain C playout loop for CUBED: the yardstick of issue 14 and of benchmarks/kernel.py.
 *
 * Random one-round games with the rules of shared/rules/cubed.md (strict colours, no
 * variants), written as a careful first C version would be: the table is one board array
 * and nothing is kept from move to move. Every move rescans every cell of the whole board,
 * works out each empty cell's contacts from its six neighbours, and tries every piece in
 * the mover's hand (duplicates included) in each of its three rotations against the rules
 * as written. Two hand pieces that are the same piece give the same placement; it is listed
 * once. After a placement the board is rescanned again for a playable cell (the round ends
 * when none is left). The move is picked uniformly among the placements and the one other
 * move (draw, or pass once drawn or with an empty bag).
 *
 * Compiled with -DBOX it rescans only the table's bounding box (and the ring around it),
 * everything else unchanged: that variant shows how much of the plain loop's time is the
 * whole-board rescan.
 *
 * Given the box as least rotations (which benchmarks/kernel.py passes), it lists the
 * placements in the order of the tuned loop (cubed_loop.c) and so plays the very same
 * games: the benchmark checks that both count the same moves.
 *
 * usage: cubed_plain GAMES SEED PLAYERS HAND BLACK WILD ORDINARY PIECE...
 *   PIECE is a colour triple as a code top*64 + left*8 + right; WILD is -1 for none.
 * Prints the games played, the moves played and the seconds the games took.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define MAXP 128
#define MAXW (2 * MAXP + 3)
#define EMPTY (-1)

/* The board: W x W cells, (q, r) is cell (q + OFF) * W + (r + OFF). The table is connected
 * and starts on the origin, so it reaches at most one cell less than the box holds pieces
 * from it: the board is sized from the box, with a ring for the neighbours of the table's
 * outermost cells and an empty border ring around that. */
static int W, OFF;
static int board[MAXW * MAXW];
/* neighbour steps in directions E, NE, NW, W, SW, SE */
static int STEP[6];
/* the slot (0 top, 1 left, 2 right) behind each edge */
static const int SLOT[6] = {2, 0, 0, 1, 1, 2};
static int black, wild;
static uint64_t rng_state;

static uint64_t next_random(void) {
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return rng_state;
}

static int colour(int code, int slot) {
    return slot == 0 ? code >> 6 : slot == 1 ? (code >> 3) & 7 : code & 7;
}

static int is_blocking(int code) {
    return colour(code, 0) == black || colour(code, 1) == black || colour(code, 2) == black;
}

static int rotate(int code) { /* (top, left, right) -> (left, right, top) */
    return colour(code, 1) * 64 + colour(code, 2) * 8 + colour(code, 0);
}

/* do two touching diamonds match? (spec section 3) */
static int matches(int mine, int my_piece, int theirs, int their_piece) {
    if (mine == black || theirs == black) return 0;
    if (mine == theirs) return 1;
    if (wild < 0 || is_blocking(my_piece) || is_blocking(their_piece)) return 0;
    return mine == wild || theirs == wild;
}

/* may `code` be laid on the empty cell `cell` with `n` pieces on the table? (section 4) */
static int legal(int code, int cell, int n) {
    if (n == 0) return cell == OFF * W + OFF && !is_blocking(code);
    if (is_blocking(code) && n < 3) return 0;
    int touches = 0;
    for (int d = 0; d < 6; d++) {
        int other = board[cell + STEP[d]];
        if (other == EMPTY) continue;
        touches++;
        if (!matches(colour(code, SLOT[d]), code, colour(other, SLOT[(d + 3) % 6]), other))
            return 0;
    }
    return touches >= (n == 1 ? 1 : 2);
}

/* is the empty cell playable: the origin on an empty table, else not next to a black side
 * and touching 2 pieces (1 while n = 1)? */
static int playable(int cell, int n) {
    if (n == 0) return cell == OFF * W + OFF;
    int touches = 0;
    for (int d = 0; d < 6; d++) {
        int other = board[cell + STEP[d]];
        if (other == EMPTY) continue;
        touches++;
        if (colour(other, SLOT[(d + 3) % 6]) == black) return 0;
    }
    return touches >= (n == 1 ? 1 : 2);
}

/* the rows and columns rescanned: the whole board, or (-DBOX) the table's bounding box and
 * the ring around it */
static int lo_q, hi_q, lo_r, hi_r;

static void scan_range(int *q0, int *q1, int *r0, int *r1) {
#ifdef BOX
    *q0 = lo_q - 1, *q1 = hi_q + 1, *r0 = lo_r - 1, *r1 = hi_r + 1;
#else
    *q0 = 1, *q1 = W - 2, *r0 = 1, *r1 = W - 2;
#endif
}

static int any_playable_cell(int n) {
    int q0, q1, r0, r1;
    scan_range(&q0, &q1, &r0, &r1);
    for (int q = q0; q <= q1; q++)
        for (int r = r0; r <= r1; r++)
            if (board[q * W + r] == EMPTY && playable(q * W + r, n)) return 1;
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: cubed_plain GAMES SEED PLAYERS HAND BLACK WILD ORDINARY PIECE...\n");
        return 2;
    }
    int games = atoi(argv[1]);
    rng_state = (uint64_t)atoll(argv[2]) * 2654435761u + 88172645463325252ull;
    int players = atoi(argv[3]), hand_size = atoi(argv[4]);
    black = atoi(argv[5]);
    wild = atoi(argv[6]);
    int npieces = argc - 8;
    if (npieces > MAXP || players < 2 || players > 8 || players * hand_size > npieces) {
        fprintf(stderr, "cubed_plain: unsupported box or players\n");
        return 2;
    }
    int box[MAXP], pieces[MAXP], hands[8][MAXP], hsize[8], bag[MAXP];
    static int cand_code[MAXP * 3 * MAXW], cand_cell[MAXP * 3 * MAXW], cand_from[MAXP * 3 * MAXW];
    for (int i = 0; i < npieces; i++) box[i] = atoi(argv[8 + i]);
    OFF = npieces + 1;
    W = 2 * OFF + 1;
    int steps[6] = {W, W - 1, -1, -W, -W + 1, 1};
    for (int d = 0; d < 6; d++) STEP[d] = steps[d];
    long moves = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int g = 0; g < games; g++) {
        for (int i = 0; i < W * W; i++) board[i] = EMPTY;
        for (int i = 0; i < npieces; i++) pieces[i] = box[i];
        for (int i = npieces - 1; i > 0; i--) {
            int j = (int)(next_random() % (uint64_t)(i + 1));
            int t = pieces[i];
            pieces[i] = pieces[j];
            pieces[j] = t;
        }
        int at = 0;
        for (int s = 0; s < players; s++) {
            for (int i = 0; i < hand_size; i++) hands[s][i] = pieces[at++];
            hsize[s] = hand_size;
        }
        int nbag = 0;
        while (at < npieces) bag[nbag++] = pieces[at++];
        int head = 0, n = 0, seat = 0, drew = 0, idle = 0, stuck = 0;
        lo_q = hi_q = lo_r = hi_r = OFF;
        for (;;) {
            /* every placement: every cell of the board, every piece in hand, every rotation */
            int count = 0, q0, q1, r0, r1;
            scan_range(&q0, &q1, &r0, &r1);
            for (int q = q0; q <= q1; q++)
                for (int r = r0; r <= r1; r++) {
                    int cell = q * W + r;
                    if (board[cell] != EMPTY) continue;
                    if (!playable(cell, n)) continue;
                    int first = count;
                    for (int i = 0; i < hsize[seat]; i++) {
                        int code = hands[seat][i];
                        for (int k = 0; k < 3; k++, code = rotate(code)) {
                            if (!legal(code, cell, n)) continue;
                            int seen = 0;
                            for (int c = first; c < count; c++) seen |= cand_code[c] == code;
                            if (seen) continue;
                            cand_code[count] = code;
                            cand_cell[count] = cell;
                            cand_from[count++] = i;
                        }
                    }
                }
            int pick = (int)(next_random() % (uint64_t)(count + 1));
            moves++;
            if (pick < count) {
                int i = cand_from[pick];
                hands[seat][i] = hands[seat][--hsize[seat]];
                int cell = cand_cell[pick], q = cell / W, r = cell % W;
                board[cell] = cand_code[pick];
                n++;
                if (q < lo_q) lo_q = q;
                if (q > hi_q) hi_q = q;
                if (r < lo_r) lo_r = r;
                if (r > hi_r) hi_r = r;
                if (hsize[seat] == 0 || !any_playable_cell(n)) break;
                idle = stuck = drew = 0;
                seat = (seat + 1) % players;
            } else if (!drew && head < nbag) {
                hands[seat][hsize[seat]++] = bag[head++];
                drew = 1;
            } else {
                idle = idle + 1 < players ? idle + 1 : players;
                stuck = count == 0 ? stuck + 1 : 0;
                drew = 0;
                if (stuck >= players || (idle >= players && head >= nbag)) break;
                seat = (seat + 1) % players;
            }
        }
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%d %ld %.6f\n", games, moves, seconds);
    return 0;
}
