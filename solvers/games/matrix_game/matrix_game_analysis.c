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
 * the lists hold at most max_moves cells each.
 *
 * The parsed position (game.h's gj_play, matrix_game_play below) is what
 * analyze() wraps and what the perfect-play line plays on: the solve is
 * made once per request, since the table does not depend on the token, and
 * each move of the line is a best move found from the winning cells or the
 * few largest values (rank_best), then the token moved in place; copies of
 * a position share the solve. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_read.h"
#include "matrix_game.h"
#include "json_in.h"
#include "matrix_game_core.h"

/* The request's position members, for writing them back in its order. */
enum { MEMBER_K, MEMBER_MATRIX, MEMBER_TOKEN, MEMBER_TO_MOVE, MEMBERS };

typedef struct request {
    long row, col; /* the token, 1-based; 0 at the opening */
    char to_move;  /* 'M' or 'G' */
    long max_moves;
    int order[MEMBERS]; /* the members as the request gives them, then those it lacks */
    int given[MEMBERS]; /* by member: the request gave it, or a move played since added it */
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

/* rq->order from root: its position members in its order, then the ones
 * it lacks as a played move adds them (the token, then the mover). */
static void read_order(const json_t *root, request *rq)
{
    static const char *const names[MEMBERS] = {"k", "matrix", "token", "to_move"};
    int seen[MEMBERS] = {0}, n = 0;
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)root, key, v)
    {
        for (int m = 0; m < MEMBERS; m++)
            if (!seen[m] && strcmp(key, names[m]) == 0) {
                seen[m] = rq->given[m] = 1;
                rq->order[n++] = m;
            }
    }
    for (int m = 0; m < MEMBERS; m++)
        if (!seen[m])
            rq->order[n++] = m;
}

/* The request's options from root for the position pos read from it
 * (taken: freed on failure): pos, or NULL with *e filled. */
static mg_position *read_options(const json_t *root, mg_position *pos, request *rq, gj_error *e)
{
    if (pos != NULL && (read_token(json_object_get(root, "token"), pos->n, rq, e) != 0 ||
                        read_to_move(json_object_get(root, "to_move"), rq, e) != 0 ||
                        analysis_max_moves(root, &rq->max_moves, e) != 0)) {
        mg_free(pos);
        pos = NULL;
    }
    if (pos != NULL)
        read_order(root, rq);
    return pos;
}

/* The request's position and its options from root, already loaded and
 * its keys checked; NULL with *e filled. */
static mg_position *read_request(const json_t *root, const long *limits, request *rq, gj_error *e)
{
    return read_options(root, mg_from_json(root, limits, e), rq, e);
}

typedef struct ranking {
    uint32_t *win, *lose; /* the first max_moves cells of each kind, by value descending */
    long nwin, nlose;
    long long total, winning;
} ranking;

/* Walk the values from n^2 down, keeping the first cap moves of each kind
 * from the token. */
