/* test_matrix_game_analysis.c - unit tests of POST /analyze/matrix-game.
 *
 * The analysis is judged by the oracle's finite minimax of the score margin
 * (tests/oracle/matrix_game_oracle.c), which plays mid-play positions from
 * the rules without knowing about winning cells; by the two facts it rests
 * on, checked naively on the solver's table; by exact answers for the
 * examples; by every class of malformed request; and at 2000 x 2000 by
 * counting naively and timing it against one solve. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "games.h"
#include "harness.h"
#include "matrix_game_oracle.h"

static const gj_game *const game = &game_matrix_game;

/* ---- building requests ---- */

/* The request for (n, k, value); token -1 leaves it out; to_move 0 and
 * max_moves 0 leave those out. */
static char *request_of(int n, long k, const int *value, long token, char to_move, long max_moves)
{
    gj_buf b;
    buf_init(&b);
    buf_puts(&b, "{\"k\": ");
    buf_put_long(&b, k);
    buf_puts(&b, ", \"matrix\": [");
    for (int i = 0; i < n; i++) {
        buf_puts(&b, i ? ", [" : "[");
        for (int j = 0; j < n; j++) {
            if (j)
                buf_putc(&b, ',');
            buf_put_long(&b, value[i * n + j]);
        }
        buf_putc(&b, ']');
    }
    buf_putc(&b, ']');
    if (token >= 0) {
        buf_puts(&b, ", \"token\": [");
        buf_put_long(&b, token / n + 1);
        buf_puts(&b, ", ");
        buf_put_long(&b, token % n + 1);
        buf_putc(&b, ']');
    }
    if (to_move != 0) {
        buf_puts(&b, ", \"to_move\": \"");
        buf_putc(&b, to_move);
        buf_putc(&b, '"');
    }
    if (max_moves > 0) {
        buf_puts(&b, ", \"max_moves\": ");
        buf_put_long(&b, max_moves);
    }
    buf_puts(&b, "}");
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    return buf_take(&b, NULL);
}

static const long *default_limits(void)
{
    static long lim[GJ_MAX_LIMITS];
    game_default_limits(game, lim);
    return lim;
}

