/* test_generate.c - POST /generate's generators, for every game of
 * games.def, through the gj_game interface as the server calls them.
 *
 * Every generated position (many seeds) is solved again by the game's own
 * solver, from its JSON twin and from its judge text, and must give the
 * answer reported; the brute-force oracles (tests/oracle/) judge it too, at
 * the default sizes, which they reach.  The outcomes over seeds are counted
 * (both occur where the game allows), each constraint asked for is met
 * whenever a position comes back, the same request gives the same bytes,
 * and bad requests fail with the field and the limit named. */
#include <check.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cancel.h"
#include "game_rules.h"
#include "games.h"
#include "generate.h"
#include "grid_walk.h"
#include "grid_walk_oracle.h"
#include "harness.h"
#include "matrix_game.h"
#include "nim_shortcuts.h"
#include "prime_chocolate.h"
#include "staircase_chess.h"

#define SEEDS 200

/* The i-th game of games.def. */
static const gj_game *game_at(int i)
{
    size_t n;
    const gj_game *const *all = games_all(&n);
    ck_assert_int_lt(i, (int)n);
    return all[i];
}

/* g's part of the tests that walk every game (game_rules.h). */
static const game_rules *rules_of(const gj_game *g)
{
    size_t n;
    const game_rules *const *all = game_rules_all(&n);
    for (size_t i = 0; i < n; i++)
        if (all[i]->game == g)
            return all[i];
    ck_abort_msg("%s has no rules", g->name);
    return NULL;
}

/* g's generate() on the C string `req` under the default limits and a
 * budget ceiling of `ceiling_ms`: the parsed answer, or NULL with *e. */
static json_t *generate(const gj_game *g, const char *req, long ceiling_ms, char **bytes,
                        gj_error *e)
{
    long limits[GEN_NLIMITS];
    gj_buf out;
    buf_init(&out);
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = ceiling_ms;
    gj_error_clear(e);
    if (g->generate(req, strlen(req), limits, &out, e) != 0) {
        ck_assert_int_ne(e->kind, GJ_OK);
        buf_free(&out);
        return NULL;
    }
    ck_assert(!out.failed);
    json_error_t je;
    json_t *a = json_loadb(out.data, out.len, 0, &je);
    ck_assert_msg(a != NULL, "%s: the answer is no JSON: %s", g->name, je.text);
    if (bytes != NULL) {
        buf_putc(&out, '\0');
        *bytes = buf_take(&out, NULL);
    }
    buf_free(&out);
    return a;
}

/* The same, failing the test on an error. */
static json_t *generate_ok(const gj_game *g, const char *req)
{
    gj_error e;
    json_t *a = generate(g, req, 2000, NULL, &e);
    ck_assert_msg(a != NULL, "%s %s: %s", g->name, req, e.message);
    return a;
}

/* v as compact JSON, malloc'd. */
static char *dump(const json_t *v)
{
    char *s = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
    ck_assert_ptr_nonnull(s);
    return s;
}

/* Fails unless v dumps as `expected`. */
static void dump_eq(const json_t *v, const char *expected)
{
    char *s = dump(v);
    ck_assert_str_eq(s, expected);
    free(s);
}

/* The game's own answer for JSON `in` (parse, solve, write as JSON), parsed. */
static json_t *solve_json(const gj_game *g, harness_input how, const char *in)
{
    gj_error e;
    char *out = harness_run(g, how, in, strlen(in), OUT_JSON, NULL, &e);
    ck_assert_msg(out != NULL, "%s: %s on %s", g->name, e.message, in);
    json_t *a = json_loads(out, 0, NULL);
    free(out);
    ck_assert_ptr_nonnull(a);
    return a;
}

/* /analyze's answer to body `in`, parsed. */
static json_t *analyze_json(const gj_game *g, const char *in)
{
    gj_error e;
    json_t *req = json_loads(in, 0, NULL);
    ck_assert_ptr_nonnull(req);
    /* /analyze's own answer, afters whole, as /generate writes it. */
    char *text = harness_analyze(g, req, &e);
    ck_assert_msg(text != NULL, "%s: %s", g->name, e.message);
    json_t *a = json_loads(text, 0, NULL);
    free(text);
    json_decref(req);
    ck_assert_ptr_nonnull(a);
    return a;
}

/* An integer member of an object. */
static long long member_int(const json_t *o, const char *name)
{
    const json_t *v = json_object_get(o, name);
    ck_assert_msg(json_is_integer(v), "no integer \"%s\"", name);
    return (long long)json_integer_value(v);
}

/* The i-th element of array v as an integer. */
static long at(const json_t *v, size_t i)
{
    ck_assert(json_is_integer(json_array_get(v, i)));
    return (long)json_integer_value(json_array_get(v, i));
}

/* The mover's outcome in an analysis a: +1 win, -1 lose, or the score. */
static long long in_play_score(const json_t *a)
{
    const json_t *v = json_object_get(a, "value");
    if (json_is_integer(v))
        return (long long)json_integer_value(v);
    return strcmp(json_string_value(v), "win") == 0 ? 1 : -1;
}

/* Check one generated answer: its frame, the solver's answer from the
 * JSON twin and from the judge text, the oracle's; the mover's outcome. */
