/* grid_walk_analysis.c - POST /analyze/grid-walk: a walk in progress.
 *
 * The position is the grid and the token's path so far.  Let H be the
 * graph of the cells the token may still use: the free cells off the path,
 * plus the token's own cell v.  The solver's argument (grid_walk.c) holds
 * in H as it does in the whole grid: the player to move from v loses
 * exactly when some maximum matching of H leaves v unmatched, that is when
 * H - v has a maximum matching as large as H's.  A move to w leaves the
 * opponent to move from w in H - v, so it wins exactly when some maximum
 * matching of H - v misses w.
 *
 * So: one maximum matching of H (the solver's matcher, on a grid with the
 * path blocked), then take v out and repair the matching with one
 * augmenting search from v's old mate (the maximum shrinks iff the mover
 * wins), then one alternating BFS marks the cells of H - v that some
 * maximum matching misses: the winning moves.  An empty path is the
 * opening, A placing the token, and that is the solve itself: A wins by
 * placing it on a winning start cell.  Either way the cost is one solve.
 *
 * Remoteness (analysis.h) is a search from the rules (grid_walk_far.c),
 * exact on components of at most 128 cells and within the state bound,
 * else null for the position and every move.  Where it is known the search
 * also decides every outcome, and the matching must agree (GJ_INTERNAL
 * if not); the moves are then ranked by it (fastest win, slowest loss),
 * row-major after that. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "grid_walk.h"
#include "grid_walk_core.h"
#include "grid_walk_matching.h"
#include "json_in.h"

/* The 1-based row of padded cell c (the border is row 0). */
static long cell_row(const gw_position *pos, int c)
{
    return c / pos->width;
}

/* The 1-based column of padded cell c. */
static long cell_col(const gw_position *pos, int c)
{
    return c % pos->width;
}

/* Who moves once the path is `visited` cells long: A places the token
 * (0), then B moves first from it (1), then A (2), and so on. */
static const char *mover(long visited)
{
    return visited % 2 == 0 ? "A" : "B";
}

/* Cell c as [row, column], 1-based. */
static void put_cell(gj_buf *out, const gw_position *pos, int c)
{
    buf_putc(out, '[');
    buf_put_long(out, cell_row(pos, c));
    buf_putc(out, ',');
    buf_put_long(out, cell_col(pos, c));
    buf_putc(out, ']');
}

/* The i-th entry: the token goes to c, making the path `visited` long;
 * rem is the remoteness after it (or ANALYSIS_REMOTENESS_NULL). */
static void put_move(gj_buf *out, long i, const gw_position *pos, int c, int wins, long visited,
                     long long rem)
{
    analysis_move_open(out, i);
    buf_puts(out, "\"move\":");
    put_cell(out, pos, c);
    buf_puts(out, ",\"outcome\":\"");
    buf_puts(out, analysis_outcome(wins));
    buf_putc(out, '"');
    analysis_put_remoteness(out, rem);
    buf_puts(out, ",\"after\":{\"token\":");
    put_cell(out, pos, c);
    buf_puts(out, ",\"to_move\":\"");
    buf_puts(out, mover(visited));
    buf_puts(out, "\",\"visited\":");
    buf_put_long(out, visited);
    buf_putc(out, '}');
    analysis_move_close(out);
}

/* ---- reading the path ---- */

/* path[i], a 1-based [row, column] inside the grid, into *cell: 0, or -1 with *e. */
static int read_cell(const json_t *v, const gw_position *pos, long i, int *cell, gj_error *e)
{
    long r, c;
    if (jin_array(v, "path", i, 0, SIZE_MAX, e) != 0)
        return -1;
    if (json_array_size(v) != 2) {
        char field[32];
        jin_field_name(field, sizeof field, "path", i, -1);
        return gj_fail_field(e, field, "expected [row, column], found %zu elements",
                             json_array_size(v));
    }
    if (jin_long(json_array_get(v, 0), "path", i, 0, 1, pos->rows, &r, e) != 0 ||
        jin_long(json_array_get(v, 1), "path", i, 1, 1, pos->cols, &c, e) != 0)
        return -1;
    *cell = (int)(r * pos->width + c);
    return 0;
}

/* Whether padded cells a and b share a side. */
static bool adjacent(const gw_position *pos, int a, int b)
{
    int d = a > b ? a - b : b - a;
    return d == 1 || d == pos->width; /* the padding keeps rows apart */
}

/* path[i] must be free, next to path[i - 1] and new; open[] holds 2 for the
 * cells already on the path. */
