/* test_line.c - the perfect-play line of /analyze (line.h) on a game driven
 * as a parsed position (game.h's gj_play): matrix-game.
 *
 * The line is judged against its definition, walked the slow way: each
 * entry is moves[0] of the game's JSON analysis (analysis_call.h) of the
 * position the entries before it lead to, played with the game's
 * play_move, and the line stops at the first position reached twice.  On
 * a 300 x 300 matrix a line of 200 moves is answered: the work bound
 * counts moves, not bytes of the position re-read.  And the answers through
 * the parsed position are byte for byte those through the adapter over the
 * game's JSON analysis (tests/oracle/play_adapter.h). */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis_call.h"
#include "games.h"
#include "harness.h"
#include "line.h"
#include "play_adapter.h"

static const gj_game *const game = &game_matrix_game;

/* An n x n matrix-game request: the values shuffled by *rng, k, the token
 * at a random cell (or none for the opening), as a JSON object. */
static json_t *random_request(int n, long k, int opening, uint64_t *rng)
{
    int nn = n * n;
    int *value = malloc((size_t)nn * sizeof *value);
    ck_assert_ptr_nonnull(value);
    rng_shuffled(rng, value, nn);
    json_t *matrix = json_array();
    for (int i = 0; i < n; i++) {
        json_t *row = json_array();
        for (int j = 0; j < n; j++)
            json_array_append_new(row, json_integer(value[i * n + j]));
        json_array_append_new(matrix, row);
    }
    free(value);
    json_t *req = json_pack("{s:I, s:o}", "k", (json_int_t)k, "matrix", matrix);
    ck_assert_ptr_nonnull(req);
    if (!opening)
        json_object_set_new(req, "token",
                            json_pack("[I, I]", (json_int_t)rng_below(rng, (uint64_t)n) + 1,
                                      (json_int_t)rng_below(rng, (uint64_t)n) + 1));
    return req;
}

/* The answer of /analyze to req with the line options given, parsed. */
static json_t *line_of(const json_t *req, long max_line, const char *after)
{
    json_t *body = json_copy((json_t *)req);
    json_object_set_new(body, "line", json_true());
    json_object_set_new(body, "max_line", json_integer(max_line));
    json_object_set_new(body, "after", json_string(after));
    gj_error e;
    char *text = harness_analyze(game, body, &e);
    json_decref(body);
    ck_assert_msg(text != NULL, "refused: %s", e.message);
    json_t *answer = json_loads(text, 0, NULL);
    free(text);
    ck_assert_ptr_nonnull(answer);
    return answer;
}

/* The line's definition walked through the JSON analysis, checked against
 * answer's line: every entry, where it stops, and why. */
static void check_line(const json_t *req, const json_t *answer, long max_line)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(game, limits);
    json_t *pos = json_deep_copy(req);
    json_t *seen = json_array();
    const json_t *line = json_object_get(answer, "line");
    long i = 0, cycle_from = -1;
    int truncated = 0;
    for (;;) {
        gj_error e;
        json_t *a = analysis_call(game, pos, 1, limits, &e);
        ck_assert_msg(a != NULL, "analysis refused: %s", e.message);
        const json_t *best = json_array_get(json_object_get(a, "moves"), 0);
        ck_assert_ptr_nonnull(best); /* matrix-game never ends */
        if (i == max_line) {
            truncated = 1;
            json_decref(a);
            break;
        }
        ck_assert_msg(json_equal(json_array_get(line, (size_t)i), (json_t *)best),
                      "line[%ld] is not the best move of the position before it", i);
        const json_t *after = json_object_get(best, "after");
        for (size_t k = 0; k < json_array_size(seen) && cycle_from < 0; k++)
            if (json_equal(json_array_get(seen, k), (json_t *)after))
                cycle_from = (long)k + 1;
        json_array_append(seen, (json_t *)after);
        ck_assert_int_eq(game->play_move(pos, best, &e), 0);
        json_decref(a);
        i++;
        if (cycle_from >= 0)
            break;
    }
    ck_assert_int_eq((long)json_array_size(line), i);
    ck_assert(json_is_true(json_object_get(answer, "line_truncated")) == truncated);
    ck_assert(json_is_true(json_object_get(answer, "line_cycle")) == (cycle_from >= 0));
    if (cycle_from >= 0)
        ck_assert_int_eq(json_integer_value(json_object_get(answer, "line_cycle_start")),
                         cycle_from);
    json_decref(seen);
    json_decref(pos);
}

