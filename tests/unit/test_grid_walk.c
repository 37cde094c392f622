/* test_grid_walk.c - unit tests of the grid-walk solver.
 *
 * The fast solver (a maximum matching plus alternating reachability) is
 * judged by the game-tree oracle on every grid of up to 10 cells, on
 * thousands of random grids of up to 16 free cells, and on the rare small
 * grids where its greedy start goes wrong.  Large boards are checked
 * against answers known independently: boards walled into small rooms (the
 * oracle room by room), full boards (domino tilings), single long paths,
 * and random boards by the definition "A wins from v iff G - v keeps a
 * matching as large as G's", computed here with plain augmenting paths. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "grid_walk_oracle.h"
#include "harness.h"

#define GAME (&game_grid_walk)

/* ---- building inputs and expected answers ---- */

static char *grid_text(int rows, int cols, const char *cells)
{
    size_t cap = 32 + (size_t)rows * ((size_t)cols + 1);
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)snprintf(s, cap, "%d %d\n", rows, cols);
    for (int r = 0; r < rows; r++) {
        memcpy(s + len, cells + (size_t)r * (size_t)cols, (size_t)cols);
        len += (size_t)cols;
        s[len++] = '\n';
    }
    s[len] = '\0';
    return s;
}

static char *grid_json(int rows, int cols, const char *cells)
{
    size_t cap = 32 + (size_t)rows * ((size_t)cols + 4);
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t len = (size_t)snprintf(s, cap, "{\"grid\": [");
    for (int r = 0; r < rows; r++) {
        if (r > 0)
            s[len++] = ',';
        s[len++] = '"';
        memcpy(s + len, cells + (size_t)r * (size_t)cols, (size_t)cols);
        len += (size_t)cols;
        s[len++] = '"';
    }
    memcpy(s + len, "]}", 3);
    return s;
}

/* Read the next "r c\n" line of an answer at *p; 0 at the end.  (sscanf
 * would measure the whole rest of the string on every call.) */
static int next_cell(const char **p, int *r, int *c)
{
    char *end;
    if (**p == '\0')
        return 0;
    *r = (int)strtol(*p, &end, 10);
    ck_assert_msg(*end == ' ', "malformed answer line at [%.20s]", *p);
    *c = (int)strtol(end + 1, &end, 10);
    ck_assert_msg(*end == '\n', "malformed answer line at [%.20s]", *p);
    *p = end + 1;
    return 1;
}

/* The JSON answer that says what the judge text `text` says. */
static char *json_from_answer(const char *text)
{
    size_t cap = 80 + 2 * strlen(text);
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    int win = strncmp(text, "WIN\n", 4) == 0;
    ck_assert_msg(win || strcmp(text, "LOSE\n") == 0, "not an answer: [%s]", text);
    size_t len = (size_t)snprintf(s, cap,
                                  "{\"game\":\"grid-walk\",\"verdict\":\"%s\","
                                  "\"winning_cells\":[",
                                  win ? "WIN" : "LOSE");
    const char *p = win ? text + 4 : "";
    int first = 1;
    int r, c;
    while (next_cell(&p, &r, &c)) {
        len += (size_t)snprintf(s + len, cap - len, "%s[%d,%d]", first ? "" : ",", r, c);
        first = 0;
    }
    snprintf(s + len, cap - len, "]}");
    return s;
}

static char *run(harness_input how, const char *in, harness_output out, const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, how, in, strlen(in), out, limits, &e);
    ck_assert_msg(answer != NULL, "unexpected error %s for input:\n%s", e.message, in);
    return answer;
}

/* Solve the grid from text and from JSON and compare both with `want`.  A
 * failure shows the input and both answers unless they are large. */
static void check_both(int rows, int cols, const char *cells, const char *want)
{
    char *text = grid_text(rows, cols, cells), *json = grid_json(rows, cols, cells);
    char *want_json = json_from_answer(want);
    char *got = run(IN_TEXT, text, OUT_TEXT, NULL);
    int small = rows * cols <= 400;
    ck_assert_msg(strcmp(got, want) == 0, "input:\n%sexpected:\n%sgot:\n%s",
                  small ? text : "(large)\n", small ? want : "(large)\n", small ? got : "(large)");
    free(got);
    got = run(IN_JSON, json, OUT_JSON, NULL);
    ck_assert_msg(strcmp(got, want_json) == 0, "input %s\nexpected %s\ngot %s",
                  small ? json : "(large)", small ? want_json : "(large)", small ? got : "(large)");
    free(got);
    free(want_json);
    free(json);
    free(text);
}

static void check_oracle(int rows, int cols, const char *cells)
{
    char *want = grid_walk_oracle(rows, cols, cells);
    ck_assert_ptr_nonnull(want);
    check_both(rows, cols, cells, want);
    free(want);
}

/* An n x n board of h x w rooms (the last row and column of each room's
 * (h + 1) x (w + 1) tile are wall), each a random pattern from a list.  The
 * token never leaves its room, so the oracle's answer for each pattern,
 * placed room by room, is the board's answer. */
