/* matrix_game.c - Codeforces 1658E: the start cells from which M wins a
 * jumping game on a matrix of distinct values.
 *
 * The idea: call a cell c winning, W[c], when the player who has just moved
 * the token onto c wins from there (M placing it on c at the start, so W is
 * the answer table).  Walking the values from the largest down, W[c] holds
 * exactly when no winning cell of larger value lies farther than k from c.
 * Two facts follow, for every position of the game, not only the start:
 *   - no winning cell is reachable from a winning cell: of two winning
 *     cells, the smaller was kept winning only because the larger is within
 *     k of it, and distance is symmetric;
 *   - from a non-winning cell a larger winning cell is reachable (that is
 *     what made it non-winning).
 * So the player to move from c wins iff W[c] is false: she jumps to a larger
 * winning cell; every reply leaves a winning cell for a non-winning one, to
 * which she answers with a larger winning cell again, gaining at least 1 in
 * every round of the ~10^100 moves to come.  The scores collected before,
 * and a last unanswered move, are at most n^2 per move made so far, nothing
 * against that.  From a winning c every jump lands on a non-winning cell,
 * which hands the opponent that same strategy.  A move to w therefore wins
 * for its mover iff W[w] (matrix_game_analysis.c ranks moves with this).
 *
 * Manhattan distance is Chebyshev distance in (x + y, x - y), so "every
 * winning cell so far is within k" is four comparisons against the extrema
 * of the winners so far.  The values are a permutation of 1..n^2, so the
 * parser files each cell under its value and the walk needs no sort: O(n^2)
 * time, 4 bytes a cell for the table and 1 for the answer (4 more for the
 * matrix while parsing).
 *
 * write_key is n and k, then the permutation as the packed cell of each
 * value 1..n^2 (4 bytes each, most significant first): what both parsers
 * build, so the text and JSON forms of one position give the same key. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "cancel.h"
#include "game.h"
#include "matrix_game.h"
#include "generate.h"
#include "key.h"
#include "matrix_game_core.h"
#include "text_read.h"

/* A cell packs each coordinate + 1 into 16 bits, so max must stay below 65536. */
static const gj_limit_def limits[] = {
    {"n", "side of the square matrix", 2000, 3, 6000},
};

/* The local name of the shared position (matrix_game_core.h). */
typedef mg_position position;

void mg_free(mg_position *pos)
{
    if (pos == NULL)
        return;
    free(pos->value);
    free(pos->cell_of);
    free(pos->outcome);
    free(pos);
}

/* A position with room for the n x n values, or NULL with *e. */
mg_position *mg_position_new(long n, long k, gj_error *e)
{
    position *pos = calloc(1, sizeof *pos);
    if (pos != NULL)
        pos->value = malloc((size_t)n * (size_t)n * sizeof *pos->value);
    if (pos == NULL || pos->value == NULL) {
        mg_free(pos);
        gj_fail_nomem(e);
        return NULL;
    }
    pos->n = n;
    pos->k = k;
    return pos;
}

/* File each cell under its value: a scatter in row order, then one
 * sequential pass for holes.  Reading fills the matrix in order and checks
 * only the range, because a duplicate check per value is a random access
 * into an n^2 table, several times the cost of parsing the number: n^2
 * values of 1..n^2 leave a hole exactly when one of them repeats.  *e is
 * filled only when out of memory; a repeat is the caller's to explain. */
gj_repeat mg_index_cells(mg_position *pos, gj_error *e)
{
    long n = pos->n, nn = n * n;
    pos->cell_of = calloc((size_t)nn, sizeof *pos->cell_of);
    if (pos->cell_of == NULL) {
        gj_fail_nomem(e);
        return GJ_REPEAT_FAILED;
    }
    const uint32_t *value = pos->value;
    uint32_t *cell_of = pos->cell_of;
    for (long i = 0; i < n; i++)
        for (long j = 0; j < n; j++)
            cell_of[value[i * n + j] - 1] = (uint32_t)(i + 1) << 16 | (uint32_t)(j + 1);
    for (long v = 0; v < nn; v++)
        if (cell_of[v] == 0)
            return GJ_REPEAT_FOUND;
    free(pos->value);
    pos->value = NULL;
    return GJ_NO_REPEAT;
}

/* The first repeat in reading order: the cells (row-major indices) of its
 * two places.  Only the error path calls it.  Returns 0, or -1 when out of
 * memory. */