static long long check_answer(const gj_game *g, const json_t *root, long long seed)
{
    ck_assert_str_eq(json_string_value(json_object_get(root, "game")), g->name);
    ck_assert_int_eq(member_int(root, "seed"), seed);
    ck_assert_int_ge(member_int(root, "candidates"), 1);
    const json_t *pos = json_object_get(root, "position"),
                 *answer = json_object_get(root, "answer");
    const json_t *input = json_object_get(root, "input");
    char *pos_text = dump(pos);
    long long score, oracle_value, oracle_wins;
    if (input == NULL) {
        json_t *again = analyze_json(g, pos_text);
        ck_assert_msg(json_equal(again, answer), "%s: analysis differs for %s", g->name, pos_text);
        json_decref(again);
        score = in_play_score(answer);
        int got = rules_of(g)->in_play_oracle(pos, &oracle_value, &oracle_wins);
        if (got > 0)
            ck_assert_msg(oracle_value == score, "%s: oracle value %lld, answer %lld for %s",
                          g->name, oracle_value, score, pos_text);
        if (got == 1)
            ck_assert_msg(oracle_wins == member_int(answer, "winning_moves"),
                          "%s: oracle counts %lld winning moves for %s", g->name, oracle_wins,
                          pos_text);
    } else {
        const char *text = json_string_value(input);
        ck_assert_ptr_nonnull(text);
        json_t *from_json = solve_json(g, IN_JSON, pos_text);
        json_t *from_text = solve_json(g, IN_TEXT, text);
        ck_assert_msg(json_equal(from_json, answer), "%s: answer differs for %s", g->name,
                      pos_text);
        ck_assert_msg(json_equal(from_text, answer), "%s: judge text differs from %s", g->name,
                      pos_text);
        json_decref(from_json);
        json_decref(from_text);
        char *oracle = rules_of(g)->opening_oracle(text);
        ck_assert_msg(oracle != NULL, "%s: the default size is beyond the oracle", g->name);
        char *mine = harness_text(g, text);
        ck_assert_str_eq(mine, oracle);
        free(mine);
        free(oracle);
        score = rules_of(g)->opening_score(answer);
    }
    free(pos_text);
    return score;
}

/* Every default position of SEEDS seeds: checked, and both outcomes
 * occur in sensible shares (matrix-game's opening is always M's). */
START_TEST(test_openings_resolved_and_distributed)
{
    const gj_game *g = game_at(_i);
    int wins = 0, losses = 0;
    for (long long seed = 0; seed < SEEDS; seed++) {
        char req[64];
        snprintf(req, sizeof req, "{\"seed\": %lld}", seed);
        json_t *root = generate_ok(g, req);
        long long s = check_answer(g, root, seed);
        wins += s > 0;
        losses += s < 0;
        json_decref(root);
    }
    if (rules_of(g)->never_lost) {
        ck_assert_int_eq(wins, SEEDS);
    } else {
        ck_assert_msg(wins >= SEEDS / 20 && losses >= SEEDS / 20, "%s: %d wins, %d losses", g->name,
                      wins, losses);
    }
}
END_TEST

/* Positions in play with 0, 1 and 2 winning moves: re-analysed, judged by
 * the oracle, and the count met; the classic puzzle nearly always found. */
START_TEST(test_winning_moves_met)
{
    const gj_game *g = game_at(_i);
    for (long w = 0; w <= 2; w++) {
        int found = 0;
        if (w == 0 && rules_of(g)->scored)
            continue; /* refused: some move always reaches the best score */
        for (long long seed = 0; seed < 60; seed++) {
            char req[96];
            gj_error e;
            snprintf(req, sizeof req, "{\"seed\": %lld, \"winning_moves\": %ld}", seed, w);
            json_t *root = generate(g, req, 2000, NULL, &e);
            if (root == NULL) {
                ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, req, e.message);
                continue;
            }
            found++;
            long long s = check_answer(g, root, seed);
            const json_t *a = json_object_get(root, "answer");
            ck_assert_int_eq(member_int(a, "winning_moves"), w);
            ck_assert_int_gt(member_int(a, "moves_total"), w);
            if (!rules_of(g)->scored)
                ck_assert_int_eq(s, w > 0 ? 1 : -1);
            json_decref(root);
        }
        if (w == 1)
            ck_assert_msg(found >= 57, "%s: only %d classic puzzles in 60 seeds", g->name, found);
    }
}
END_TEST

/* The answer of a position in play, its afters whole (written from the
 * parsed position, generate.c's write_whole), is byte for byte what
 * /analyze answers for that position (its afters whole the JSON way,
 * after.h), over 40 seeds of each game with and without a move count. */
START_TEST(test_whole_afters_as_analyze)
{
    const gj_game *g = game_at(_i);
    long compared = 0;
    for (int ask = 0; ask < 2; ask++)
        for (long long seed = 0; seed < 40; seed++) {
            char req[96];
            gj_error e;
            char *bytes = NULL;
            snprintf(req, sizeof req, "{\"seed\": %lld, \"%s\": %d}", seed,
                     ask ? "min_moves" : "winning_moves", ask ? 3 : 1);
            json_t *root = generate(g, req, 2000, &bytes, &e);
            if (root == NULL) {
                ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, req, e.message);
                continue;
            }
            const char *from = strstr(bytes, ",\"answer\":"), *to = NULL;
            for (const char *at = from; at != NULL; at = strstr(at + 1, ",\"candidates\":"))
                to = at;
            ck_assert_msg(from != NULL && to != NULL && to > from, "%s: no answer in %s", g->name,
                          bytes);
            from += strlen(",\"answer\":");
            char *want = harness_analyze(g, json_object_get(root, "position"), &e);
            ck_assert_msg(want != NULL, "%s: %s", g->name, e.message);
            size_t at = 0, len = (size_t)(to - from);
            while (at < len && want[at] == from[at])
                at++;
            ck_assert_msg(at == len && want[at] == '\0',
                          "%s %s: the answer parts from /analyze's at byte %zu: %.80s | %.80s",
                          g->name, req, at, from + at, want + at);
            compared++;
            free(want);
            free(bytes);
            json_decref(root);
        }
    ck_assert_msg(compared >= 40, "%s: only %ld answers compared", g->name, compared);
}
END_TEST

/* "skip" names the kept candidate: the same request with it and "tries": 1
 * makes the same position again, its first and only candidate, whatever
 * the search it came from tried before it; and "tries" bounds a search. */