typedef struct rooms {
    char *cells;
    unsigned char *win;
} rooms;

static void free_rooms(rooms *b)
{
    free(b->cells);
    free(b->win);
    free(b);
}

/* win[i] = 1 when A wins from cell i of the h x w pattern. */
static void pattern_answer(int h, int w, const char *pattern, unsigned char *win)
{
    char *answer = grid_walk_oracle(h, w, pattern);
    ck_assert_ptr_nonnull(answer);
    memset(win, 0, (size_t)h * (size_t)w);
    const char *p = strncmp(answer, "WIN\n", 4) == 0 ? answer + 4 : "";
    int r, c;
    while (next_cell(&p, &r, &c))
        win[(r - 1) * w + c - 1] = 1;
    free(answer);
}

static rooms *build_rooms(int n, int h, int w, const char *const *patterns, int npatterns,
                          uint64_t *rng)
{
    size_t area = (size_t)h * (size_t)w;
    rooms *b = malloc(sizeof *b);
    unsigned char *answers = malloc((size_t)npatterns * area);
    ck_assert(b != NULL && answers != NULL);
    b->cells = malloc((size_t)n * (size_t)n);
    b->win = calloc((size_t)n * (size_t)n, 1);
    ck_assert(b->cells != NULL && b->win != NULL);
    for (int k = 0; k < npatterns; k++)
        pattern_answer(h, w, patterns[k], answers + (size_t)k * area);
    memset(b->cells, '#', (size_t)n * (size_t)n);
    for (int top = 0; top + h <= n; top += h + 1) {
        for (int left = 0; left + w <= n; left += w + 1) {
            int k = (int)rng_below(rng, (uint64_t)npatterns);
            for (int i = 0; i < h * w; i++) {
                size_t at = (size_t)(top + i / w) * (size_t)n + (size_t)(left + i % w);
                b->cells[at] = patterns[k][i];
                b->win[at] = answers[(size_t)k * area + (size_t)i];
            }
        }
    }
    free(answers);
    return b;
}

/* Judge text listing the cells flagged in win[] (row-major), or LOSE. */
static char *answer_from_flags(int rows, int cols, const unsigned char *win)
{
    size_t cap = 8, len = 0;
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
        cap += win[i] ? 12 : 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    len += (size_t)snprintf(s, cap, "%s", cap > 8 ? "WIN\n" : "LOSE\n");
    for (int r = 0; r < rows; r++)
        for (int c = 0; c < cols; c++)
            if (win[(size_t)r * (size_t)cols + (size_t)c])
                len += (size_t)snprintf(s + len, cap - len, "%d %d\n", r + 1, c + 1);
    return s;
}

/* ---- 1. the oracle cross-checks ---- */

/* Every grid of up to 10 cells, every shape. */
START_TEST(test_oracle_every_small_grid)
{
    char cells[16];
    int count = 0;
    for (int rows = 1; rows <= 10; rows++) {
        for (int cols = 1; rows * cols <= 10; cols++) {
            int k = rows * cols;
            for (unsigned mask = 0; mask < 1u << k; mask++) {
                for (int i = 0; i < k; i++)
                    cells[i] = mask >> i & 1 ? '.' : '#';
                check_oracle(rows, cols, cells);
                count++;
            }
        }
    }
    ck_assert_int_eq(count, 7306);
}
END_TEST

/* Block random free cells until at most `most` are free. */
static void trim_free(char *cells, int k, int most, uint64_t *rng)
{
    int free_count = 0;
    for (int i = 0; i < k; i++)
        free_count += cells[i] == '.';
    while (free_count > most) {
        int i = (int)rng_below(rng, (uint64_t)k);
        if (cells[i] == '.') {
            cells[i] = '#';
            free_count--;
        }
    }
}

/* Random grids of up to 16 free cells: long thin ones, full ones, sparse
 * ones and up to 8 x 8 boards thinned out. */
START_TEST(test_oracle_random_grids)
{
    uint64_t rng = 0x6a09e667f3bcc908ULL;
    char cells[64];
    for (int t = 0; t < 2600; t++) {
        int rows, cols;
        if (t % 2 == 0) {
            rows = 1 + (int)rng_below(&rng, 16);
            cols = 1 + (int)rng_below(&rng, (uint64_t)(16 / rows));
        } else {
            rows = 1 + (int)rng_below(&rng, 8);
            cols = 1 + (int)rng_below(&rng, 8);
        }
        int k = rows * cols;
        int blocked_tenths = t % 5 == 0 ? 0 : (int)rng_below(&rng, 11);
        for (int i = 0; i < k; i++)
            cells[i] = (int)rng_below(&rng, 10) < blocked_tenths ? '#' : '.';
        trim_free(cells, k, 16, &rng);
        check_oracle(rows, cols, cells);
    }
}
END_TEST