int mg_find_repeat(const mg_position *pos, long *first, long *second, gj_error *e)
{
    long nn = pos->n * pos->n;
    uint32_t *seen = calloc((size_t)nn, sizeof *seen); /* by value - 1: cell + 1 */
    if (seen == NULL)
        return gj_fail_nomem(e);
    *first = *second = 0;
    for (long c = 0; c < nn; c++) {
        uint32_t v = pos->value[c];
        if (seen[v - 1] != 0) {
            *first = (long)seen[v - 1] - 1;
            *second = c;
            break;
        }
        seen[v - 1] = (uint32_t)c + 1;
    }
    free(seen);
    return 0;
}

/* Judge text read as it arrives (read_text) and whole (parse_text):
 * matrix_game_read.c's steps. */
GJ_TEXT_READER(mg_text_steps)

/* The JSON body {"k": k, "matrix": [[...], ...]} as it arrives (read_json), and whole
 * (parse_json): matrix_game_read.c's reader. */
GJ_JSON_READER(mg)

/* Mark M's winning cells, walking the values from the largest down.  The
 * packed coordinates are 1-based, which does not matter: only differences
 * of x + y and x - y are compared.  Every CHECK_EVERY values it checks
 * the cancel flag (cancel.h): 0, or -1 with *e when stopped. */
#define CHECK_EVERY 0xffff /* a mask: about 65536 values, well under a millisecond */
static int mark_winners(position *pos, gj_error *e)
{
    long n = pos->n, k = pos->k, stride = n + 1;
    const uint32_t *cell_of = pos->cell_of;
    uint32_t c = cell_of[n * n - 1];
    long x = c >> 16, y = c & 0xffff;
    /* Bounds on x + y and x - y that keep a cell within k of every winner. */
    long sum_lo = x + y - k, sum_hi = x + y + k, diff_lo = x - y - k, diff_hi = x - y + k;
    pos->outcome[(x - 1) * stride + (y - 1)] = 'M';
    for (long v = n * n - 2; v >= 0; v--) {
        if ((v & CHECK_EVERY) == CHECK_EVERY && gj_cancel_check(e) != 0)
            return -1;
        c = cell_of[v];
        x = c >> 16;
        y = c & 0xffff;
        long sum = x + y, diff = x - y;
        if (sum < sum_lo || sum > sum_hi || diff < diff_lo || diff > diff_hi)
            continue;
        pos->outcome[(x - 1) * stride + (y - 1)] = 'M';
        if (sum - k > sum_lo)
            sum_lo = sum - k;
        if (sum + k < sum_hi)
            sum_hi = sum + k;
        if (diff - k > diff_lo)
            diff_lo = diff - k;
        if (diff + k < diff_hi)
            diff_hi = diff + k;
    }
    return 0;
}

int mg_solve(mg_position *pos, gj_error *e)
{
    long n = pos->n, stride = n + 1;
    free(pos->outcome);
    pos->outcome = malloc((size_t)n * (size_t)stride);
    if (pos->outcome == NULL)
        return gj_fail_nomem(e);
    for (long i = 0; i < n; i++) {
        memset(pos->outcome + i * stride, 'G', (size_t)n);
        pos->outcome[i * stride + n] = '\n';
    }
    return mark_winners(pos, e);
}

/* game.h's solve, for the registry's void pointers. */
static int solve(void *p, gj_error *e)
{
    return mg_solve(p, e);
}

/* game.h's free_position, for the registry's void pointers. */
static void free_position(void *p)
{
    mg_free(p);
}

/* game.h's write_text: the n lines of M and G, as solve wrote them. */
static void write_text(const void *p, gj_buf *out)
{
    const position *pos = p;
    buf_append(out, pos->outcome, (size_t)pos->n * (size_t)(pos->n + 1));
}

/* game.h's write_json: the rows of outcomes as strings. */
static void write_json(const void *p, gj_buf *out)
{
    const position *pos = p;
    long n = pos->n;
    buf_reserve(out, (size_t)n * (size_t)(n + 3) + 64);
    game_json_open(out, &game_matrix_game, "outcomes");
    buf_putc(out, '[');
    for (long i = 0; i < n; i++) {
        if (i > 0)
            buf_putc(out, ',');
        buf_putc(out, '"');
        buf_append(out, pos->outcome + i * (n + 1), (size_t)n);
        buf_putc(out, '"');
    }
    buf_puts(out, "]}");
}

