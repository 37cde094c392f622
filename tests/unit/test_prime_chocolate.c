/* test_prime_chocolate.c - prime-chocolate against its brute-force oracle.
 *
 * The fast solver answers from parity and 2 x 2 blocks; the oracle plays
 * every move sequence.  They must agree on every board up to 4 x 4, on
 * thousands of random boards up to 6 x 6, and on the public data.  Large
 * boards are built so the answer follows from a short argument written next
 * to each of them. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "harness.h"
#include "prime_chocolate_oracle.h"

#define GAME (&game_prime_chocolate)

static const char EN_DASH[] = "\xe2\x80\x93";

enum dash_style { HYPHENS, EN_DASHES, MIXED };

/* ---- rendering boards ------------------------------------------------ */

/* The judge text of a board; chocolate drawn as '-', as the en dash, or as
 * either (by a fixed pattern) when mixed. */
static char *render_text(long n, const unsigned char *cell, enum dash_style style)
{
    size_t cap = (size_t)n * ((size_t)n * 3 + 1) + 32;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)snprintf(s, cap, "%ld\n", n);
    for (long i = 0; i < n; i++) {
        for (long j = 0; j < n; j++) {
            int dash = style == EN_DASHES || (style == MIXED && (i * 7 + j * 3) % 5 < 2);
            if (!cell[i * n + j]) {
                s[o++] = 'X';
            } else if (dash) {
                memcpy(s + o, EN_DASH, 3);
                o += 3;
            } else {
                s[o++] = '-';
            }
        }
        s[o++] = '\n';
    }
    s[o] = '\0';
    return s;
}

/* The JSON twin: {"grid": ["--X", ...]}. */
static char *render_json(long n, const unsigned char *cell)
{
    size_t cap = (size_t)n * ((size_t)n + 4) + 32;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    size_t o = (size_t)snprintf(s, cap, "{\"grid\": [");
    for (long i = 0; i < n; i++) {
        s[o++] = '"';
        for (long j = 0; j < n; j++)
            s[o++] = cell[i * n + j] ? '-' : 'X';
        s[o++] = '"';
        if (i + 1 < n)
            s[o++] = ',';
    }
    memcpy(s + o, "]}", 3);
    return s;
}

static char *expected_json(const char *winner_line)
{
    char *s = malloc(64);
    ck_assert_ptr_nonnull(s);
    int len = (int)strcspn(winner_line, "\n");
    snprintf(s, 64, "{\"game\":\"prime-chocolate\",\"winner\":\"%.*s\"}", len, winner_line);
    return s;
}

/* Run the fast solver; fails the test on an error. */
static char *solve(const char *in, size_t len, harness_input how, harness_output out,
                   const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, how, in, len, out, limits, &e);
    ck_assert_msg(answer != NULL, "unexpected error: %s", e.message);
    return answer;
}

static char *solve_board(long n, const unsigned char *cell, enum dash_style style)
{
    char *in = render_text(n, cell, style);
    char *answer = solve(in, strlen(in), IN_TEXT, OUT_TEXT, NULL);
    free(in);
    return answer;
}

/* ---- cross-checks against the oracle ---------------------------------- */

typedef struct tally {
    long boards, mismatches;
    char first[512]; /* the first board the two disagree on */
} tally;

/* Compare the fast solver (text in, and JSON in for some boards) with the
 * oracle's answer on one board. */
static void compare(tally *t, int n, const unsigned char *cell, const char *want,
                    enum dash_style style, int also_json)
{
    char *in = render_text(n, cell, style);
    char *got = solve(in, strlen(in), IN_TEXT, OUT_TEXT, NULL);
    int bad = strcmp(got, want) != 0;
    if (also_json && !bad) {
        char *json = render_json(n, cell);
        char *got_json = solve(json, strlen(json), IN_JSON, OUT_JSON, NULL);
        char *want_json = expected_json(want);
        bad = strcmp(got_json, want_json) != 0;
        free(json);
        free(got_json);
        free(want_json);
    }
    t->boards++;
    if (bad && t->mismatches++ == 0)
        snprintf(t->first, sizeof t->first, "%sfast: %soracle: %s", in, got, want);
    free(in);
    free(got);
}

