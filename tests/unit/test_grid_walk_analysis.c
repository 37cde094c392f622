/* test_grid_walk_analysis.c - unit tests of POST /analyze/grid-walk.
 *
 * Small positions are judged by the game-tree oracle (tests/oracle), which
 * plays the rules and knows nothing of matchings: every position of every
 * grid of up to 8 cells (every path prefix), and thousands of random
 * grids of up to 16 free cells with random paths, max_moves varied so that
 * truncation is exercised.  Large positions (100 x 100, and 1000 x 1000
 * under raised limits) are judged by the definition, with maximum
 * matchings computed here by plain augmenting paths: the mover wins iff
 * taking the token's cell out shrinks the maximum matching of the cells
 * still open, and a move to w wins iff then taking w out does not.  Every
 * answer is read with jansson and compared field by field.  Then the bad
 * requests, each with its exact field, and the cache key (write_key). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "analysis.h"
#include "buf.h"
#include "games.h"
#include "grid_walk_oracle.h"
#include "harness.h"

#define GAME (&game_grid_walk)

/* ck_assert records every passing check through a file, which dominates the
 * cost of checking tens of thousands of answers; this one speaks only when
 * it fails. */
#define EXPECT(cond, ...)                                                                          \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg(__VA_ARGS__);                                                             \
    } while (0)

/* ---- positions, requests and answers ---- */

/* A grid (row-major, '.' free, '#' blocked) and the path so far, as 0-based
 * cell indices r * cols + c. */
typedef struct walk {
    int rows, cols;
    char *cells;
    int *path;
    long n;
} walk;

static walk *new_walk(int rows, int cols)
{
    walk *w = malloc(sizeof *w);
    ck_assert_ptr_nonnull(w);
    size_t k = (size_t)rows * (size_t)cols;
    w->rows = rows;
    w->cols = cols;
    w->cells = malloc(k);
    w->path = malloc(k * sizeof *w->path);
    ck_assert(w->cells != NULL && w->path != NULL);
    memset(w->cells, '.', k);
    w->n = 0;
    return w;
}

static void free_walk(walk *w)
{
    free(w->cells);
    free(w->path);
    free(w);
}

static char *take(gj_buf *b)
{
    buf_putc(b, '\0');
    EXPECT(!b->failed, "out of memory");
    return buf_take(b, NULL);
}

/* The request; max_moves <= 0 leaves the member out. */
static char *request(const walk *w, long max_moves)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"grid\": [");
    for (int r = 0; r < w->rows; r++) {
        buf_puts(&b, r > 0 ? ", \"" : "\"");
        buf_append(&b, w->cells + (size_t)r * (size_t)w->cols, (size_t)w->cols);
        buf_putc(&b, '"');
    }
    buf_puts(&b, "], \"path\": [");
    for (long i = 0; i < w->n; i++) {
        buf_puts(&b, i > 0 ? ",[" : "[");
        buf_put_long(&b, w->path[i] / w->cols + 1);
        buf_putc(&b, ',');
        buf_put_long(&b, w->path[i] % w->cols + 1);
        buf_putc(&b, ']');
    }
    buf_putc(&b, ']');
    if (max_moves > 0) {
        buf_puts(&b, ", \"max_moves\": ");
        buf_put_long(&b, max_moves);
    }
    buf_putc(&b, '}');
    return take(&b);
}

static const long default_limits[GJ_MAX_LIMITS] = {100, 100, 0, 0};
static const long raised_limits[GJ_MAX_LIMITS] = {1000, 1000, 0, 0};

/* Run the analysis; NULL with *e on an error. */
static char *analyze_raw(const char *req, const long *limits, gj_error *e)
{
    gj_buf b;
    buf_init(&b);
    gj_error_clear(e);
    if (GAME->analyze(req, strlen(req), limits, &b, e) != 0) {
        EXPECT(e->kind != GJ_OK, "an analysis failed without an error");
        buf_free(&b);
        return NULL;
    }
    return take(&b);
}

static json_t *analyze(const char *req, const long *limits)
{
    gj_error e;
    char *text = analyze_raw(req, limits, &e);
    EXPECT(text != NULL, "unexpected error %s for %.300s", e.message, req);
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    EXPECT(root != NULL, "answer is not JSON (%s): %.300s", jerr.text, text);
    free(text);
    return root;
}

/* What the answer must say: the mover's value and every legal move, in
 * row-major order, with its outcome for the mover; from the oracle also
 * the remoteness of the position and after each move (rem: NULL when the
 * expectation does not know them). */
typedef struct expect {
    int value;
    long nmoves;
    int *moves;
    unsigned char *wins;
    long remoteness;
    long *rem;
} expect;

/* An expectation with room for cap moves, remoteness unknown. */
static void expect_init(expect *x, size_t cap)
{
    x->value = 0;
    x->nmoves = 0;
    x->moves = malloc((cap + 1) * sizeof *x->moves);
    x->wins = malloc(cap + 1);
    x->remoteness = -1;
    x->rem = NULL;
    EXPECT(x->moves != NULL && x->wins != NULL, "out of memory");
}

static void expect_free(expect *x)
{
    free(x->moves);
    free(x->wins);
    free(x->rem);
}

/* The documented ranking with remoteness known: a win before a loss, the
 * faster win, the slower loss, then row-major (cells are row-major). */
static int rank_before(int wa, long ra, int ca, int wb, long rb, int cb)
{
    if (wa != wb)
        return wa;
    if (ra != rb)
        return wa ? ra < rb : ra > rb;
    return ca < cb;
}

/* The answer's remoteness member: -1 for null. */
static long remoteness_member(const json_t *obj, const char *req)
{
    const json_t *v = json_object_get(obj, "remoteness");
    EXPECT(json_is_null(v) || json_is_integer(v),
           "remoteness is neither null nor an integer, for %.400s", req);
    return json_is_null(v) ? -1 : (long)json_integer_value(v);
}

static const char *mover_after(long visited)
{
    return visited % 2 == 0 ? "A" : "B";
}

/* The checks below name the request (`req`) when they fail. */
static long integer_member(const json_t *obj, const char *key, const char *req)
{
    const json_t *v = json_object_get(obj, key);
    EXPECT(json_is_integer(v), "member %s is not an integer, for %.400s", key, req);
    return (long)json_integer_value(v);
}

static const char *string_member(const json_t *obj, const char *key, const char *req)
{
    const json_t *v = json_object_get(obj, key);
    EXPECT(json_is_string(v), "member %s is not a string, for %.400s", key, req);
    return json_string_value(v);
}