/* The key (key.h): "n k\n", then for each value 1..n^2 its packed cell in
 * four bytes, most significant first: the permutation itself. */
static void write_key(const void *p, gj_buf *out)
{
    const position *pos = p;
    long nn = pos->n * pos->n;
    const long head[2] = {pos->n, pos->k};
    key_head(out, head, 2);
    if (buf_reserve(out, (size_t)nn * 4) != 0)
        return;
    unsigned char *at = (unsigned char *)out->data + out->len;
    for (long v = 0; v < nn; v++) {
        uint32_t c = pos->cell_of[v];
        at[0] = (unsigned char)(c >> 24);
        at[1] = (unsigned char)(c >> 16);
        at[2] = (unsigned char)(c >> 8);
        at[3] = (unsigned char)c;
        at += 4;
    }
    out->len += (size_t)nn * 4;
}

/* game.h's cost_us.  Model: 2 us + 20 ns a cell (n^2 cells: the walk by
 * value touches each cell once, in random order, so about one cache miss
 * each once the table outgrows the cache).  Measured (cost_fit,
 * bench/NOTES.md): measured / estimate 0.03-0.6 from 3x3 to 2000x2000. */
static double cost_us(const void *p)
{
    const position *pos = p;
    return 2.0 + 0.020 * (double)pos->n * (double)pos->n;
}

/* game.h's work_bytes: mg_solve's outcome rows, and the answer: those
 * rows again as text, or quoted as JSON. */
size_t mg_work_bytes(const void *p)
{
    const position *pos = p;
    size_t n = (size_t)pos->n;
    return n * (n + 1) + n * (n + 3) + 64;
}

const gj_game game_matrix_game = {
    .name = "matrix-game",
    .display_name = "Matrix game",
    .title = "from which start cells M wins the matrix jumping game (M or G per cell)",
    .example_text = "3 1\n1 2 3\n4 5 6\n7 8 9\n",
    .example_json = "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
    .limits = limits,
    .nlimits = GJ_NLIMITS(limits),
    .parse_text = parse_text,
    .read_text = &read_text,
    .parse_json = parse_json,
    .read_json = &read_json,
    .solve = solve,
    .cost_us = cost_us,
    .work_bytes = mg_work_bytes,
    .write_text = write_text,
    .write_json = write_json,
    .free_position = free_position,
    .write_key = write_key,
    .analyze = matrix_game_analyze,
    .analyze_keys = matrix_game_analyze_keys,
    .play = &matrix_game_play,
    .example_analyze = "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": [1, 1], "
                       "\"to_move\": \"G\", \"max_moves\": 3}",
    .version = "2",
    .example_generate = "{\"seed\": 42, \"n\": 5, \"winning_moves\": 1}",
    .generate = matrix_game_generate,
    .generate_most = matrix_game_generate_most,
    .generate_keep = matrix_game_generate_keep,
    .generate_knobs = matrix_game_generate_knobs,
    .play_move = matrix_game_play_move,
    .play_repeats = 1,
    /* Puzzles: easy on 3 x 3, medium on the generator's own 4 x 4 (no
     * knobs, so the ids served before bands had sizes stay as they were),
     * hard on 6 x 6; k is drawn per candidate. */
    .puzzle_knobs = {"{\"n\": 3}", NULL, "{\"n\": 6}"},
    /* No third step: matrix_game_puzzle.c proves it, test_matrix_game_puzzle
     * checks it. */
    .puzzle_depth_max = 2,
    .puzzle_depth_note = "a jump can always be undone, so the second step's only winning move "
                         "goes back to the first step's cell, and the defender's same reply from "
                         "there repeats the second step's position",
    .motifs = matrix_game_motif_list,
    /* The difficulty's scale (puzzle.h): bench/puzzle_rate --calibrate 1000. */
    .puzzle_scale = {{0.1417, 0.2583, 0.3129, 0.3709, 0.4069, 0.4330, 0.6721, 0.8518, 0.9300,
                      0.9725},
                     {0.2353, 0.3663, 0.4478, 0.4839, 0.5131, 0.5447, 0.5704, 0.5879, 0.6052,
                      0.6376}},
    /* The engine's levels 1..4, from bench/levels.c (bench/results.md, "Levels"). */
    .level_ratio = {62197, 59056, 56695, 53618},
};