START_TEST(test_skip_remakes_candidate)
{
    const gj_game *g = game_at(_i);
    long searched = 0;
    for (long long seed = 0; seed < 150; seed++) {
        char req[160];
        gj_error e;
        const char *ask = seed % 3 == 0   ? "\"winning_moves\": 1"
                          : seed % 3 == 1 ? "\"winning_moves\": 1, \"min_moves\": 3"
                                          : "\"outcome\": \"lose\"";
        snprintf(req, sizeof req, "{\"seed\": %lld, %s}", seed, ask);
        json_t *first = generate(g, req, 2000, NULL, &e);
        if (first == NULL) {
            ck_assert_msg(e.kind == GJ_UNMET || e.kind == GJ_BAD_INPUT, "%s %s: %s", g->name, req,
                          e.message);
            continue;
        }
        long long skip = member_int(first, "skip"), tried = member_int(first, "candidates");
        ck_assert_msg(skip >= 0 && (tried > 1 || skip == 0), "%s %s: skip %lld after %lld", g->name,
                      req, skip, tried);
        searched += tried > 1;
        snprintf(req, sizeof req, "{\"seed\": %lld, \"skip\": %lld, \"tries\": 1, %s}", seed, skip,
                 ask);
        json_t *again = generate(g, req, 2000, NULL, &e);
        ck_assert_msg(again != NULL, "%s %s: %s", g->name, req, e.message);
        ck_assert_int_eq(member_int(again, "candidates"), 1);
        ck_assert_int_eq(member_int(again, "skip"), skip);
        ck_assert_msg(
            json_equal(json_object_get(first, "position"), json_object_get(again, "position")),
            "%s %s: another position", g->name, req);
        ck_assert(json_equal(json_object_get(first, "answer"), json_object_get(again, "answer")));
        json_decref(again);
        /* Bounded below the count the search needed: no position, and the
         * message names the count, not the clock. */
        if (tried > 1) {
            snprintf(req, sizeof req, "{\"seed\": %lld, \"tries\": %lld, %s}", seed, tried - 1,
                     ask);
            ck_assert_ptr_null(generate(g, req, 2000, NULL, &e));
            ck_assert_int_eq(e.kind, GJ_UNMET);
            char within[96];
            snprintf(within, sizeof within, "within tries %lld (%lld candidate", tried - 1,
                     tried - 1);
            ck_assert_msg(strstr(e.message, within) != NULL, "%s", e.message);
        }
        json_decref(first);
    }
    ck_assert_msg(searched >= 20, "%s: only %ld searches tried more than one candidate", g->name,
                  searched);
}
END_TEST

/* "outcome" win and lose: met by every position that comes back. */
START_TEST(test_outcome_met)
{
    const gj_game *g = game_at(_i);
    static const char *const outcome[2] = {"win", "lose"};
    for (int o = 0; o < 2; o++) {
        int found = 0;
        for (long long seed = 0; seed < 40; seed++) {
            char req[96];
            gj_error e;
            snprintf(req, sizeof req, "{\"seed\": %lld, \"outcome\": \"%s\"}", seed, outcome[o]);
            json_t *root = generate(g, req, 2000, NULL, &e);
            if (root == NULL) {
                ck_assert_msg(o == 1 && rules_of(g)->never_lost && e.kind == GJ_BAD_INPUT,
                              "%s %s: %s", g->name, req, e.message);
                continue;
            }
            found++;
            long long s = check_answer(g, root, seed);
            ck_assert_msg(o == 0 ? s > 0 : s < 0, "%s %s: score %lld", g->name, req, s);
            json_decref(root);
        }
        ck_assert_int_eq(found, o == 1 && rules_of(g)->never_lost ? 0 : 40);
    }
}
END_TEST

/* The same request gives the same bytes; another seed another position. */
START_TEST(test_deterministic)
{
    const gj_game *g = game_at(_i);
    gj_error e;
    char *a, *b, *c;
    json_t *x = generate(g, g->example_generate, 2000, &a, &e);
    ck_assert_msg(x != NULL, "%s: %s", g->name, e.message);
    json_t *y = generate(g, g->example_generate, 2000, &b, &e);
    json_t *z = generate(g, "{\"seed\": 43}", 2000, &c, &e);
    ck_assert_ptr_nonnull(y);
    ck_assert_ptr_nonnull(z);
    ck_assert_str_eq(a, b);
    ck_assert_str_ne(a, c);
    json_decref(x);
    json_decref(y);
    json_decref(z);
    free(a);
    free(b);
    free(c);
}
END_TEST

/* A request without a seed gets one, echoed, that replays the position. */
START_TEST(test_seed_echoed)
{
    const gj_game *g = game_at(_i);
    json_t *first = generate_ok(g, "{}");
    long long seed = member_int(first, "seed");
    ck_assert_int_ge(seed, 0);
    ck_assert_int_le(seed, GEN_SEED_MAX);
    char req[64];
    snprintf(req, sizeof req, "{\"seed\": %lld}", seed);
    json_t *again = generate_ok(g, req);
    ck_assert(json_equal(first, again));
    json_decref(first);
    json_decref(again);
}
END_TEST

/* "answer": false gives the same position without the answer, and
 * "min_moves" is met: a puzzle in play with at least 4 moves. */
START_TEST(test_answer_kept_back)
{
    const gj_game *g = game_at(_i);
    const char *knobs = rules_of(g)->generate_knobs != NULL ? rules_of(g)->generate_knobs : "";
    char req[160];
    snprintf(req, sizeof req, "{\"seed\": 9, \"winning_moves\": 1, \"min_moves\": 4%s}", knobs);
    json_t *full = generate_ok(g, req);
    snprintf(req, sizeof req,
             "{\"seed\": 9, \"winning_moves\": 1, \"min_moves\": 4, \"answer\": false%s}", knobs);
    json_t *bare = generate_ok(g, req);
    const json_t *answer = json_object_get(full, "answer");
    ck_assert_ptr_nonnull(answer);
    ck_assert_int_ge(member_int(answer, "moves_total"), 4);
    ck_assert_ptr_null(json_object_get(bare, "answer"));
    ck_assert(json_equal(json_object_get(full, "position"), json_object_get(bare, "position")));
    ck_assert_int_eq(json_object_size(bare), json_object_size(full) - 1);
    gj_error e;
    ck_assert_ptr_null(generate(g, "{\"answer\": 0}", 2000, NULL, &e));
    ck_assert_str_eq(e.field, "answer");
    ck_assert_ptr_null(generate(g, "{\"min_moves\": 1000000}", 2000, NULL, &e));
    ck_assert_str_eq(e.field, "min_moves");
    ck_assert_ptr_nonnull(strstr(e.message, "impossible here"));
    json_decref(full);
    json_decref(bare);
}
END_TEST