static void check_string(const json_t *obj, const char *key, const char *want, const char *req)
{
    const char *got = string_member(obj, key, req);
    EXPECT(strcmp(got, want) == 0, "%s is \"%s\", expected \"%s\", for %.400s", key, got, want,
           req);
}

static void check_integer(const json_t *obj, const char *key, long want, const char *req)
{
    long got = integer_member(obj, key, req);
    EXPECT(got == want, "%s is %ld, expected %ld, for %.400s", key, got, want, req);
}

static void check_cell(const json_t *v, int cell, int cols, const char *req)
{
    EXPECT(json_is_array(v) && json_array_size(v) == 2, "a cell is not [row, column], for %.400s",
           req);
    long long r = json_integer_value(json_array_get(v, 0)),
              c = json_integer_value(json_array_get(v, 1));
    EXPECT(r == cell / cols + 1 && c == cell % cols + 1,
           "cell [%lld, %lld], expected [%d, %d], "
           "for %.400s",
           r, c, cell / cols + 1, cell % cols + 1, req);
}

/* A listed entry must be the move to `cell` with outcome `wins`. */
static void check_entry(const walk *w, const json_t *entry, int cell, int wins, const char *req)
{
    EXPECT(json_is_object(entry) && json_object_size(entry) == 4,
           "an entry is not {move, outcome, remoteness, after}, for %.400s", req);
    check_cell(json_object_get(entry, "move"), cell, w->cols, req);
    check_string(entry, "outcome", wins ? "win" : "lose", req);
    const json_t *after = json_object_get(entry, "after");
    EXPECT(json_is_object(after) && json_object_size(after) == 3,
           "after is not {token, to_move, visited}, for %.400s", req);
    check_cell(json_object_get(after, "token"), cell, w->cols, req);
    check_string(after, "to_move", mover_after(w->n + 1), req);
    check_integer(after, "visited", w->n + 1, req);
}

/* Compare an answer with the expectation: value, counts, truncation, and
 * the list entry by entry, which must be winning moves then losing ones,
 * each group row-major, cut at max_moves. */
static void check_answer(const walk *w, long max_moves, const expect *x, const json_t *ans,
                         const char *req)
{
    long limit = max_moves > 0 ? max_moves : ANALYSIS_MAX_MOVES_DEFAULT;
    long winning = 0;
    for (long i = 0; i < x->nmoves; i++)
        winning += x->wins[i];
    EXPECT(json_object_size(ans) == 8, "the answer has %zu members, for %.400s",
           json_object_size(ans), req);
    check_string(ans, "game", "grid-walk", req);
    check_string(ans, "to_move", w->n == 0 ? "A" : mover_after(w->n), req);
    check_string(ans, "value", x->value ? "win" : "lose", req);
    check_integer(ans, "moves_total", x->nmoves, req);
    check_integer(ans, "winning_moves", winning, req);
    const json_t *list = json_object_get(ans, "moves");
    EXPECT(json_is_array(list), "moves is not an array, for %.400s", req);
    long listed = x->nmoves < limit ? x->nmoves : limit;
    EXPECT((long)json_array_size(list) == listed, "%zu moves listed, expected %ld, for %.400s",
           json_array_size(list), listed, req);
    const json_t *truncated = json_object_get(ans, "truncated");
    EXPECT(json_is_boolean(truncated) && json_is_true(truncated) == (listed < x->nmoves),
           "truncated is wrong, for %.400s", req);
    long far = remoteness_member(ans, req);
    if (x->rem != NULL) {
        EXPECT(far == x->remoteness, "remoteness %ld, expected %ld, for %.400s", far, x->remoteness,
               req);
        /* The expected order: a selection sort of the oracle's moves. */
        unsigned char *taken = calloc((size_t)x->nmoves + 1, 1);
        EXPECT(taken != NULL, "out of memory");
        for (long at = 0; at < listed; at++) {
            long best = -1;
            for (long i = 0; i < x->nmoves; i++)
                if (!taken[i] &&
                    (best < 0 || rank_before(x->wins[i], x->rem[i], x->moves[i], x->wins[best],
                                             x->rem[best], x->moves[best])))
                    best = i;
            taken[best] = 1;
            const json_t *entry = json_array_get(list, (size_t)at);
            check_entry(w, entry, x->moves[best], x->wins[best], req);
            check_integer(entry, "remoteness", x->rem[best], req);
        }
        free(taken);
    } else if (far < 0) {
        long at = 0;
        for (int pass = 1; pass >= 0; pass--)
            for (long i = 0; i < x->nmoves && at < listed; i++)
                if (x->wins[i] == pass) {
                    const json_t *entry = json_array_get(list, (size_t)at++);
                    check_entry(w, entry, x->moves[i], pass, req);
                    EXPECT(remoteness_member(entry, req) < 0,
                           "an entry's remoteness is known "
                           "without the position's, for %.400s",
                           req);
                }
    } else {
        /* Remoteness known beyond the oracle: the entries are legal moves
         * with the right outcomes, in the documented order by their own
         * remoteness, and the value's is the best entry's plus one. */
        long prev = -1, prev_cell = -1, prev_wins = 0;
        for (long at = 0; at < listed; at++) {
            const json_t *entry = json_array_get(list, (size_t)at);
            long cell =
                (long)(json_integer_value(json_array_get(json_object_get(entry, "move"), 0)) - 1) *
                    w->cols +
                (long)json_integer_value(json_array_get(json_object_get(entry, "move"), 1)) - 1;
            long i = 0;
            while (i < x->nmoves && x->moves[i] != cell)
                i++;
            EXPECT(i < x->nmoves, "entry %ld is not a legal move, for %.400s", at, req);
            check_entry(w, entry, (int)cell, x->wins[i], req);
            long r = remoteness_member(entry, req);
            EXPECT(r >= 0, "an entry's remoteness is null, for %.400s", req);
            if (at == 0)
                EXPECT(far == r + 1, "remoteness %ld but the best move's is %ld, for %.400s", far,
                       r, req);
            else
                EXPECT(rank_before(prev_wins, prev, (int)prev_cell, x->wins[i], r, (int)cell),
                       "entry %ld out of order, for %.400s", at, req);
            prev = r;
            prev_cell = cell;
            prev_wins = x->wins[i];
        }
    }
    /* The value is the best move's outcome. */
    if (listed > 0)
        check_string(json_array_get(list, 0), "outcome", x->value ? "win" : "lose", req);
}