/* The answer's text, or NULL with *e. */
static char *analyze_text(const char *req, const long *limits, gj_error *e)
{
    gj_buf out;
    buf_init(&out);
    gj_error_clear(e);
    if (game->analyze(req, strlen(req), limits ? limits : default_limits(), &out, e) != 0) {
        ck_assert_msg(e->kind != GJ_OK, "analyze failed without an error");
        buf_free(&out);
        return NULL;
    }
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

static char *analyze_ok(const char *req)
{
    gj_error e;
    char *text = analyze_text(req, NULL, &e);
    ck_assert_msg(text != NULL, "unexpected error: %s\nrequest: %.300s", e.message, req);
    return text;
}

static json_t *analyze_json(const char *req)
{
    char *text = analyze_ok(req);
    json_error_t jerr;
    json_t *root = json_loads(text, JSON_REJECT_DUPLICATES, &jerr);
    ck_assert_msg(root != NULL, "answer is not JSON (%s): %.300s", jerr.text, text);
    free(text);
    return root;
}

static gj_error analyze_error(const char *req, const long *limits)
{
    gj_error e;
    char *text = analyze_text(req, limits, &e);
    ck_assert_msg(text == NULL, "expected an error for [%.300s], got [%.300s]", req,
                  text ? text : "");
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    return e;
}

static long get_long(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    ck_assert_msg(json_is_integer(v), "member %s is not an integer", key);
    return (long)json_integer_value(v);
}

static const char *get_str(const json_t *obj, const char *key)
{
    const json_t *v = json_object_get(obj, key);
    ck_assert_msg(json_is_string(v), "member %s is not a string", key);
    return json_string_value(v);
}

/* [r, c] inside the n x n matrix, as a row-major index. */
static int get_cell(const json_t *v, int n)
{
    ck_assert(json_is_array(v) && json_array_size(v) == 2);
    long r = (long)json_integer_value(json_array_get(v, 0));
    long c = (long)json_integer_value(json_array_get(v, 1));
    ck_assert(r >= 1 && r <= n && c >= 1 && c <= n);
    return (int)((r - 1) * n + (c - 1));
}

/* The frame and the list's shape: ranked (winning first, values descending
 * within each group), after = the move with the other player to move, each
 * cell listed once, the counts consistent.  Returns the moves array. */
static const json_t *check_shape(const json_t *a, int n, const int *value, char mover,
                                 long max_moves)
{
    char want_mover[2] = {mover, '\0'}, other[2] = {mover == 'M' ? 'G' : 'M', '\0'};
    ck_assert_str_eq(get_str(a, "game"), "matrix-game");
    ck_assert_str_eq(get_str(a, "to_move"), want_mover);
    long total = get_long(a, "moves_total"), winning = get_long(a, "winning_moves");
    const char *v = get_str(a, "value");
    ck_assert_str_eq(v, winning > 0 ? "win" : "lose");
    const json_t *moves = json_object_get(a, "moves");
    ck_assert(json_is_array(moves));
    long listed = (long)json_array_size(moves);
    ck_assert_int_eq(listed, total < max_moves ? total : max_moves);
    ck_assert(json_is_boolean(json_object_get(a, "truncated")));
    ck_assert_int_eq(json_is_true(json_object_get(a, "truncated")), listed < total);
    ck_assert_int_eq(json_object_size(a), 7);
    char seen[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE] = {0};
    int prev_win = 1;
    long prev_value = (long)n * n + 1, wins_listed = 0;
    for (long i = 0; i < listed; i++) {
        const json_t *m = json_array_get(moves, (size_t)i);
        ck_assert_int_eq(json_object_size(m), 4);
        int c = get_cell(json_object_get(m, "move"), n);
        if (n <= MG_ORACLE_MAX_SIDE) {
            ck_assert_msg(!seen[c], "cell listed twice");
            seen[c] = 1;
        }
        ck_assert_int_eq(get_long(m, "value"), value[c]);
        const char *outcome = get_str(m, "outcome");
        ck_assert(strcmp(outcome, "win") == 0 || strcmp(outcome, "lose") == 0);
        int win = strcmp(outcome, "win") == 0;
        wins_listed += win;
        ck_assert_msg(win <= prev_win, "a winning move after a losing one");
        if (win == prev_win)
            ck_assert_msg(value[c] < prev_value, "values not descending within a group");
        prev_win = win;
        prev_value = value[c];
        const json_t *after = json_object_get(m, "after");
        ck_assert_int_eq(json_object_size(after), 2);
        ck_assert_int_eq(get_cell(json_object_get(after, "token"), n), c);
        ck_assert_str_eq(get_str(after, "to_move"), other);
    }
    ck_assert_int_eq(wins_listed, winning < listed ? winning : listed);
    return moves;
}

/* ---- 1. the oracle: mid-play positions straight from the rules ---- */

/* One position, every move listed: the value, the counts and each move's
 * outcome must be the oracle's. */
static void cross_check(int n, int k, const int *value, int token, char to_move)
{
    signed char outcome[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    int wins = matrix_game_oracle_moves(n, k, value, token, outcome);
    char *req = request_of(n, k, value, token, to_move, ANALYSIS_MAX_MOVES_LIMIT);
    ck_assert_msg(wins >= 0, "the oracle did not settle on %s", req);
    json_t *a = analyze_json(req);
    char mover = to_move ? to_move : token < 0 ? 'M' : 'G';
    const json_t *moves = check_shape(a, n, value, mover, ANALYSIS_MAX_MOVES_LIMIT);
    long legal = 0, winning = 0;
    for (int d = 0; d < n * n; d++) {
        legal += outcome[d] >= 0;
        winning += outcome[d] == 1;
    }
    ck_assert_msg(strcmp(get_str(a, "value"), wins ? "win" : "lose") == 0, "value differs: %s",
                  req);
    ck_assert_int_eq(get_long(a, "moves_total"), legal);
    ck_assert_int_eq(get_long(a, "winning_moves"), winning);
    for (size_t i = 0; i < json_array_size(moves); i++) {
        const json_t *m = json_array_get(moves, i);
        int d = get_cell(json_object_get(m, "move"), n);
        ck_assert_msg(outcome[d] >= 0, "cell %d is not a legal move: %s", d, req);
        ck_assert_msg(strcmp(get_str(m, "outcome"), outcome[d] ? "win" : "lose") == 0,
                      "move to cell %d: outcome differs from the oracle's: %s", d, req);
    }
    json_decref(a);
    free(req);
}

START_TEST(oracle_random)
{
    uint64_t rng = 0xa7a1e5eedULL;
    int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    static const int per_k[] = {0, 0, 0, 300, 120, 60, 40};
    static const char movers[3] = {0, 'M', 'G'};
    int checked = 0;
    for (int n = 3; n <= MG_ORACLE_MAX_SIDE; n++) {
        for (int k = 1; k <= n - 2; k++) {
            for (int t = 0; t < per_k[n]; t++) {
                rng_shuffled(&rng, value, (long)n * n);
                if (t % 4 == 0) {
                    cross_check(n, k, value, -1, t % 8 == 0 ? 0 : 'M');
                } else {
                    int token = (int)rng_below(&rng, (uint64_t)n * n);
                    cross_check(n, k, value, token, movers[rng_below(&rng, 3)]);
                }
                checked++;
            }
        }
    }
    ck_assert_int_ge(checked, 800);
}
END_TEST

/* Every token cell of one board per (n, k), with the largest values packed
 * together and spread apart. */
START_TEST(oracle_every_token)
{
    uint64_t rng = 77;
    int value[MG_ORACLE_MAX_SIDE * MG_ORACLE_MAX_SIDE];
    for (int n = 3; n <= MG_ORACLE_MAX_SIDE; n++) {
        for (int k = 1; k <= n - 2; k++) {
            for (int board = 0; board < 3; board++) {
                if (board == 0) {
                    for (int c = 0; c < n * n; c++)
                        value[c] = c + 1;
                } else if (board == 1) {
                    for (int c = 0; c < n * n; c++)
                        value[c] = n * n - c;
                } else {
                    rng_shuffled(&rng, value, (long)n * n);
                }
                for (int token = -1; token < n * n; token++)
                    cross_check(n, k, value, token, token >= 0 && token % 2 ? 'G' : 'M');
            }
        }
    }
}
END_TEST

/* ---- 2. truncation: a prefix of the full ranking ---- */

START_TEST(truncation)
{
    uint64_t rng = 5;
    int value[36];
    for (int t = 0; t < 40; t++) {
        int n = 4 + (int)rng_below(&rng, 3), k = 1 + (int)rng_below(&rng, (uint64_t)n - 2);
        int token = t % 5 == 0 ? -1 : (int)rng_below(&rng, (uint64_t)n * n);
        char mover = token < 0 ? 'M' : 'G';
        rng_shuffled(&rng, value, (long)n * n);
        char *full_req = request_of(n, k, value, token, 0, ANALYSIS_MAX_MOVES_LIMIT);
        json_t *full = analyze_json(full_req);
        long total = get_long(full, "moves_total");
        const json_t *all = check_shape(full, n, value, mover, ANALYSIS_MAX_MOVES_LIMIT);
        for (long max = 1; max <= total + 1; max++) {
            char *req = request_of(n, k, value, token, 0, max);
            json_t *a = analyze_json(req);
            const json_t *some = check_shape(a, n, value, mover, max);
            ck_assert_int_eq(get_long(a, "moves_total"), total);
            ck_assert_int_eq(get_long(a, "winning_moves"), get_long(full, "winning_moves"));
            ck_assert_str_eq(get_str(a, "value"), get_str(full, "value"));
            for (size_t i = 0; i < json_array_size(some); i++)
                ck_assert(json_equal(json_array_get(some, i), json_array_get(all, i)));
            json_decref(a);
            free(req);
        }
        /* Absent max_moves is 100: more than 36, so everything. */
        char *req = request_of(n, k, value, token, 0, 0);
        json_t *a = analyze_json(req);
        ck_assert(json_equal(a, full));
        json_decref(a);
        free(req);
        json_decref(full);
        free(full_req);
    }
}
END_TEST

/* ---- 3. the two facts, naively, on the solver's table ---- */

/* No winning cell reaches a winning cell; every non-winning cell reaches a
 * larger winning one.  Then every token's analysis agrees with the table. */
START_TEST(facts_on_solver_table)
{
    uint64_t rng = 1658;
    const int n = 24;
    int *value = malloc(sizeof(int) * n * n);
    ck_assert_ptr_nonnull(value);
    static const long ks[] = {1, 2, 5, 11, 22};
    for (size_t t = 0; t < sizeof ks / sizeof ks[0]; t++) {
        long k = ks[t];
        rng_shuffled(&rng, value, (long)n * n);
        gj_error e;
        /* A request without token, to_move or max_moves is also solve's JSON body. */
        char *solve_req = request_of(n, k, value, -1, 0, 0);
        char *table = harness_run(game, IN_JSON, solve_req, strlen(solve_req), OUT_TEXT, NULL, &e);
        ck_assert_ptr_nonnull(table);
        for (int c = 0; c < n * n; c++) {
            int wc = table[c / n * (n + 1) + c % n] == 'M', larger_winner = 0;
            for (int d = 0; d < n * n; d++) {
                long dist = labs((long)(c / n - d / n)) + labs((long)(c % n - d % n));
                int wd = table[d / n * (n + 1) + d % n] == 'M';
                if (dist <= k || !wd)
                    continue;
                if (wc)
                    ck_abort_msg("k=%ld: winning cells %d and %d reach each other", k, c, d);
                if (value[d] > value[c])
                    larger_winner = 1;
            }
            if (!wc && !larger_winner)
                ck_abort_msg("k=%ld: non-winning cell %d reaches no larger winning cell", k, c);
        }
        for (int c = 0; c < n * n; c += 7) {
            char *treq = request_of(n, k, value, c, 'M', ANALYSIS_MAX_MOVES_LIMIT);
            json_t *a = analyze_json(treq);
            int wc = table[c / n * (n + 1) + c % n] == 'M';
            ck_assert_str_eq(get_str(a, "value"), wc ? "lose" : "win");
            const json_t *moves = json_object_get(a, "moves");
            for (size_t i = 0; i < json_array_size(moves); i++) {
                const json_t *m = json_array_get(moves, i);
                int d = get_cell(json_object_get(m, "move"), n);
                int wd = table[d / n * (n + 1) + d % n] == 'M';
                ck_assert_str_eq(get_str(m, "outcome"), wd ? "win" : "lose");
            }
            json_decref(a);
            free(treq);
        }
        free(table);
        free(solve_req);
    }
    free(value);
}
END_TEST

/* ---- 4. exact answers ---- */

static void exact(const char *req, const char *want)
{
    char *got = analyze_ok(req);
    ck_assert_str_eq(got, want);
    free(got);
}

START_TEST(examples)
{
    const char *mid =
        "{\"game\":\"matrix-game\",\"to_move\":\"G\",\"value\":\"win\",\"moves_total\":6,"
        "\"winning_moves\":2,\"truncated\":true,\"moves\":["
        "{\"move\":[3,3],\"value\":9,\"outcome\":\"win\",\"after\":{\"token\":[3,3],\"to_move\":"
        "\"M\"}},"
        "{\"move\":[3,2],\"value\":8,\"outcome\":\"win\",\"after\":{\"token\":[3,2],\"to_move\":"
        "\"M\"}},"
        "{\"move\":[3,1],\"value\":7,\"outcome\":\"lose\",\"after\":{\"token\":[3,1],\"to_move\":"
        "\"M\"}}]}";
    exact(game->example_analyze, mid);
    exact("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": [1, 1], \"to_move\": "
          "\"G\", \"max_moves\": 3}",
          mid);
    /* to_move defaults to G with a token. */
    exact("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": [1, 1], \"to_move\": "
          "null, \"max_moves\": 3}",
          mid);
    /* On the largest value the mover loses: every move, by value. */
    exact("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": [3, 3], \"to_move\": "
          "\"M\"}",
          "{\"game\":\"matrix-game\",\"to_move\":\"M\",\"value\":\"lose\",\"moves_total\":6,"
          "\"winning_moves\":0,\"truncated\":false,\"moves\":["
          "{\"move\":[3,1],\"value\":7,\"outcome\":\"lose\",\"after\":{\"token\":[3,1],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[2,2],\"value\":5,\"outcome\":\"lose\",\"after\":{\"token\":[2,2],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[2,1],\"value\":4,\"outcome\":\"lose\",\"after\":{\"token\":[2,1],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[1,3],\"value\":3,\"outcome\":\"lose\",\"after\":{\"token\":[1,3],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[1,2],\"value\":2,\"outcome\":\"lose\",\"after\":{\"token\":[1,2],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[1,1],\"value\":1,\"outcome\":\"lose\",\"after\":{\"token\":[1,1],"
          "\"to_move\":\"G\"}}]}");
    /* The opening: M places; the largest value and its neighbour win. */
    exact("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"max_moves\": 2}",
          "{\"game\":\"matrix-game\",\"to_move\":\"M\",\"value\":\"win\",\"moves_total\":9,"
          "\"winning_moves\":2,\"truncated\":true,\"moves\":["
          "{\"move\":[3,3],\"value\":9,\"outcome\":\"win\",\"after\":{\"token\":[3,3],"
          "\"to_move\":\"G\"}},"
          "{\"move\":[3,2],\"value\":8,\"outcome\":\"win\",\"after\":{\"token\":[3,2],"
          "\"to_move\":\"G\"}}]}");
    exact("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]], \"token\": null, \"to_move\": \"M\", "
          "\"max_moves\": 1}",
          "{\"game\":\"matrix-game\",\"to_move\":\"M\",\"value\":\"win\",\"moves_total\":9,"
          "\"winning_moves\":2,\"truncated\":true,\"moves\":["
          "{\"move\":[3,3],\"value\":9,\"outcome\":\"win\",\"after\":{\"token\":[3,3],"
          "\"to_move\":\"G\"}}]}");
}
END_TEST

/* ---- 5. malformed requests ---- */

static const char *const board = "\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]";

static void request_error(const char *extra, const char *field, const char *needle)
{
    char req[512];
    snprintf(req, sizeof req, "{%s%s}", board, extra);
    gj_error e = analyze_error(req, NULL);
    ck_assert_msg(strstr(e.message, needle) != NULL, "message [%s] lacks [%s]", e.message, needle);
    ck_assert_str_eq(e.field, field);
}

START_TEST(bad_token_and_mover)
{
    request_error(", \"tokn\": [1, 1]", "tokn",
                  "unknown field; expected only \"k\", \"matrix\", \"token\", \"to_move\", "
                  "\"max_moves\"");
    request_error(", \"token\": 5", "token", "expected an array, found an integer");
    request_error(", \"token\": \"1,1\"", "token", "expected an array, found a string");
    request_error(", \"token\": [1]", "token", "expected 2 to 2 elements, found 1");
    request_error(", \"token\": [1, 2, 3]", "token", "expected 2 to 2 elements, found 3");
    request_error(", \"token\": [0, 1]", "token[0]",
                  "must be between 1 and 3, found 0 (the token is [row, column], 1-based, in the "
                  "3 x 3 matrix)");
    request_error(", \"token\": [1, 4]", "token[1]", "must be between 1 and 3, found 4");
    request_error(", \"token\": [\"1\", 1]", "token[0]", "expected an integer, found a string");
    request_error(", \"token\": [1, 1.5]", "token[1]", "expected an integer, found a number");
    request_error(", \"token\": [1, 1], \"to_move\": \"X\"", "to_move",
                  "expected \"M\" or \"G\", found \"X\"");
    request_error(", \"token\": [1, 1], \"to_move\": \"GG\"", "to_move", "found \"GG\"");
    request_error(", \"token\": [1, 1], \"to_move\": \"m\"", "to_move", "found \"m\"");
    request_error(", \"token\": [1, 1], \"to_move\": 1", "to_move",
                  "expected a string, found an integer");
    request_error(", \"to_move\": \"G\"", "to_move",
                  "with no token the game is at its opening, where M places the token: to_move "
                  "must be \"M\" or absent");
    request_error(", \"token\": null, \"to_move\": \"G\"", "to_move", "at its opening");
    request_error(", \"max_moves\": 0", "max_moves", "must be between 1 and 10000, found 0");
    request_error(", \"max_moves\": 10001", "max_moves",
                  "must be between 1 and 10000, found 10001");
    request_error(", \"max_moves\": \"5\"", "max_moves", "expected an integer, found a string");
    request_error(", \"max_moves\": null", "max_moves", "expected an integer, found null");
}
END_TEST

/* The position itself fails exactly as POST /solve's JSON body does. */
START_TEST(bad_position_as_solve)
{
    static const char *const bodies[] = {
        "{",
        "[1, 2]",
        "{\"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 1}",
        "{\"k\": 1, \"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": \"123\"}",
        "{\"k\": 1, \"matrix\": [[1,2],[3,4]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],7,[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5],[6,7,8]]}",
        "{\"k\": \"1\", \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 2, \"matrix\": [[1,2,3],[4,5,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,null,6],[7,8,9]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,8,10]]}",
        "{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,2,9]]}",
    };
    for (size_t i = 0; i < sizeof bodies / sizeof bodies[0]; i++) {
        gj_error want = harness_json_error(game, bodies[i]);
        gj_error got = analyze_error(bodies[i], NULL);
        ck_assert_str_eq(got.field, want.field);
        ck_assert_str_eq(got.message, want.message);
    }
    /* A bad matrix is reported before a bad token: the token's range needs n. */
    gj_error e =
        analyze_error("{\"k\": 1, \"matrix\": [[1,2,3],[4,5,6],[7,2,9]], \"token\": [9, 9]}", NULL);
    ck_assert_str_eq(e.field, "matrix[2][1]");
}
END_TEST

START_TEST(configured_limit)
{
    uint64_t rng = 3;
    int value[36];
    rng_shuffled(&rng, value, 36);
    char *req = request_of(6, 2, value, 0, 'G', 5);
    long small[GJ_MAX_LIMITS] = {5};
    gj_error e = analyze_error(req, small);
    ck_assert_str_eq(e.field, "matrix");
    ck_assert_ptr_nonnull(strstr(e.message, "expected 3 to 5 elements, found 6"));
    long six[GJ_MAX_LIMITS] = {6};
    char *text = analyze_text(req, six, &e);
    ck_assert_ptr_nonnull(text);
    free(text);
    free(req);
}
END_TEST

/* ---- 6. the largest official size: naive counts, and the cost of a solve ---- */

/* The solver's table (judge text) for the position, as POST /solve gives it. */
static char *solve_table(const char *req)
{
    long lim[GJ_MAX_LIMITS];
    game_default_limits(game, lim);
    gj_error e;
    gj_buf out;
    buf_init(&out);
    void *pos = game->parse_json(req, strlen(req), lim, &e);
    ck_assert_msg(pos != NULL, "%s", e.message);
    ck_assert(game->solve(pos, &e) == 0);
    game->write_text(pos, &out);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    game->free_position(pos);
    return buf_take(&out, NULL);
}

static void check_largest(int n, long k, const int *value, const int *cell_of, const char *table,
                          const char *req, long token, long max_moves)
{
    long nn = (long)n * n, total = 0, winning = 0;
    for (long c = 0; c < nn; c++) {
        if (token >= 0 && labs(c / n - token / n) + labs(c % n - token % n) <= k)
            continue;
        total++;
        winning += table[c / n * (n + 1) + c % n] == 'M';
    }
    json_t *a = analyze_json(req);
    char mover = token < 0 ? 'M' : 'G';
    const json_t *moves = check_shape(a, n, value, mover, max_moves);
    ck_assert_int_eq(get_long(a, "moves_total"), total);
    ck_assert_int_eq(get_long(a, "winning_moves"), winning);
    /* The list is the first max_moves of: winning cells by value, then the rest. */
    size_t i = 0;
    for (int pass = 1; pass >= 0 && i < json_array_size(moves); pass--) {
        for (long v = nn; v >= 1 && i < json_array_size(moves); v--) {
            int c = cell_of[v - 1];
            if (token >= 0 && labs(c / n - token / n) + labs(c % n - token % n) <= k)
                continue;
            if ((table[c / n * (n + 1) + c % n] == 'M') != pass)
                continue;
            const json_t *m = json_array_get(moves, i++);
            ck_assert_int_eq(get_cell(json_object_get(m, "move"), n), c);
        }
    }
    ck_assert_uint_eq(i, json_array_size(moves));
    json_decref(a);
}

static void largest(long k)
{
    const int n = 2000;
    uint64_t rng = 0x2000 + (uint64_t)k;
    int *value = malloc((size_t)n * n * sizeof *value);
    int *cell_of = malloc((size_t)n * n * sizeof *cell_of);
    ck_assert(value != NULL && cell_of != NULL);
    rng_shuffled(&rng, value, (long)n * n);
    for (long c = 0; c < (long)n * n; c++)
        cell_of[value[c] - 1] = (int)c;
    char *solve_req = request_of(n, k, value, -1, 0, 0);
    char *table = solve_table(solve_req);
    /* Each analysis parses 4M numbers, as long as the solve: two of them.
     * k = 1: the largest value (a loss), then the opening; k = 1000: the
     * centre, then the opening.  (Speed is measured by `make bench`.) */
    long tokens[] = {k == 1 ? cell_of[(long)n * n - 1] : (long)n * n / 2 + n / 2, -1};
    for (size_t t = 0; t < sizeof tokens / sizeof tokens[0]; t++) {
        long max_moves = t % 2 ? 0 : ANALYSIS_MAX_MOVES_LIMIT;
        char *req = request_of(n, k, value, tokens[t], 0, max_moves);
        check_largest(n, k, value, cell_of, table, req, tokens[t],
                      max_moves ? max_moves : ANALYSIS_MAX_MOVES_DEFAULT);
        free(req);
    }
    free(table);
    free(solve_req);
    free(cell_of);
    free(value);
}

START_TEST(largest_k1)
{
    largest(1);
}
END_TEST

START_TEST(largest_k1000)
{
    largest(1000);
}
END_TEST

static Suite *analysis_suite(void)
{
    const harness_case cases[] = {
        {"oracle", oracle_random},
        {"oracle", oracle_every_token},
        {"truncation", truncation},
        {"facts", facts_on_solver_table},
        {"examples", examples},
        {"errors", bad_token_and_mover},
        {"errors", bad_position_as_solve},
        {"errors", configured_limit},
    };
    const harness_case large[] = {
        {"largest", largest_k1},
        {"largest", largest_k1000},
    };
    Suite *s = harness_suite("matrix-game analysis", cases, sizeof cases / sizeof cases[0], 300);
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 300, HARNESS_LARGE);
    return s;
}

int main(void)
{
    return harness_main(analysis_suite());
}