static void assert_agree(const tally *t, const char *what)
{
    ck_assert_msg(t->mismatches == 0, "%s: %ld of %ld boards disagree; first:\n%s", what,
                  t->mismatches, t->boards, t->first);
}

static void mask_to_cells(int n, uint32_t mask, unsigned char *cell)
{
    for (int c = 0; c < n * n; c++)
        cell[c] = (mask >> c) & 1u;
}

/* Every board of side n, judged by one oracle table. */
static void check_every_board(int n, tally *t)
{
    size_t count = (size_t)1 << (n * n);
    unsigned char *wins = malloc(count);
    ck_assert_ptr_nonnull(wins);
    ck_assert_int_eq(prime_chocolate_oracle_all(n, wins), 0);
    unsigned char cell[16];
    for (uint32_t mask = 0; mask < count; mask++) {
        mask_to_cells(n, mask, cell);
        /* Every 16th board also through the JSON twin and drawn in en dashes. */
        int json = mask % 16 == 5;
        compare(t, n, cell, wins[mask] ? "RUBY\n" : "DIA\n", json ? MIXED : HYPHENS, json);
    }
    free(wins);
}

START_TEST(test_every_board_up_to_3)
{
    tally t = {0};
    for (int n = 1; n <= 3; n++)
        check_every_board(n, &t);
    ck_assert_int_eq(t.boards, 2 + 16 + 512);
    assert_agree(&t, "every board up to 3 x 3");
}
END_TEST

START_TEST(test_every_board_4x4)
{
    tally t = {0};
    check_every_board(4, &t);
    ck_assert_int_eq(t.boards, 65536);
    assert_agree(&t, "every 4 x 4 board");
}
END_TEST

/* The single-board oracle and the table must tell the same story. */
START_TEST(test_oracle_agrees_with_itself)
{
    unsigned char wins[1 << 9], cell[9];
    ck_assert_int_eq(prime_chocolate_oracle_all(3, wins), 0);
    for (uint32_t mask = 0; mask < 512; mask++) {
        mask_to_cells(3, mask, cell);
        const char *one = prime_chocolate_oracle(3, cell);
        ck_assert_ptr_nonnull(one);
        ck_assert_str_eq(one, wins[mask] ? "RUBY\n" : "DIA\n");
    }
}
END_TEST

/* Drop random chocolate until at most `cap` squares are left. */
static void thin_out(int n, unsigned char *cell, int cap, uint64_t *rng)
{
    int count = 0;
    for (int c = 0; c < n * n; c++)
        count += cell[c];
    while (count > cap) {
        int c = (int)rng_below(rng, (uint64_t)(n * n));
        if (cell[c]) {
            cell[c] = 0;
            count--;
        }
    }
}

/* A random board of side n: uniform with a random density, or (on larger
 * sides, where the oracle cannot afford dense boards) a few full blocks and
 * loose squares, so 2 x 2 and 3 x 3 moves stay in play. */
static void random_board(int n, unsigned char *cell, int cap, uint64_t *rng)
{
    if (n >= 5 && rng_below(rng, 2) == 0) {
        memset(cell, 0, (size_t)(n * n));
        int blocks = 1 + (int)rng_below(rng, 3);
        for (int b = 0; b < blocks; b++) {
            int side = 2 + (int)rng_below(rng, 2);
            int top = (int)rng_below(rng, (uint64_t)(n - side + 1));
            int left = (int)rng_below(rng, (uint64_t)(n - side + 1));
            for (int i = top; i < top + side; i++)
                for (int j = left; j < left + side; j++)
                    cell[i * n + j] = 1;
        }
        int loose = (int)rng_below(rng, 5);
        for (int k = 0; k < loose; k++)
            cell[rng_below(rng, (uint64_t)(n * n))] = 1;
    } else {
        uint64_t density = 1 + rng_below(rng, 100); /* percent of chocolate */
        for (int c = 0; c < n * n; c++)
            cell[c] = rng_below(rng, 100) < density;
    }
    thin_out(n, cell, cap, rng);
}

