/* A plain C playout loop for CUBED: the yardstick of benchmarks/kernel.py.
 *
 * Random one-round games with the rules of shared/rules/cubed.md (strict colours, no
 * variants): every turn rescans every empty cell of the table's bounding box, tries every
 * rotation of every distinct piece in hand against the rules as written, and picks uniformly
 * among the placements and the one other move (draw, or pass once drawn or with an empty
 * bag). No incremental frontier, no cleverness: what a careful first C version would do.
 *
 * usage: cubed_loop GAMES SEED PLAYERS HAND BLACK WILD ORDINARY PIECE...
 *   PIECE is a colour triple as a code top*64 + left*8 + right; WILD is -1 for none.
 * Prints the games played, the moves played and the seconds the games took.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define W 160
#define OFF 80
#define MAXP 128

static int board[W * W];
static const int STEP[6] = {W, W - 1, -1, -W, -W + 1, 1};
static const int SLOT[6] = {2, 0, 0, 1, 1, 2};
static int black, wild, ordinary;
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

static int rotate(int code) { /* (a, b, c) -> (b, c, a) */
    return colour(code, 1) * 64 + colour(code, 2) * 8 + colour(code, 0);
}

static int least_rotation(int code) {
    int best = code, r = code;
    for (int i = 0; i < 2; i++) {
        r = rotate(r);
        if (r < best) best = r;
    }
    return best;
}

/* does rotation `code` fit on a cell with these contacts? (spec section 4) */
static int fits(int code, int n, int touches, const int *slot, const int *theirs,
                const int *their_blocking) {
    int blocking = is_blocking(code);
    if (blocking && n < 3) return 0;
    for (int i = 0; i < touches; i++) {
        int mine = colour(code, slot[i]);
        if (mine == black) return 0;
        if (mine == theirs[i]) continue;
        if (!blocking && !their_blocking[i] && wild >= 0 && (mine == wild || theirs[i] == wild))
            continue;
        return 0;
    }
    return 1;
}

static int any_playable_cell(int n, int lo_q, int hi_q, int lo_r, int hi_r) {
    for (int q = lo_q - 1; q <= hi_q + 1; q++)
        for (int r = lo_r - 1; r <= hi_r + 1; r++) {
            int cell = q * W + r, touches = 0, dead = 0;
            if (board[cell] >= 0) continue;
            for (int d = 0; d < 6; d++) {
                int other = board[cell + STEP[d]];
                if (other < 0) continue;
                touches++;
                if (colour(other, SLOT[(d + 3) % 6]) == black) dead = 1;
            }
            if (!dead && touches >= (n == 1 ? 1 : 2)) return 1;
        }
    return 0;
}

int main(int argc, char **argv) {
    if (argc < 9) {
        fprintf(stderr, "usage: cubed_loop GAMES SEED PLAYERS HAND BLACK WILD ORDINARY PIECE...\n");
        return 2;
    }
    int games = atoi(argv[1]);
    rng_state = (uint64_t)atoll(argv[2]) * 2654435761u + 88172645463325252ull;
    int players = atoi(argv[3]), hand_size = atoi(argv[4]);
    black = atoi(argv[5]);
    wild = atoi(argv[6]);
    ordinary = atoi(argv[7]);
    int npieces = argc - 8;
    int box[MAXP], pieces[MAXP], hands[8][MAXP], hsize[8], bag[MAXP];
    int cand_code[MAXP * 3 * 64], cand_cell[MAXP * 3 * 64];
    int placed[MAXP];
    for (int i = 0; i < npieces; i++) box[i] = atoi(argv[8 + i]);
    for (int i = 0; i < W * W; i++) board[i] = -1;
    long moves = 0;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    for (int g = 0; g < games; g++) {
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
        int lo_q = OFF, hi_q = OFF, lo_r = OFF, hi_r = OFF;
        for (;;) {
            /* the distinct rotations of the distinct pieces in hand */
            int rots[MAXP * 3], nrots = 0, seen[MAXP], nseen = 0;
            for (int i = 0; i < hsize[seat]; i++) {
                int key = least_rotation(hands[seat][i]), dup = 0;
                for (int j = 0; j < nseen; j++) dup |= seen[j] == key;
                if (dup) continue;
                seen[nseen++] = key;
                int r1 = rotate(key), r2 = rotate(r1);
                rots[nrots++] = key;
                if (r1 != key) rots[nrots++] = r1;
                if (r2 != key && r2 != r1) rots[nrots++] = r2;
            }
            /* every placement, by a full rescan of the table's surroundings */
            int count = 0;
            for (int q = lo_q - 1; q <= hi_q + 1; q++)
                for (int r = lo_r - 1; r <= hi_r + 1; r++) {
                    int cell = q * W + r, touches = 0, dead = 0;
                    int slot[6], theirs[6], their_blocking[6];
                    if (board[cell] >= 0) continue;
                    for (int d = 0; d < 6; d++) {
                        int other = board[cell + STEP[d]];
                        if (other < 0) continue;
                        slot[touches] = SLOT[d];
                        theirs[touches] = colour(other, SLOT[(d + 3) % 6]);
                        their_blocking[touches] = is_blocking(other);
                        dead |= theirs[touches] == black;
                        touches++;
                    }
                    if (n == 0 ? cell != OFF * W + OFF : dead || touches < (n == 1 ? 1 : 2))
                        continue;
                    for (int k = 0; k < nrots; k++)
                        if (fits(rots[k], n, touches, slot, theirs, their_blocking)) {
                            cand_code[count] = rots[k];
                            cand_cell[count++] = cell;
                        }
                }
            int pick = (int)(next_random() % (uint64_t)(count + 1));
            moves++;
            if (pick < count) {
                int code = cand_code[pick], cell = cand_cell[pick], key = least_rotation(code);
                for (int i = 0; i < hsize[seat]; i++)
                    if (least_rotation(hands[seat][i]) == key) {
                        hands[seat][i] = hands[seat][--hsize[seat]];
                        break;
                    }
                board[cell] = code;
                placed[n++] = cell;
                int q = cell / W, r = cell % W;
                if (q < lo_q) lo_q = q;
                if (q > hi_q) hi_q = q;
                if (r < lo_r) lo_r = r;
                if (r > hi_r) hi_r = r;
                if (hsize[seat] == 0 || !any_playable_cell(n, lo_q, hi_q, lo_r, hi_r)) break;
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
        for (int i = 0; i < n; i++) board[placed[i]] = -1;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
    printf("%d %ld %.6f\n", games, moves, seconds);
    return 0;
}
