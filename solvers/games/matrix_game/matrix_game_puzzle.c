/* matrix_game_puzzle.c - what makes a matrix-game position a puzzle
 * (game.h's gj_play.look and .motifs, play/puzzle.h).
 *
 * The greedy measure: the points the mover is ahead by over the moves seen,
 * her cell's value minus the opponent's cell's value at 2 plies (her cell's
 * value alone at 1), over n^2 + 1.
 *
 * That is how a player who counts points sees a jump: the more she scores
 * now and the less the best reply scores, the better it looks.  The values
 * are a permutation of 1..n^2, so ply 1 lies in (0, 1) and ply 2 in
 * (-1, 1), and since every reply scores at least 1, ply 2 is always below
 * ply 1.  The game never ends (k <= n - 2 leaves a corner farther than k
 * from every cell), so no move reads +1 or -1.  One integer quotient each:
 * the same bits on every machine.
 *
 * The motifs are what the solving move, the only jump to a winning cell
 * (matrix_game.c), shows against the point count: it takes the largest
 * value, the reply it allows scores more, or most other jumps score more.
 * (A retreat to a cell lower than the token's never solves: from a cell
 * that is not winning a larger winning cell is in reach, matrix_game.c's
 * second fact, so a lone winning move is that larger one.)  The first step
 * of a two-step puzzle is never outscored: a reply d scoring more than w
 * is a cell that is not winning, so from d a winning cell larger than d
 * is in reach beside w, and the second step would have two solving moves.
 *
 * No puzzle has a third step (gj_game.puzzle_depth_max 2).  Say the solver
 * jumped to the winning cell w and the defender replied to d.  Distance is
 * symmetric, so w is in reach from d, and a jump to a winning cell wins
 * (matrix_game.c): a second step with one solving move plays w again.  The
 * defender then faces the position it faced after the first step, so a
 * defence that depends on the position alone (the puzzles' own: rank's
 * best move) replies d again, and the third step's position is the
 * second's, which a puzzle never repeats. */
#include <stdint.h>
#include <stdlib.h>

#include "matrix_game.h"
#include "matrix_game_core.h"

/* The motifs, bit i naming entry i (gj_game.motifs). */
enum { MOTIF_TOP, MOTIF_OUTSCORED, MOTIF_MODEST };

const gj_theme matrix_game_motif_list[] = {
    {"top-cell", "the solving move takes the token to the largest value of the matrix"},
    {"outscored", "the opponent's best reply to the solving move scores more than it did"},
    {"modest", "at least half of the other legal moves score more than the solving move"},
    {NULL, NULL},
};

/* Whether the token may jump from packed cell a to b (a 0: the opening). */
static int reaches(const mg_position *pos, uint32_t a, uint32_t b)
{
    return a == 0 || labs(mg_row(a) - mg_row(b)) + labs(mg_col(a) - mg_col(b)) > pos->k;
}

/* The packed cell of move m, or 0 with *e when m is no legal move from
 * the token. */
static uint32_t cell_of_move(const mg_position *pos, uint32_t token, const gj_move *m, gj_error *e)
{
    uint64_t nn = (uint64_t)(pos->n * pos->n);
    uint32_t c = m->id >= 1 && m->id <= nn ? pos->cell_of[m->id - 1] : 0;
    if (c == 0 || !reaches(pos, token, c)) {
        gj_fail(e, GJ_INTERNAL, "matrix-game: a move looked at that is not one");
        return 0;
    }
    return c;
}

/* The largest value a jump from packed cell c can score (0: no jump, which
 * k <= n - 2 rules out).  Walks the values down: only the cells within k
 * of c are passed over. */
static long best_reply(const mg_position *pos, uint32_t c)
{
    for (long v = pos->n * pos->n; v >= 1; v--)
        if (reaches(pos, c, pos->cell_of[v - 1]))
            return v;
    return 0;
}

/* game.h's gj_play.look: the measure above, for each move. */
int matrix_game_look(void *play, const gj_move *moves, long n, int plies, double *value,
                     gj_error *e)
{
    uint32_t token;
    const mg_position *pos = mg_play_at(play, &token, e);
    if (pos == NULL)
        return -1;
    double scale = (double)(pos->n * pos->n + 1);
    for (long i = 0; i < n; i++) {
        uint32_t c = cell_of_move(pos, token, &moves[i], e);
        if (c == 0)
            return -1;
        long ahead = (long)moves[i].id;
        if (plies >= 2)
            ahead -= best_reply(pos, c);
        value[i] = (double)ahead / scale;
    }
    return 0;
}

/* game.h's gj_play.motifs: the bits of matrix_game_motif_list that
 * moves[0] shows. */
int matrix_game_motifs(void *play, const gj_move *moves, long n, unsigned *bits, gj_error *e)
{
    uint32_t token;
    const mg_position *pos = mg_play_at(play, &token, e);
    if (pos == NULL)
        return -1;
    *bits = 0;
    long above = 0;
    for (long i = 0; i < n; i++) {
        if (cell_of_move(pos, token, &moves[i], e) == 0)
            return -1;
        above += i > 0 && moves[i].id > moves[0].id;
    }
    if (n < 1)
        return 0;
    long solving = (long)moves[0].id;
    if (solving == pos->n * pos->n)
        *bits |= 1u << MOTIF_TOP;
    if (best_reply(pos, pos->cell_of[solving - 1]) > solving)
        *bits |= 1u << MOTIF_OUTSCORED;
    if (2 * above >= n - 1)
        *bits |= 1u << MOTIF_MODEST;
    return 0;
}