static void run_check(const walk *w, long max_moves, const long *limits, const expect *x)
{
    char *req = request(w, max_moves);
    json_t *ans = analyze(req, limits);
    check_answer(w, max_moves, x, ans, req);
    json_decref(ans);
    free(req);
}

/* ---- the oracle's expectation ---- */

static int is_free(const walk *w, int r, int c)
{
    return r >= 0 && r < w->rows && c >= 0 && c < w->cols && w->cells[r * w->cols + c] == '.';
}

/* The legal moves in row-major order; visited[] marks the path. */
static long legal_moves(const walk *w, const unsigned char *visited, int *moves)
{
    long n = 0;
    if (w->n == 0) {
        for (int i = 0; i < w->rows * w->cols; i++)
            if (w->cells[i] == '.')
                moves[n++] = i;
        return n;
    }
    static const int dr[4] = {-1, 0, 0, 1}, dc[4] = {0, -1, 1, 0}; /* row-major */
    int t = w->path[w->n - 1], r = t / w->cols, c = t % w->cols;
    for (int d = 0; d < 4; d++) {
        int rr = r + dr[d], cc = c + dc[d];
        if (is_free(w, rr, cc) && !visited[rr * w->cols + cc])
            moves[n++] = rr * w->cols + cc;
    }
    return n;
}

static void oracle_expect(gw_tree *t, const walk *w, expect *x)
{
    unsigned char visited[64] = {0};
    for (long i = 0; i < w->n; i++)
        visited[w->path[i]] = 1;
    x->nmoves = legal_moves(w, visited, x->moves);
    x->value = 0;
    x->rem = malloc(((size_t)x->nmoves + 1) * sizeof *x->rem);
    EXPECT(x->rem != NULL, "out of memory");
    long fastest_win = -1, slowest = -1;
    for (long i = 0; i < x->nmoves; i++) {
        int m = x->moves[i];
        visited[m] = 1;
        x->wins[i] = !gw_tree_mover_wins(t, m / w->cols, m % w->cols, visited);
        x->rem[i] = gw_tree_remoteness(t, m / w->cols, m % w->cols, visited);
        EXPECT(x->rem[i] >= 0, "out of memory");
        visited[m] = 0;
        x->value |= x->wins[i];
        if (x->wins[i] && (fastest_win < 0 || x->rem[i] < fastest_win))
            fastest_win = x->rem[i];
        if (x->rem[i] > slowest)
            slowest = x->rem[i];
    }
    x->remoteness = 1 + (fastest_win >= 0 ? fastest_win : slowest);
    if (w->n > 0) {
        int tok = w->path[w->n - 1];
        EXPECT(gw_tree_remoteness(t, tok / w->cols, tok % w->cols, visited) == x->remoteness,
               "the oracle's remoteness is not its moves'");
    }
    if (w->n > 0) {
        int tok = w->path[w->n - 1];
        EXPECT(gw_tree_mover_wins(t, tok / w->cols, tok % w->cols, visited) == x->value,
               "the oracle's value is not its best move's");
    }
}

static void check_with_oracle(gw_tree *t, const walk *w, long max_moves)
{
    expect x;
    expect_init(&x, (size_t)w->rows * (size_t)w->cols);
    oracle_expect(t, w, &x);
    run_check(w, max_moves, default_limits, &x);
    expect_free(&x);
}

/* ---- 1. the oracle cross-checks ---- */

/* Every path prefix from the current one on, depth first. */
static long check_every_path(gw_tree *t, walk *w, unsigned char *visited)
{
    long count = 1;
    check_with_oracle(t, w, 0);
    int moves[64];
    long n = legal_moves(w, visited, moves);
    for (long i = 0; i < n; i++) {
        w->path[w->n++] = moves[i];
        visited[moves[i]] = 1;
        count += check_every_path(t, w, visited);
        visited[moves[i]] = 0;
        w->n--;
    }
    return count;
}

START_TEST(test_oracle_every_small_position)
{
    long positions = 0, grids = 0;
    for (int rows = 1; rows <= 8; rows++) {
        for (int cols = 1; rows * cols <= 8; cols++) {
            int k = rows * cols;
            walk *w = new_walk(rows, cols);
            for (unsigned mask = 0; mask < 1u << k; mask++) {
                for (int i = 0; i < k; i++)
                    w->cells[i] = mask >> i & 1 ? '.' : '#';
                gw_tree *t = gw_tree_new(rows, cols, w->cells);
                ck_assert_ptr_nonnull(t);
                unsigned char visited[64] = {0};
                w->n = 0;
                positions += check_every_path(t, w, visited);
                gw_tree_free(t);
                grids++;
            }
            free_walk(w);
        }
    }
    ck_assert_int_eq(grids, 1674);
    ck_assert_int_eq(positions, 21943);
}
END_TEST

/* Block random free cells until at most `most` are free. */
static void trim_free(walk *w, int most, uint64_t *rng)
{
    int k = w->rows * w->cols, nfree = 0;
    for (int i = 0; i < k; i++)
        nfree += w->cells[i] == '.';
    while (nfree > most) {
        int i = (int)rng_below(rng, (uint64_t)k);
        if (w->cells[i] == '.') {
            w->cells[i] = '#';
            nfree--;
        }
    }
}

/* A random self-avoiding walk of at most `len` cells from a random free
 * cell (none when the grid has no free cell). */
static void random_path(walk *w, long len, uint64_t *rng, unsigned char *visited)
{
    int k = w->rows * w->cols, moves[64];
    memset(visited, 0, (size_t)k);
    w->n = 0;
    int nfree = 0;
    for (int i = 0; i < k; i++)
        nfree += w->cells[i] == '.';
    if (len == 0 || nfree == 0)
        return;
    long pick = (long)rng_below(rng, (uint64_t)nfree);
    for (int i = 0; i < k; i++)
        if (w->cells[i] == '.' && pick-- == 0)
            w->path[w->n++] = i;
    visited[w->path[0]] = 1;
    while (w->n < len) {
        long n = legal_moves(w, visited, moves);
        if (n == 0)
            break;
        int m = moves[rng_below(rng, (uint64_t)n)];
        w->path[w->n++] = m;
        visited[m] = 1;
    }
}

