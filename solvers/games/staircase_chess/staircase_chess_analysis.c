/* staircase_chess_analysis.c - POST /analyze/staircase-chess: a staircase in
 * the middle of play, and every stone that may go down next, ranked.
 *
 * The idea: the rest of the game depends only on the staircase (its stone
 * count says whose turn it is).  A move only adds a stone, so the games from
 * a staircase reach exactly the staircases that contain it, all of smaller
 * rank; the solver's sweep (staircase_chess_core.h) walks those, and only
 * those, in rank order and fills in the mover's best margin of each: one
 * pass, never more than one solve.  A move's score is the mover's gain on
 * the cell minus the opponent's best margin afterwards (negamax), and the
 * value is the best score, exact by the same induction over ranks as the
 * solve.  The stones' order adds only the score so far.
 *
 * Remoteness (analysis.h): every game fills the board, so whatever anyone
 * plays the moves left are the empty cells; the answer says so for the
 * position and each entry, and the ranking by score is untouched. */
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "staircase_chess.h"
#include "json_in.h"
#include "staircase_chess_core.h"

typedef struct request {
    sc_board *board;
    long *profile;    /* n row lengths, top row first */
    long stones;      /* stones on the board */
    int known_order;  /* who placed what is known: the score so far is */
    long long so_far; /* black minus white over the placed stones */
    long max_moves;
} request;

typedef struct entry {
    long row; /* the stone goes to (row, profile[row]) */
    long long score;
} entry;

/* Who places the next stone after `stones` are placed (black first). */
static const char *player(long stones)
{
    return stones % 2 == 0 ? "black" : "white";
}

/* The earlier element of `stones` that put a stone on (r, c), 1-based. */
static long earlier_stone(const json_t *v, long upto, long r, long c)
{
    for (long k = 0; k < upto; k++) {
        const json_t *s = json_array_get(v, (size_t)k);
        if (json_integer_value(json_array_get(s, 0)) == r &&
            json_integer_value(json_array_get(s, 1)) == c)
            return k;
    }
    return -1;
}

/* Place stones[k] at (r, c), 1-based, if the rules allow it now. */
static int place(request *q, const json_t *v, long k, long r, long c, gj_error *e)
{
    char field[32];
    long m = q->board->m, *len = q->profile;
    jin_field_name(field, sizeof field, "stones", k, -1);
    if (len[r - 1] >= c)
        return gj_fail_field(e, field, "(%ld,%ld) already holds a stone (stones[%ld])", r, c,
                             earlier_stone(v, k, r, c));
    if (len[r - 1] < c - 1)
        return gj_fail_field(e, field, "(%ld,%ld) cannot take a stone before (%ld,%ld)", r, c, r,
                             c - 1);
    if (r > 1 && len[r - 2] < c)
        return gj_fail_field(e, field, "(%ld,%ld) cannot take a stone before (%ld,%ld)", r, c,
                             r - 1, c);
    long cell = (r - 1) * m + (c - 1);
    q->so_far += k % 2 == 0 ? q->board->a[cell] : -(long long)q->board->b[cell];
    len[r - 1]++;
    return 0;
}

/* "stones", the cells stones went to, in play order, into q: 0, or -1 with *e. */
static int read_stones(request *q, const json_t *v, gj_error *e)
{
    long n = q->board->n, m = q->board->m;
    if (jin_array(v, "stones", -1, 0, (size_t)(n * m), e) != 0)
        return -1;
    for (long k = 0; k < (long)json_array_size(v); k++) {
        const json_t *s = json_array_get(v, (size_t)k);
        long r, c;
        if (jin_array(s, "stones", k, 0, (size_t)-1, e) != 0)
            return -1;
        if (json_array_size(s) != 2) {
            char field[32];
            jin_field_name(field, sizeof field, "stones", k, -1);
            return gj_fail_field(e, field, "expected [row, column], found %zu element%s",
                                 json_array_size(s), json_array_size(s) == 1 ? "" : "s");
        }
        if (jin_long(json_array_get(s, 0), "stones", k, 0, 1, n, &r, e) != 0 ||
            jin_long(json_array_get(s, 1), "stones", k, 1, 1, m, &c, e) != 0 ||
            place(q, v, k, r, c, e) != 0)
            return -1;
    }
    q->stones = (long)json_array_size(v);
    return 0;
}