/* The biggest boards the oracle can take whole. */
START_TEST(test_oracle_full_boards)
{
    static const int shapes[][2] = {{1, 16}, {16, 1}, {2, 8}, {8, 2}, {4, 4}, {3, 5},
                                    {5, 3},  {1, 15}, {2, 7}, {4, 3}, {3, 4}, {2, 6}};
    char cells[32];
    for (size_t s = 0; s < sizeof shapes / sizeof shapes[0]; s++) {
        int k = shapes[s][0] * shapes[s][1];
        memset(cells, '.', (size_t)k);
        check_oracle(shapes[s][0], shapes[s][1], cells);
    }
}
END_TEST

/* Boards where the greedy start alone goes wrong, so the augmenting phases
 * must fix it (found by exhaustive search over all 4 x 5 and 3 x 6 boards;
 * random small boards almost never need them). */
static const char *const traps_4x5[] = {
    "......##....###..###", "......##....#....###", "#...##.#....#....###", "......##.....##...##",
    "......##..........##", "......##....###..#.#", "......##....#.#..#.#", "......##....###....#",
    "......##....#......#", "......##....###..##.", "......##....##...##.", "......##.....##...#.",
    "......##.....#....#.", "......##....###..#..", "....#.##.#..#....#..", "...##.#..#..#....#..",
    "...#..#..#..#....#..", "......#..#..#....#..", "#....#.##...#....#..", "......##....#....#..",
    "#...##.#....#....#..", "...#..#.....#....#..", "......##.....##.....", "......##....##......",
};
static const char *const traps_3x6[] = {"##...#...#....##..", ".....#...#....##.."};

START_TEST(test_oracle_greedy_traps)
{
    for (size_t i = 0; i < sizeof traps_4x5 / sizeof traps_4x5[0]; i++)
        check_oracle(4, 5, traps_4x5[i]);
    for (size_t i = 0; i < sizeof traps_3x6 / sizeof traps_3x6[0]; i++)
        check_oracle(3, 6, traps_3x6[i]);
}
END_TEST

/* Hundreds of trap rooms on one 100 x 100 board: many augmenting paths in
 * the same phases. */
START_TEST(test_oracle_rooms_of_traps)
{
    uint64_t rng = 0x9b05688c2b3e6c1fULL;
    rooms *b = build_rooms(100, 4, 5, traps_4x5, sizeof traps_4x5 / sizeof traps_4x5[0], &rng);
    char *want = answer_from_flags(100, 100, b->win);
    check_both(100, 100, b->cells, want);
    free(want);
    free_rooms(b);
}
END_TEST

/* ---- 2. the public test data ---- */

/* The grid of a judge input, to build its JSON twin. */
static char *read_grid(const char *in, int *rows, int *cols)
{
    int used;
    ck_assert_int_eq(sscanf(in, "%d %d%n", rows, cols, &used), 2);
    char *cells = malloc((size_t)*rows * (size_t)*cols + 1);
    ck_assert_ptr_nonnull(cells);
    const char *p = in + used;
    for (int r = 0; r < *rows; r++) {
        while (*p == ' ' || *p == '\n' || *p == '\r' || *p == '\t')
            p++;
        memcpy(cells + (size_t)r * (size_t)*cols, p, (size_t)*cols);
        p += *cols;
    }
    return cells;
}

START_TEST(test_data_files)
{
    int files = 0;
    for (int i = 1; i < 100; i++) {
        char path[512];
        size_t inlen, outlen;
        snprintf(path, sizeof path, "%s/grid-walk/%02d.in", harness_data_dir(), i);
        char *in = harness_read_file(path, &inlen);
        if (in == NULL)
            break;
        snprintf(path, sizeof path, "%s/grid-walk/%02d.out", harness_data_dir(), i);
        char *want = harness_read_file(path, &outlen);
        ck_assert_msg(want != NULL, "missing %s", path);
        gj_error e;
        char *got = harness_run(GAME, IN_TEXT, in, inlen, OUT_TEXT, NULL, &e);
        ck_assert_msg(got != NULL, "%02d.in: %s", i, e.message);
        ck_assert_msg(strcmp(got, want) == 0, "%02d.in: expected\n%sgot\n%s", i, want, got);
        free(got);
        int rows, cols;
        char *cells = read_grid(in, &rows, &cols);
        check_both(rows, cols, cells, want);
        free(cells);
        free(want);
        free(in);
        files++;
    }
    ck_assert_msg(files >= 1, "no test data in %s/grid-walk", harness_data_dir());
}
END_TEST

/* ---- 3. the README's example ---- */