static void rank_moves(const mg_position *pos, const request *rq, long cap, ranking *rk)
{
    long nn = pos->n * pos->n, k = pos->k;
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

/* The members of the entry of the move to value v, without braces, up to
 * the value of "after" (the caller writes it): the order analysis.h's
 * entries have. */
static void put_entry_head(gj_buf *out, const mg_position *pos, uint32_t v, int wins)
{
    uint32_t c = pos->cell_of[v - 1];
    buf_puts(out, "\"move\":");
    put_cell(out, c);
    buf_puts(out, ",\"value\":");
    buf_put_long(out, v);
    buf_puts(out, ",\"outcome\":\"");
    buf_puts(out, analysis_outcome(wins));
    buf_puts(out, "\",\"after\":");
}

/* The diff of the move to packed cell c: the token and the next mover. */
static void put_diff(gj_buf *out, uint32_t c, char next)
{
    buf_puts(out, "{\"token\":");
    put_cell(out, c);
    buf_puts(out, ",\"to_move\":\"");
    buf_putc(out, next);
    buf_puts(out, "\"}");
}

/* The other player. */
static char other(char mover)
{
    return mover == 'M' ? 'G' : 'M';
}

/* The analysis (analysis.h) from the ranked moves. */
static void write_answer(const mg_position *pos, const request *rq, const ranking *rk, gj_buf *out)
{
    const char mover[2] = {rq->to_move, '\0'};
    long listed = rk->nwin + rk->nlose;
    if (listed > rq->max_moves)
        listed = rq->max_moves;
    analysis_counts counts = {rk->total, rk->winning, listed};
    analysis_begin(out, game_matrix_game.name, mover, rk->winning > 0, ANALYSIS_REMOTENESS_NONE,
                   &counts);
    for (long i = 0; i < listed; i++) {
        int wins = i < rk->nwin;
        uint32_t v = wins ? rk->win[i] : rk->lose[i - rk->nwin];
        analysis_move_open(out, i);
        put_entry_head(out, pos, v, wins);
        put_diff(out, pos->cell_of[v - 1], other(rq->to_move));
        analysis_move_close(out);
    }
    analysis_end(out, listed);
}

/* What every copy of a parsed position shares, fixed once solved: the
 * position and its table, the winning cells by value, the matrix as JSON.
 * Copies (clone) are used by one thread at a time, like their original. */
typedef struct mg_shared {
    mg_position *pos;
    int refs;
    int solved;
    uint32_t *winners; /* after the solve: the winning cells' values, largest first */
    long nwinners;
    gj_buf matrix; /* "matrix" written compact once, for whole afters */
    int matrix_written;
} mg_shared;

/* A parsed position in play (game.h's gj_play): the shared solve, and the
 * token and mover as the line moves them.  A move's id is its cell's value. */
typedef struct mg_play {
    mg_shared *sh;
    const mg_position *pos; /* sh->pos */
    request rq;
} mg_play;

/* A position in play over the request req and its position `read` (NULL:
 * read from req itself under limits; else taken, and freed on failure):
 * the position, or NULL with *e. */
static mg_play *play_make(const json_t *req, mg_position *read, const long *limits, gj_error *e)
{
    mg_play *p = calloc(1, sizeof *p);
    mg_shared *sh = calloc(1, sizeof *sh);
    if (p == NULL || sh == NULL) {
        free(p);
        free(sh);
        mg_free(read);
        gj_fail_nomem(e);
        return NULL;
    }
    buf_init(&sh->matrix);
    sh->refs = 1;
    sh->pos =
        read != NULL ? read_options(req, read, &p->rq, e) : read_request(req, limits, &p->rq, e);
    if (sh->pos == NULL) {
        free(sh);
        free(p);
        return NULL;
    }
    p->sh = sh;
    p->pos = sh->pos;
    return p;
}

/* game.h's gj_play.parse: the request's position and options. */
static void *play_parse(const json_t *req, const long *limits, gj_error *e)
{
    return play_make(req, NULL, limits, e);
}

/* game.h's gj_play.adopt: the options of req over the position read as
 * the body arrived (mg_events). */
static void *play_adopt(void *read, const json_t *req, const long *limits, gj_error *e)
{
    return play_make(req, read, limits, e);
}

/* The /analyze body read as it arrives (analysis_read.h), the matrix into
 * the position's arrays. */
GJ_ANALYSIS_READER(mg_events)

/* game.h's gj_play.free: the shared part with its last copy. */
static void play_free(void *v)
{
    mg_play *p = v;
    if (p == NULL)
        return;
    if (--p->sh->refs == 0) {
        mg_free(p->sh->pos);
        free(p->sh->winners);
        buf_free(&p->sh->matrix);
        free(p->sh);
    }
    free(p);
}

/* Solve the position, once for every copy (the table does not depend on
 * the token), and list its winning cells by value: 0, or -1 with *e. */
static int solve_once(mg_play *p, gj_error *e)
{
    mg_shared *sh = p->sh;
    if (sh->solved)
        return 0;
    const mg_position *pos = sh->pos;
    if (mg_solve(sh->pos, e) != 0)
        return -1;
    long nn = pos->n * pos->n, count = 0;
    for (long v = nn; v >= 1; v--)
        count += mg_winning(pos, mg_row(pos->cell_of[v - 1]), mg_col(pos->cell_of[v - 1]));
    sh->winners = malloc(((size_t)count + 1) * sizeof *sh->winners); /* + 1: never malloc(0) */
    if (sh->winners == NULL)
        return gj_fail_nomem(e);
    for (long v = nn; v >= 1; v--)
        if (mg_winning(pos, mg_row(pos->cell_of[v - 1]), mg_col(pos->cell_of[v - 1])))
            sh->winners[sh->nwinners++] = (uint32_t)v;
    sh->solved = 1;
    return 0;
}

/* The ranking of the position's first `cap` moves of each kind into *rk
 * (rk->win and rk->lose: cap cells each): 0, or -1 with *e.  Checks the
 * two facts on every call: from the token the mover has a winning move
 * exactly when the token's cell is not winning. */
static int rank_all(mg_play *p, long cap, ranking *rk, gj_error *e)
{
    if (solve_once(p, e) != 0)
        return -1;
    rk->win = malloc(2 * (size_t)cap * sizeof *rk->win);
    if (rk->win == NULL)
        return gj_fail_nomem(e);
    rk->lose = rk->win + cap;
    rank_moves(p->pos, &p->rq, cap, rk);
    if (p->rq.row != 0 && (rk->winning > 0) == mg_winning(p->pos, p->rq.row, p->rq.col))
        return gj_fail(e, GJ_INTERNAL,
                       "matrix-game analysis: the token's cell and its moves disagree");
    return 0;
}

/* game.h's gj_play.analyze: one walk of the values (see the top). */
static int play_analyze(void *v, gj_buf *out, gj_error *e)
{
    mg_play *p = v;
    ranking rk = {0};
    int status = rank_all(p, p->rq.max_moves, &rk, e);
    if (status == 0) {
        write_answer(p->pos, &p->rq, &rk, out);
        if (out->failed)
            status = gj_fail_nomem(e);
    }
    free(rk.win);
    return status;
}

/* Whether packed cell c is a move from the token (every cell at the opening). */
static int is_move(const mg_play *p, uint32_t c)
{
    const request *rq = &p->rq;
    return rq->row == 0 || labs(mg_row(c) - rq->row) + labs(mg_col(c) - rq->col) > p->pos->k;
}

/* The policy's best move alone, the line's call at every move: 1 with *m,
 * 0 when there is none, -1 with *e.  At a token on a losing cell a winning
 * move exists (matrix_game.c's second fact): the first winning cell by
 * value outside the token's neighbourhood, O(winners).  At a winning cell
 * none does (the first fact): the first cell by value outside the
 * neighbourhood, found within its 2k(k + 1) + 2 largest values.  Never a
 * scan of every cell. */
static long rank_best(mg_play *p, gj_move *m, gj_error *e)
{
    const mg_position *pos = p->pos;
    const mg_shared *sh = p->sh;
    if (solve_once(p, e) != 0)
        return -1;
    *m = (gj_move){.remoteness = ANALYSIS_REMOTENESS_NONE};
    if (p->rq.row == 0 || !mg_winning(pos, p->rq.row, p->rq.col)) {
        for (long i = 0; i < sh->nwinners && m->id == 0; i++)
            if (is_move(p, pos->cell_of[sh->winners[i] - 1]))
                m->id = sh->winners[i];
        if (m->id == 0)
            return gj_fail(e, GJ_INTERNAL,
                           "matrix-game analysis: the token's cell and its moves disagree");
        m->wins = 1;
        return 1;
    }
    for (long val = pos->n * pos->n; val >= 1 && m->id == 0; val--)
        if (is_move(p, pos->cell_of[val - 1]))
            m->id = (uint64_t)val;
    return m->id != 0;
}

/* game.h's gj_play.rank: the walk of analyze(), cut at max. */
/* The mover's name as the analysis writes it ("M" or "G"), a static string. */
static const char *rk_mover(char to_move)
{
    return to_move == 'M' ? "M" : "G";
}

static long play_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    mg_play *p = v;
    if (head == NULL && max == 1)
        return rank_best(p, moves, e);
    ranking rk = {0};
    long listed = -1;
    if (rank_all(p, max, &rk, e) == 0) {
        listed = rk.nwin + rk.nlose < max ? rk.nwin + rk.nlose : max;
        for (long i = 0; i < listed; i++) {
            int wins = i < rk.nwin;
            moves[i] = (gj_move){.id = wins ? rk.win[i] : rk.lose[i - rk.nwin],
                                 .wins = wins,
                                 .remoteness = ANALYSIS_REMOTENESS_NONE};
        }
        if (head != NULL)
            *head = (gj_rank_head){.value = rk.winning > 0,
                                   .remoteness = ANALYSIS_REMOTENESS_NONE,
                                   .moves_total = rk.total,
                                   .winning_moves = rk.winning,
                                   .to_move = rk_mover(p->rq.to_move)};
    }
    free(rk.win);
    return listed;
}