START_TEST(test_oracle_random_positions)
{
    uint64_t rng = 0x243f6a8885a308d3ULL;
    unsigned char visited[64];
    long positions = 0, wins = 0, stuck = 0;
    for (int t = 0; t < 1500; t++) {
        int rows, cols;
        if (t % 3 == 0) {
            rows = 1 + (int)rng_below(&rng, 16);
            cols = 1 + (int)rng_below(&rng, (uint64_t)(16 / rows));
        } else {
            rows = 1 + (int)rng_below(&rng, 8);
            cols = 1 + (int)rng_below(&rng, 8);
        }
        walk *w = new_walk(rows, cols);
        int blocked_tenths = t % 5 == 0 ? 0 : (int)rng_below(&rng, 6);
        for (int i = 0; i < rows * cols; i++)
            w->cells[i] = (int)rng_below(&rng, 10) < blocked_tenths ? '#' : '.';
        trim_free(w, 16, &rng);
        gw_tree *tree = gw_tree_new(rows, cols, w->cells);
        ck_assert_ptr_nonnull(tree);
        for (int p = 0; p < 4; p++) {
            long len = p == 0 ? 0 : 1 + (long)rng_below(&rng, 16);
            random_path(w, len, &rng, visited);
            long choice = (long)rng_below(&rng, 4);
            long max_moves = choice == 0   ? 0
                             : choice == 1 ? 1 + (long)rng_below(&rng, 3)
                             : choice == 2 ? 10000
                                           : 1 + (long)rng_below(&rng, 20);
            expect x;
            expect_init(&x, (size_t)rows * (size_t)cols);
            oracle_expect(tree, w, &x);
            run_check(w, max_moves, default_limits, &x);
            wins += x.value;
            stuck += x.nmoves == 0;
            expect_free(&x);
            positions++;
        }
        gw_tree_free(tree);
        free_walk(w);
    }
    ck_assert_int_eq(positions, 6000);
    /* Both values and dead ends must be well represented. */
    ck_assert_int_gt(wins, 1500);
    ck_assert_int_gt(positions - wins, 1500);
    ck_assert_int_gt(stuck, 300);
}
END_TEST

/* ---- 2. large positions, by the definition ---- */

/* A plain maximum matching on the free cells not in `gone`. */
typedef struct plain {
    const walk *w;
    const unsigned char *gone;
    int *mate, *parent, *seen, *queue;
    int stamp;
} plain;

static int plain_open(const plain *p, int r, int c)
{
    return is_free(p->w, r, c) && !p->gone[r * p->w->cols + c];
}

/* Kuhn's search from the unmatched cell `start`.  The marks of a failed
 * search stay: what it reached leads nowhere until the matching changes. */
static int plain_augment(plain *p, int start)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int head = 0, tail = 0, cols = p->w->cols;
    p->queue[tail++] = start;
    p->seen[start] = p->stamp;
    while (head < tail) {
        int x = p->queue[head++], r = x / cols, c = x % cols;
        for (int d = 0; d < 4; d++) {
            if (!plain_open(p, r + dr[d], c + dc[d]))
                continue;
            int y = (r + dr[d]) * cols + c + dc[d];
            if (y == p->mate[x] || p->seen[y] == p->stamp)
                continue;
            p->seen[y] = p->stamp;
            p->parent[y] = x;
            if (p->mate[y] < 0) {
                while (y >= 0) {
                    int u = p->parent[y], next = p->mate[u];
                    p->mate[u] = y;
                    p->mate[y] = u;
                    y = u == start ? -1 : next;
                }
                p->stamp++;
                return 1;
            }
            if (p->seen[p->mate[y]] != p->stamp) {
                p->seen[p->mate[y]] = p->stamp;
                p->queue[tail++] = p->mate[y];
            }
        }
    }
    return 0;
}

/* The size of a maximum matching of the open cells: a greedy start, then
 * one search from every cell of one colour still unmatched. */
static long plain_size(const walk *w, const unsigned char *gone)
{
    size_t k = (size_t)w->rows * (size_t)w->cols;
    plain p = {w,
               gone,
               malloc(k * sizeof(int)),
               malloc(k * sizeof(int)),
               calloc(k, sizeof(int)),
               malloc(k * sizeof(int)),
               1};
    ck_assert(p.mate && p.parent && p.seen && p.queue);
    long size = 0;
    for (size_t i = 0; i < k; i++)
        p.mate[i] = -1;
    for (int i = 0; i < (int)k; i++) {
        int r = i / w->cols, c = i % w->cols;
        if (!plain_open(&p, r, c) || p.mate[i] >= 0)
            continue;
        if (plain_open(&p, r, c + 1) && p.mate[i + 1] < 0) {
            p.mate[i] = i + 1;
            p.mate[i + 1] = i;
            size++;
        } else if (plain_open(&p, r + 1, c) && p.mate[i + w->cols] < 0) {
            p.mate[i] = i + w->cols;
            p.mate[i + w->cols] = i;
            size++;
        }
    }
    for (int i = 0; i < (int)k; i++)
        if ((i / w->cols + i % w->cols) % 2 == 0 && plain_open(&p, i / w->cols, i % w->cols) &&
            p.mate[i] < 0)
            size += plain_augment(&p, i);
    free(p.queue);
    free(p.seen);
    free(p.parent);
    free(p.mate);
    return size;
}

/* The mid-play expectation by the definition (the path must be nonempty). */
static void definition_expect(const walk *w, expect *x)
{
    size_t k = (size_t)w->rows * (size_t)w->cols;
    unsigned char *gone = calloc(k, 1);
    ck_assert_ptr_nonnull(gone);
    for (long i = 0; i < w->n - 1; i++)
        gone[w->path[i]] = 1;
    int v = w->path[w->n - 1];
    long with_v = plain_size(w, gone);
    gone[v] = 1;
    long without_v = plain_size(w, gone);
    x->nmoves = legal_moves(w, gone, x->moves);
    x->value = without_v < with_v;
    for (long i = 0; i < x->nmoves; i++) {
        gone[x->moves[i]] = 1;
        x->wins[i] = plain_size(w, gone) == without_v;
        gone[x->moves[i]] = 0;
    }
    free(gone);
}

/* Rows 0..top-1 free and walked as a serpentine from the top left (top
 * rows, then `extra` random steps below); the rest `blocked_percent`
 * blocked at random. */
static walk *long_walk(int rows, int cols, int top, int blocked_percent, long extra, uint64_t *rng)
{
    walk *w = new_walk(rows, cols);
    for (int i = top * cols; i < rows * cols; i++)
        w->cells[i] = (int)rng_below(rng, 100) < blocked_percent ? '#' : '.';
    for (int r = 0; r < top; r++)
        for (int j = 0; j < cols; j++)
            w->path[w->n++] = r * cols + (r % 2 == 0 ? j : cols - 1 - j);
    unsigned char *visited = calloc((size_t)rows * (size_t)cols, 1);
    int moves[4];
    ck_assert_ptr_nonnull(visited);
    for (long i = 0; i < w->n; i++)
        visited[w->path[i]] = 1;
    for (long s = 0; s < extra; s++) {
        long n = legal_moves(w, visited, moves);
        if (n == 0)
            break;
        int m = moves[rng_below(rng, (uint64_t)n)];
        w->path[w->n++] = m;
        visited[m] = 1;
    }
    free(visited);
    return w;
}