/* Small and medium matrices, every k, tokens and openings: the line is its
 * definition, to its cycle or cut at max_line. */
START_TEST(line_is_its_definition)
{
    uint64_t rng = 20261202;
    for (int round = 0; round < 300; round++) {
        int n = 3 + (int)rng_below(&rng, round < 250 ? 8 : 30);
        long k = 1 + (long)rng_below(&rng, (uint64_t)n - 2);
        json_t *req = random_request(n, k, rng_below(&rng, 4) == 0, &rng);
        long max_line = 1 + (long)rng_below(&rng, 12);
        json_t *answer = line_of(req, max_line, "diff");
        check_line(req, answer, max_line);
        json_decref(answer);
        json_decref(req);
    }
}
END_TEST

/* 300 x 300 with max_line 200: answered (it was a 422 while every move
 * re-read the position as JSON text, at most 126 moves there), and the
 * line is its definition. */
START_TEST(line_of_300_by_300)
{
    uint64_t rng = 300;
    for (long k = 1; k <= 200; k += 199) {
        json_t *req = random_request(300, k, 0, &rng);
        json_t *answer = line_of(req, 200, "diff");
        check_line(req, answer, 200);
        json_decref(answer);
        json_decref(req);
    }
}
END_TEST

/* req with the line and whole afters (the default), with max_moves and
 * max_line as given (0: left out): 1 when answered, else 0 with *e, the
 * afters' bound's 422 naming "after": "diff". */
static int whole_answered(const json_t *req, long max_moves, long max_line, gj_error *e)
{
    json_t *body = json_copy((json_t *)req);
    json_object_set_new(body, "line", json_true());
    if (max_line > 0)
        json_object_set_new(body, "max_line", json_integer(max_line));
    if (max_moves > 0)
        json_object_set_new(body, "max_moves", json_integer(max_moves));
    char *text = harness_analyze(game, body, e);
    json_decref(body);
    free(text);
    if (text != NULL)
        return 1;
    ck_assert_int_eq(e->kind, GJ_UNMET);
    ck_assert_str_eq(e->field, "after");
    ck_assert_ptr_nonnull(strstr(e->message, "32 MiB"));
    ck_assert_ptr_nonnull(strstr(e->message, "\"after\": \"diff\""));
    return 0;
}

/* 300 x 300 with the line and whole afters: a 422 that says how to get the
 * line.  The default 100 moves listed (~600 KB each) pass the afters'
 * bound before the line begins, so the message names "diff" and
 * max_moves, not max_line; with fewer listed the line may pass it, and
 * max_line is named then too. */
START_TEST(line_of_300_by_300_whole)
{
    uint64_t rng = 301;
    json_t *req = random_request(300, 200, 0, &rng);
    gj_error e;
    ck_assert_int_eq(whole_answered(req, 0, 200, &e), 0);
    ck_assert_msg(strstr(e.message, "before the line") != NULL, "%s", e.message);
    ck_assert_ptr_nonnull(strstr(e.message, "max_moves"));
    ck_assert_ptr_null(strstr(e.message, "max_line"));
    ck_assert_int_eq(whole_answered(req, 0, 0, &e), 0);
    ck_assert_ptr_nonnull(strstr(e.message, "before the line"));
    int in_line = 0, answered = 0;
    for (long listed = 40; listed <= 60; listed++) {
        if (whole_answered(req, listed, 200, &e)) {
            answered++;
            continue;
        }
        int before = strstr(e.message, "before the line") != NULL;
        ck_assert_int_eq(strstr(e.message, "max_line") == NULL, before);
        in_line += !before;
    }
    ck_assert_int_gt(answered, 0);
    ck_assert_int_gt(in_line, 0);
    json_decref(req);
}
END_TEST

