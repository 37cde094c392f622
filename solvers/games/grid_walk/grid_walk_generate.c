/* grid_walk_generate.c - POST /generate/grid-walk: random grids.
 *
 * Knobs: "rows", "cols" (default 4 x 4, at most the limits in force and
 * GW_GEN_MAX_SIDE), "density" (the share of blocked cells, 0..1, default
 * 0.25).  Each cell is blocked with that chance.  The opening's outcome is
 * A's (the player who places the token).  A position in play
 * ("winning_moves", "min_moves" or "visited") adds a token path of 1..3
 * cells, a random non-revisiting walk from a random free cell, and asks
 * /analyze; "visited" (1..3, default 3) is the longest path drawn, so
 * "visited": 1 makes every candidate a token just placed, none of its
 * neighbours visited (what a puzzle's four moves need: a longer path
 * has visited one of them).
 *
 * The most moves such a position has (gw_gen_most): the token's free
 * neighbours, min(rows - 1, 2) up or down plus min(cols - 1, 2) left or
 * right, so 4 from 3 x 3 up and 3 on a 2 x N board.  A one-cell path on a
 * grid with no block reaches it (an inner cell); a longer path only loses
 * neighbours.  With density 1 no cell is free: no position in play at all.
 *
 * Asked "winning_moves" W, the bound is the most moves of a position with
 * exactly W winning moves and one more (gw_gen_most_winning), which on a
 * small board is below gw_gen_most: no position in play on 2 x 3 has three
 * moves with one of them winning, none on 1 x 3 or 2 x 2 has one winning
 * move and another.  Up to GW_GEN_EXACT_CELLS cells it is found exactly, by
 * solving every grid the density allows with every path of 1..3 cells (512
 * grids of 9 cells, about 0.1 ms); above, gw_gen_most stands, which a
 * search of every grid of 10 to 12 cells with blocks found exact for 0, 1
 * and 2 winning moves (with density 0, no block, it is not: 3 x 4 has at
 * most 3 moves with one winning). */
#include <stdio.h>
#include <string.h>

#include "grid_walk.h"
#include "generate.h"

#define GW_GEN_MAX_SIDE    32
#define GW_GEN_MAX_PATH    3
#define GW_GEN_EXACT_CELLS 9 /* boards this small have their bound by enumeration */

typedef struct knobs {
    long rows, cols;
    double density;
    long visited; /* the longest path drawn */
} knobs;

const char *const grid_walk_generate_knobs[] = {"rows", "cols", "density", "visited", NULL};

static long most_winning(long rows, long cols, bool blocks, long winning, long longest);

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
    k->visited = GW_GEN_MAX_PATH;
    if (json_object_get(req->root, "visited") != NULL) {
        if (gen_long(req->root, "visited", 1, GW_GEN_MAX_PATH, NULL, &k->visited, e) != 0)
            return -1;
        req->in_play = true;
    }
    if (k->density >= 1)
        req->most_moves = 0;
    else if (req->winning_moves >= 0 && req->winning_moves < gw_gen_most(k->rows, k->cols)) {
        /* (a winning_moves with no move left over is refused as before) */
        req->most_moves =
            most_winning(k->rows, k->cols, k->density > 0, req->winning_moves, k->visited);
        req->most_winning = req->most_moves < gw_gen_most(k->rows, k->cols);
    } else
        req->most_moves = gw_gen_most(k->rows, k->cols);
    return 0;
}

long gw_gen_most(long rows, long cols)
{
    return (rows - 1 < 2 ? rows - 1 : 2) + (cols - 1 < 2 ? cols - 1 : 2);
}

/* One small board for the exact bound: cell r * cols + c is bit
 * r * cols + c; memo[cell << GW_GEN_EXACT_CELLS | visited] holds the grid's
 * tag times 4 plus 1 (the mover loses) or 2 (wins), so no grid clears it. */
