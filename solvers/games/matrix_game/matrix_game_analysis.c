/* matrix_game_analysis.c - POST /analyze/matrix-game: a position in the
 * middle of play, its value for the player to move and its moves, ranked.
 *
 * Request (JSON):
 *   {"k": 1, "matrix": [[1,2,3],[4,5,6],[7,8,9]], "token": [1, 1],
 *    "to_move": "G", "max_moves": 100}
 *   - "k", "matrix": as for POST /solve/matrix-game, with the same checks,
 *     limits and messages (mg_from_json).
 *   - "token": optional, the token's cell as [row, column], 1-based, inside
 *     the matrix.  Absent or null: the opening, where M places the token on
 *     any cell.
 *   - "to_move": optional, "M" or "G"; absent or null means "G" when a token
 *     is given (M has just placed or moved it) and "M" at the opening, where
 *     only "M" is allowed.  Both players move by the same rule, so to_move
 *     changes only the labels of the answer.
 *   - "max_moves": optional, 1..10000, default 100 (analysis_max_moves).
 *   The scores collected so far are not part of the request: whoever wins
 *   gains at least 1 in every round of the ~10^100 moves still to come,
 *   against which any score so far is negligible.
 *
 * Answer (the frame of analysis.h):
 *   {"game":"matrix-game","to_move":"G","value":"win","moves_total":6,
 *    "winning_moves":2,"truncated":false,"moves":[
 *     {"move":[3,3],"value":9,"outcome":"win","after":{"token":[3,3],"to_move":"M"}},..]}
 *   `value` is the outcome for the player to move; the moves are every cell
 *   farther than k from the token (every cell at the opening), the winning
 *   ones first and, within each group, by cell value descending (the mover
 *   scores more now); entry "value" is the cell's value, the mover's gain.
 *   At most max_moves are listed; moves_total and winning_moves are exact.
 *
 * Why it is right (matrix_game.c proves the two facts): call W[c] the
 * solver's table, "the player who has just moved onto c wins".  No winning
 * cell is reachable from a winning cell, and from a non-winning cell a
 * larger winning cell is.  So a move to w wins for its mover iff W[w], and
 * the player to move with the token on c wins iff W[c] is false, iff some
 * move wins.  At the opening M wins: the largest value is always winning.
 * Every request checks the two agree (token not winning iff a winning move
 * exists) and answers 500 if they ever did not.
 *
 * Cost: one solve (O(n^2)), then one walk of the values from the largest
 * down, which visits the moves already in the answer's order: no sort, and
 * the lists hold at most max_moves cells each. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "matrix_game.h"
#include "json_in.h"
#include "matrix_game_core.h"

typedef struct request {
    long row, col; /* the token, 1-based; 0 at the opening */
    char to_move;  /* 'M' or 'G' */
    long max_moves;
} request;

/* The optional "token" (absent or null: the opening) into rq: 0, or -1 with *e. */
static int read_token(const json_t *v, long n, request *rq, gj_error *e)
{
    rq->row = rq->col = 0;
    if (v == NULL || json_is_null(v))
        return 0;
    if (jin_array(v, "token", -1, 2, 2, e) != 0)
        return -1;
    if (jin_long(json_array_get(v, 0), "token", 0, -1, 1, n, &rq->row, e) != 0 ||
        jin_long(json_array_get(v, 1), "token", 1, -1, 1, n, &rq->col, e) != 0) {
        size_t used = strlen(e->message);
        if (used < sizeof e->message)
            snprintf(e->message + used, sizeof e->message - used,
                     " (the token is [row, column], 1-based, in the %ld x %ld matrix)", n, n);
        return -1;
    }
    return 0;
}

/* The optional "to_move" into rq->to_move: M at the opening (the only
 * mover allowed there), otherwise G unless it says so; null means absent. */