/* The matrix written compact into the shared buffer, once: as the request
 * gave it, since its values are integers, which JSON writes one way.  0,
 * or -1 with *e. */
static int write_matrix(mg_play *p, gj_error *e)
{
    mg_shared *sh = p->sh;
    if (sh->matrix_written)
        return 0;
    mg_write_matrix(p->pos, &sh->matrix);
    if (sh->matrix.failed)
        return gj_fail_nomem(e);
    sh->matrix_written = 1;
    return 0;
}

/* The members of the position with the token on packed cell c (0: none,
 * the opening, written null, as a request may say it) and `mover` to move,
 * in the request's order; only the token and the mover when moved; with
 * `given`, only the members it marks.  The matrix must be written
 * (write_matrix). */
static void put_members(const mg_play *p, uint32_t c, char mover, int moved, const int *given,
                        gj_buf *out)
{
    int first = 1;
    for (int i = 0; i < MEMBERS; i++) {
        int m = p->rq.order[i];
        if ((moved && (m == MEMBER_K || m == MEMBER_MATRIX)) || (given != NULL && !given[m]))
            continue;
        if (!first)
            buf_putc(out, ',');
        first = 0;
        if (m == MEMBER_K) {
            buf_puts(out, "\"k\":");
            buf_put_long(out, p->pos->k);
        } else if (m == MEMBER_MATRIX) {
            buf_puts(out, "\"matrix\":");
            buf_append(out, p->sh->matrix.data, p->sh->matrix.len);
        } else if (m == MEMBER_TOKEN) {
            buf_puts(out, "\"token\":");
            if (c == 0)
                buf_puts(out, "null");
            else
                put_cell(out, c);
        } else {
            buf_puts(out, "\"to_move\":\"");
            buf_putc(out, mover);
            buf_putc(out, '"');
        }
    }
}