/* The PRNG is splitmix64 exactly: the published first outputs of seed 0,
 * and the harness's own implementation on other seeds. */
START_TEST(test_prng_pinned)
{
    gj_rng r = {0};
    ck_assert_uint_eq(gj_rng_next(&r), 0xE220A8397B1DCDAFull);
    ck_assert_uint_eq(gj_rng_next(&r), 0x6E789E6AA1B965F4ull);
    ck_assert_uint_eq(gj_rng_next(&r), 0x06C45D188009454Full);
    uint64_t h = 12345;
    gj_rng s = {12345};
    for (int i = 0; i < 1000; i++)
        ck_assert_uint_eq(gj_rng_next(&s), rng_next(&h));
    for (int i = 0; i < 10000; i++) {
        long v = gj_rng_range(&s, -3, 3);
        ck_assert(v >= -3 && v <= 3);
    }
    /* Skipping n numbers stands where n draws stand, and drawn counts them. */
    for (uint64_t seed = 0; seed < 50; seed++) {
        gj_rng a = {seed * 0x12345678abcdefull}, b = a;
        uint64_t n = seed * seed * 7 + seed;
        for (uint64_t k = 0; k < n; k++)
            gj_rng_next(&a);
        ck_assert_uint_eq(gj_rng_drawn(&a, b.state), n);
        gj_rng_skip(&b, n);
        ck_assert_uint_eq(gj_rng_next(&a), gj_rng_next(&b));
    }
}
END_TEST

/* The knobs shape the position: sizes, density, values, k, range. */
START_TEST(test_knobs_shape)
{
    json_t *r = generate_ok(&game_grid_walk, "{\"seed\":1,\"rows\":2,\"cols\":7,\"density\":0}");
    const json_t *grid = json_object_get(json_object_get(r, "position"), "grid");
    ck_assert_int_eq(json_array_size(grid), 2);
    ck_assert_str_eq(json_string_value(json_array_get(grid, 1)), ".......");
    json_decref(r);
    r = generate_ok(&game_matrix_game, "{\"seed\":1,\"n\":6,\"k\":3}");
    ck_assert_int_eq(member_int(json_object_get(r, "position"), "k"), 3);
    ck_assert_int_eq(json_array_size(json_object_get(json_object_get(r, "position"), "matrix")), 6);
    json_decref(r);
    r = generate_ok(&game_prime_chocolate, "{\"seed\":1,\"n\":3,\"eaten\":0}");
    ck_assert_str_eq(json_string_value(json_object_get(r, "input")), "3\n---\n---\n---\n");
    json_decref(r);
    r = generate_ok(&game_staircase_chess,
                    "{\"seed\":1,\"rows\":2,\"cols\":2,\"values\":[5,5],\"score\":[-100,100]}");
    ck_assert_str_eq(json_string_value(json_object_get(r, "input")), "2 2\n5 5\n5 5\n5 5\n5 5\n");
    json_decref(r);
    r = generate_ok(&game_nim_shortcuts, "{\"seed\":1,\"shortcuts\":4,\"range\":2}");
    const json_t *sc = json_object_get(json_object_get(r, "position"), "shortcuts");
    ck_assert_int_eq(json_array_size(sc), 4);
    for (size_t i = 0; i < 4; i++)
        ck_assert(at(json_array_get(sc, i), 0) < 2 && at(json_array_get(sc, i), 1) < 2);
    dump_eq(json_object_get(r, "answer"), "{\"game\":\"nim-shortcuts\",\"answers\":[\"LOSE\"]}");
    json_decref(r);
    r = generate_ok(&game_prime_chocolate, "{\"seed\":1,\"primes_used\":[3,2]}");
    dump_eq(json_object_get(json_object_get(r, "position"), "primes_used"), "[3,2]");
    ck_assert_ptr_null(json_object_get(r, "input"));
    json_decref(r);
}
END_TEST

/* staircase-chess's score range is met. */
START_TEST(test_score_range_met)
{
    for (long long seed = 0; seed < 40; seed++) {
        char req[96];
        snprintf(req, sizeof req, "{\"seed\": %lld, \"score\": [4, 6]}", seed);
        json_t *root = generate_ok(&game_staircase_chess, req);
        long long s = check_answer(&game_staircase_chess, root, seed);
        ck_assert(s >= 4 && s <= 6);
        json_decref(root);
        snprintf(req, sizeof req, "{\"seed\": %lld, \"score\": [-2, 0], \"winning_moves\": 1}",
                 seed);
        root = generate_ok(&game_staircase_chess, req);
        s = check_answer(&game_staircase_chess, root, seed);
        ck_assert(s >= -2 && s <= 0);
        json_decref(root);
    }
}
END_TEST