/* "profile", the stones in each row, top row first, into q: 0, or -1 with *e. */
static int read_profile(request *q, const json_t *v, gj_error *e)
{
    long n = q->board->n, m = q->board->m;
    if (jin_array(v, "profile", -1, 0, (size_t)-1, e) != 0)
        return -1;
    if ((long)json_array_size(v) != n)
        return gj_fail_field(e, "profile", "has %zu row%s, expected %ld as in a",
                             json_array_size(v), json_array_size(v) == 1 ? "" : "s", n);
    for (long i = 0; i < n; i++) {
        if (jin_long(json_array_get(v, (size_t)i), "profile", i, -1, 0, m, &q->profile[i], e) != 0)
            return -1;
        if (i > 0 && q->profile[i] > q->profile[i - 1]) {
            char field[32];
            jin_field_name(field, sizeof field, "profile", i, -1);
            return gj_fail_field(e, field,
                                 "%ld stones under a row of %ld; rows never grow downwards",
                                 q->profile[i], q->profile[i - 1]);
        }
        q->stones += q->profile[i];
    }
    return 0;
}

/* "profile" beside "stones" (a whole "after" has both): it must be the
 * profile the stones make, read into q already.  0, or -1 with *e. */
static int check_profile(const request *q, const json_t *v, gj_error *e)
{
    long n = q->board->n;
    if (!json_is_array(v) || json_array_size(v) != (size_t)n)
        return gj_fail_field(e, "profile",
                             "beside stones it must be the %ld row lengths the stones make", n);
    for (long i = 0; i < n; i++) {
        const json_t *x = json_array_get(v, (size_t)i);
        if (!json_is_integer(x) || json_integer_value(x) != q->profile[i]) {
            char field[32];
            jin_field_name(field, sizeof field, "profile", i, -1);
            return gj_fail_field(e, field,
                                 "beside stones it must be the profile they make: row %ld holds "
                                 "%ld stones",
                                 i + 1, q->profile[i]);
        }
    }
    return 0;
}

/* The optional "to_move", which the stones decide: it must name the player
 * whose turn it is.  0, or -1 with *e. */
static int check_to_move(const request *q, const json_t *v, gj_error *e)
{
    const char *want = player(q->stones);
    if (v == NULL || (json_is_string(v) && strcmp(json_string_value(v), want) == 0))
        return 0;
    return gj_fail_field(e, "to_move",
                         "with %ld stones on the board it is \"%s\" to move (the stones decide it)",
                         q->stones, want);
}

/* The request's boards, stones or profile and max_moves into *q: 0, or -1 with *e. */
static int read_request(request *q, const json_t *root, const long *limits, gj_error *e)
{
    const json_t *stones = json_object_get(root, "stones");
    const json_t *profile = json_object_get(root, "profile");
    q->board = sc_read_json(root, limits, e);
    if (q->board == NULL)
        return -1;
    q->profile = calloc((size_t)q->board->n, sizeof *q->profile);
    if (q->profile == NULL)
        return gj_fail_nomem(e);
    q->known_order = stones != NULL || profile == NULL; /* the empty board's order is known */
    if (stones != NULL && read_stones(q, stones, e) != 0)
        return -1;
    if (profile != NULL && stones != NULL && check_profile(q, profile, e) != 0)
        return -1;
    if (profile != NULL && stones == NULL && read_profile(q, profile, e) != 0)
        return -1;
    if (check_to_move(q, json_object_get(root, "to_move"), e) != 0)
        return -1;
    return analysis_max_moves(root, &q->max_moves, e);
}

/* Every cell that may take a stone now, scored from value[] (the sweep up
 * to the position's rank), best first and row-major among equals. */
static long score_moves(const request *q, const sc_moves *t, const int32_t *value, entry *list)
{
    const sc_board *g = q->board;
    long count = 0, *len = q->profile;
    int black = q->stones % 2 == 0;
    for (long i = 0; i < g->n; i++) {
        if (len[i] == g->m || (i > 0 && len[i - 1] == len[i]))
            continue;
        long cell = i * g->m + len[i];
        len[i]++;
        uint32_t after = sc_rank(t, len);
        len[i]--;
        entry x = {i, (long long)(black ? g->a[cell] : g->b[cell]) - value[after]};
        long k = count++;
        for (; k > 0 && list[k - 1].score < x.score; k--)
            list[k] = list[k - 1];
        list[k] = x;
    }
    return count;
}

/* The cells without a stone: the plies left, on every line of play. */
static long long empty_cells(const request *q)
{
    return (long long)q->board->n * q->board->m - q->stones;
}