typedef struct exact {
    unsigned adj[GW_GEN_EXACT_CELLS]; /* each cell's neighbours on the board */
    unsigned open;                    /* the free cells of the grid at hand */
    unsigned tag;                     /* the grid at hand, from 1 */
    unsigned short memo[GW_GEN_EXACT_CELLS << GW_GEN_EXACT_CELLS];
} exact;

/* Whether the player to move the token from cell c, the cells `visited`
 * taken (c among them), wins on x's grid. */
static bool exact_wins(exact *x, int c, unsigned visited)
{
    unsigned short *m = &x->memo[(unsigned)c << GW_GEN_EXACT_CELLS | visited];
    if (*m >> 2 == x->tag)
        return (*m & 3) == 2;
    bool wins = false;
    for (unsigned rest = x->adj[c] & x->open & ~visited; rest != 0 && !wins; rest &= rest - 1) {
        int j = __builtin_ctz(rest);
        wins = !exact_wins(x, j, visited | 1u << j);
    }
    *m = (unsigned short)(x->tag << 2 | (wins ? 2u : 1u));
    return wins;
}

/* The most moves of a position with exactly w winning moves and another
 * among the token on c with `visited` taken and the paths of up to
 * `left` more cells that go on from it: the most of it and *best. */
static long exact_paths(exact *x, int c, unsigned visited, int left, long w, long best)
{
    long moves = 0, winning = 0;
    unsigned next = x->adj[c] & x->open & ~visited;
    for (unsigned rest = next; rest != 0; rest &= rest - 1) {
        int j = __builtin_ctz(rest);
        moves++;
        winning += !exact_wins(x, j, visited | 1u << j);
    }
    if (winning == w && moves > w && moves > best)
        best = moves;
    for (unsigned rest = next; left > 0 && rest != 0; rest &= rest - 1) {
        int j = __builtin_ctz(rest);
        best = exact_paths(x, j, visited | 1u << j, left - 1, w, best);
    }
    return best;
}

long gw_gen_most_winning(long rows, long cols, bool blocks, long winning)
{
    return most_winning(rows, cols, blocks, winning, GW_GEN_MAX_PATH);
}

/* gw_gen_most_winning over the paths of up to `longest` cells: every
 * length starts with a one-cell path, which reaches gw_gen_most, so above
 * the enumerated boards the bound is the same.  (It was found exact there
 * for paths of up to 3 cells; for shorter ones it is a true upper bound.) */
static long most_winning(long rows, long cols, bool blocks, long winning, long longest)
{
    long most = gw_gen_most(rows, cols), cells = rows * cols;
    if (cells > GW_GEN_EXACT_CELLS)
        return most;
    exact x;
    for (long c = 0; c < cells; c++) {
        long r = c / cols, q = c % cols;
        x.adj[c] = (r > 0 ? 1u << (c - cols) : 0) | (r + 1 < rows ? 1u << (c + cols) : 0) |
                   (q > 0 ? 1u << (c - 1) : 0) | (q + 1 < cols ? 1u << (c + 1) : 0);
    }
    memset(x.memo, 0, sizeof x.memo);
    unsigned all = (1u << cells) - 1;
    long best = 0;
    /* Each grid by its free cells: all of them alone when no cell is blocked. */
    for (unsigned open = blocks ? 1 : all; open <= all && best < most; open++) {
        x.open = open;
        x.tag = open;
        for (long c = 0; c < cells && best < most; c++)
            if (open >> c & 1)
                best = exact_paths(&x, (int)c, 1u << c, (int)longest - 1, winning, best);
    }
    return best;
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
        n = walk(r, k, visited, gj_rng_range(r, 1, k->visited), path);
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

int grid_walk_generate_keep(const char *buf, size_t len, const long *limits, gen_kept *kept,
                            gj_error *e)
{
    knobs k;
    return gen_keep(&spec, buf, len, limits, &k, kept, e);
}