static const struct {
    const gj_game *game;
    const char *req;
    gj_error_kind kind;
    const char *field, *message;
} bad[] = {
    {&game_grid_walk, "{\"seed\":1,\"colour\":2}", GJ_BAD_INPUT, "colour",
     "colour: unknown field; expected only \"seed\", \"skip\", \"tries\", \"budget_ms\", "
     "\"outcome\", "
     "\"winning_moves\", \"min_moves\", \"answer\", \"after\", \"rows\", \"cols\", \"density\", "
     "\"visited\""},
    {&game_grid_walk, "{\"seed\":-1}", GJ_BAD_INPUT, "seed",
     "seed: expected an integer from 0 to 9007199254740991 (2^53 - 1)"},
    {&game_grid_walk, "{\"seed\":\"42\"}", GJ_BAD_INPUT, "seed",
     "seed: expected an integer from 0 to 9007199254740991 (2^53 - 1)"},
    {&game_grid_walk, "{\"seed\":9007199254740992}", GJ_BAD_INPUT, "seed",
     "seed: expected an integer from 0 to 9007199254740991 (2^53 - 1)"},
    {&game_grid_walk, "{\"budget_ms\":0}", GJ_BAD_INPUT, "budget_ms",
     "budget_ms: 0 is out of range: expected 1..2000, the limit in force being "
     "--generate-budget-ms 2000"},
    {&game_grid_walk, "{\"budget_ms\":2001}", GJ_BAD_INPUT, "budget_ms",
     "budget_ms: 2001 is out of range: expected 1..2000, the limit in force being "
     "--generate-budget-ms 2000"},
    {&game_grid_walk, "{\"outcome\":\"draw\"}", GJ_BAD_INPUT, "outcome",
     "outcome: expected \"win\" or \"lose\""},
    {&game_grid_walk, "{\"rows\":33}", GJ_BAD_INPUT, "rows",
     "rows: 33 is out of range: expected 1..32, the limit in force being grid-walk.rows 100 or "
     "32"},
    {&game_grid_walk, "{\"density\":1.5}", GJ_BAD_INPUT, "density",
     "density: 1.5 is out of range: expected a number from 0 to 1"},
    {&game_grid_walk, "{\"winning_moves\":4}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: 4 is impossible here: a position of this size has at most 4 moves, and one "
     "of them must not win"},
    {&game_grid_walk, "{\"winning_moves\":1,\"outcome\":\"lose\"}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: a position with a winning move is won: winning_moves 1 contradicts outcome "
     "\"lose\""},
    {&game_grid_walk, "{\"winning_moves\":0,\"outcome\":\"win\"}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: a won position has a winning move: winning_moves 0 contradicts outcome "
     "\"win\""},
    {&game_matrix_game, "{\"n\":65}", GJ_BAD_INPUT, "n",
     "n: 65 is out of range: expected 3..64, the limit in force being matrix-game.n 2000 or 64"},
    {&game_matrix_game, "{\"n\":5,\"k\":4}", GJ_BAD_INPUT, "k",
     "k: 4 is out of range: expected 1..3"},
    {&game_matrix_game, "{\"outcome\":\"lose\"}", GJ_BAD_INPUT, "outcome",
     "outcome: M always wins the opening (she starts on the largest value); ask for "
     "\"winning_moves\": 0 to get a lost position in play"},
    {&game_nim_shortcuts, "{\"shortcuts\":5,\"range\":2}", GJ_BAD_INPUT, "shortcuts",
     "shortcuts: 5 distinct shortcuts do not fit in a range of 2 (2^2 positions)"},
    {&game_nim_shortcuts, "{\"shortcuts\":1001}", GJ_BAD_INPUT, "shortcuts",
     "shortcuts: 1001 is out of range: expected 0..1000, the limit in force being "
     "nim-shortcuts.shortcuts 100000 or 1000"},
    {&game_prime_chocolate, "{\"n\":5,\"primes_used\":[4]}", GJ_BAD_INPUT, "primes_used[0]",
     "primes_used[0]: 4 is not a prime"},
    {&game_prime_chocolate, "{\"n\":5,\"primes_used\":[7]}", GJ_BAD_INPUT, "primes_used[0]",
     "primes_used[0]: must be between 2 and 5, found 7"},
    {&game_prime_chocolate, "{\"primes_used\":[2,2]}", GJ_BAD_INPUT, "primes_used[1]",
     "primes_used[1]: 2 is listed twice"},
    {&game_prime_chocolate, "{\"primes_used\":[2],\"winning_moves\":1}", GJ_BAD_INPUT,
     "winning_moves",
     "winning_moves: 1 is impossible with 2 used: every move then eats an odd count, so all moves "
     "win or all lose"},
    {&game_staircase_chess, "{\"rows\":11}", GJ_BAD_INPUT, "rows",
     "rows: 11 is out of range: expected 1..10, the limit in force being staircase-chess.rows "
     "10"},
    {&game_staircase_chess, "{\"values\":[5,4]}", GJ_BAD_INPUT, "values",
     "values: [5, 4] is empty: the first bound must not exceed the second"},
    {&game_staircase_chess, "{\"values\":[0,100001]}", GJ_BAD_INPUT, "values[1]", "values[1]: "},
    {&game_staircase_chess, "{\"outcome\":\"win\",\"score\":[-5,0]}", GJ_BAD_INPUT, "score",
     "score: [-5, 0] holds no score of outcome \"win\" (win: above 0, lose: below 0)"},
    {&game_staircase_chess, "{\"winning_moves\":0}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: 0 is impossible: some move always reaches the best score"},
    {&game_staircase_chess, "{\"rows\":1,\"winning_moves\":1}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: 1 is impossible here: a position of this size has at most 1 move, and one "
     "of them must not win"},
    {&game_prime_chocolate, "[1]", GJ_BAD_INPUT, "", ""},
    /* Valid, but never met: with range 1 the heaps are (0, 0), a loss. */
    {&game_nim_shortcuts,
     "{\"seed\":1,\"range\":1,\"shortcuts\":0,\"outcome\":\"win\","
     "\"budget_ms\":20}",
     GJ_UNMET, "outcome", "outcome: no position met outcome \"win\" (missed by "},
    /* A 2 x 2 token has at most 2 neighbours: refused at once, not searched. */
    {&game_grid_walk, "{\"seed\":1,\"rows\":2,\"cols\":2,\"winning_moves\":3,\"budget_ms\":20}",
     GJ_BAD_INPUT, "winning_moves",
     "winning_moves: 3 is impossible here: a position of this size has at most 2 moves"},
    {&game_grid_walk, "{\"rows\":1,\"cols\":2,\"winning_moves\":2}", GJ_BAD_INPUT, "winning_moves",
     "winning_moves: 2 is impossible here: a position of this size has at most 1 move, and one "
     "of them must not win"},
};