static void check_random_boards(uint64_t seed, long boards, int lo, int hi, int cap, tally *t)
{
    uint64_t rng = seed;
    unsigned char cell[36];
    for (long b = 0; b < boards; b++) {
        int n = lo + (int)rng_below(&rng, (uint64_t)(hi - lo + 1));
        random_board(n, cell, cap, &rng);
        const char *want = prime_chocolate_oracle(n, cell);
        ck_assert_ptr_nonnull(want);
        enum dash_style style = (enum dash_style)(b % 3);
        compare(t, n, cell, want, style, b % 4 == 0);
    }
}

START_TEST(test_random_boards)
{
    tally t = {0};
    check_random_boards(0x5eed0001u, 1200, 1, 4, 16, &t);
    check_random_boards(0x5eed0002u, 1000, 5, 6, 16, &t);
    ck_assert_int_eq(t.boards, 2200);
    assert_agree(&t, "random boards of side 1..6");
}
END_TEST

/* Fewer, richer boards: up to 20 squares on sides 5 and 6. */
START_TEST(test_random_rich_boards)
{
    tally t = {0};
    check_random_boards(0x5eed0003u, 60, 5, 6, 20, &t);
    assert_agree(&t, "random boards of side 5..6 with up to 20 squares");
}
END_TEST

/* ---- hand-made positions ---------------------------------------------- */

static void assert_text(const char *in, const char *want)
{
    char *got = harness_text(GAME, in);
    ck_assert_msg(strcmp(got, want) == 0, "input:\n%sgot %sexpected %s", in, got, want);
    free(got);
}

/* A board given as rows separated by spaces.  Each is checked against the
 * oracle too, so the stated answer is not just an opinion. */
static void assert_board(int n, const char *rows, const char *want)
{
    unsigned char cell[36];
    int c = 0;
    for (const char *r = rows; *r != '\0'; r++)
        if (*r != ' ')
            cell[c++] = *r == '-';
    ck_assert_int_eq(c, n * n);
    const char *oracle = prime_chocolate_oracle(n, cell);
    ck_assert_ptr_nonnull(oracle);
    ck_assert_msg(strcmp(oracle, want) == 0, "oracle says %s for %s", oracle, rows);
    char *in = render_text(n, cell, HYPHENS);
    assert_text(in, want);
    free(in);
}

START_TEST(test_edge_cases)
{
    unsigned char cell[36];
    /* All eaten: Ruby cannot move. */
    for (int n = 1; n <= 6; n++) {
        memset(cell, 0, sizeof cell);
        char *got = solve_board(n, cell, HYPHENS);
        ck_assert_str_eq(got, "DIA\n");
        free(got);
    }
    /* All chocolate up to 5 x 5: an even count has a 2 x 2; 1, 3 and 5
     * are prime sides Ruby eats whole. */
    for (int n = 1; n <= 5; n++) {
        memset(cell, 1, sizeof cell);
        char *got = solve_board(n, cell, n % 2 ? EN_DASHES : HYPHENS);
        ck_assert_str_eq(got, "RUBY\n");
        free(got);
    }
    /* Parity alone, no 2 x 2 anywhere: odd count wins, even loses. */
    assert_board(3, "-X- X-X -X-", "RUBY\n");
    assert_board(3, "-X- X-X -XX", "DIA\n");
    assert_board(4, "-X-X -X-X -X-X -X-X", "DIA\n");
    /* Even with a 2 x 2: Ruby takes it. */
    assert_board(4, "--XX --XX XXXX XX--", "RUBY\n");
    /* Odd with two disjoint 2 x 2 blocks: no single move breaks both. */
    assert_board(4, "--X- --XX XX-- XX--", "DIA\n");
    /* Odd, one 2 x 2 block and a loose square: eating one square of the
     * block leaves an even count of single moves. */
    assert_board(3, "--X --X XX-", "RUBY\n");
    /* Odd, two 2 x 2 blocks sharing squares: eat a shared one. */
    assert_board(3, "--- --- -XX", "RUBY\n");
    /* Odd, a full 3 x 3 and a 2 x 2 hanging below it: only the 3 x 3 move
     * touches every block, and it leaves two squares. */
    assert_board(4, "---X ---X ---X X--X", "RUBY\n");
    /* A checkerboard: even, no 2 x 2, single moves only; Dia eats last. */
    assert_board(4, "-X-X X-X- -X-X X-X-", "DIA\n");
}
END_TEST