static int check_step(const gw_position *pos, const int *path, long i, gj_error *e)
{
    int c = path[i];
    int blocked = pos->open[c] == 0, apart = i > 0 && !adjacent(pos, path[i - 1], c);
    if (!blocked && !apart && pos->open[c] != 2)
        return 0;
    long r = cell_row(pos, c), col = cell_col(pos, c);
    char field[32];
    jin_field_name(field, sizeof field, "path", i, -1);
    if (blocked)
        return gj_fail_field(e, field, "[%ld, %ld] is a blocked cell", r, col);
    if (apart)
        return gj_fail_field(e, field, "[%ld, %ld] is not adjacent to path[%ld], [%ld, %ld]", r,
                             col, i - 1, cell_row(pos, path[i - 1]), cell_col(pos, path[i - 1]));
    long k = 0;
    while (path[k] != c)
        k++;
    return gj_fail_field(e, field, "[%ld, %ld] has been visited already, at path[%ld]", r, col, k);
}

/* The padded cells of the path, checked; *n is its length.  On success the
 * visited cells are blocked in pos->open, all but the token's own. */
static int read_path(const json_t *v, gw_position *pos, int **out, long *n, gj_error *e)
{
    if (jin_array(v, "path", -1, 0, (size_t)pos->rows * (size_t)pos->cols, e) != 0)
        return -1;
    *n = (long)json_array_size(v);
    int *path = malloc(((size_t)*n + 1) * sizeof *path);
    if (path == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < *n; i++) {
        if (read_cell(json_array_get(v, (size_t)i), pos, i, &path[i], e) != 0 ||
            check_step(pos, path, i, e) != 0) {
            free(path);
            return -1;
        }
        pos->open[path[i]] = 2;
    }
    for (long i = 0; i < *n; i++)
        pos->open[path[i]] = i == *n - 1;
    *out = path;
    return 0;
}

/* The optional "token", "to_move" and "visited" (a whole "after" carries
 * them): the path decides each, so each must say what the path says (the
 * token its last cell, to_move its mover, visited its length).  0, or -1
 * with *e naming the member. */
static int check_said(const json_t *root, const gw_position *pos, const int *path, long n,
                      gj_error *e)
{
    const json_t *token = json_object_get(root, "token"),
                 *to_move = json_object_get(root, "to_move");
    const json_t *visited = json_object_get(root, "visited");
    if (token != NULL && n == 0 && !json_is_null(token))
        return gj_fail_field(e, "token", "the path is empty, so the token is not placed yet");
    if (token != NULL && n > 0) {
        long r = cell_row(pos, path[n - 1]), c = cell_col(pos, path[n - 1]);
        const json_t *tr = json_array_get(token, 0), *tc = json_array_get(token, 1);
        if (json_array_size(token) != 2 || json_integer_value(tr) != r ||
            json_integer_value(tc) != c || !json_is_integer(tr) || !json_is_integer(tc))
            return gj_fail_field(e, "token", "must be the path's last cell, [%ld, %ld]", r, c);
    }
    const char *who = mover(n);
    if (to_move != NULL &&
        !(json_is_string(to_move) && strcmp(json_string_value(to_move), who) == 0))
        return gj_fail_field(e, "to_move", "after a path of %ld cells it is \"%s\" to move", n,
                             who);
    if (visited != NULL && !(json_is_integer(visited) && json_integer_value(visited) == n))
        return gj_fail_field(e, "visited", "must be the path's length, %ld", n);
    return 0;
}

/* ---- remoteness ---- */

/* A move with what the search says of it. */
typedef struct far_move {
    int cell;
    int wins;      /* for the mover */
    long long rem; /* after it */
} far_move;

/* The ranking with remoteness known: by remoteness (analysis.h), then
 * row-major (padded cells are row-major). */
static int far_cmp(const void *pa, const void *pb)
{
    const far_move *a = pa, *b = pb;
    int by = analysis_rank_remoteness(a->wins, a->rem, b->wins, b->rem);
    return by != 0 ? by : (a->cell > b->cell) - (a->cell < b->cell);
}

/* The remoteness of a position from its moves' values after (2 * r + the
 * mover there wins), by the definition: ANALYSIS_REMOTENESS_NULL when one
 * is unknown. */
static long long remoteness_of(const far_move *m, long n)
{
    long long fastest_win = -1, slowest = -1;
    for (long i = 0; i < n; i++) {
        if (m[i].rem < 0)
            return ANALYSIS_REMOTENESS_NULL;
        if (m[i].wins && (fastest_win < 0 || m[i].rem < fastest_win))
            fastest_win = m[i].rem;
        if (m[i].rem > slowest)
            slowest = m[i].rem;
    }
    return 1 + (fastest_win >= 0 ? fastest_win : slowest);
}