/* The packed cell of the token, 0 at the opening. */
static uint32_t token_cell(const request *rq)
{
    return rq->row == 0 ? 0 : (uint32_t)rq->row << 16 | (uint32_t)rq->col;
}

/* Whether m names a move of p's position: a value whose cell is a move. */
static int valid_move(const mg_play *p, const gj_move *m)
{
    long nn = p->pos->n * p->pos->n;
    return m->id >= 1 && m->id <= (uint64_t)nn && is_move(p, p->pos->cell_of[m->id - 1]);
}

/* game.h's gj_play.write_move: analyze()'s entry, after whole or not. */
static int play_write_move(void *v, const gj_move *m, int whole, gj_buf *out, size_t *after_bytes,
                           gj_error *e)
{
    mg_play *p = v;
    *after_bytes = 0;
    if (!valid_move(p, m))
        return gj_fail(e, GJ_INTERNAL, "matrix-game: a move written that is not one");
    uint32_t c = p->pos->cell_of[m->id - 1];
    put_entry_head(out, p->pos, (uint32_t)m->id, m->wins);
    if (!whole) {
        put_diff(out, c, other(p->rq.to_move));
    } else {
        if (write_matrix(p, e) != 0)
            return -1;
        size_t start = out->len;
        buf_putc(out, '{');
        put_members(p, c, other(p->rq.to_move), 0, NULL, out);
        buf_putc(out, '}');
        *after_bytes = out->len - start;
    }
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.play: the token goes to the cell, the other moves. */
static int play_play(void *v, const gj_move *m, gj_error *e)
{
    mg_play *p = v;
    if (!valid_move(p, m))
        return gj_fail(e, GJ_INTERNAL, "matrix-game: a move played that is not one");
    uint32_t c = p->pos->cell_of[m->id - 1];
    p->rq.row = mg_row(c);
    p->rq.col = mg_col(c);
    p->rq.to_move = other(p->rq.to_move);
    p->rq.given[MEMBER_TOKEN] = p->rq.given[MEMBER_TO_MOVE] = 1;
    return 0;
}

/* game.h's gj_play.find: a move is [row, column] of a cell the token may
 * go to; its id is the cell's value, found by one pass over the cells. */
static int play_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    mg_play *p = v;
    (void)e;
    long n = p->pos->n;
    const json_t *r = json_array_get(move, 0), *c = json_array_get(move, 1);
    if (json_array_size(move) != 2 || !json_is_integer(r) || !json_is_integer(c))
        return 0;
    json_int_t row = json_integer_value(r), col = json_integer_value(c);
    if (row < 1 || row > n || col < 1 || col > n)
        return 0;
    uint32_t cell = (uint32_t)row << 16 | (uint32_t)col;
    if (!is_move(p, cell))
        return 0;
    for (long val = 1; val <= n * n; val++)
        if (p->pos->cell_of[val - 1] == cell) {
            m->id = (uint64_t)val;
            return 1;
        }
    return 0;
}