/* One list entry: the stone, its score and the profile after it. */
static void write_move(gj_buf *out, const request *q, const entry *x)
{
    long *len = q->profile;
    buf_puts(out, "\"move\":[");
    buf_put_long(out, x->row + 1);
    buf_putc(out, ',');
    buf_put_long(out, len[x->row] + 1);
    buf_puts(out, "],\"score\":");
    buf_put_long(out, x->score);
    analysis_put_remoteness(out, empty_cells(q) - 1);
    buf_puts(out, ",\"after\":{\"profile\":[");
    for (long i = 0; i < q->board->n; i++) {
        if (i > 0)
            buf_putc(out, ',');
        buf_put_long(out, len[i] + (i == x->row));
    }
    buf_puts(out, "],\"to_move\":\"");
    buf_puts(out, player(q->stones + 1));
    buf_puts(out, "\"}");
}

/* The analysis (analysis.h) from the scored moves, best first. */
static void write_answer(gj_buf *out, const request *q, long long v, const entry *list, long count)
{
    analysis_counts c = {.moves_total = count, .listed = count};
    if (c.listed > q->max_moves)
        c.listed = q->max_moves;
    for (long k = 0; k < count; k++)
        c.winning_moves += list[k].score == v;
    analysis_begin_score(out, game_staircase_chess.name, player(q->stones), v, empty_cells(q), &c);
    if (q->known_order) {
        buf_puts(out, ",\"score_so_far\":");
        buf_put_long(out, q->so_far);
        buf_puts(out, ",\"final_difference\":");
        buf_put_long(out, q->so_far + (q->stones % 2 == 0 ? v : -v));
    }
    for (long k = 0; k < c.listed; k++) {
        analysis_move_open(out, k);
        write_move(out, q, &list[k]);
        analysis_move_close(out);
    }
    analysis_end(out, c.listed);
}

/* Solve from q's position and write its analysis: 0, or -1 with *e. */
static int analyze(const request *q, gj_buf *out, gj_error *e)
{
    sc_moves *t = malloc(sizeof *t);
    entry *list = malloc((size_t)q->board->n * sizeof *list);
    int32_t *value = NULL;
    int rc = -1;
    if (t == NULL || list == NULL) {
        gj_fail_nomem(e);
        goto done;
    }
    sc_tabulate(q->board, t);
    uint32_t rank = sc_rank(t, q->profile);
    value = malloc(((size_t)rank + 1) * sizeof *value);
    if (value == NULL) {
        gj_fail_nomem(e);
        goto done;
    }
    /* The empty board takes the solver's own walk over every staircase. */
    int32_t v;
    if (sc_sweep(t, value, rank + 1 == t->states ? NULL : q->profile, &v, e) != 0)
        goto done;
    long count = score_moves(q, t, value, list);
    write_answer(out, q, v, list, count);
    rc = 0;
done:
    free(value);
    free(list);
    free(t);
    return rc;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const staircase_chess_analyze_keys[] = {"a",        "b",          "?stones", "?profile",
                                                    "?to_move", "?max_moves", NULL};

int staircase_chess_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e)
{
    json_t *root = jin_load_object(buf, len, staircase_chess_analyze_keys, e);
    if (root == NULL)
        return -1;
    request q = {0};
    int rc = read_request(&q, root, limits, e);
    json_decref(root);
    if (rc == 0)
        rc = analyze(&q, out, e);
    free(q.profile);
    sc_board_free(q.board);
    return rc;
}

/* A request by profile takes the move's profile; one by stones (or the
 * empty board) gains the stone, so the score so far stays known; one with
 * both (a whole "after") does both.  New arrays: the request's own are left
 * as they were (game.h). */
int staircase_chess_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    const json_t *after = json_object_get(entry, "after");
    json_t *stones = json_object_get(req, "stones");
    if (json_object_get(req, "profile") != NULL &&
        analysis_play_set(req, "profile", json_object_get(after, "profile"), e) != 0)
        return -1;
    /* A to_move sent along stays true of the position. */
    if (json_object_get(req, "to_move") != NULL &&
        analysis_play_set(req, "to_move", json_object_get(after, "to_move"), e) != 0)
        return -1;
    if (stones == NULL && json_object_get(req, "profile") != NULL)
        return 0;
    json_t *more = stones == NULL ? json_array() : json_copy(stones);
    const json_t *cell = json_object_get(entry, "move");
    if (more == NULL || !json_is_array(more) || cell == NULL) {
        json_decref(more);
        return gj_fail(e, GJ_INTERNAL, "staircase-chess: no stones or no move to play");
    }
    if (json_array_append_new(more, json_deep_copy(cell)) != 0) {
        json_decref(more);
        return gj_fail_nomem(e);
    }
    return json_object_set_new(req, "stones", more) != 0 ? gj_fail_nomem(e) : 0;
}