START_TEST(test_large_random_positions)
{
    uint64_t rng = 0x13198a2e03707344ULL;
    long values[2] = {0, 0};
    for (int t = 0; t < 24; t++) {
        walk *w = long_walk(100, 100, 1 + (int)rng_below(&rng, 60), 5 * (t % 6),
                            (long)rng_below(&rng, 40), &rng);
        expect x;
        expect_init(&x, 4);
        definition_expect(w, &x);
        run_check(w, t % 2 ? 0 : 1, default_limits, &x);
        values[x.value]++;
        expect_free(&x);
        free_walk(w);
    }
    ck_assert_int_gt(values[0], 3);
    ck_assert_int_gt(values[1], 3);
}
END_TEST

/* A serpentine corridor walked part way: what is left is a path of m cells
 * from the token, which the mover wins iff m is even. */
static void check_corridor(int n, long walked, const long *limits)
{
    walk *w = new_walk(n, n);
    memset(w->cells, '#', (size_t)n * (size_t)n);
    long total = 0;
    int *order = malloc((size_t)n * (size_t)n * sizeof *order);
    ck_assert_ptr_nonnull(order);
    for (int r = 0; r < n; r += 2) {
        for (int j = 0; j < n; j++)
            order[total++] = r * n + (r % 4 == 0 ? j : n - 1 - j);
        if (r + 1 < n)
            order[total++] = (r + 1) * n + (r % 4 == 0 ? n - 1 : 0);
    }
    for (long i = 0; i < total; i++)
        w->cells[order[i]] = '.';
    for (long i = 0; i < walked; i++)
        w->path[w->n++] = order[i];
    long left = total - walked + 1;
    expect x;
    expect_init(&x, 4);
    x.value = left % 2 == 0;
    x.nmoves = left > 1;
    x.moves[0] = walked < total ? order[walked] : 0;
    x.wins[0] = (unsigned char)x.value;
    run_check(w, 0, limits, &x);
    expect_free(&x);
    free(order);
    free_walk(w);
}

START_TEST(test_large_corridors)
{
    check_corridor(99, 1, default_limits);
    check_corridor(99, 2, default_limits);
    check_corridor(99, 2500, default_limits);
    check_corridor(100, 4999, default_limits);
    check_corridor(100, 5050, default_limits); /* the last cell: stuck */
    check_corridor(999, 250000, raised_limits);
    check_corridor(999, 250001, raised_limits);
}
END_TEST

/* The documented bound of exact remoteness, at its edge: a corridor whose
 * token reaches n cells, its own included, answers the moves left (n - 1,
 * every one forced) up to n = 128, and null from 129 on. */
START_TEST(test_remoteness_bound)
{
    for (int n = 120; n <= 135; n++) {
        int tail = n - 101; /* the first row's 100 cells, one down, then tail */
        char req[512];
        int len = snprintf(req, sizeof req, "{\"grid\":[\"");
        for (int c = 0; c < 100; c++)
            req[len++] = '.';
        len += snprintf(req + len, sizeof req - (size_t)len, "\",\"");
        for (int c = 0; c < 99; c++)
            req[len++] = '#';
        len += snprintf(req + len, sizeof req - (size_t)len, ".\",\"");
        for (int c = 0; c < 100; c++)
            req[len++] = c < 100 - tail ? '#' : '.';
        snprintf(req + len, sizeof req - (size_t)len, "\"],\"path\":[[1,1]]}");
        json_t *a = analyze(req, default_limits);
        const json_t *r = json_object_get(a, "remoteness");
        if (n <= 128)
            ck_assert_msg(json_is_integer(r) && json_integer_value(r) == n - 1,
                          "%d cells in reach: remoteness is not %d", n, n - 1);
        else
            ck_assert_msg(json_is_null(r), "%d cells in reach: remoteness is not null", n);
        json_decref(a);
    }
}
END_TEST

/* 1000 x 1000 under raised limits: a path of 900000 cells and more, then a
 * random board (kept small enough for the plain matching to judge). */
START_TEST(test_raised_limits_long_path)
{
    uint64_t rng = 0xa4093822299f31d0ULL;
    for (int t = 0; t < 2; t++) {
        walk *w = long_walk(1000, 1000, 900, 10 * t, 30, &rng);
        expect x;
        expect_init(&x, 4);
        definition_expect(w, &x);
        run_check(w, 0, raised_limits, &x);
        expect_free(&x);
        free_walk(w);
    }
}
END_TEST

/* ---- 3. the opening and other edges ---- */

static void expect_opening(const walk *w, const long *limits, expect *x)
{
    char *text = malloc((size_t)w->rows * ((size_t)w->cols + 1) + 32);
    ck_assert_ptr_nonnull(text);
    size_t len = (size_t)sprintf(text, "%d %d\n", w->rows, w->cols);
    for (int r = 0; r < w->rows; r++) {
        memcpy(text + len, w->cells + (size_t)r * (size_t)w->cols, (size_t)w->cols);
        len += (size_t)w->cols;
        text[len++] = '\n';
    }
    text[len] = '\0';
    gj_error e;
    char *answer = harness_run(GAME, IN_TEXT, text, len, OUT_TEXT, limits, &e);
    ck_assert_ptr_nonnull(answer);
    unsigned char *win = calloc((size_t)w->rows * (size_t)w->cols, 1);
    ck_assert_ptr_nonnull(win);
    char *p = strncmp(answer, "WIN\n", 4) == 0 ? answer + 4 : answer + strlen(answer);
    while (*p != '\0') {
        long r = strtol(p, &p, 10), c = strtol(p, &p, 10);
        win[(r - 1) * w->cols + c - 1] = 1;
        p++;
    }
    x->nmoves = 0;
    x->value = 0;
    for (int i = 0; i < w->rows * w->cols; i++)
        if (w->cells[i] == '.') {
            x->moves[x->nmoves] = i;
            x->wins[x->nmoves++] = win[i];
            x->value |= win[i];
        }
    free(win);
    free(answer);
    free(text);
}