/* game.h's gj_play.clone: a copy of the token and mover over the shared
 * solve, made first so the copies never write what they share. */
static void *play_clone(const void *v, gj_error *e)
{
    mg_play *p = (mg_play *)v;
    if (solve_once(p, e) != 0)
        return NULL;
    mg_play *c = malloc(sizeof *c);
    if (c == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    *c = *p;
    c->sh->refs++;
    return c;
}

/* game.h's gj_play.write_members. */
static void play_write_members(void *v, int moved, gj_buf *out)
{
    mg_play *p = v;
    gj_error ignored;
    if (!moved && write_matrix(p, &ignored) != 0) {
        out->failed = 1;
        return;
    }
    put_members(p, token_cell(&p->rq), p->rq.to_move, moved, moved ? NULL : p->rq.given, out);
}

/* game.h's gj_play.draw. */
static int play_draw(void *v, gj_buf *out, int *width, int *height, gj_error *e)
{
    mg_play *p = v;
    return mg_draw(p->pos, p->rq.row, p->rq.col, p->rq.to_move, out, width, height, e);
}

/* matrix_game_core.h's: the shared solve and the token, for puzzles. */
const mg_position *mg_play_at(void *play, uint32_t *token, gj_error *e)
{
    mg_play *p = play;
    if (solve_once(p, e) != 0)
        return NULL;
    *token = token_cell(&p->rq);
    return p->pos;
}

const gj_play matrix_game_play = {
    .parse = play_parse,
    .analyze = play_analyze,
    .rank = play_rank,
    .write_move = play_write_move,
    .play = play_play,
    .find = play_find,
    .clone = play_clone,
    .write_members = play_write_members,
    .free = play_free,
    .draw = play_draw,
    .look = matrix_game_look,
    .motifs = matrix_game_motifs,
    .read_analysis = &read_analysis,
    .adopt = play_adopt,
};

/* analyze() over the parsed position: parse, analyse, free. */
int matrix_game_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, matrix_game_analyze_keys, e);
    if (root == NULL)
        return -1;
    void *p = play_parse(root, limits, e);
    json_decref(root);
    if (p == NULL)
        return -1;
    int rc = play_analyze(p, out, e);
    play_free(p);
    return rc;
}

/* The token goes to the move's cell and the other player moves. */
int matrix_game_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    const json_t *after = json_object_get(entry, "after");
    if (analysis_play_set(req, "token", json_object_get(entry, "move"), e) != 0)
        return -1;
    return analysis_play_set(req, "to_move", json_object_get(after, "to_move"), e);
}