/* Each bad request fails with its kind, field and message. */
START_TEST(test_bad_requests)
{
    gj_error e;
    json_t *a = generate(bad[_i].game, bad[_i].req, 2000, NULL, &e);
    ck_assert_msg(a == NULL, "%s %s: accepted", bad[_i].game->name, bad[_i].req);
    ck_assert_int_eq(e.kind, bad[_i].kind);
    ck_assert_str_eq(e.field, bad[_i].field);
    ck_assert_msg(strncmp(e.message, bad[_i].message, strlen(bad[_i].message)) == 0,
                  "%s: got \"%s\"", bad[_i].req, e.message);
    if (e.kind == GJ_UNMET)
        ck_assert_msg(strstr(e.message, "candidates tried") != NULL, "%s", e.message);
}
END_TEST

/* A budget far below one large solve still ends, as GJ_UNMET. */
START_TEST(test_budget_bounds_large_candidates)
{
    gj_error e;
    json_t *a =
        generate(&game_matrix_game, "{\"seed\":3,\"n\":64,\"winning_moves\":4000,\"budget_ms\":1}",
                 1, NULL, &e);
    ck_assert_ptr_null(a);
    ck_assert_int_eq(e.kind, GJ_UNMET);
}
END_TEST

/* The caller's flag stops the search as itself (the client went away),
 * not as an unmet budget, and is bound again afterwards. */
START_TEST(test_caller_cancel_wins)
{
    gj_cancel outer;
    gj_cancel_init(&outer, 0);
    gj_cancel_raise(&outer, GJ_CANCEL_GONE);
    gj_cancel_bind(&outer);
    gj_error e;
    /* Valid but never met (range 1 holds only the lost (0, 0)), so only the flag ends it. */
    json_t *a =
        generate(&game_nim_shortcuts,
                 "{\"seed\":1,\"range\":1,\"shortcuts\":0,\"outcome\":\"win\"}", 2000, NULL, &e);
    ck_assert_ptr_eq(gj_cancel_bound(), &outer);
    gj_cancel_bind(NULL);
    ck_assert_ptr_null(a);
    ck_assert_int_eq(e.kind, GJ_CANCELLED);
    ck_assert_ptr_nonnull(strstr(e.message, "client closed its connection"));
}
END_TEST

/* ---- the bounds on a position's moves (generate.h) ---------------------- */

/* moves_total and winning_moves of the analysis of body `in` (g's default
 * limits), into *total and *winning. */
static void moves_of(const gj_game *g, const char *in, long *total, long *winning)
{
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    gj_buf out;
    buf_init(&out);
    gj_error e;
    gj_error_clear(&e);
    ck_assert_msg(g->analyze(in, strlen(in), limits, &out, &e) == 0, "%s: %s on %s", g->name,
                  e.message, in);
    json_t *a = json_loadb(out.data, out.len, 0, NULL);
    ck_assert_ptr_nonnull(a);
    *total = (long)member_int(a, "moves_total");
    *winning = (long)member_int(a, "winning_moves");
    json_decref(a);
    buf_free(&out);
}

/* The most moves over every path of up to `longest` (1..3) cells that
 * extends path[0..n) on the grid `cells` (rows x cols, '.' free), each
 * analysed; best[w] (w of 0..2) is raised to the most moves of those with
 * exactly w winning moves and another move. */
static long grid_walk_paths(const char *cells, long rows, long cols, long *path, long n,
                            long longest, long *best)
{
    char body[512];
    size_t used = (size_t)snprintf(body, sizeof body, "{\"grid\":[");
    for (long r = 0; r < rows; r++)
        used += (size_t)snprintf(body + used, sizeof body - used, "%s\"%.*s\"", r ? "," : "",
                                 (int)cols, cells + r * cols);
    used += (size_t)snprintf(body + used, sizeof body - used, "],\"path\":[");
    for (long i = 0; i < n; i++)
        used += (size_t)snprintf(body + used, sizeof body - used, "%s[%ld,%ld]", i ? "," : "",
                                 path[i] / cols + 1, path[i] % cols + 1);
    snprintf(body + used, sizeof body - used, "],\"max_moves\":1}");
    long total, winning;
    moves_of(&game_grid_walk, body, &total, &winning);
    if (winning < 3 && total > winning && total > best[winning])
        best[winning] = total;
    long most = total;
    if (n == longest)
        return most;
    long c = path[n - 1];
    for (int d = 0; d < 4; d++) {
        long r = c / cols + (d == 0) - (d == 1), q = c % cols + (d == 2) - (d == 3);
        bool seen = false;
        for (long i = 0; i < n; i++)
            seen = seen || path[i] == r * cols + q;
        if (r < 0 || r >= rows || q < 0 || q >= cols || cells[r * cols + q] != '.' || seen)
            continue;
        path[n] = r * cols + q;
        long m = grid_walk_paths(cells, rows, cols, path, n + 1, longest, best);
        most = m > most ? m : most;
    }
    return most;
}

/* The bound generate_most gives grid-walk for a request with `winning`
 * winning moves, paths of up to `visited` cells and blocks or none. */
static long grid_walk_most(long rows, long cols, long winning, long visited, bool blocks)
{
    char req[160];
    snprintf(req, sizeof req,
             "{\"rows\":%ld,\"cols\":%ld,\"density\":%s,\"winning_moves\":%ld,\"visited\":%ld}",
             rows, cols, blocks ? "0.5" : "0", winning, visited);
    long long most;
    int scored;
    gj_error e;
    long limits[GEN_NLIMITS];
    game_default_limits(&game_grid_walk, limits);
    limits[GEN_LIMIT_BUDGET] = 2000;
    ck_assert_msg(game_grid_walk.generate_most(req, strlen(req), limits, &most, &scored, &e) == 0,
                  "%s: %s", req, e.message);
    return (long)most;
}