/* Chocolate drawn as the en dash, as hyphens, or both in one row. */
START_TEST(test_en_dash)
{
    char in[128];
    snprintf(in, sizeof in, "2\n%s%s\n%s%s\n", EN_DASH, EN_DASH, EN_DASH, EN_DASH);
    assert_text(in, "RUBY\n");
    snprintf(in, sizeof in, "2\n%sX\nX%s\n", EN_DASH, EN_DASH);
    assert_text(in, "DIA\n");
    snprintf(in, sizeof in, "2\n-%s\n%s-\n", EN_DASH, EN_DASH);
    assert_text(in, "RUBY\n");
    /* Eight squares around a hole: an even count and no 2 x 2. */
    snprintf(in, sizeof in, "3\n-%s-\n%sX%s\n---\n", EN_DASH, EN_DASH, EN_DASH);
    assert_text(in, "DIA\n");
}
END_TEST

/* ---- public data ------------------------------------------------------ */

/* The JSON twin of a judge-text board (hyphens and en dashes both become
 * '-'), read with the game's own reading rules kept out of it. */
static char *json_of_text(const char *text)
{
    long n = strtol(text, NULL, 10);
    unsigned char *cell = malloc((size_t)(n * n));
    ck_assert_ptr_nonnull(cell);
    const char *p = strchr(text, '\n');
    long c = 0;
    for (; p != NULL && *p != '\0' && c < n * n; p++) {
        if (*p == 'X') {
            cell[c++] = 0;
        } else if (*p == '-') {
            cell[c++] = 1;
        } else if (strncmp(p, EN_DASH, 3) == 0) {
            cell[c++] = 1;
            p += 2;
        }
    }
    ck_assert_int_eq(c, n * n);
    char *json = render_json(n, cell);
    free(cell);
    return json;
}

START_TEST(test_public_data)
{
    int files = 0;
    for (int k = 1; k <= 99; k++) {
        char path[512];
        snprintf(path, sizeof path, "%s/prime-chocolate/%02d.in", harness_data_dir(), k);
        size_t len;
        char *in = harness_read_file(path, &len);
        if (in == NULL)
            break;
        snprintf(path, sizeof path, "%s/prime-chocolate/%02d.out", harness_data_dir(), k);
        char *want = harness_read_file(path, NULL);
        ck_assert_msg(want != NULL, "missing %s", path);
        char *got = solve(in, len, IN_TEXT, OUT_TEXT, NULL);
        ck_assert_msg(strcmp(got, want) == 0, "%02d.in:\n%sgot %sexpected %s", k, in, got, want);
        char *json = json_of_text(in);
        char *got_json = solve(json, strlen(json), IN_JSON, OUT_JSON, NULL);
        char *want_json = expected_json(want);
        ck_assert_str_eq(got_json, want_json);
        char *got_mixed = solve(in, len, IN_TEXT, OUT_JSON, NULL);
        ck_assert_str_eq(got_mixed, want_json);
        free(in);
        free(want);
        free(got);
        free(json);
        free(got_json);
        free(want_json);
        free(got_mixed);
        files++;
    }
    ck_assert_int_eq(files, 8);
}
END_TEST

START_TEST(test_api_example)
{
    const char *in = "{\"grid\": [\"--X\", \"---\", \"---\"]}";
    char *got = solve(in, strlen(in), IN_JSON, OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"prime-chocolate\",\"winner\":\"RUBY\"}");
    free(got);
    ck_assert_str_eq(GAME->example_json, in);
    got = harness_text(GAME, GAME->example_text);
    ck_assert_str_eq(got, "RUBY\n");
    free(got);
    ck_assert_str_eq(GAME->name, "prime-chocolate");
}
END_TEST

/* ---- malformed judge text --------------------------------------------- */