/* The first `listed` of the moves m[0..n) by far_cmp, written as entries
 * of a path `visited` long after them; 0, or -1 with *e. */
static int put_far_moves(gj_buf *out, const gw_position *pos, const far_move *m, long n,
                         long listed, long visited, gj_error *e)
{
    analysis_top top;
    if (analysis_top_init(&top, listed, sizeof *m, far_cmp, e) != 0)
        return -1;
    for (long i = 0; i < n; i++)
        analysis_top_offer(&top, &m[i]);
    analysis_top_finish(&top);
    const far_move *k = (const far_move *)top.item;
    for (long i = 0; i < top.count; i++)
        put_move(out, i, pos, k[i].cell, k[i].wins, visited, k[i].rem);
    analysis_top_free(&top);
    return 0;
}

/* The search's word on the opening: every free cell's placement into m
 * (row-major, with the matching's outcome in wins), its remoteness after
 * in rem (ANALYSIS_REMOTENESS_NULL for all when one is past the bound).
 * 0, or -1 with *e (GJ_INTERNAL when the search and the matching differ). */
static int far_opening(const gw_position *pos, far_move *m, long n, gj_error *e)
{
    gw_far *f = gw_far_new(pos, e);
    if (f == NULL)
        return -1;
    long past = 0;
    for (long i = 0; i < n && !past; i++) {
        long v = gw_far_walk(f, m[i].cell, NULL, 0, NULL, e);
        if (v == -1) {
            gw_far_free(f);
            return -1;
        }
        past = v == GW_FAR_PAST;
        m[i].rem = past ? ANALYSIS_REMOTENESS_NULL : v / 2;
        if (!past && (v % 2 == 0) != m[i].wins) {
            gw_far_free(f);
            return gj_fail(e, GJ_INTERNAL,
                           "grid-walk: the search and the matching differ at [%ld, %ld]",
                           cell_row(pos, m[i].cell), cell_col(pos, m[i].cell));
        }
    }
    gw_far_free(f);
    for (long i = 0; past && i < n; i++)
        m[i].rem = ANALYSIS_REMOTENESS_NULL;
    return 0;
}

/* ---- the two kinds of position ---- */

/* A places the token: every free cell, the solver's winners first (with
 * remoteness known, ranked by it). */
static int analyze_opening(gw_position *pos, long max_moves, gj_buf *out, gj_error *e)
{
    if (gw_solve(pos, e) != 0)
        return -1;
    int cells = (int)((pos->rows + 2) * pos->width);
    long nfree = 0;
    for (int c = 0; c < cells; c++)
        nfree += pos->open[c];
    far_move *m = malloc((size_t)(nfree > 0 ? nfree : 1) * sizeof *m);
    if (m == NULL)
        return gj_fail_nomem(e);
    long w = 0, i = 0; /* the winners are row-major too: walk them in step */
    for (int c = 0; c < cells; c++) {
        if (!pos->open[c])
            continue;
        int wins = w < pos->nwinners && pos->winners[w] == c;
        w += wins;
        m[i++] = (far_move){c, wins, ANALYSIS_REMOTENESS_NULL};
    }
    if (far_opening(pos, m, nfree, e) != 0) {
        free(m);
        return -1;
    }
    long long rem = nfree == 0 ? 0 : remoteness_of(m, nfree);
    analysis_counts k = {nfree, pos->nwinners, nfree < max_moves ? nfree : max_moves};
    analysis_begin(out, game_grid_walk.name, "A", pos->nwinners > 0, rem, &k);
    int rc = 0;
    if (rem >= 0)
        rc = put_far_moves(out, pos, m, nfree, k.listed, 1, e);
    else {
        long listed = 0;
        for (int pass = 1; pass >= 0; pass--)
            for (long j = 0; j < nfree && listed < k.listed; j++)
                if (m[j].wins == pass)
                    put_move(out, listed++, pos, m[j].cell, pass, 1, ANALYSIS_REMOTENESS_NULL);
    }
    free(m);
    if (rc == 0)
        analysis_end(out, k.listed);
    return rc;
}