START_TEST(test_api_example)
{
    static const char want[] =
        "{\"game\":\"grid-walk\",\"verdict\":\"WIN\",\"winning_cells\":[[1,2],[2,1],[2,3]]}";
    char *got = run(IN_JSON, "{\"grid\": [\"..#\", \"...\"]}", OUT_JSON, NULL);
    ck_assert_str_eq(got, want);
    free(got);
    got = run(IN_JSON, GAME->example_json, OUT_JSON, NULL);
    ck_assert_str_eq(got, want);
    free(got);
    got = run(IN_TEXT, GAME->example_text, OUT_TEXT, NULL);
    ck_assert_str_eq(got, "WIN\n1 2\n2 1\n2 3\n");
    free(got);
    got = run(IN_TEXT, GAME->example_text, OUT_JSON, NULL);
    ck_assert_str_eq(got, want);
    free(got);
    ck_assert_str_eq(GAME->name, "grid-walk");
    ck_assert_int_eq(GAME->nlimits, 2);
    ck_assert_str_eq(GAME->limits[0].name, "rows");
    ck_assert_int_eq(GAME->limits[0].def, 100);
    ck_assert_str_eq(GAME->limits[1].name, "cols");
    ck_assert_int_eq(GAME->limits[1].def, 100);
}
END_TEST

/* ---- 4. malformed input ---- */

static void expect_text_error(const char *in, size_t len, long line, long column, const char *part)
{
    gj_error e;
    char *got = harness_run(GAME, IN_TEXT, in, len, OUT_TEXT, NULL, &e);
    ck_assert_msg(got == NULL, "expected an error for [%s], got [%s]", in, got ? got : "");
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, part) != NULL, "[%s]: message \"%s\" lacks \"%s\"", in,
                  e.message, part);
    ck_assert_int_eq(e.line, line);
    ck_assert_int_eq(e.column, column);
}

#define TEXT_ERROR(in, line, column, part) expect_text_error(in, strlen(in), line, column, part)

START_TEST(test_text_empty)
{
    TEXT_ERROR("", 1, 0, "line 1: expected the number of rows N, found the end of the input");
    TEXT_ERROR(" \n\n", 3, 0, "expected the number of rows N, found the end of the input");
    TEXT_ERROR("3", 1, 0, "line 1: expected the number of columns M, found the end of the input");
}
END_TEST

START_TEST(test_text_not_a_number)
{
    TEXT_ERROR("x 3\n", 1, 1,
               "line 1, column 1: expected the number of rows N (an integer), found 'x'");
    TEXT_ERROR("2 3x\n", 1, 3,
               "line 1, column 3: expected the number of columns M (an integer), found '3x'");
    TEXT_ERROR("2.0 3\n", 1, 1, "found '2.0'");
}
END_TEST

START_TEST(test_text_size_out_of_range)
{
    TEXT_ERROR("0 3\n", 1, 1, "the number of rows N must be between 1 and 100, found 0");
    TEXT_ERROR("101 3\n", 1, 1, "the number of rows N must be between 1 and 100, found 101");
    TEXT_ERROR("-2 3\n", 1, 1, "the number of rows N must be between 1 and 100, found -2");
    TEXT_ERROR("3 0\n", 1, 3, "the number of columns M must be between 1 and 100, found 0");
    TEXT_ERROR("3 101\n", 1, 3, "the number of columns M must be between 1 and 100, found 101");
    TEXT_ERROR("99999999999999999999999 1\n", 1, 1,
               "the number of rows N must be between 1 and 100, found 99999999999999999999999");
    TEXT_ERROR("1 -9223372036854775809\n", 1, 3, "must be between 1 and 100, found");
}
END_TEST

START_TEST(test_text_too_few_rows)
{
    TEXT_ERROR("2 3\n..#\n", 3, 0, "line 3: expected row 2 of 2, found the end of the input");
    TEXT_ERROR("2 3", 1, 0, "line 1: expected row 1 of 2, found the end of the input");
}
END_TEST

START_TEST(test_text_bad_character)
{
    TEXT_ERROR("2 3\n..#\n.x.\n", 3, 2,
               "line 3, column 2: row 2: unexpected character 'x'; a cell is '.' (free) or "
               "'#' (blocked)");
    TEXT_ERROR("1 3\n  ..0\n", 2, 5, "line 2, column 5: row 1: unexpected character '0'");
    TEXT_ERROR("1 3\n.\xc3\xa9.\n", 2, 2, "row 1: unexpected character '\\xc3\\xa9'");
    TEXT_ERROR("1 1\nX\n", 2, 1, "unexpected character 'X'");
    expect_text_error("1 2\n.\0\n", 7, 2, 2, "row 1: unexpected character '\\x00'");
}
END_TEST

START_TEST(test_text_wrong_row_length)
{
    TEXT_ERROR("2 3\n..#\n..\n", 3, 1, "line 3, column 1: row 2 has 2 cells, expected 3");
    TEXT_ERROR("2 3\n..#\n....\n", 3, 1, "line 3, column 1: row 2 has 4 cells, expected 3");
    TEXT_ERROR("1 3\n. .#\n", 2, 1, "line 2, column 1: row 1 has 1 cells, expected 3");
}
END_TEST

