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
 * placing it on a winning start cell.  Either way the cost is one solve. */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "analysis.h"
#include "games.h"
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

/* The i-th entry: the token goes to c, making the path `visited` long. */
static void put_move(gj_buf *out, long i, const gw_position *pos, int c, int wins, long visited)
{
    analysis_move_open(out, i);
    buf_puts(out, "\"move\":");
    put_cell(out, pos, c);
    buf_puts(out, ",\"outcome\":\"");
    buf_puts(out, analysis_outcome(wins));
    buf_puts(out, "\",\"after\":{\"token\":");
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

/* ---- the two kinds of position ---- */

/* A places the token: every free cell, the solver's winners first. */
static int analyze_opening(gw_position *pos, long max_moves, gj_buf *out, gj_error *e)
{
    if (gw_solve(pos, e) != 0)
        return -1;
    int cells = (int)((pos->rows + 2) * pos->width);
    long nfree = 0;
    for (int c = 0; c < cells; c++)
        nfree += pos->open[c];
    analysis_counts k = {nfree, pos->nwinners, nfree < max_moves ? nfree : max_moves};
    analysis_begin(out, game_grid_walk.name, "A", pos->nwinners > 0, &k);
    long listed = 0;
    for (long i = 0; i < pos->nwinners && listed < k.listed; i++)
        put_move(out, listed++, pos, pos->winners[i], 1, 1);
    long w = 0; /* the winners are row-major too: skip them in step */
    for (int c = 0; c < cells && listed < k.listed; c++) {
        if (!pos->open[c])
            continue;
        if (w < pos->nwinners && pos->winners[w] == c)
            w++;
        else
            put_move(out, listed++, pos, c, 0, 1);
    }
    analysis_end(out, listed);
    return 0;
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
    analysis_counts k = {nmoves, 0, nmoves < max_moves ? nmoves : max_moves};
    for (int i = 0; i < nmoves; i++)
        k.winning_moves += wins[i];
    analysis_begin(out, game_grid_walk.name, mover(n), mover_wins, &k);
    long listed = 0;
    for (int pass = 1; pass >= 0; pass--)
        for (int i = 0; i < nmoves && listed < k.listed; i++)
            if (wins[i] == pass)
                put_move(out, listed++, pos, moves[i], pass, n + 1);
    analysis_end(out, listed);
    return 0;
}

/* The request's members, as game.h's analyze_keys: read here and named by
 * the wrappers (line.c, engine.c) in their unknown-field messages. */
const char *const grid_walk_analyze_keys[] = {"grid", "path", "?max_moves", NULL};

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
    if (pos == NULL || read_path(json_object_get(root, "path"), pos, &path, &n, e) != 0)
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

/* The move's cell joins the path (at the opening it is the token's place). */
int grid_walk_play_move(json_t *req, const json_t *entry, gj_error *e)
{
    json_t *path = json_object_get(req, "path");
    const json_t *cell = json_object_get(entry, "move");
    if (!json_is_array(path) || cell == NULL)
        return gj_fail(e, GJ_INTERNAL, "grid-walk: no path or no move to play");
    if (json_array_append_new(path, json_deep_copy(cell)) != 0)
        return gj_fail_nomem(e);
    return 0;
}