/* The token on path[n - 1], the rest of the path blocked in pos->open. */
static int analyze_walk(gw_position *pos, const int *path, long n, long max_moves, gj_buf *out,
                        gj_error *e)
{
    int v = path[n - 1];
    const int step[4] = {-pos->width, -1, 1, pos->width}; /* row-major order */
    int moves[4], wins[4], nmoves = 0, mover_wins = 0;
    for (int d = 0; d < 4; d++)
        if (pos->open[v + step[d]])
            moves[nmoves++] = v + step[d];
    if (nmoves > 0) {
        gw_matching *m = gw_match(pos, e);
        if (m == NULL)
            return -1;
        unsigned char *mark = malloc((size_t)(pos->rows + 2) * (size_t)pos->width);
        if (mark == NULL) {
            gw_free_matching(m);
            return gj_fail_nomem(e);
        }
        mover_wins = gw_drop_cell(m, v);
        gw_mark_avoidable(m, mark);
        for (int i = 0; i < nmoves; i++)
            wins[i] = mark[moves[i]];
        free(mark);
        gw_free_matching(m);
    }
    far_move fm[4];
    long after[4];
    gw_far *f = gw_far_new(pos, e);
    long value = f == NULL ? -1 : gw_far_walk(f, v, moves, nmoves, after, e);
    gw_far_free(f);
    if (value == -1)
        return -1;
    long long rem = value >= 0 ? value / 2 : ANALYSIS_REMOTENESS_NULL;
    for (int i = 0; i < nmoves; i++) {
        fm[i] = (far_move){moves[i], wins[i], rem >= 0 ? after[i] / 2 : ANALYSIS_REMOTENESS_NULL};
        if (rem >= 0 && (after[i] % 2 == 0) != wins[i])
            value = -3;
    }
    if (value >= 0 && value % 2 != mover_wins)
        value = -3;
    if (value == -3)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: the search and the matching differ");
    analysis_counts k = {nmoves, 0, nmoves < max_moves ? nmoves : max_moves};
    for (int i = 0; i < nmoves; i++)
        k.winning_moves += wins[i];
    analysis_begin(out, game_grid_walk.name, mover(n), mover_wins, rem, &k);
    if (rem >= 0) {
        if (put_far_moves(out, pos, fm, nmoves, k.listed, n + 1, e) != 0)
            return -1;
    } else {
        long listed = 0;
        for (int pass = 1; pass >= 0; pass--)
            for (int i = 0; i < nmoves && listed < k.listed; i++)
                if (wins[i] == pass)
                    put_move(out, listed++, pos, moves[i], pass, n + 1, ANALYSIS_REMOTENESS_NULL);
    }
    analysis_end(out, k.listed);
    return 0;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const grid_walk_analyze_keys[] = {"grid",     "path",       "?token", "?to_move",
                                              "?visited", "?max_moves", NULL};

int grid_walk_analyze(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    json_t *root = jin_load_object(buf, len, grid_walk_analyze_keys, e);
    if (root == NULL)
        return -1;
    gw_position *pos = NULL;
    int *path = NULL;
    long max_moves, n = 0;
    int rc = -1;
    if (analysis_max_moves(root, &max_moves, e) != 0)
        goto done;
    pos = gw_parse_grid(json_object_get(root, "grid"), limits, e);
    if (pos == NULL || read_path(json_object_get(root, "path"), pos, &path, &n, e) != 0 ||
        check_said(root, pos, path, n, e) != 0)
        goto done;
    json_decref(root);
    root = NULL; /* a long path's JSON is large: let it go before the matching */
    if (n == 0)
        rc = analyze_opening(pos, max_moves, out, e);
    else
        rc = analyze_walk(pos, path, n, max_moves, out, e);
    if (rc == 0 && out->failed)
        rc = gj_fail_nomem(e);
done:
    free(path);
    gw_free_position(pos);
    json_decref(root);
    return rc;
}

/* The move's cell joins the path (at the opening it is the token's place),
 * in a new array: the request's own path is left as it was (game.h); a
 * token, to_move or visited sent along become the move's. */
int grid_walk_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    json_t *path = json_object_get(req, "path");
    const json_t *cell = json_object_get(entry, "move");
    if (!json_is_array(path) || cell == NULL)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: no path or no move to play");
    json_t *longer = json_copy(path);
    if (longer == NULL)
        return gj_fail_nomem(e);
    if (json_array_append_new(longer, json_deep_copy(cell)) != 0) {
        json_decref(longer);
        return gj_fail_nomem(e);
    }
    if (json_object_set_new(req, "path", longer) != 0)
        return gj_fail_nomem(e);
    return analysis_play_carried(req, json_object_get(entry, "after"), e);
}