/* /analyze's answer text to body for g, or the error's message. */
static char *answer_text(const gj_game *g, const char *body)
{
    long limits[GJ_MAX_LIMITS];
    game_default_limits(g, limits);
    gj_buf out;
    buf_init(&out);
    gj_error e;
    gj_error_clear(&e);
    if (line_analyze(g, body, strlen(body), limits, &out, &e) != 0) {
        out.len = 0;
        buf_puts(&out, "error: ");
        buf_puts(&out, e.message);
    }
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* ["moves"] holding one legal move of req's position: the corner farthest
 * from the token (farther than k, since k <= n - 2), any cell at the opening. */
static json_t *far_corner(const json_t *req, int n)
{
    const json_t *token = json_object_get(req, "token");
    json_int_t r = 1, c = 1;
    if (token != NULL) {
        r = json_integer_value(json_array_get(token, 0)) * 2 > n + 1 ? 1 : n;
        c = json_integer_value(json_array_get(token, 1)) * 2 > n + 1 ? 1 : n;
    }
    return json_pack("[[I, I]]", r, c);
}

/* The same requests through matrix-game's parsed position and through
 * the adapter over its JSON analyze() and play_move() (play_adapter.h's
 * game entry, the way every move of the line was made before):
 * byte-identical answers, whole afters and diffs, members in any order,
 * lines to the cycle and cut, moves to play first. */
START_TEST(parsed_as_adapted)
{
    gj_game adapted;
    ck_assert_int_eq(play_adapter_game(&game_matrix_game, &adapted), 0);
    static const char *const afters[] = {"full", "diff"};
    uint64_t rng = 33;
    for (int round = 0; round < 200; round++) {
        int n = 3 + (int)rng_below(&rng, 10);
        json_t *req = random_request(n, 1 + (long)rng_below(&rng, (uint64_t)n - 2),
                                     rng_below(&rng, 4) == 0, &rng);
        if (rng_below(&rng, 2) == 0) { /* the members in another order */
            json_t *k = json_incref(json_object_get(req, "k"));
            json_object_del(req, "k");
            json_object_set_new(req, "k", k);
        }
        if (rng_below(&rng, 4) == 0) /* a move to play first: a corner is one */
            json_object_set_new(req, "moves", far_corner(req, n));
        json_object_set_new(req, "line", json_boolean(rng_below(&rng, 5) != 0));
        if (json_is_true(json_object_get(req, "line")) && rng_below(&rng, 2) == 0)
            json_object_set_new(req, "max_line", json_integer(1 + (long)rng_below(&rng, 6)));
        json_object_set_new(req, "after", json_string(afters[rng_below(&rng, 2)]));
        if (rng_below(&rng, 3) == 0)
            json_object_set_new(req, "max_moves", json_integer(1 + (long)rng_below(&rng, 5)));
        char *body = json_dumps(req, JSON_COMPACT);
        char *want = answer_text(&adapted, body), *got = answer_text(game, body);
        size_t at = 0;
        while (got[at] != '\0' && got[at] == want[at])
            at++;
        ck_assert_msg(got[at] == want[at], "round %d: the answers part at byte %zu: %.80s | %.80s",
                      round, at, got + at, want + at);
        free(want);
        free(got);
        free(body);
        json_decref(req);
    }
}
END_TEST

static Suite *line_suite(void)
{
    const harness_case cases[] = {
        {"definition", line_is_its_definition},
        {"large", line_of_300_by_300},
        {"large whole", line_of_300_by_300_whole},
        {"adapter", parsed_as_adapted},
    };
    return harness_suite("line", cases, sizeof cases / sizeof cases[0], 300);
}

int main(void)
{
    return harness_main(line_suite());
}
