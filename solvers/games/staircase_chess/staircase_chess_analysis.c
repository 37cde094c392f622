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
 * position and each entry, and the ranking by score is untouched.
 *
 * The parsed position (game.h's gj_play, staircase_chess_play below) is
 * what analyze() wraps and what the perfect-play line plays on.  For the
 * reason above, the one sweep from the parsed staircase already holds the
 * value of every staircase play can reach from it: the sweep is made once
 * per request, and each later move is scored from it in O(n) with no
 * search.  A clone shares the sweep, which nobody changes. */
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "staircase_chess.h"
#include "json_in.h"
#include "staircase_chess_core.h"

/* The request's position members, for writing them back in its order. */
enum { MEMBER_A, MEMBER_B, MEMBER_STONES, MEMBER_PROFILE, MEMBER_TO_MOVE, MEMBERS };

typedef struct request {
    sc_board *board;
    long *profile;    /* n row lengths, top row first */
    long stones;      /* stones on the board */
    int known_order;  /* who placed what is known: the score so far is */
    long long so_far; /* black minus white over the placed stones */
    long *played;     /* known_order: the stones' cells (row * m + column) in play order */
    long max_moves;
    int order[MEMBERS]; /* the members as the request gives them, then those a move adds */
    int norder;
    int given[MEMBERS]; /* by member: the request gave it, or a move played since added it */
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
    q->played[k] = cell;
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
    q->played = malloc((size_t)(q->board->n * q->board->m) * sizeof *q->played);
    if (q->profile == NULL || q->played == NULL)
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

/* q->order from root: its position members in its order, then the ones it
 * lacks as a played move adds them (play_move, then after.c's diff
 * members): the stones when their order is known, the profile, the mover. */
static void read_order(request *q, const json_t *root)
{
    static const char *const names[MEMBERS] = {"a", "b", "stones", "profile", "to_move"};
    int seen[MEMBERS] = {0};
    const char *key;
    json_t *v;
    q->norder = 0;
    json_object_foreach((json_t *)root, key, v)
    {
        for (int k = 0; k < MEMBERS; k++)
            if (!seen[k] && strcmp(key, names[k]) == 0) {
                seen[k] = q->given[k] = 1;
                q->order[q->norder++] = k;
            }
    }
    for (int k = MEMBER_STONES; k < MEMBERS; k++)
        if (!seen[k] && (k != MEMBER_STONES || q->known_order))
            q->order[q->norder++] = k;
}

/* Free what read_request allocated in q. */
static void free_request(request *q)
{
    free(q->profile);
    free(q->played);
    sc_board_free(q->board);
}

/* The sweep of a position's staircase, made once for a parsed position and
 * everything played from it: every staircase a game from there reaches
 * contains it, so its value is already in value[].  Clones share it and
 * never change it, so the count of holders is the only thing written. */
typedef struct solved {
    atomic_long holders;
    sc_moves t;
    int32_t *value; /* by rank, the mover's best margin: staircases containing the swept one */
} solved;

/* A parsed position in play (game.h's gj_play): the request as read, with
 * the stones played on it since, and the sweep once something needed it. */
typedef struct sc_play {
    request q;
    solved *s; /* NULL until the first analyze, rank or write_move */
} sc_play;

/* Drop one holder of s, freeing it with the last. */
static void solved_release(solved *s)
{
    if (s != NULL && atomic_fetch_sub(&s->holders, 1) == 1) {
        free(s->value);
        free(s);
    }
}

/* Sweep p's staircase unless done before for it or a position it came
 * from: 0, or -1 with *e (out of memory, cancelled). */
static int solve_once(sc_play *p, gj_error *e)
{
    if (p->s != NULL)
        return 0;
    solved *s = malloc(sizeof *s);
    if (s == NULL)
        return gj_fail_nomem(e);
    atomic_init(&s->holders, 1);
    sc_tabulate(p->q.board, &s->t);
    uint32_t rank = sc_rank(&s->t, p->q.profile);
    s->value = malloc(((size_t)rank + 1) * sizeof *s->value);
    if (s->value == NULL) {
        free(s);
        return gj_fail_nomem(e);
    }
    /* The empty board takes the solver's own walk over every staircase. */
    int32_t v;
    if (sc_sweep(&s->t, s->value, rank + 1 == s->t.states ? NULL : p->q.profile, &v, e) != 0) {
        solved_release(s);
        return -1;
    }
    p->s = s;
    return 0;
}

/* The mover's best margin at q's staircase (s swept). */
static long long position_value(const request *q, const solved *s)
{
    return s->value[sc_rank(&s->t, q->profile)];
}

/* Whether a stone may go at the end of row `row` (0-based) now. */
static int legal_row(const request *q, uint64_t row)
{
    const long *len = q->profile;
    if (row >= (uint64_t)q->board->n)
        return 0;
    long i = (long)row;
    return len[i] < q->board->m && (i == 0 || len[i - 1] > len[i]);
}

/* The score of the stone at the end of row i, legal now (s swept): the
 * mover's gain minus the opponent's best margin afterwards. */
static long long move_score(request *q, const solved *s, long i)
{
    const sc_board *g = q->board;
    long cell = i * g->m + q->profile[i];
    q->profile[i]++;
    uint32_t after = sc_rank(&s->t, q->profile);
    q->profile[i]--;
    return (long long)(q->stones % 2 == 0 ? g->a[cell] : g->b[cell]) - s->value[after];
}

/* Every cell that may take a stone now, scored (s swept), best first and
 * row-major among equals; list holds n entries. */
static long score_moves(request *q, const solved *s, entry *list)
{
    long count = 0;
    for (long i = 0; i < q->board->n; i++) {
        if (!legal_row(q, (uint64_t)i))
            continue;
        entry x = {i, move_score(q, s, i)};
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

/* An entry's members up to the value of "after": the stone, its score and
 * the plies left after it. */
static void put_entry_head(gj_buf *out, const request *q, const entry *x)
{
    buf_puts(out, "\"move\":[");
    buf_put_long(out, x->row + 1);
    buf_putc(out, ',');
    buf_put_long(out, q->profile[x->row] + 1);
    buf_puts(out, "],\"score\":");
    buf_put_long(out, x->score);
    analysis_put_remoteness(out, empty_cells(q) - 1);
    buf_puts(out, ",\"after\":");
}

/* The diff of the stone at the end of row `row`: the profile after it and
 * the next mover. */
static void put_diff(gj_buf *out, const request *q, long row)
{
    buf_puts(out, "{\"profile\":[");
    for (long i = 0; i < q->board->n; i++) {
        if (i > 0)
            buf_putc(out, ',');
        buf_put_long(out, q->profile[i] + (i == row));
    }
    buf_puts(out, "],\"to_move\":\"");
    buf_puts(out, player(q->stones + 1));
    buf_puts(out, "\"}");
}

/* The analysis (analysis.h) of value v from the scored moves, best first. */
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
        put_entry_head(out, q, &list[k]);
        put_diff(out, q, list[k].row);
        analysis_move_close(out);
    }
    analysis_end(out, c.listed);
}

/* q's members in q->order (see read_order), comma-separated; with moved,
 * only those a stone changes (the boards stay); with `given`, only the
 * members it marks. */
static void put_members(const request *q, int moved, const int *given, gj_buf *out)
{
    const sc_board *g = q->board;
    int first = 1;
    for (int k = 0; k < q->norder; k++) {
        int member = q->order[k];
        if ((moved && (member == MEMBER_A || member == MEMBER_B)) ||
            (given != NULL && !given[member]))
            continue;
        if (!first)
            buf_putc(out, ',');
        first = 0;
        if (member == MEMBER_A || member == MEMBER_B) {
            buf_puts(out, member == MEMBER_A ? "\"a\":" : "\"b\":");
            /* Integers, which JSON writes one way: as the request gave them. */
            buf_put_rows(out, member == MEMBER_A ? g->a : g->b, g->n, g->m);
        } else if (member == MEMBER_STONES) {
            buf_puts(out, "\"stones\":[");
            for (long s = 0; s < q->stones; s++) {
                buf_puts(out, s > 0 ? ",[" : "[");
                buf_put_long(out, q->played[s] / g->m + 1);
                buf_putc(out, ',');
                buf_put_long(out, q->played[s] % g->m + 1);
                buf_putc(out, ']');
            }
            buf_putc(out, ']');
        } else if (member == MEMBER_PROFILE) {
            buf_puts(out, "\"profile\":[");
            for (long i = 0; i < g->n; i++) {
                if (i > 0)
                    buf_putc(out, ',');
                buf_put_long(out, q->profile[i]);
            }
            buf_putc(out, ']');
        } else {
            buf_puts(out, "\"to_move\":\"");
            buf_puts(out, player(q->stones));
            buf_putc(out, '"');
        }
    }
}

/* A stone at the end of row i, legal now, without the score so far: what
 * play does and whole afters write the position after. */
static void add_stone(request *q, long i)
{
    q->played[q->stones++] = i * q->board->m + q->profile[i];
    q->profile[i]++;
}

/* Undo add_stone(q, i). */
static void take_stone(request *q, long i)
{
    q->profile[i]--;
    q->stones--;
}

/* game.h's gj_play.parse: analyze()'s reading, then the members' order. */
static void *play_parse(const json_t *req, const long *limits, gj_error *e)
{
    sc_play *p = calloc(1, sizeof *p);
    if (p == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    if (read_request(&p->q, req, limits, e) != 0) {
        free_request(&p->q);
        free(p);
        return NULL;
    }
    read_order(&p->q, req);
    return p;
}

/* game.h's gj_play.free. */
static void play_free(void *v)
{
    sc_play *p = v;
    if (p == NULL)
        return;
    free_request(&p->q);
    solved_release(p->s);
    free(p);
}

/* game.h's gj_play.analyze: the sweep (once), then every move scored. */
static int play_analyze(void *v, gj_buf *out, gj_error *e)
{
    sc_play *p = v;
    entry list[SC_MAX_SIZE];
    if (solve_once(p, e) != 0)
        return -1;
    long count = score_moves(&p->q, p->s, list);
    write_answer(out, &p->q, position_value(&p->q, p->s), list, count);
    return 0;
}

/* game.h's gj_play.rank: the n rows are all the moves there are, so the
 * counts cost nothing beside the best move and are always made. */
static long play_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    sc_play *p = v;
    entry list[SC_MAX_SIZE];
    if (max < 1)
        return gj_fail(e, GJ_INTERNAL, "staircase-chess: %ld moves asked of a ranking", max);
    if (solve_once(p, e) != 0)
        return -1;
    long count = score_moves(&p->q, p->s, list), listed = count < max ? count : max;
    long long left = empty_cells(&p->q);
    for (long k = 0; k < listed; k++)
        moves[k] = (gj_move){(uint64_t)list[k].row, 0, list[k].score, left - 1};
    if (head != NULL) {
        head->value = position_value(&p->q, p->s);
        head->remoteness = left;
        head->moves_total = count;
        head->winning_moves = 0;
        head->to_move = player(p->q.stones);
        head->scored = 1;
        for (long k = 0; k < count; k++)
            head->winning_moves += list[k].score == head->value;
    }
    return listed;
}

/* A move's id that names no stone the rules allow now: the caller's bug. */
static int bad_move(const gj_move *m, gj_error *e)
{
    return gj_fail(e, GJ_INTERNAL, "staircase-chess: row %llu takes no stone here",
                   (unsigned long long)m->id + 1);
}

/* game.h's gj_play.write_move: the entry analyze() writes, its score found
 * again (a move find() gave has none), the after whole or the diff. */
static int play_write_move(void *v, const gj_move *m, int whole, gj_buf *out, size_t *after_bytes,
                           gj_error *e)
{
    sc_play *p = v;
    request *q = &p->q;
    *after_bytes = 0;
    if (!legal_row(q, m->id))
        return bad_move(m, e);
    if (solve_once(p, e) != 0)
        return -1;
    long row = (long)m->id;
    entry x = {row, move_score(q, p->s, row)};
    put_entry_head(out, q, &x);
    if (!whole) {
        put_diff(out, q, row);
    } else {
        size_t start = out->len;
        buf_putc(out, '{');
        add_stone(q, row);
        put_members(q, 0, NULL, out);
        take_stone(q, row);
        buf_putc(out, '}');
        *after_bytes = out->len - start;
    }
    return out->failed ? gj_fail_nomem(e) : 0;
}

/* game.h's gj_play.play: the stone goes down, the score so far gains it. */
static int play_play(void *v, const gj_move *m, gj_error *e)
{
    request *q = &((sc_play *)v)->q;
    if (!legal_row(q, m->id))
        return bad_move(m, e);
    long row = (long)m->id, cell = row * q->board->m + q->profile[row];
    q->so_far += q->stones % 2 == 0 ? q->board->a[cell] : -(long long)q->board->b[cell];
    add_stone(q, row);
    /* play_move gives a request without a profile the stones. */
    q->given[MEMBER_STONES] |= q->known_order;
    return 0;
}

/* game.h's gj_play.find: [row, column], integers, the cell at the end of a
 * row that may take a stone now. */
static int play_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    const request *q = &((sc_play *)v)->q;
    (void)e;
    const json_t *r = json_array_get(move, 0), *c = json_array_get(move, 1);
    if (!json_is_array(move) || json_array_size(move) != 2 || !json_is_integer(r) ||
        !json_is_integer(c))
        return 0;
    json_int_t row = json_integer_value(r) - 1, col = json_integer_value(c) - 1;
    if (row < 0 || !legal_row(q, (uint64_t)row) || col != q->profile[row])
        return 0;
    m->id = (uint64_t)row;
    return 1;
}

/* game.h's gj_play.clone: the request's arrays copied, the sweep shared. */
static void *play_clone(const void *v, gj_error *e)
{
    const sc_play *p = v;
    const request *q = &p->q;
    long n = q->board->n, cells = n * q->board->m;
    sc_play *c = calloc(1, sizeof *c);
    if (c == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    c->q = *q;
    c->q.board = sc_board_copy(q->board, e);
    c->q.profile = malloc((size_t)n * sizeof *c->q.profile);
    c->q.played = malloc((size_t)cells * sizeof *c->q.played);
    if (c->q.board == NULL || c->q.profile == NULL || c->q.played == NULL) {
        if (c->q.board != NULL)
            gj_fail_nomem(e);
        play_free(c);
        return NULL;
    }
    memcpy(c->q.profile, q->profile, (size_t)n * sizeof *c->q.profile);
    memcpy(c->q.played, q->played, (size_t)q->stones * sizeof *c->q.played);
    c->s = p->s;
    if (c->s != NULL)
        atomic_fetch_add(&c->s->holders, 1);
    return c;
}

/* game.h's gj_play.write_members: those given, or all that a move changes. */
static void play_write_members(void *v, int moved, gj_buf *out)
{
    const request *q = &((sc_play *)v)->q;
    put_members(q, moved, moved ? NULL : q->given, out);
}

/* game.h's gj_play.draw. */
static int play_draw(void *v, gj_buf *out, int *width, int *height, gj_error *e)
{
    const request *q = &((sc_play *)v)->q;
    return sc_draw(q->board, q->profile, q->stones, q->known_order ? q->played : NULL, q->so_far,
                   out, width, height, e);
}

/* staircase_chess_core.h's: the board, the profile and the stones, for puzzles. */
void sc_play_view(const void *pos, const sc_board **board, const long **profile, long *stones)
{
    const request *q = &((const sc_play *)pos)->q;
    *board = q->board;
    *profile = q->profile;
    *stones = q->stones;
}

const gj_play staircase_chess_play = {
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
    .look = staircase_chess_look,
    .motifs = staircase_chess_motifs_of,
};

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const staircase_chess_analyze_keys[] = {"a",        "b",          "?stones", "?profile",
                                                    "?to_move", "?max_moves", NULL};

/* analyze() over the parsed position: parse, analyse, free. */
int staircase_chess_analyze(const char *buf, size_t len, const long *limits, gj_buf *out,
                            gj_error *e)
{
    json_t *root = jin_load_object(buf, len, staircase_chess_analyze_keys, e);
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