static void expect_text_error(const char *in, size_t len, long line, long column,
                              const char *fragment, const long *limits)
{
    gj_error e;
    char *answer = harness_run(GAME, IN_TEXT, in, len, OUT_TEXT, limits, &e);
    ck_assert_msg(answer == NULL, "expected an error for [%s], got %s", in, answer);
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "message [%s] lacks [%s]", e.message,
                  fragment);
    ck_assert_int_eq(e.line, line);
    ck_assert_int_eq(e.column, column);
    char prefix[64];
    if (column > 0)
        snprintf(prefix, sizeof prefix, "line %ld, column %ld: ", line, column);
    else
        snprintf(prefix, sizeof prefix, "line %ld: ", line);
    ck_assert_msg(strncmp(e.message, prefix, strlen(prefix)) == 0, "message [%s] lacks [%s]",
                  e.message, prefix);
}

static void text_error(const char *in, long line, long column, const char *fragment)
{
    expect_text_error(in, strlen(in), line, column, fragment, NULL);
}

START_TEST(test_text_bad_character)
{
    text_error("2\n-a\n--\n", 2, 2, "row 1: unexpected character 'a'; a cell is 'X'");
    text_error("2\n--\nx-\n", 3, 1, "row 2: unexpected character 'x'");
    text_error("3\n---\n---\n--.\n", 4, 3, "row 3: unexpected character '.'");
    /* Columns count bytes: the en dash takes three. */
    char in[64];
    snprintf(in, sizeof in, "2\n%sY\n--\n", EN_DASH);
    text_error(in, 2, 4, "unexpected character 'Y'");
    /* An em dash is not an en dash: the whole sequence is quoted. */
    text_error("1\n\xe2\x80\x94\n", 2, 1, "unexpected character '\\xe2\\x80\\x94'");
    /* A truncated en dash. */
    text_error("1\n\xe2\x80\n", 2, 1, "unexpected character '\\xe2\\x80'");
    /* A NUL byte inside a row. */
    expect_text_error("1\n\0\n", 4, 2, 1, "unexpected character '\\x00'", NULL);
    /* Indented row: the column is where the bad byte really is. */
    text_error("2\n  -#\n--\n", 2, 4, "row 1: unexpected character '#'");
}
END_TEST

START_TEST(test_text_row_length)
{
    text_error("3\n---\n--\n---\n", 3, 1, "row 2 has 2 cells, expected 3");
    text_error("2\n---\n--\n", 2, 1, "row 1 has 3 cells, expected 2");
    text_error("2\n--\n----------\n", 3, 1, "row 2 has 10 cells, expected 2");
    /* A space splits a row into two tokens. */
    text_error("2\n- -\n--\n", 2, 1, "row 1 has 1 cell, expected 2");
    char in[64];
    snprintf(in, sizeof in, "2\n%s%s%s\n--\n", EN_DASH, EN_DASH, EN_DASH);
    text_error(in, 2, 1, "row 1 has 3 cells, expected 2");
}
END_TEST

START_TEST(test_text_missing_rows)
{
    text_error("3\n---\n---\n", 4, 0, "expected row 3 of 3, found the end of the input");
    text_error("2\n", 2, 0, "expected row 1 of 2, found the end of the input");
    text_error("2", 1, 0, "expected row 1 of 2, found the end of the input");
    text_error("", 1, 0, "expected the side n, found the end of the input");
    text_error("  \n\n", 3, 0, "expected the side n, found the end of the input");
}
END_TEST

START_TEST(test_text_side_out_of_range)
{
    text_error("0\n", 1, 1, "the side n must be between 1 and 2000, found 0");
    text_error("2001\n", 1, 1, "the side n must be between 1 and 2000, found 2001");
    text_error("-3\n-\n", 1, 1, "the side n must be between 1 and 2000, found -3");
    text_error("99999999999999999999999\n", 1, 1,
               "the side n must be between 1 and 2000, found 99999999999999999999999");
    /* A configured limit below the default is the one named. */
    long limits[GJ_MAX_LIMITS] = {3};
    const char *in = "4\n----\n----\n----\n----\n";
    expect_text_error(in, strlen(in), 1, 1, "the side n must be between 1 and 3, found 4", limits);
}
END_TEST

