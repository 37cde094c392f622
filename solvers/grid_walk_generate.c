/* grid_walk_generate.c - POST /generate/grid-walk: random grids.
 *
 * Knobs: "rows", "cols" (default 4 x 4, at most the limits in force and
 * GW_GEN_MAX_SIDE), "density" (the share of blocked cells, 0..1, default
 * 0.25).  Each cell is blocked with that chance.  The opening's outcome is
 * A's (the player who places the token).  A position in play
 * ("winning_moves") adds a token path of 1..3 cells, a random
 * non-revisiting walk from a random free cell, and asks /analyze.
 *
 * The most moves such a position has (gw_gen_most): the token's free
 * neighbours, min(rows - 1, 2) up or down plus min(cols - 1, 2) left or
 * right, so 4 from 3 x 3 up and 3 on a 2 x N board.  A one-cell path on a
 * grid with no block reaches it (an inner cell); a longer path only loses
 * neighbours.  With density 1 no cell is free: no position in play at all. */
#include <stdio.h>
#include <string.h>

#include "games.h"
#include "generate.h"

#define GW_GEN_MAX_SIDE 32
#define GW_GEN_MAX_PATH 3

typedef struct knobs {
    long rows, cols;
    double density;
} knobs;

const char *const grid_walk_generate_knobs[] = {"rows", "cols", "density", NULL};

/* The limits in force: rows, cols (grid_walk.c's order). */
static int read_knobs(gen_request *req, const long *limits, void *out, gj_error *e)
{
    knobs *k = out;
    char limit[2][48];
    k->rows = gen_cap(4, limits[0]); /* the defaults fit any limits in force */
    k->cols = gen_cap(4, limits[1]);
    k->density = 0.25;
    snprintf(limit[0], sizeof limit[0], "grid-walk.rows %ld or %d", limits[0], GW_GEN_MAX_SIDE);
    snprintf(limit[1], sizeof limit[1], "grid-walk.cols %ld or %d", limits[1], GW_GEN_MAX_SIDE);
    if (gen_long(req->root, "rows", 1, gen_cap(limits[0], GW_GEN_MAX_SIDE), limit[0], &k->rows,
                 e) != 0 ||
        gen_long(req->root, "cols", 1, gen_cap(limits[1], GW_GEN_MAX_SIDE), limit[1], &k->cols,
                 e) != 0 ||
        gen_share(req->root, "density", 0, 1, &k->density, e) != 0)
        return -1;
    req->most_moves = k->density >= 1 ? 0 : gw_gen_most(k->rows, k->cols);
    return 0;
}

long gw_gen_most(long rows, long cols)
{
    return (rows - 1 < 2 ? rows - 1 : 2) + (cols - 1 < 2 ? cols - 1 : 2);
}

/* The cell after c in direction d (0..3), or -1 off the grid or blocked. */
static long step(const knobs *k, const char *cells, long c, int d)
{
    long r = c / k->cols + (d == 0) - (d == 1), q = c % k->cols + (d == 2) - (d == 3);
    if (r < 0 || r >= k->rows || q < 0 || q >= k->cols || cells[r * k->cols + q] != '.')
        return -1;
    return r * k->cols + q;
}

/* A walk of up to `want` cells from a random free cell, into path; its
 * length, 0 when the grid has no free cell.  Visited cells turn 'v'. */
static long walk(gj_rng *r, const knobs *k, char *cells, long want, long *path)
{
    long free_cells = 0, n = 0;
    for (long c = 0; c < k->rows * k->cols; c++)
        free_cells += cells[c] == '.';
    if (free_cells == 0)
        return 0;
    long pick = (long)gj_rng_below(r, (uint64_t)free_cells), c = 0;
    while (cells[c] != '.' || pick-- > 0)
        c++;
    for (;;) {
        path[n++] = c;
        cells[c] = 'v';
        long next[4], options = 0;
        for (int d = 0; d < 4; d++)
            if ((next[options] = step(k, cells, c, d)) >= 0)
                options++;
        if (n == want || options == 0)
            return n;
        c = next[gj_rng_below(r, (uint64_t)options)];
    }
}

/* One random grid (and path, in play). */
static int sample(gj_rng *r, const gen_request *req, const void *in, gen_candidate *c)
{
    const knobs *k = in;
    char cells[GW_GEN_MAX_SIDE * GW_GEN_MAX_SIDE];
    for (long i = 0; i < k->rows * k->cols; i++)
        cells[i] = gj_rng_chance(r, k->density) ? '#' : '.';
    long path[GW_GEN_MAX_PATH], n = 0;
    if (req->in_play) {
        char visited[sizeof cells];
        memcpy(visited, cells, sizeof cells);
        n = walk(r, k, visited, gj_rng_range(r, 1, GW_GEN_MAX_PATH), path);
        if (n == 0)
            return 1;
    }
    buf_put_long(&c->input, k->rows);
    buf_putc(&c->input, ' ');
    buf_put_long(&c->input, k->cols);
    buf_putc(&c->input, '\n');
    buf_puts(&c->position, "{\"grid\":[");
    for (long i = 0; i < k->rows; i++)
        gen_put_row(c, i, cells + i * k->cols, (size_t)k->cols);
    buf_putc(&c->position, ']');
    if (req->in_play) {
        buf_puts(&c->position, ",\"path\":[");
        for (long i = 0; i < n; i++) {
            buf_puts(&c->position, i ? ",[" : "[");
            buf_put_long(&c->position, path[i] / k->cols + 1);
            buf_putc(&c->position, ',');
            buf_put_long(&c->position, path[i] % k->cols + 1);
            buf_putc(&c->position, ']');
        }
        buf_putc(&c->position, ']');
    }
    buf_putc(&c->position, '}');
    return 0;
}

/* "verdict": A, who places the token, is the player to move at the opening. */
static int score(const json_t *answer, long long *out)
{
    return gen_score_word(json_object_get(answer, "verdict"), "WIN", out);
}

static const gen_spec spec = {
    .game = &game_grid_walk,
    .knobs = grid_walk_generate_knobs,
    .read = read_knobs,
    .sample = sample,
    .score = score,
};

int grid_walk_generate(const char *buf, size_t len, const long *limits, gj_buf *out, gj_error *e)
{
    knobs k;
    return gen_run(&spec, buf, len, limits, &k, out, e);
}

int grid_walk_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                            int *scored, gj_error *e)
{
    knobs k;
    return gen_most(&spec, buf, len, limits, &k, most, scored, e);
}