/* grid-walk: every grid up to 9 cells, every path the generator walks:
 * gw_gen_most over them all, and gw_gen_most_winning for 0..2 winning
 * moves over them all (blocks) and over the grid with no block; and the
 * same bound for the paths of up to 1 and 2 cells ("visited"). */
START_TEST(test_bound_grid_walk)
{
    for (long longest = 1; longest <= 3; longest++)
        for (long rows = 1; rows <= 9; rows++)
            for (long cols = 1; rows * cols <= 9; cols++) {
                long cells = rows * cols, most = 0, any[3] = {0, 0, 0}, open[3] = {0, 0, 0};
                for (long mask = 0; mask < 1L << cells; mask++) {
                    char grid[16];
                    long best[3] = {0, 0, 0};
                    for (long i = 0; i < cells; i++)
                        grid[i] = mask >> i & 1 ? '#' : '.';
                    for (long start = 0; start < cells; start++) {
                        if (grid[start] != '.')
                            continue;
                        long path[3] = {start};
                        long m = grid_walk_paths(grid, rows, cols, path, 1, longest, best);
                        most = m > most ? m : most;
                    }
                    for (int w = 0; w < 3; w++) {
                        any[w] = best[w] > any[w] ? best[w] : any[w];
                        open[w] = mask == 0 ? best[w] : open[w];
                    }
                }
                ck_assert_msg(most == gw_gen_most(rows, cols),
                              "grid-walk %ld x %ld: %ld, bound %ld", rows, cols, most,
                              gw_gen_most(rows, cols));
                for (int w = 0; w < 3 && (longest == 3 || w < gw_gen_most(rows, cols)); w++) {
                    long with = longest == 3 ? gw_gen_most_winning(rows, cols, true, w)
                                             : grid_walk_most(rows, cols, w, longest, true),
                         without = longest == 3 ? gw_gen_most_winning(rows, cols, false, w)
                                                : grid_walk_most(rows, cols, w, longest, false);
                    ck_assert_msg(
                        any[w] == with && open[w] == without,
                        "grid-walk %ld x %ld, %d winning, paths of up to %ld: %ld (%ld with "
                        "no block), bound %ld (%ld)",
                        rows, cols, w, longest, any[w], open[w], with, without);
                }
            }
    /* Above the enumerated boards the proven bound stands. */
    for (long w = 0; w < 3; w++) {
        ck_assert_int_eq(gw_gen_most_winning(2, 5, true, w), gw_gen_most(2, 5));
        ck_assert_int_eq(gw_gen_most_winning(4, 4, true, w), gw_gen_most(4, 4));
    }
}
END_TEST

/* matrix-game: every token cell of 4 matrices (the moves do not hang on
 * the values) per n of 3..6 and k of 1..n-2. */
START_TEST(test_bound_matrix_game)
{
    gj_rng r = {20261202};
    for (long n = 3; n <= 6; n++)
        for (long k = 1; k <= n - 2; k++) {
            long most = 0;
            for (int round = 0; round < 4; round++) {
                int value[36];
                for (long i = 0; i < n * n; i++)
                    value[i] = (int)i + 1;
                for (long i = n * n - 1; round > 0 && i > 0; i--) {
                    long j = (long)gj_rng_below(&r, (uint64_t)i + 1);
                    int t = value[i];
                    value[i] = value[j];
                    value[j] = t;
                }
                for (long t = 0; t < n * n; t++) {
                    char body[1024];
                    size_t used = (size_t)snprintf(body, sizeof body, "{\"k\":%ld,\"matrix\":[", k);
                    for (long i = 0; i < n; i++)
                        for (long j = 0; j < n; j++)
                            used += (size_t)snprintf(body + used, sizeof body - used, "%s%s%d%s",
                                                     j   ? ""
                                                     : i ? ",["
                                                         : "[",
                                                     j ? "," : "", value[i * n + j],
                                                     j + 1 == n ? "]" : "");
                    snprintf(body + used, sizeof body - used,
                             "],\"token\":[%ld,%ld],\"max_moves\":1}", t / n + 1, t % n + 1);
                    long total, winning;
                    moves_of(&game_matrix_game, body, &total, &winning);
                    most = total > most ? total : most;
                }
            }
            ck_assert_msg(most == mg_gen_most(n, k), "matrix-game n %ld k %ld: %ld, bound %ld", n,
                          k, most, mg_gen_most(n, k));
        }
}
END_TEST

/* nim-shortcuts: every shortcut set of every size in ranges 1..3 and every
 * start; with range^2 - 1 shortcuts or more every move wins. */
START_TEST(test_bound_nim_shortcuts)
{
    for (long range = 1; range <= 3; range++) {
        long cells = range * range;
        for (long s = 0; s <= cells; s++) {
            long most = 0;
            bool loser = false; /* some position has a move that does not win */
            for (long mask = 0; mask < 1L << cells; mask++) {
                if (__builtin_popcountl((unsigned long)mask) != s)
                    continue;
                for (long start = 0; start < cells; start++) {
                    char body[512];
                    size_t used = (size_t)snprintf(body, sizeof body, "{\"shortcuts\":[");
                    for (long i = 0, listed = 0; i < cells; i++)
                        if (mask >> i & 1)
                            used += (size_t)snprintf(body + used, sizeof body - used, "%s[%ld,%ld]",
                                                     listed++ ? "," : "", i / range, i % range);
                    snprintf(body + used, sizeof body - used,
                             "],\"heaps\":[%ld,%ld],\"max_moves\":1}", start / range,
                             start % range);
                    long total, winning;
                    moves_of(&game_nim_shortcuts, body, &total, &winning);
                    most = total > most ? total : most;
                    loser = loser || winning < total;
                }
            }
            ck_assert_msg(most == ns_gen_most(s, range),
                          "nim-shortcuts range %ld, %ld shortcuts: %ld, bound %lld", range, s, most,
                          ns_gen_most(s, range));
            if (cells - s < 2)
                ck_assert_msg(!loser, "range %ld, %ld shortcuts: a move that does not win", range,
                              s);
        }
    }
}
END_TEST