START_TEST(test_text_side_not_a_number)
{
    text_error("abc\n---\n", 1, 1, "expected the side n (an integer), found 'abc'");
    text_error("3x\n", 1, 1, "expected the side n (an integer), found '3x'");
    text_error("2.0\n--\n--\n", 1, 1, "found '2.0'");
    text_error("--\n--\n", 1, 1, "expected the side n (an integer), found '--'");
}
END_TEST

START_TEST(test_text_trailing_garbage)
{
    text_error("1\n-\nX\n", 3, 1, "unexpected 'X' after the end of the position");
    text_error("2\n--\n--\n\n  junk", 5, 3, "unexpected 'junk' after the end of the position");
    /* Trailing whitespace and CRLF line ends are fine. */
    assert_text("1\n-\n\n\n  \t\n", "RUBY\n");
    assert_text("2\r\n-X\r\nX-\r\n", "DIA\n");
    assert_text("  1   X", "DIA\n");
}
END_TEST

/* ---- malformed JSON ---------------------------------------------------- */

static void json_error(const char *in, const char *field, const char *fragment)
{
    gj_error e = harness_json_error(GAME, in);
    ck_assert_msg(strstr(e.message, fragment) != NULL, "message [%s] lacks [%s]", e.message,
                  fragment);
    ck_assert_str_eq(e.field, field);
    if (field[0] != '\0') {
        char prefix[128];
        snprintf(prefix, sizeof prefix, "%s: ", field);
        ck_assert_msg(strncmp(e.message, prefix, strlen(prefix)) == 0, "message [%s]", e.message);
    }
}

START_TEST(test_json_not_square)
{
    json_error("{\"grid\": [\"--\", \"-\"]}", "grid[1]",
               "row has 1 cell, expected 2 (the bar is square)");
    json_error("{\"grid\": [\"--\", \"--\", \"--\"]}", "grid[0]", "row has 2 cells, expected 3");
    json_error("{\"grid\": [\"---\"]}", "grid[0]", "row has 3 cells, expected 1");
    json_error("{\"grid\": [\"\"]}", "grid[0]", "row has 0 cells, expected 1");
    json_error("{\"grid\": []}", "grid", "expected 1 to 2000 elements, found 0");
}
END_TEST

START_TEST(test_json_bad_character)
{
    json_error("{\"grid\": [\"--\", \"-a\"]}", "grid[1]",
               "unexpected character 'a' at offset 1; a cell is 'X' (eaten) or '-'");
    json_error("{\"grid\": [\"- \", \"--\"]}", "grid[0]", "unexpected character ' ' at offset 1");
    json_error("{\"grid\": [\"\\u2014\"]}", "grid[0]",
               "unexpected character '\\xe2\\x80\\x94' at offset 0");
    /* jansson refuses NUL inside strings before the game sees them. */
    json_error("{\"grid\": [\"X\\u0000\", \"XX\"]}", "", "invalid JSON at line 1");
    /* The en dash, raw or escaped, is chocolate in JSON too. */
    const char *in = "{\"grid\": [\"\xe2\x80\x93-\", \"\\u2013\\u2013\"]}";
    char *got = solve(in, strlen(in), IN_JSON, OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"prime-chocolate\",\"winner\":\"RUBY\"}");
    free(got);
}
END_TEST

START_TEST(test_json_wrong_types)
{
    json_error("{\"grid\": \"--\"}", "grid", "expected an array, found a string");
    json_error("{\"grid\": null}", "grid", "expected an array, found null");
    json_error("{\"grid\": {\"a\": 1}}", "grid", "expected an array, found an object");
    json_error("{\"grid\": [1]}", "grid[0]", "expected a string, found an integer");
    json_error("{\"grid\": [\"--\", [\"-\"]]}", "grid[1]", "expected a string, found an array");
    json_error("{\"grid\": [true]}", "grid[0]", "expected a string, found a boolean");
    json_error("[\"-\"]", "", "the JSON body must be an object, found an array");
    json_error("{\"grid\": [\"-\"]", "", "invalid JSON at line 1");
    json_error("", "", "invalid JSON");
}
END_TEST