static void check_opening(int rows, int cols, long max_moves, const long *limits)
{
    walk *w = new_walk(rows, cols);
    expect x;
    expect_init(&x, (size_t)rows * (size_t)cols);
    expect_opening(w, limits, &x);
    run_check(w, max_moves, limits, &x);
    expect_free(&x);
    free_walk(w);
}

START_TEST(test_opening_large)
{
    check_opening(100, 100, 0, default_limits); /* tiles: every start loses */
    check_opening(100, 100, 10000, default_limits);
    check_opening(99, 99, 0, default_limits);
    check_opening(99, 100, 7, default_limits);
    check_opening(1, 100, 0, default_limits);
    check_opening(999, 999, 10000, raised_limits);
}
END_TEST

static json_t *analyze_str(const char *req)
{
    return analyze(req, default_limits);
}

static void check_counts(const json_t *ans, const char *to_move, const char *value, long total,
                         long winning, long listed)
{
    check_string(ans, "to_move", to_move, "");
    check_string(ans, "value", value, "");
    check_integer(ans, "moves_total", total, "");
    check_integer(ans, "winning_moves", winning, "");
    ck_assert_int_eq((long)json_array_size(json_object_get(ans, "moves")), listed);
    ck_assert_int_eq(json_is_true(json_object_get(ans, "truncated")), listed < total);
}

START_TEST(test_edge_cases)
{
    /* One free cell: A places the token and B is stuck. */
    json_t *a = analyze_str("{\"grid\": [\".\"], \"path\": []}");
    check_counts(a, "A", "win", 1, 1, 1);
    json_decref(a);
    a = analyze_str("{\"grid\": [\".\"], \"path\": [[1, 1]]}");
    check_counts(a, "B", "lose", 0, 0, 0);
    json_decref(a);
    /* No free cell: A cannot even place the token. */
    a = analyze_str("{\"grid\": [\"##\", \"##\"], \"path\": []}");
    check_counts(a, "A", "lose", 0, 0, 0);
    json_decref(a);
    /* Into a corridor of three cells: the opponent takes either end. */
    a = analyze_str("{\"grid\": [\"...\", \"#.#\", \"...\"], \"path\": [[1,1],[1,2],[2,2]]}");
    check_counts(a, "B", "lose", 1, 0, 1);
    json_decref(a);
    a = analyze_str("{\"grid\": [\"..\", \"..\"], \"path\": [[1,1],[1,2],[2,2],[2,1]]}");
    check_counts(a, "A", "lose", 0, 0, 0);
    json_decref(a);
    /* The solver's example grid after one move. */
    a = analyze_str("{\"grid\": [\"..#\", \"...\"], \"path\": [[1, 1], [1, 2]]}");
    check_counts(a, "A", "lose", 1, 0, 1);
    json_decref(a);
    /* example_analyze: a winning move listed before an earlier
     * cell's losing one. */
    a = analyze_str(GAME->example_analyze);
    check_counts(a, "A", "win", 2, 1, 2);
    check_cell(json_object_get(json_array_get(json_object_get(a, "moves"), 0), "move"), 2 * 3 + 0,
               3, "");
    json_decref(a);
    /* Rows are not adjacent across the padding: the last cell of one row
     * and the first of the next. */
    gj_error e;
    ck_assert_ptr_null(
        analyze_raw("{\"grid\": [\"...\", \"...\"], \"path\": [[1,3],[2,1]]}", default_limits, &e));
    ck_assert_str_eq(e.field, "path[1]");
}
END_TEST

/* ---- 4. bad requests ---- */

static void expect_error(const char *req, const long *limits, const char *field, const char *part)
{
    gj_error e;
    char *answer = analyze_raw(req, limits, &e);
    ck_assert_msg(answer == NULL, "[%s]: expected an error, got %s", req, answer);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, part) != NULL, "[%s]: message \"%s\" lacks \"%s\"", req,
                  e.message, part);
    ck_assert_str_eq(e.field, field);
}

#define BAD(req, field, part) expect_error(req, default_limits, field, part)

START_TEST(test_bad_json)
{
    BAD("", "", "invalid JSON");
    BAD("{\"grid\": [\".\"], \"path\": []", "", "invalid JSON");
    BAD("[1]", "", "the JSON body must be an object, found an array");
    BAD("{\"grid\": [\".\"], \"path\": [], \"path\": []}", "", "invalid JSON");
    BAD("{\"path\": []}", "grid", "grid: missing required field");
    BAD("{\"grid\": [\".\"]}", "path", "path: missing required field");
    BAD("{\"grid\": [\".\"], \"path\": [], \"token\": [1, 1]}", "token",
        "token: the path is empty, so the token is not placed yet");
    /* What a whole "after" carries must be what the path says. */
    BAD("{\"grid\": [\"..\"], \"path\": [[1, 1]], \"token\": [1, 2]}", "token",
        "token: must be the path's last cell, [1, 1]");
    BAD("{\"grid\": [\"..\"], \"path\": [[1, 1]], \"to_move\": \"A\"}", "to_move",
        "to_move: after a path of 1 cells it is \"B\" to move");
    BAD("{\"grid\": [\"..\"], \"path\": [[1, 1]], \"visited\": 2}", "visited",
        "visited: must be the path's length, 1");
}
END_TEST

START_TEST(test_bad_grid)
{
    BAD("{\"grid\": [], \"path\": []}", "grid", "grid: expected 1 to 100 elements, found 0");
    BAD("{\"grid\": \"..\", \"path\": []}", "grid", "grid: expected an array, found a string");
    BAD("{\"grid\": [\"..\", \".\"], \"path\": []}", "grid[1]",
        "grid[1]: row 2 has 1 cells, expected 2 (the width of grid[0])");
    BAD("{\"grid\": [\".x\"], \"path\": []}", "grid[0]",
        "grid[0]: unexpected character 'x' at offset 1");
    BAD("{\"grid\": [\"..\", 7], \"path\": []}", "grid[1]",
        "grid[1]: expected a string, found an integer");
    /* The limits in force apply: 101 columns pass only when raised. */
    char req[256], row[102];
    memset(row, '.', 101);
    row[101] = '\0';
    snprintf(req, sizeof req, "{\"grid\": [\"%s\"], \"path\": [[1, 101]]}", row);
    BAD(req, "grid[0]", "grid[0]: the number of columns must be between 1 and 100, found 101");
    json_t *a = analyze(req, raised_limits);
    check_counts(a, "B", "lose", 1, 0, 1); /* 101 cells in a row, from an end */
    json_decref(a);
}
END_TEST