static int read_to_move(const json_t *v, request *rq, gj_error *e)
{
    static const char *const names[2] = {"M", "G"};
    int opening = rq->row == 0, k;
    if (analysis_to_move(v, names, true, opening ? 0 : 1, &k, e) != 0)
        return -1;
    if (opening && k == 1)
        return gj_fail_field(e, "to_move",
                             "with no token the game is at its opening, where M places the "
                             "token: to_move must be \"M\" or absent");
    rq->to_move = names[k][0];
    return 0;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const matrix_game_analyze_keys[] = {"k",        "matrix",     "?token",
                                                "?to_move", "?max_moves", NULL};

/* The request's position and its options; NULL with *e filled. */
static mg_position *read_request(const char *buf, size_t len, const long *limits, request *rq,
                                 gj_error *e)
{
    json_t *root = jin_load_object(buf, len, matrix_game_analyze_keys, e);
    if (root == NULL)
        return NULL;
    mg_position *pos = mg_from_json(root, limits, e);
    if (pos != NULL && (read_token(json_object_get(root, "token"), pos->n, rq, e) != 0 ||
                        read_to_move(json_object_get(root, "to_move"), rq, e) != 0 ||
                        analysis_max_moves(root, &rq->max_moves, e) != 0)) {
        mg_free(pos);
        pos = NULL;
    }
    json_decref(root);
    return pos;
}

typedef struct ranking {
    uint32_t *win, *lose; /* the first max_moves cells of each kind, by value descending */
    long nwin, nlose;
    long long total, winning;
} ranking;

/* Walk the values from n^2 down, keeping the moves from the token. */
static void rank_moves(const mg_position *pos, const request *rq, ranking *rk)
{
    long nn = pos->n * pos->n, k = pos->k, cap = rq->max_moves;
    int opening = rq->row == 0;
    for (long v = nn; v >= 1; v--) {
        uint32_t c = pos->cell_of[v - 1];
        long x = mg_row(c), y = mg_col(c);
        if (!opening && labs(x - rq->row) + labs(y - rq->col) <= k)
            continue;
        rk->total++;
        if (mg_winning(pos, x, y)) {
            rk->winning++;
            if (rk->nwin < cap)
                rk->win[rk->nwin++] = (uint32_t)v;
        } else if (rk->nlose < cap) {
            rk->lose[rk->nlose++] = (uint32_t)v;
        }
    }
}

/* Packed cell c as [row, column], 1-based. */
static void put_cell(gj_buf *out, uint32_t c)
{
    buf_putc(out, '[');
    buf_put_long(out, mg_row(c));
    buf_putc(out, ',');
    buf_put_long(out, mg_col(c));
    buf_putc(out, ']');
}

/* The analysis (analysis.h) from the ranked moves. */
static void write_answer(const mg_position *pos, const request *rq, const ranking *rk, gj_buf *out)
{
    const char mover[2] = {rq->to_move, '\0'};
    const char *next = rq->to_move == 'M' ? "G" : "M";
    long listed = rk->nwin + rk->nlose;
    if (listed > rq->max_moves)
        listed = rq->max_moves;
    analysis_counts counts = {rk->total, rk->winning, listed};
    analysis_begin(out, game_matrix_game.name, mover, rk->winning > 0, ANALYSIS_REMOTENESS_NONE,
                   &counts);
    for (long i = 0; i < listed; i++) {
        int wins = i < rk->nwin;
        uint32_t v = wins ? rk->win[i] : rk->lose[i - rk->nwin];
        uint32_t c = pos->cell_of[v - 1];
        analysis_move_open(out, i);
        buf_puts(out, "\"move\":");
        put_cell(out, c);
        buf_puts(out, ",\"value\":");
        buf_put_long(out, v);
        buf_puts(out, ",\"outcome\":\"");
        buf_puts(out, analysis_outcome(wins));
        buf_puts(out, "\",\"after\":{\"token\":");
        put_cell(out, c);
        buf_puts(out, ",\"to_move\":\"");
        buf_puts(out, next);
        buf_puts(out, "\"}");
        analysis_move_close(out);
    }
    analysis_end(out, listed);
}

int matrix_game_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    request rq;
    mg_position *pos = read_request(buf, len, limits, &rq, e);
    if (pos == NULL)
        return -1;
    ranking rk = {0};
    int status = mg_solve(pos, e);
    if (status == 0) {
        rk.win = malloc(2 * (size_t)rq.max_moves * sizeof *rk.win);
        if (rk.win == NULL)
            status = gj_fail_nomem(e);
    }
    if (status == 0) {
        rk.lose = rk.win + rq.max_moves;
        rank_moves(pos, &rq, &rk);
        /* The two facts, checked on every request: from the token the mover
         * has a winning move exactly when the token's cell is not winning. */
        if (rq.row != 0 && (rk.winning > 0) == mg_winning(pos, rq.row, rq.col))
            status = gj_fail(e, GJ_INTERNAL,
                             "matrix-game analysis: the token's cell and its moves disagree");
    }
    if (status == 0) {
        write_answer(pos, &rq, &rk, out);
        if (out->failed)
            status = gj_fail_nomem(e);
    }
    free(rk.win);
    mg_free(pos);
    return status;
}

/* The token goes to the move's cell and the other player moves. */
int matrix_game_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    const json_t *after = json_object_get(entry, "after");
    if (analysis_play_set(req, "token", json_object_get(entry, "move"), e) != 0)
        return -1;
    return analysis_play_set(req, "to_move", json_object_get(after, "to_move"), e);
}