START_TEST(test_json_fields)
{
    json_error("{\"grid\": [\"-\"], \"n\": 1}", "n", "unknown field; expected only \"grid\"");
    json_error("{\"Grid\": [\"-\"]}", "Grid", "unknown field");
    json_error("{}", "grid", "missing required field");
    gj_error e = harness_json_error(GAME, "{\"grid\": [\"-\"], \"grid\": [\"X\"]}");
    ck_assert_ptr_nonnull(strstr(e.message, "grid"));
}
END_TEST

START_TEST(test_json_too_large)
{
    /* 2001 rows, each too short to matter: the count is refused first. */
    size_t cap = 2001 * 5 + 32, o = 0;
    char *in = malloc(cap);
    ck_assert_ptr_nonnull(in);
    o += (size_t)snprintf(in, cap, "{\"grid\":[");
    for (int i = 0; i < 2001; i++)
        o += (size_t)snprintf(in + o, cap - o, "%s\"-\"", i ? "," : "");
    snprintf(in + o, cap - o, "]}");
    json_error(in, "grid", "expected 1 to 2000 elements, found 2001");
    free(in);
}
END_TEST

/* ---- large boards ------------------------------------------------------ */

static unsigned char *filled(long n, unsigned char value)
{
    unsigned char *cell = malloc((size_t)(n * n));
    ck_assert_ptr_nonnull(cell);
    memset(cell, value, (size_t)(n * n));
    return cell;
}

static void assert_large(long n, const unsigned char *cell, enum dash_style style, const char *want,
                         const long *limits)
{
    char *in = render_text(n, cell, style);
    char *got = solve(in, strlen(in), IN_TEXT, OUT_TEXT, limits);
    ck_assert_msg(strcmp(got, want) == 0, "side %ld: got %sexpected %s", n, got, want);
    free(in);
    free(got);
}

/* 2000 x 2000 all chocolate: 4,000,000 squares, even, and a 2 x 2 exists,
 * so Ruby eats a 2 x 2 and leaves Dia an even count with only odd moves. */
START_TEST(test_large_all_chocolate)
{
    unsigned char *cell = filled(2000, 1);
    assert_large(2000, cell, HYPHENS, "RUBY\n", NULL);
    char *json = render_json(2000, cell);
    char *got = solve(json, strlen(json), IN_JSON, OUT_JSON, NULL);
    ck_assert_str_eq(got, "{\"game\":\"prime-chocolate\",\"winner\":\"RUBY\"}");
    free(json);
    free(got);
    free(cell);
}
END_TEST

/* 1999 is prime and 1999^2 is odd: Ruby eats the whole bar in one move. */
START_TEST(test_large_prime_side)
{
    unsigned char *cell = filled(1999, 1);
    assert_large(1999, cell, EN_DASHES, "RUBY\n", NULL);
    free(cell);
}
END_TEST

/* 2000 x 2000 less the corner square: 3,999,999 squares, odd.  Ruby eats the
 * 1999 x 1999 square below and right of the hole, leaving row 0 and column 0:
 * 3998 squares, no 2 x 2, so only single moves and Dia faces an even count.
 * (No square contains the bounding box of the 2 x 2 blocks; the 1999 square
 * only touches every one of them.) */
START_TEST(test_large_missing_corner)
{
    unsigned char *cell = filled(2000, 1);
    cell[0] = 0;
    assert_large(2000, cell, HYPHENS, "RUBY\n", NULL);
    free(cell);
}
END_TEST

/* All chocolate of side 27: 729 squares, odd.  A 2 x 2 move would hand Dia
 * an odd count of odd moves, so Ruby needs an odd move that breaks every
 * 2 x 2; the one at rows 0-1 and the one at rows 25-26 need a side of at
 * least 25, and the largest odd prime <= 27 is 23.  Dia then eats a 2 x 2.
 * Side 25 is not prime either, but 23 = 25 - 2 centred touches every block;
 * side 9 likewise with 7.  Side 2000 less its centre: the largest square of
 * chocolate has side 1000, which cannot touch blocks in opposite corners. */
START_TEST(test_large_structured)
{
    unsigned char *cell = filled(27, 1);
    assert_large(27, cell, HYPHENS, "DIA\n", NULL);
    free(cell);
    cell = filled(25, 1);
    assert_large(25, cell, MIXED, "RUBY\n", NULL);
    free(cell);
    cell = filled(9, 1);
    assert_large(9, cell, HYPHENS, "RUBY\n", NULL);
    free(cell);
    cell = filled(2000, 1);
    cell[1000 * 2000 + 1000] = 0;
    assert_large(2000, cell, HYPHENS, "DIA\n", NULL);
    free(cell);
}
END_TEST