/* prime-chocolate: every bar of side 1..3 with every set of primes used. */
START_TEST(test_bound_prime_chocolate)
{
    static const long sets[4][2] = {{0, 0}, {2, 0}, {3, 0}, {2, 3}};
    for (long n = 1; n <= 3; n++)
        for (int u = 0; u < 4; u++) {
            long used[2], nused = 0;
            for (int i = 0; i < 2; i++)
                if (sets[u][i] != 0 && sets[u][i] <= n)
                    used[nused++] = sets[u][i];
            if (nused < (sets[u][0] != 0) + (sets[u][1] != 0))
                continue; /* a prime above the side cannot be used */
            long most = 0;
            for (long mask = 0; mask < 1L << (n * n); mask++) {
                char body[256];
                size_t len = (size_t)snprintf(body, sizeof body, "{\"grid\":[");
                for (long r = 0; r < n; r++) {
                    len += (size_t)snprintf(body + len, sizeof body - len, "%s\"", r ? "," : "");
                    for (long c = 0; c < n; c++)
                        body[len++] = mask >> (r * n + c) & 1 ? 'X' : '-';
                    body[len++] = '"';
                }
                len += (size_t)snprintf(body + len, sizeof body - len, "],\"primes_used\":[");
                for (long i = 0; i < nused; i++)
                    len += (size_t)snprintf(body + len, sizeof body - len, "%s%ld", i ? "," : "",
                                            used[i]);
                snprintf(body + len, sizeof body - len, "],\"max_moves\":1}");
                long total, winning;
                moves_of(&game_prime_chocolate, body, &total, &winning);
                most = total > most ? total : most;
                if (mask == (1L << (n * n)) - 1)
                    ck_assert_int_eq(total, 0); /* eaten 1: nothing left */
            }
            ck_assert_msg(most == pc_gen_most(n, used, nused),
                          "prime-chocolate n %ld, %ld used: %ld, bound %ld", n, nused, most,
                          pc_gen_most(n, used, nused));
        }
}
END_TEST

/* staircase-chess: every staircase but the full board, rows and cols 1..4,
 * random values; with one value every move is a best one. */
START_TEST(test_bound_staircase_chess)
{
    gj_rng r = {7};
    for (long rows = 1; rows <= 4; rows++)
        for (long cols = 1; cols <= 4; cols++)
            for (int one = 0; one < 2; one++) {
                long most = 0, profile[4] = {0};
                for (;;) {
                    long stones = 0;
                    for (long i = 0; i < rows; i++)
                        stones += profile[i];
                    if (stones < rows * cols) {
                        char body[1024];
                        size_t len = 0;
                        for (int m = 0; m < 2; m++) {
                            len += (size_t)snprintf(body + len, sizeof body - len, "%s\":[",
                                                    m ? "],\"b" : "{\"a");
                            for (long i = 0; i < rows; i++)
                                for (long j = 0; j < cols; j++)
                                    len += (size_t)snprintf(
                                        body + len, sizeof body - len, "%s%s%ld%s",
                                        j   ? ""
                                        : i ? ",["
                                            : "[",
                                        j ? "," : "", one ? 3 : gj_rng_range(&r, 0, 9),
                                        j + 1 == cols ? "]" : "");
                        }
                        len += (size_t)snprintf(body + len, sizeof body - len, "],\"profile\":[");
                        for (long i = 0; i < rows; i++)
                            len += (size_t)snprintf(body + len, sizeof body - len, "%s%ld",
                                                    i ? "," : "", profile[i]);
                        snprintf(body + len, sizeof body - len, "],\"max_moves\":1}");
                        long total, winning;
                        moves_of(&game_staircase_chess, body, &total, &winning);
                        most = total > most ? total : most;
                        if (one)
                            ck_assert_int_eq(winning, total);
                    }
                    /* The next non-increasing profile, the last row first. */
                    long i = rows - 1;
                    while (i >= 0 && profile[i] == (i ? profile[i - 1] : cols))
                        i--;
                    if (i < 0)
                        break;
                    profile[i]++;
                    for (long j = i + 1; j < rows; j++)
                        profile[j] = 0;
                }
                ck_assert_msg(most == sc_gen_most(rows, cols),
                              "staircase-chess %ld x %ld: %ld, bound %ld", rows, cols, most,
                              sc_gen_most(rows, cols));
            }
}
END_TEST

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("generate");
    harness_add_loop(s, "openings", test_openings_resolved_and_distributed, (int)n, 120);
    harness_add_loop(s, "winning_moves", test_winning_moves_met, (int)n, 120);
    harness_add_loop(s, "whole_afters", test_whole_afters_as_analyze, (int)n, 120);
    harness_add_loop(s, "outcome", test_outcome_met, (int)n, 120);
    harness_add_loop(s, "deterministic", test_deterministic, (int)n, 0);
    harness_add_loop(s, "skip", test_skip_remakes_candidate, (int)n, 120);
    harness_add_loop(s, "seed", test_seed_echoed, (int)n, 0);
    harness_add_loop(s, "answer kept back", test_answer_kept_back, (int)n, 60);
    harness_add_loop(s, "bad", test_bad_requests, (int)(sizeof bad / sizeof bad[0]), 0);
    const harness_case cases[] = {
        {"prng", test_prng_pinned},
        {"knobs", test_knobs_shape},
        {"score", test_score_range_met},
        {"budget", test_budget_bounds_large_candidates},
        {"cancel", test_caller_cancel_wins},
        {"bound grid-walk", test_bound_grid_walk},
        {"bound matrix-game", test_bound_matrix_game},
        {"bound nim-shortcuts", test_bound_nim_shortcuts},
        {"bound prime-chocolate", test_bound_prime_chocolate},
        {"bound staircase-chess", test_bound_staircase_chess},
    };
    harness_add(s, cases, sizeof cases / sizeof cases[0], 60);
    return harness_main(s);
}