START_TEST(test_text_trailing_garbage)
{
    TEXT_ERROR("1 1\n.\n#\n", 3, 1,
               "line 3, column 1: unexpected '#' after the end of the position");
    TEXT_ERROR("1 2\n.. 7\n", 2, 4, "unexpected '7' after the end of the position");
}
END_TEST

START_TEST(test_text_limits_configurable)
{
    /* 150 x 3 is past the default limit but fine once it is raised. */
    size_t cap = 16 + 150 * 4;
    char *in = malloc(cap);
    ck_assert_ptr_nonnull(in);
    size_t len = (size_t)snprintf(in, cap, "150 3\n");
    for (int r = 0; r < 150; r++) {
        memcpy(in + len, "...\n", 4);
        len += 4;
    }
    in[len] = '\0';
    TEXT_ERROR(in, 1, 1, "the number of rows N must be between 1 and 100, found 150");
    long raised[GJ_MAX_LIMITS] = {200, 200, 0, 0};
    char *got = run(IN_TEXT, in, OUT_TEXT, raised);
    ck_assert_str_eq(got, "LOSE\n"); /* 450 cells tile with dominoes */
    free(got);
    long tight[GJ_MAX_LIMITS] = {200, 2, 0, 0};
    gj_error e;
    ck_assert_ptr_null(harness_run(GAME, IN_TEXT, in, len, OUT_TEXT, tight, &e));
    ck_assert_str_eq(e.message, "line 1, column 5: the number of columns M must be between 1 "
                                "and 2, found 3");
    free(in);
    /* Limits set past what the solver allows are still refused. */
    long beyond[GJ_MAX_LIMITS] = {5000, 5000, 0, 0};
    const char *huge = "2001 1\n";
    ck_assert_ptr_null(harness_run(GAME, IN_TEXT, huge, strlen(huge), OUT_TEXT, beyond, &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_str_eq(e.message,
                     "a 2001 x 1 grid is larger than the 2000 x 2000 this solver allows");
    ck_assert_int_eq(GAME->limits[0].max, 2000);
    ck_assert_int_eq(GAME->limits[1].max, 2000);
}
END_TEST

static void expect_json_error(const char *in, const char *field, const char *part)
{
    gj_error e = harness_json_error(GAME, in);
    ck_assert_msg(strstr(e.message, part) != NULL, "[%s]: message \"%s\" lacks \"%s\"", in,
                  e.message, part);
    ck_assert_str_eq(e.field, field);
}

START_TEST(test_json_not_an_object)
{
    expect_json_error("{\"grid\": [\".\"]", "", "invalid JSON at line 1");
    expect_json_error("", "", "invalid JSON");
    expect_json_error("[\".\"]", "", "the JSON body must be an object, found an array");
    expect_json_error("{\"grid\": [\".\"]} x", "", "invalid JSON");
    expect_json_error("{\"grid\": [\".\"], \"grid\": [\"#\"]}", "", "invalid JSON");
}
END_TEST

START_TEST(test_json_fields)
{
    expect_json_error("{}", "grid", "grid: missing required field");
    expect_json_error("{\"grid\": [\".\"], \"rows\": 1}", "rows",
                      "rows: unknown field; expected only \"grid\"");
    expect_json_error("{\"grid\": \"..\"}", "grid", "grid: expected an array, found a string");
    expect_json_error("{\"grid\": null}", "grid", "grid: expected an array, found null");
}
END_TEST

START_TEST(test_json_row_count)
{
    expect_json_error("{\"grid\": []}", "grid", "grid: expected 1 to 100 elements, found 0");
    char in[1024];
    size_t len = (size_t)snprintf(in, sizeof in, "{\"grid\": [");
    for (int r = 0; r < 101; r++)
        len += (size_t)snprintf(in + len, sizeof in - len, "%s\".\"", r ? "," : "");
    snprintf(in + len, sizeof in - len, "]}");
    expect_json_error(in, "grid", "grid: expected 1 to 100 elements, found 101");
}
END_TEST

START_TEST(test_json_row_type)
{
    expect_json_error("{\"grid\": [\"..\", 5]}", "grid[1]",
                      "grid[1]: expected a string, found an integer");
    expect_json_error("{\"grid\": [[\".\"]]}", "grid[0]",
                      "grid[0]: expected a string, found an array");
}
END_TEST

START_TEST(test_json_width)
{
    expect_json_error("{\"grid\": [\"\"]}", "grid[0]",
                      "grid[0]: the number of columns must be between 1 and 100, found 0");
    char in[256];
    char row[102];
    memset(row, '.', 101);
    row[101] = '\0';
    snprintf(in, sizeof in, "{\"grid\": [\"%s\"]}", row);
    expect_json_error(in, "grid[0]",
                      "grid[0]: the number of columns must be between 1 and 100, found 101");
}
END_TEST

START_TEST(test_json_ragged)
{
    expect_json_error("{\"grid\": [\"..#\", \"..\"]}", "grid[1]",
                      "grid[1]: row 2 has 2 cells, expected 3 (the width of grid[0])");
    expect_json_error("{\"grid\": [\"..#\", \"...\", \"....\"]}", "grid[2]",
                      "grid[2]: row 3 has 4 cells, expected 3");
    expect_json_error("{\"grid\": [\"..#\", \"\"]}", "grid[1]", "row 2 has 0 cells, expected 3");
}
END_TEST

START_TEST(test_json_bad_character)
{
    expect_json_error("{\"grid\": [\"..#\", \".x.\"]}", "grid[1]",
                      "grid[1]: unexpected character 'x' at offset 1; a cell is '.' (free) or "
                      "'#' (blocked)");
    expect_json_error("{\"grid\": [\"\\u00e9.\"]}", "grid[0]",
                      "grid[0]: unexpected character '\\xc3\\xa9' at offset 0");
    /* jansson refuses NUL in strings itself. */
    expect_json_error("{\"grid\": [\".\\u0000\"]}", "", "holds \\u0000, which no position allows");
    expect_json_error("{\"grid\": [\". \"]}", "grid[0]", "unexpected character ' ' at offset 1");
}
END_TEST

/* ---- 5. large boards ---- */

/* The answer listing every free cell whose row + column has parity `odd`. */
static char *colour_answer(int rows, int cols, const char *cells, int odd)
{
    size_t cap = 8 + (size_t)rows * (size_t)cols * 12, len = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    len += (size_t)snprintf(s, cap, "WIN\n");
    for (int r = 1; r <= rows; r++)
        for (int c = 1; c <= cols; c++)
            if (cells[(r - 1) * cols + c - 1] == '.' && (r + c) % 2 == odd)
                len += (size_t)snprintf(s + len, cap - len, "%d %d\n", r, c);
    return s;
}

START_TEST(test_large_full_boards)
{
    char *cells = malloc(100 * 100);
    ck_assert_ptr_nonnull(cells);
    /* An even board tiles with dominoes: B answers every start. */
    memset(cells, '.', 100 * 100);
    check_both(100, 100, cells, "LOSE\n");
    /* An odd board minus any cell of the corner colour still tiles. */
    char *want = colour_answer(99, 99, cells, 0);
    check_both(99, 99, cells, want);
    free(want);
    /* Gomory: an even board minus two cells of opposite colours tiles. */
    cells[0] = '#';
    want = colour_answer(100, 100, cells, 1);
    check_both(100, 100, cells, want);
    free(want);
    /* An L-shaped path of 199 cells: its ends and every second cell. */
    memset(cells, '#', 100 * 100);
    for (int c = 0; c < 100; c++)
        cells[c] = '.';
    for (int r = 1; r < 100; r++)
        cells[r * 100] = '.';
    want = colour_answer(100, 100, cells, 1);
    check_both(100, 100, cells, want);
    free(want);
    free(cells);
}
END_TEST

/* A plain maximum matching with one BFS per augmenting path, for checking
 * large answers by the definition of a winning cell. */
typedef struct plain {
    int rows, cols;
    const char *cells;
    int *mate, *parent, *seen, *queue;
    int stamp;
} plain;

static int plain_free(const plain *p, int r, int c)
{
    return r >= 0 && r < p->rows && c >= 0 && c < p->cols && p->cells[r * p->cols + c] == '.';
}

/* Find and apply an augmenting path from the unmatched cell `start`,
 * treating `removed` as blocked. */
static int plain_augment(plain *p, int start, int removed)
{
    static const int dr[4] = {-1, 1, 0, 0}, dc[4] = {0, 0, -1, 1};
    int head = 0, tail = 0;
    p->stamp++;
    p->queue[tail++] = start;
    p->seen[start] = p->stamp;
    while (head < tail) {
        int x = p->queue[head++], r = x / p->cols, c = x % p->cols;
        for (int d = 0; d < 4; d++) {
            if (!plain_free(p, r + dr[d], c + dc[d]))
                continue;
            int y = (r + dr[d]) * p->cols + c + dc[d];
            if (y == removed || y == p->mate[x] || p->seen[y] == p->stamp)
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

/* Independent check of a large answer: listed cells are free, sorted and
 * never adjacent (the cells a maximum matching can miss form an independent
 * set), and for sampled cells v, A wins from v iff G - v keeps a maximum
 * matching of G's size. */
static void check_large_answer(int rows, int cols, const char *cells, const char *answer,
                               int samples, uint64_t *rng)
{
    size_t k = (size_t)rows * (size_t)cols;
    unsigned char *win = calloc(k, 1);
    plain p = {rows,
               cols,
               cells,
               malloc(k * sizeof(int)),
               malloc(k * sizeof(int)),
               calloc(k, sizeof(int)),
               malloc(k * sizeof(int)),
               0};
    int *saved = malloc(k * sizeof(int));
    ck_assert(win && p.mate && p.parent && p.seen && p.queue && saved);
    const char *s = answer;
    if (strncmp(s, "WIN\n", 4) == 0) {
        s += 4;
        long last = -1;
        int r, c;
        while (next_cell(&s, &r, &c)) {
            long at = (long)(r - 1) * cols + (c - 1);
            ck_assert(r >= 1 && r <= rows && c >= 1 && c <= cols);
            ck_assert_msg(at > last, "cells out of order at %d %d", r, c);
            ck_assert_msg(cells[at] == '.', "blocked cell %d %d listed", r, c);
            ck_assert_msg(!(c > 1 && win[at - 1]) && !(r > 1 && win[at - cols]),
                          "adjacent winners at %d %d", r, c);
            win[at] = 1;
            last = at;
        }
        ck_assert_msg(last >= 0, "WIN without cells");
    } else {
        ck_assert_str_eq(s, "LOSE\n");
    }
    for (size_t i = 0; i < k; i++)
        p.mate[i] = -1;
    for (size_t i = 0; samples > 0 && i < k; i++)
        if (cells[i] == '.' && ((int)(i / (size_t)cols) + (int)(i % (size_t)cols)) % 2 == 0)
            plain_augment(&p, (int)i, -1);
    for (int t = 0; t < samples; t++) {
        int v = (int)rng_below(rng, k);
        if (cells[v] != '.')
            continue;
        int wins = 1;
        if (p.mate[v] >= 0) {
            memcpy(saved, p.mate, k * sizeof(int));
            int u = p.mate[v];
            p.mate[u] = p.mate[v] = -1;
            wins = plain_augment(&p, u, v);
            memcpy(p.mate, saved, k * sizeof(int));
        }
        ck_assert_msg(wins == win[v], "cell %d %d: the definition says %s", v / cols + 1,
                      v % cols + 1, wins ? "WIN" : "not winning");
    }
    free(saved);
    free(p.queue);
    free(p.seen);
    free(p.parent);
    free(p.mate);
    free(win);
}

static char *random_board(int rows, int cols, int blocked_percent, uint64_t *rng)
{
    char *cells = malloc((size_t)rows * (size_t)cols);
    ck_assert_ptr_nonnull(cells);
    for (size_t i = 0; i < (size_t)rows * (size_t)cols; i++)
        cells[i] = (int)rng_below(rng, 100) < blocked_percent ? '#' : '.';
    return cells;
}

START_TEST(test_large_random_board)
{
    uint64_t rng = 0xbb67ae8584caa73bULL;
    for (int t = 0; t < 3; t++) {
        char *cells = random_board(100, 100, t == 0 ? 10 : 20 + 10 * t, &rng);
        char *text = grid_text(100, 100, cells);
        char *got = run(IN_TEXT, text, OUT_TEXT, NULL);
        check_large_answer(100, 100, cells, got, 400, &rng);
        char *json = grid_json(100, 100, cells), *want_json = json_from_answer(got);
        char *got_json = run(IN_JSON, json, OUT_JSON, NULL);
        ck_assert_str_eq(got_json, want_json);
        free(got_json);
        free(want_json);
        free(json);
        free(got);
        free(text);
        free(cells);
    }
}
END_TEST

static void check_raised(int rows, int cols, const char *cells, const char *want)
{
    long raised[GJ_MAX_LIMITS] = {1000, 1000, 0, 0};
    char *text = grid_text(rows, cols, cells);
    char *got = run(IN_TEXT, text, OUT_TEXT, raised);
    ck_assert_msg(strcmp(got, want) == 0, "%d x %d board: answers differ", rows, cols);
    free(got);
    free(text);
}

/* 1000 x 1000 split by walls into 3 x 3 rooms of every pattern. */
START_TEST(test_raised_limits_rooms)
{
    char patterns[512][10];
    const char *list[512];
    for (unsigned m = 0; m < 512; m++) {
        for (int i = 0; i < 9; i++)
            patterns[m][i] = m >> i & 1 ? '.' : '#';
        patterns[m][9] = '\0';
        list[m] = patterns[m];
    }
    uint64_t rng = 0x3c6ef372fe94f82bULL;
    rooms *b = build_rooms(1000, 3, 3, list, 512, &rng);
    char *want = answer_from_flags(1000, 1000, b->win);
    check_raised(1000, 1000, b->cells, want);
    free(want);
    free_rooms(b);
}
END_TEST

/* A serpentine corridor through 999 x 999 (rows 1, 3, 5, ... open, joined
 * at alternate ends) is one path of 499999 cells: A wins from its ends and
 * every second cell between. */
START_TEST(test_raised_limits_corridor)
{
    enum { N = 999 };
    char *cells = malloc((size_t)N * N);
    unsigned char *flags = calloc((size_t)N * N, 1);
    ck_assert(cells != NULL && flags != NULL);
    memset(cells, '#', (size_t)N * N);
    long step = 0;
    for (int r = 0; r < N; r += 2) {
        for (int k = 0; k < N; k++) {
            int c = r % 4 == 0 ? k : N - 1 - k;
            cells[(size_t)r * N + (size_t)c] = '.';
            flags[(size_t)r * N + (size_t)c] = step++ % 2 == 0;
        }
        if (r + 1 < N) {
            int c = r % 4 == 0 ? N - 1 : 0;
            cells[(size_t)(r + 1) * N + (size_t)c] = '.';
            flags[(size_t)(r + 1) * N + (size_t)c] = step++ % 2 == 0;
        }
    }
    ck_assert_int_eq(step, 499999);
    char *want = answer_from_flags(N, N, flags);
    check_raised(N, N, cells, want);
    free(want);
    free(flags);
    free(cells);
}
END_TEST

/* A random 1000 x 1000 board, 10% blocked: the long augmenting paths case.
 * Checked for form and independence only (the definition check is too slow
 * here; the 100 x 100 boards get it). */
START_TEST(test_raised_limits_random)
{
    uint64_t rng = 0x510e527fade682d1ULL;
    long raised[GJ_MAX_LIMITS] = {1000, 1000, 0, 0};
    char *cells = random_board(1000, 1000, 10, &rng);
    char *text = grid_text(1000, 1000, cells);
    char *got = run(IN_TEXT, text, OUT_TEXT, raised);
    check_large_answer(1000, 1000, cells, got, 0, &rng);
    free(got);
    free(text);
    free(cells);
}
END_TEST

/* ---- 6. edge cases ---- */

START_TEST(test_edge_single_cell)
{
    /* B cannot move from the lone cell, so A wins by starting there. */
    check_both(1, 1, ".", "WIN\n1 1\n");
    check_both(1, 1, "#", "LOSE\n");
    char *got = run(IN_JSON, "{\"grid\": [\"#\"]}", OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"grid-walk\",\"verdict\":\"LOSE\",\"winning_cells\":[]}");
    free(got);
}
END_TEST

START_TEST(test_edge_all_blocked_and_all_free)
{
    check_both(3, 4, "############", "LOSE\n");
    check_both(2, 3, "......", "LOSE\n");
    check_both(3, 3, ".........", "WIN\n1 1\n1 3\n2 2\n3 1\n3 3\n");
    check_both(1, 2, "..", "LOSE\n");
}
END_TEST

START_TEST(test_edge_lines)
{
    check_both(1, 5, ".....", "WIN\n1 1\n1 3\n1 5\n");
    check_both(1, 4, "....", "LOSE\n");
    check_both(5, 1, ".....", "WIN\n1 1\n3 1\n5 1\n");
    check_both(4, 1, "....", "LOSE\n");
    check_both(1, 3, ".#.", "WIN\n1 1\n1 3\n");
    check_both(1, 7, "..#...#", "WIN\n1 4\n1 6\n");
}
END_TEST

START_TEST(test_edge_text_layout)
{
    /* Any whitespace separates tokens, CRLF included. */
    char *got = run(IN_TEXT, "1 1\r\n.\r\n", OUT_TEXT, NULL);
    ck_assert_str_eq(got, "WIN\n1 1\n");
    free(got);
    got = run(IN_TEXT, "  2\t3 ..#   ...", OUT_TEXT, NULL);
    ck_assert_str_eq(got, "WIN\n1 2\n2 1\n2 3\n");
    free(got);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *grid_walk_suite(void)
{
    const harness_case cases[] = {
        {"oracle", test_oracle_every_small_grid},
        {"oracle", test_oracle_random_grids},
        {"oracle", test_oracle_full_boards},
        {"oracle", test_oracle_greedy_traps},
        {"oracle", test_oracle_rooms_of_traps},
        {"data", test_data_files},
        {"data", test_api_example},
        {"text errors", test_text_empty},
        {"text errors", test_text_not_a_number},
        {"text errors", test_text_size_out_of_range},
        {"text errors", test_text_too_few_rows},
        {"text errors", test_text_bad_character},
        {"text errors", test_text_wrong_row_length},
        {"text errors", test_text_trailing_garbage},
        {"text errors", test_text_limits_configurable},
        {"json errors", test_json_not_an_object},
        {"json errors", test_json_fields},
        {"json errors", test_json_row_count},
        {"json errors", test_json_row_type},
        {"json errors", test_json_width},
        {"json errors", test_json_ragged},
        {"json errors", test_json_bad_character},
        {"large", test_large_full_boards},
        {"large", test_large_random_board},
        {"large", test_raised_limits_rooms},
        {"large", test_raised_limits_corridor},
        {"edge", test_edge_single_cell},
        {"edge", test_edge_all_blocked_and_all_free},
        {"edge", test_edge_lines},
        {"edge", test_edge_text_layout},
    };
    /* Left to `make check` (HARNESS_LARGE): random boards at raised limits, the longest case. */
    const harness_case large[] = {
        {"large", test_raised_limits_random},
    };
    Suite *s = harness_suite("grid-walk", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(grid_walk_suite());
}