/* A random board with `percent` eaten, where the answer follows from its
 * shape: a hole at every (100a + 50, 100b + 50) caps any all-chocolate
 * square at side 99, and a square touching both full 2 x 2 blocks kept in
 * opposite corners needs side 1998, so with an odd count no odd move breaks
 * every block and Dia takes one (DIA);
 * with an even count Ruby takes a 2 x 2 (RUBY). */
static unsigned char *holed_board(long percent, uint64_t seed, int odd)
{
    long n = 2000;
    unsigned char *cell = filled(n, 1);
    uint64_t rng = seed;
    for (long c = 0; c < n * n; c++)
        cell[c] = rng_below(&rng, 100) >= (uint64_t)percent;
    for (long i = 50; i < n; i += 100)
        for (long j = 50; j < n; j += 100)
            cell[i * n + j] = 0;
    for (long i = 0; i < 2; i++)
        for (long j = 0; j < 2; j++) {
            cell[i * n + j] = 1;
            cell[(n - 1 - i) * n + (n - 1 - j)] = 1;
        }
    long count = 0;
    for (long c = 0; c < n * n; c++)
        count += cell[c];
    if (count % 2 != odd)
        cell[50 * n + 51] ^= 1; /* its row holds a lattice hole either way */
    return cell;
}

START_TEST(test_large_random)
{
    static const long percents[] = {1, 50};
    for (int k = 0; k < 2; k++) {
        for (int odd = 0; odd <= 1; odd++) {
            unsigned char *cell = holed_board(percents[k], 0xc0c0a000u + (uint64_t)k, odd);
            assert_large(2000, cell, HYPHENS, odd ? "DIA\n" : "RUBY\n", NULL);
            free(cell);
        }
    }
}
END_TEST

/* A raised limit lets a larger bar in; the default refuses it. */
START_TEST(test_raised_limit)
{
    long limits[GJ_MAX_LIMITS] = {2001};
    unsigned char *cell = filled(2001, 1);
    cell[0] = 0; /* even count, 2 x 2 exists */
    assert_large(2001, cell, HYPHENS, "RUBY\n", limits);
    char *in = render_text(2001, cell, HYPHENS);
    gj_error e = harness_text_error(GAME, in);
    ck_assert_ptr_nonnull(strstr(e.message, "between 1 and 2000, found 2001"));
    free(in);
    free(cell);
    ck_assert_int_eq(GAME->nlimits, 1);
    ck_assert_int_eq(GAME->limits[0].def, 2000);
    ck_assert_int_ge(GAME->limits[0].max, 2000);
}
END_TEST

/* ---- runner ------------------------------------------------------------ */

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *prime_chocolate_suite(void)
{
    const harness_case cases[] = {
        {"oracle", test_oracle_agrees_with_itself},
        {"oracle", test_every_board_up_to_3},
        {"oracle", test_every_board_4x4},
        {"oracle", test_random_boards},
        {"oracle", test_random_rich_boards},
        {"positions", test_edge_cases},
        {"positions", test_en_dash},
        {"positions", test_public_data},
        {"positions", test_api_example},
        {"text errors", test_text_bad_character},
        {"text errors", test_text_row_length},
        {"text errors", test_text_missing_rows},
        {"text errors", test_text_side_out_of_range},
        {"text errors", test_text_side_not_a_number},
        {"text errors", test_text_trailing_garbage},
        {"json errors", test_json_not_square},
        {"json errors", test_json_bad_character},
        {"json errors", test_json_wrong_types},
        {"json errors", test_json_fields},
        {"json errors", test_json_too_large},
        {"large", test_large_all_chocolate},
        {"large", test_large_prime_side},
        {"large", test_large_missing_corner},
        {"large", test_large_structured},
        {"large", test_large_random},
        {"large", test_raised_limit},
    };
    return harness_suite("prime-chocolate", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    return harness_main(prime_chocolate_suite());
}