START_TEST(test_bad_path)
{
    const char *g = "{\"grid\": [\"..#\", \"...\"], \"path\": ";
    struct {
        const char *path, *field, *part;
    } cases[] = {
        {"{}", "path", "path: expected an array, found an object"},
        {"[[1,1],[1,2],[2,2],[2,1],[2,3],[1,1],[1,2]]", "path",
         "path: expected 0 to 6 elements, found 7"},
        {"[\"1,1\"]", "path[0]", "path[0]: expected an array, found a string"},
        {"[[1,1],[1]]", "path[1]", "path[1]: expected [row, column], found 1 elements"},
        {"[[1,1,1]]", "path[0]", "path[0]: expected [row, column], found 3 elements"},
        {"[[]]", "path[0]", "path[0]: expected [row, column], found 0 elements"},
        {"[[0,1]]", "path[0][0]", "path[0][0]: must be between 1 and 2, found 0"},
        {"[[1,1],[3,1]]", "path[1][0]", "path[1][0]: must be between 1 and 2, found 3"},
        {"[[1,4]]", "path[0][1]", "path[0][1]: must be between 1 and 3, found 4"},
        {"[[1,-1]]", "path[0][1]", "must be between 1 and 3, found -1"},
        {"[[1.0,1]]", "path[0][0]", "path[0][0]: expected an integer, found a number"},
        {"[[1,\"2\"]]", "path[0][1]", "path[0][1]: expected an integer, found a string"},
        {"[[1,3]]", "path[0]", "path[0]: [1, 3] is a blocked cell"},
        {"[[1,2],[1,3]]", "path[1]", "path[1]: [1, 3] is a blocked cell"},
        {"[[1,1],[2,2]]", "path[1]", "path[1]: [2, 2] is not adjacent to path[0], [1, 1]"},
        {"[[1,1],[1,2],[2,2],[2,1],[2,3]]", "path[4]",
         "path[4]: [2, 3] is not adjacent to path[3], [2, 1]"},
        {"[[1,1],[1,1]]", "path[1]", "path[1]: [1, 1] is not adjacent to path[0], [1, 1]"},
        {"[[1,1],[1,2],[2,2],[2,1],[1,1]]", "path[4]",
         "path[4]: [1, 1] has been visited already, at path[0]"},
        {"[[1,2],[2,2],[1,2]]", "path[2]", "path[2]: [1, 2] has been visited already, at path[0]"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char req[256];
        snprintf(req, sizeof req, "%s%s}", g, cases[i].path);
        BAD(req, cases[i].field, cases[i].part);
    }
}
END_TEST

START_TEST(test_bad_max_moves)
{
    BAD("{\"grid\": [\".\"], \"path\": [], \"max_moves\": 0}", "max_moves",
        "max_moves: must be between 1 and 10000, found 0");
    BAD("{\"grid\": [\".\"], \"path\": [], \"max_moves\": 10001}", "max_moves",
        "max_moves: must be between 1 and 10000, found 10001");
    BAD("{\"grid\": [\".\"], \"path\": [], \"max_moves\": \"5\"}", "max_moves",
        "max_moves: expected an integer, found a string");
    BAD("{\"grid\": [\".\"], \"path\": [], \"max_moves\": null}", "max_moves",
        "max_moves: expected an integer, found null");
}
END_TEST

/* ---- 5. the cache key ---- */

static char *key_of(const char *in, harness_input how)
{
    gj_error e;
    gj_error_clear(&e);
    void *pos = how == IN_TEXT ? GAME->parse_text(in, strlen(in), default_limits, &e)
                               : GAME->parse_json(in, strlen(in), default_limits, &e);
    ck_assert_msg(pos != NULL, "%s: %s", in, e.message);
    gj_buf b, after;
    buf_init(&b);
    buf_init(&after);
    GAME->write_key(pos, &b);
    ck_assert_int_eq(GAME->solve(pos, &e), 0);
    GAME->write_key(pos, &after);
    ck_assert(!b.failed && !after.failed);
    ck_assert(b.len == after.len && memcmp(b.data, after.data, b.len) == 0);
    buf_free(&after);
    GAME->free_position(pos);
    /* Prefix the length so keys can be compared as C strings. */
    gj_buf out;
    buf_init(&out);
    buf_put_long(&out, (long long)b.len);
    buf_putc(&out, ':');
    for (size_t i = 0; i < b.len; i++) {
        static const char hex[] = "0123456789abcdef";
        buf_putc(&out, hex[(unsigned char)b.data[i] >> 4]);
        buf_putc(&out, hex[(unsigned char)b.data[i] & 15]);
    }
    buf_free(&b);
    return take(&out);
}

static int compare_strings(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

START_TEST(test_write_key)
{
    /* Every grid of up to 9 cells, every shape: text and JSON agree, and
     * no two grids share a key (1 x 4 and 2 x 2 full grids included). */
    enum { MAX_KEYS = 4000 };
    char **keys = malloc(MAX_KEYS * sizeof *keys);
    ck_assert_ptr_nonnull(keys);
    int n = 0;
    for (int rows = 1; rows <= 9; rows++) {
        for (int cols = 1; rows * cols <= 9; cols++) {
            int k = rows * cols;
            walk *w = new_walk(rows, cols);
            for (unsigned mask = 0; mask < 1u << k; mask++) {
                for (int i = 0; i < k; i++)
                    w->cells[i] = mask >> i & 1 ? '.' : '#';
                char text[128], *json = request(w, 0);
                int len = sprintf(text, "%d %d\n", rows, cols);
                for (int r = 0; r < rows; r++)
                    len += sprintf(text + len, "%.*s\n", cols, w->cells + r * cols);
                /* The grid alone: drop the path member from the request. */
                strcpy(strstr(json, ", \"path\""), "}");
                char *a = key_of(text, IN_TEXT), *b = key_of(json, IN_JSON);
                ck_assert_str_eq(a, b);
                free(b);
                free(json);
                ck_assert_int_lt(n, MAX_KEYS);
                keys[n++] = a;
            }
            free_walk(w);
        }
    }
    ck_assert_int_eq(n, 3210);
    qsort(keys, (size_t)n, sizeof *keys, compare_strings);
    for (int i = 1; i < n; i++)
        ck_assert_msg(strcmp(keys[i - 1], keys[i]) != 0, "two grids share the key %s", keys[i]);
    for (int i = 0; i < n; i++)
        free(keys[i]);
    free(keys);
    /* Layout does not matter, sizes do. */
    char *a = key_of("2 3\n..#\n...\n", IN_TEXT), *b = key_of("  2 3 ..#\r\n... ", IN_TEXT);
    ck_assert_str_eq(a, b);
    free(b);
    b = key_of("3 2\n..\n#.\n..\n", IN_TEXT);
    ck_assert_str_ne(a, b);
    free(b);
    free(a);
    a = key_of("1 8\n........\n", IN_TEXT);
    b = key_of("1 7\n.......\n", IN_TEXT);
    ck_assert_str_ne(a, b);
    free(b);
    free(a);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
/* ---- the parsed position against the JSON path ---- */

/* analyze()'s bytes of the parsed position p, as a string. */
static char *parsed_answer(void *p)
{
    gj_buf b;
    gj_error e;
    buf_init(&b);
    EXPECT(GAME->play->analyze(p, &b, &e) == 0, "parsed analysis failed: %s", e.message);
    return take(&b);
}

/* Whole games on one parsed position each, against analyze() on the JSON
 * request of every position they reach: grids up to 20 x 20 from random
 * starting paths, each walked to its end on moves the ranking lists (the
 * best mostly, another now and then), so the matching the position keeps
 * from move to move is used for many moves, and a clone played on
 * now and then must leave its original as it was.  test_play holds the
 * other members (rank, write_move, find) to the JSON path on generated
 * positions a few plies deep. */
START_TEST(test_parsed_whole_games)
{
    uint64_t rng = 0x13198a2e03707344ULL;
    unsigned char visited[20 * 20];
    long positions = 0, clones = 0;
    for (int t = 0; t < 600; t++) {
        int big = t % 10 == 0; /* past the search's 128 cells for most of the game */
        int rows = big ? 12 + (int)rng_below(&rng, 9) : 1 + (int)rng_below(&rng, 6);
        int cols = big ? 12 + (int)rng_below(&rng, 9) : 1 + (int)rng_below(&rng, 6);
        walk *w = new_walk(rows, cols);
        trim_free(w, rows * cols - (int)rng_below(&rng, (uint64_t)(rows * cols / 3 + 1)), &rng);
        random_path(w, (long)rng_below(&rng, 3) * (long)rng_below(&rng, 12), &rng, visited);
        static const long maxes[3] = {1, 3, 100};
        long max_moves = maxes[rng_below(&rng, 3)];
        char *req = request(w, max_moves);
        json_t *root = json_loads(req, 0, NULL);
        gj_error e;
        void *p = GAME->play->parse(root, default_limits, &e);
        EXPECT(p != NULL, "parse failed: %s for %.300s", e.message, req);
        json_decref(root);
        for (;;) {
            char *want = analyze_raw(req, default_limits, &e), *got = parsed_answer(p);
            EXPECT(want != NULL && strcmp(want, got) == 0, "parsed %.300s, JSON %.300s, for %.300s",
                   got, want, req);
            free(got);
            positions++;
            gj_move moves[4];
            long k = GAME->play->rank(p, 4, moves, NULL, &e);
            EXPECT(k >= 0, "rank failed: %s", e.message);
            if (k == 0) {
                free(want);
                break;
            }
            if (rng_below(&rng, 10) == 0) {
                void *q = GAME->play->clone(p, &e);
                EXPECT(q != NULL, "clone failed: %s", e.message);
                ck_assert_int_eq(GAME->play->play(q, &moves[k - 1], &e), 0);
                ck_assert_int_eq(GAME->play->rank(q, 1, moves + 3, NULL, &e) >= 0, 1);
                GAME->play->free(q);
                clones++;
                k = GAME->play->rank(p, 4, moves, NULL, &e);
            }
            long pick = rng_below(&rng, 4) == 0 ? (long)rng_below(&rng, (uint64_t)k) : 0;
            json_t *ans = json_loads(want, 0, NULL), *entries = json_object_get(ans, "moves");
            gj_move found = {0};
            if (pick < (long)json_array_size(entries)) {
                const json_t *move = json_object_get(json_array_get(entries, (size_t)pick), "move");
                EXPECT(GAME->play->find(p, move, &found, &e) == 1 && found.id == moves[pick].id,
                       "find of entry %ld of %.300s", pick, req);
                long r = (long)json_integer_value(json_array_get(move, 0)) - 1;
                long c = (long)json_integer_value(json_array_get(move, 1)) - 1;
                w->path[w->n++] = (int)(r * cols + c);
            } else { /* the list was cut: the move's cell from the id */
                long width = cols + 2, id = (long)moves[pick].id;
                w->path[w->n++] = (int)((id / width - 1) * cols + id % width - 1);
            }
            json_decref(ans);
            free(want);
            ck_assert_int_eq(GAME->play->play(p, &moves[pick], &e), 0);
            free(req);
            req = request(w, max_moves);
        }
        GAME->play->free(p);
        free(req);
        free_walk(w);
    }
    ck_assert_int_gt(positions, 3500);
    ck_assert_int_gt(clones, 250);
}
END_TEST

/* A wrapper (line.c, engine.c) hands parse a request whose members are
 * known but not all there: the required ones are refused as analyze()
 * refuses them, never read as absent. */
START_TEST(test_parse_required)
{
    static const char *const bodies[][2] = {
        {"{\"grid\": [\"#\", \"#\"]}", "path"}, {"{\"path\": []}", "grid"}, {"{}", "grid"}};
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        json_t *root = json_loads(bodies[i][0], 0, NULL);
        gj_error e;
        gj_error_clear(&e);
        ck_assert_ptr_null(GAME->play->parse(root, default_limits, &e));
        ck_assert_str_eq(e.field, bodies[i][1]);
        ck_assert(strstr(e.message, "missing required field") != NULL);
        json_decref(root);
    }
}
END_TEST

static Suite *analysis_suite(void)
{
    const harness_case cases[] = {
        {"oracle", test_oracle_every_small_position},
        {"oracle", test_oracle_random_positions},
        {"large", test_large_random_positions},
        {"large", test_large_corridors},
        {"large", test_remoteness_bound},
        {"large", test_opening_large},
        {"edge", test_edge_cases},
        {"bad input", test_bad_json},
        {"bad input", test_bad_grid},
        {"bad input", test_bad_path},
        {"bad input", test_bad_max_moves},
        {"bad input", test_parse_required},
        {"key", test_write_key},
    };
    /* Whole games on the parsed position: left to make check, as test_play
     * holds every game's parsed position to the JSON path in the quick loop. */
    const harness_case large[] = {
        {"large", test_raised_limits_long_path},
        {"parsed", test_parsed_whole_games},
    };
    Suite *s = harness_suite("grid-walk analysis", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(analysis_suite());
}
