/* test_play.c - scripted games through POST /analyze: the engine against
 * the oracle, for every game (see play.h).
 *
 * For each game and many seeded small positions, the game is played to its
 * end twice, the engine moving first and then second.  At each engine turn
 * the daemon's `value` must equal the oracle's, and the engine's first
 * listed move must keep it: from a won position the opponent must be left
 * lost, and for staircase-chess the move's gain minus the opponent's best
 * margin afterwards must equal the value.  The oracle side plays a random
 * best move, so the engine meets varied but always perfect opposition. */
#include <check.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client.h"
#include "daemon.h"
#include "play.h"

/* Games per side and game; GJ_PLAY_GAMES overrides it (the contract run,
 * where every answer also passes the validating proxy, plays fewer). */
#define GAMES_PER_SIDE 100
#define MAX_PLIES      64

static test_daemon server;
static int engine_moves; /* engine turns played by the current test */

static void start_server(void)
{
    daemon_start(&server, NULL);
}

static void stop_server(void)
{
    ck_assert_int_eq(daemon_stop(&server), 0);
}

static json_t *analyze(const play_game *g, const void *state)
{
    char url[160], *body = g->request(state);
    ck_assert_ptr_nonnull(body);
    snprintf(url, sizeof url, "%s/analyze/%s", server.base, g->name);
    const char *const headers[] = {"Content-Type: application/json", NULL};
    http_call c = {"POST", url, headers, body, strlen(body), 0};
    http_reply r = http_do(&c);
    ck_assert_msg(r.status == 200, "%s: %ld for %s: %s", g->name, r.status, body, r.body);
    json_error_t err;
    json_t *answer = json_loadb(r.body, r.len, 0, &err);
    ck_assert_msg(answer != NULL, "%s: not JSON: %s", g->name, r.body);
    http_reply_free(&r);
    free(body);
    return answer;
}

static long answer_value(const play_game *g, const json_t *answer)
{
    const json_t *v = json_object_get(answer, "value");
    if (g->scored) {
        ck_assert_msg(json_is_integer(v), "%s: value is not an integer", g->name);
        return (long)json_integer_value(v);
    }
    const char *s = json_string_value(v);
    ck_assert_msg(s && (!strcmp(s, "win") || !strcmp(s, "lose")), "%s: bad value", g->name);
    return strcmp(s, "win") == 0;
}

/* One engine turn: check the value, play the first move, check it kept
 * the value. */
static void engine_turn(const play_game *g, void *state, unsigned seed, int ply)
{
    json_t *answer = analyze(g, state);
    long value = answer_value(g, answer), oracle = g->oracle_value(state);
    ck_assert_msg(value == oracle, "%s seed %u ply %d: engine says %ld, oracle %ld", g->name, seed,
                  ply, value, oracle);
    const json_t *moves = json_object_get(answer, "moves");
    ck_assert_msg(json_array_size(moves) > 0, "%s seed %u ply %d: no move listed but not over",
                  g->name, seed, ply);
    engine_moves++;
    long gain = g->apply(state, json_object_get(json_array_get(moves, 0), "move"));
    ck_assert_msg(gain >= 0, "%s seed %u ply %d: the engine's move is illegal", g->name, seed, ply);
    long after = g->oracle_value(state);
    if (g->scored)
        ck_assert_msg(gain - after == value,
                      "%s seed %u ply %d: the move gains %ld and leaves %ld, not %ld", g->name,
                      seed, ply, gain, after, value);
    else if (value == 1)
        ck_assert_msg(after == 0, "%s seed %u ply %d: the engine threw a won position away",
                      g->name, seed, ply);
    json_decref(answer);
}

static void play_one(const play_game *g, unsigned seed, int engine_first)
{
    void *state = g->start(seed);
    ck_assert_ptr_nonnull(state);
    unsigned rng = seed * 2654435761u + 1;
    for (int ply = 0; ply < MAX_PLIES && !g->over(state); ply++) {
        if ((ply % 2 == 0) == engine_first)
            engine_turn(g, state, seed, ply);
        else
            g->oracle_move(state, &rng);
    }
    /* The final position's value must agree too (a lost or finished game). */
    json_t *answer = analyze(g, state);
    ck_assert_int_eq(answer_value(g, answer), g->oracle_value(state));
    json_decref(answer);
    g->free_state(state);
}

static const play_game *const games[] = {
    &play_matrix_game,     &play_grid_walk,       &play_nim_shortcuts,
    &play_prime_chocolate, &play_staircase_chess,
};

START_TEST(test_engine_never_loses_a_won_position)
{
    const play_game *g = games[_i];
    const char *env = getenv("GJ_PLAY_GAMES");
    int per_side = env ? atoi(env) : GAMES_PER_SIDE;
    per_side = per_side > 0 ? per_side : GAMES_PER_SIDE;
    engine_moves = 0;
    for (unsigned seed = 1; seed <= (unsigned)per_side; seed++) {
        play_one(g, seed, 1);
        play_one(g, seed, 0);
    }
    /* Games that end at once would prove nothing. */
    fprintf(stderr, "play %s: %d engine moves in %d games\n", g->name, engine_moves, 2 * per_side);
    ck_assert_int_ge(engine_moves, 2 * per_side);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("play");
    TCase *tc = tcase_create("analyze");
    tcase_add_checked_fixture(tc, start_server, stop_server);
    tcase_set_timeout(tc, 300);
    tcase_add_loop_test(tc, test_engine_never_loses_a_won_position, 0,
                        (int)(sizeof games / sizeof games[0]));
    suite_add_tcase(s, tc);
    return run_suite(s);
}
