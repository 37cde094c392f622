/* test_puzzle_oracle.c - every puzzle served (puzzle.h) re-checked on small
 * sizes by the brute-force oracles of tests/oracle, which play the rules and
 * share nothing with the solvers.
 *
 * For each game, puzzles of depth 1 (and 2 where the game has them at these
 * sizes) are asked of puzzle_find for a fixed list of seeds; a GJ_UNMET
 * answer is counted and skipped, and most seeds must give a puzzle.  For
 * every step of every puzzle, the step's position is read into the test's
 * own model of the game and judged by the oracle alone:
 *   - the player to move wins (staircase-chess has no win to check: a
 *     puzzle there asks for the best final margin, whatever its sign, and a
 *     position given by profile does not carry the score so far);
 *   - exactly one legal move solves it (wins; staircase-chess: reaches the
 *     best margin), and it is the puzzle's moves[0];
 *   - the legal moves are as many as the step's `legal`, and the listed moves
 *     are exactly the legal ones, each once;
 *   - each listed move's loss, computed here from the oracle's verdict by
 *     engine.h's definition, is engine_losses' one;
 *   - after the solving move, the defender's reply is legal and loses
 *     (staircase-chess: reaches the defender's best margin, the first of its
 *     ranking), and the next step's position is the one the rules give after
 *     the two moves, the same player to move.
 * The difficulty is recomputed from the rules: each game's greedy measure
 * (its row's `look`, written here or in tests/oracle from the rules, never
 * calling the game) gives how every legal move looks one and two plies
 * ahead, puzzle.h's finder turns those into each step's miss chance, and
 * the puzzle's miss, difficulty (on the game's scale) and rating must be
 * the puzzle's; the `trap` theme must hold exactly when the greedy move is
 * another, `long` exactly from depth 3.  Every id rebuilds a
 * byte-identical puzzle; an id with one character of its data changed is a
 * bad_input naming "id", and an id of another game is not_found.
 *
 * The games' models, oracles and measures are theirs (game_rules.h: one
 * tests/oracle/<ident>_rules.c each); the table is games.def's, so
 * this file names no game.
 *
 * Not checked: remoteness (issue 23 item 1) is not on main yet; when /analyze
 * answers it, the oracles should check it here too. */
#include <check.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "game_rules.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "puzzle_write.h"

#define DEPTH1_SEEDS 40
#define LOSS_MAX     16 /* engine.h: a wrong outcome's loss */

/* Every game's rules (game_rules.h), games.def's order. */
static const game_rules *const *games;
static size_t ngames;

/* Release the moves a verdict holds. */
static void verdict_free(rules_verdict *v)
{
    for (long i = 0; i < v->n; i++)
        json_decref(v->move[i]);
    v->n = 0;
}

/* The index in v of the move equal to `move`, or -1. */
static long verdict_find(const rules_verdict *v, const json_t *move)
{
    for (long i = 0; i < v->n; i++)
        if (json_equal(v->move[i], (json_t *)move))
            return i;
    return -1;
}

/* A zeroed state of r's game, to free. */
static void *state_new(const game_rules *r)
{
    void *s = calloc(1, r->state_size);
    EXPECT(s != NULL, "out of memory");
    return s;
}

/* The name of the player to move in a state: its first member. */
static const char *mover(const void *s)
{
    return s;
}

/* The position read into the zeroed state s by the game's rules. */
static void read_state(const game_rules *r, const json_t *position, void *s)
{
    memset(s, 0, r->state_size);
    EXPECT(json_is_object(position), "a step's position is not an object");
    r->read(position, s);
}

/* ---- the checks of one puzzle ------------------------------------------ */

/* The limits puzzle_find and puzzle_from_id run under: the game's defaults
 * and a budget ceiling generous enough for a sanitizer build on a loaded
 * machine. */
static void puzzle_limits(const gj_game *g, long limits[GEN_NLIMITS])
{
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
}

/* The finder's chance to miss moves[0] among n moves whose values at one
 * and two plies are v1 and v2 (puzzle.h), and the greedy move's index
 * (-1 on a tie) into *greedy: written again from puzzle.h's words. */
static double finder_miss(const double *v1, const double *v2, long n, long *greedy)
{
    double found = 0;
    for (int k = 0; k < 2; k++) {
        const double *v = k == 0 ? v1 : v2;
        double best = v[0];
        for (long i = 1; i < n; i++)
            best = v[i] > best ? v[i] : best;
        long at_best = 0, top = -1;
        double all = 0;
        for (long i = 0; i < n; i++) {
            double gap = 1 + PUZZLE_FINDER_FOCUS * (best - v[i]);
            all += 1 / (gap * gap);
            if (v[i] == best) {
                at_best++;
                top = i;
            }
        }
        if (k == 0)
            *greedy = at_best == 1 ? top : -1;
        double own = 1 + PUZZLE_FINDER_FOCUS * (best - v[0]);
        found += 1 / (own * own) / all;
    }
    return 1 - found / 2;
}

/* Step i of p against the oracle's verdict v on state s (see the header):
 * the one solving move, the legal moves, their losses, and the finder's
 * miss and greedy move from the game's measure by the rules.  `what`
 * names the puzzle in messages. */
static void check_step(const game_rules *r, const puzzle *p, int i, const void *s,
                       const rules_verdict *v, const char *what)
{
    const puzzle_step *st = &p->steps[i];
    long n = st->legal;
    json_t *moves = json_array();
    for (long j = 0; j < n; j++)
        json_array_append_new(moves, harness_step_entry(st, j));
    if (!r->scored)
        EXPECT(v->best == 1, "%s step %d: the oracle says the player to move loses", what, i);
    long best_count = 0, best_at = -1;
    for (long j = 0; j < v->n; j++)
        if (v->score[j] == v->best) {
            best_count++;
            best_at = j;
        }
    EXPECT(best_count == 1, "%s step %d: the oracle finds %ld solving moves", what, i, best_count);
    const json_t *solving = json_object_get(json_array_get(moves, 0), "move");
    EXPECT(json_equal(v->move[best_at], (json_t *)solving),
           "%s step %d: the puzzle's solving move is not the oracle's", what, i);
    EXPECT(st->legal == v->n, "%s step %d: legal %ld, the oracle counts %ld", what, i, st->legal,
           v->n);
    EXPECT(n == v->n, "%s step %d: %ld moves listed of %ld legal", what, i, n, v->n);
    unsigned char seen[PUZZLE_MAX_MOVES] = {0};
    int *want = malloc((size_t)n * sizeof *want);
    EXPECT(want != NULL, "out of memory");
    for (long j = 0; j < n; j++) {
        long at = verdict_find(v, json_object_get(json_array_get(moves, (size_t)j), "move"));
        EXPECT(at >= 0, "%s step %d: listed move %ld is not legal", what, i, j);
        EXPECT(!seen[at], "%s step %d: listed move %ld is listed twice", what, i, j);
        seen[at] = 1;
        /* engine.h's loss, from the oracle's verdict rather than the
         * analysis' words. */
        long gap = v->best - v->score[at], span = v->best - v->worst;
        want[j] = !r->scored  ? (gap == 0 ? 0 : LOSS_MAX)
                  : span == 0 ? 0
                              : (int)((LOSS_MAX * gap + span - 1) / span);
    }
    /* The losses the engine's levels weigh moves by (levels.h rates the
     * level against these puzzles). */
    int *q = engine_losses(st->moves, n);
    EXPECT(q != NULL, "out of memory");
    for (long j = 0; j < n; j++)
        EXPECT(q[j] == want[j], "%s step %d: move %ld's loss is %d, the oracle's %d", what, i, j,
               q[j], want[j]);
    free(q);
    double *v1 = malloc((size_t)n * sizeof *v1), *v2 = malloc((size_t)n * sizeof *v2);
    EXPECT(v1 != NULL && v2 != NULL, "out of memory");
    for (long j = 0; j < n; j++) {
        const json_t *move = json_object_get(json_array_get(moves, (size_t)j), "move");
        v1[j] = r->look != NULL ? r->look(s, move, 1) : 0;
        v2[j] = r->look != NULL ? r->look(s, move, 2) : 0;
        EXPECT(v1[j] >= -1 && v1[j] <= 1 && v2[j] >= -1 && v2[j] <= 1,
               "%s step %d: move %ld looks %g and %g, outside [-1, 1]", what, i, j, v1[j], v2[j]);
    }
    long greedy;
    double miss = finder_miss(v1, v2, n, &greedy);
    EXPECT(fabs(miss - st->miss) <= 1e-9,
           "%s step %d: the finder misses with %.12f, the puzzle "
           "says %.12f",
           what, i, miss, st->miss);
    EXPECT(greedy == st->greedy, "%s step %d: the greedy move is %ld, the puzzle says %ld", what, i,
           greedy, st->greedy);
    EXPECT(json_equal(st->solving, json_array_get(moves, 0)),
           "%s step %d: the solving entry is not the first ranked", what, i);
    free(v1);
    free(v2);
    free(want);
    json_decref(moves);
}

/* From step i's state s, the solving move and the defender's reply: both
 * legal, the reply losing (staircase-chess: the defender's best), and step
 * i + 1's position the one they reach. */
static void check_reply(const game_rules *r, const puzzle *p, int i, const void *s,
                        const char *what)
{
    const json_t *reply = p->steps[i].reply;
    EXPECT(reply != NULL, "%s step %d: no defender's reply before step %d", what, i, i + 1);
    void *next = state_new(r), *got = state_new(r);
    memcpy(next, s, r->state_size);
    r->play(next, json_object_get(p->steps[i].solving, "move"));
    rules_verdict d = {0};
    r->judge(next, &d);
    long at = verdict_find(&d, json_object_get(reply, "move"));
    EXPECT(at >= 0, "%s step %d: the defender's reply is not a legal move", what, i);
    if (r->scored)
        EXPECT(d.score[at] == d.best, "%s step %d: the reply scores %ld, the defender's best %ld",
               what, i, d.score[at], d.best);
    else
        EXPECT(d.best == 0 && d.score[at] == 0,
               "%s step %d: the defender's position or reply wins, by the oracle", what, i);
    verdict_free(&d);
    r->play(next, json_object_get(reply, "move"));
    read_state(r, p->steps[i + 1].position, got);
    EXPECT(memcmp(got, next, r->state_size) == 0,
           "%s step %d: the position is not the one the two moves before it reach", what, i + 1);
    EXPECT(strcmp(mover(got), mover(s)) == 0, "%s step %d: %s to move, the attacker is %s", what,
           i + 1, mover(got), mover(s));
    free(next);
    free(got);
}

/* puzzle_write's bytes of p, as a malloc'd string. */
static char *written(const puzzle *p)
{
    gj_buf b;
    buf_init(&b);
    puzzle_write(p, &b);
    buf_putc(&b, '\0');
    EXPECT(!b.failed, "out of memory");
    return buf_take(&b, NULL);
}

/* Whether steps a and b rank the same moves, each written the same. */
static int same_moves(const puzzle_step *a, const puzzle_step *b)
{
    int same = a->legal == b->legal && json_equal(a->solving, b->solving);
    for (long j = 0; same && j < a->legal; j++) {
        json_t *x = harness_step_entry(a, j), *y = harness_step_entry(b, j);
        same = json_equal(x, y) && a->moves[j].wins == b->moves[j].wins &&
               a->moves[j].score == b->moves[j].score &&
               a->moves[j].remoteness == b->moves[j].remoteness;
        json_decref(x);
        json_decref(y);
    }
    return same;
}

/* p rebuilt from its id: the same bytes written and the same line. */
static void check_id(const game_rules *r, const puzzle *p, const char *what)
{
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    puzzle again;
    gj_error e;
    gj_error_clear(&e);
    EXPECT(puzzle_from_id(r->game, p->id, limits, &again, &e) == 0, "%s: its id fails: %s", what,
           e.message);
    char *one = written(p), *two = written(&again);
    EXPECT(strcmp(one, two) == 0, "%s: rebuilt from its id it writes\n%s\nnot\n%s", what, two, one);
    EXPECT(again.depth == p->depth, "%s: rebuilt at another depth", what);
    for (int i = 0; i < p->depth; i++)
        EXPECT(
            json_equal(again.steps[i].position, p->steps[i].position) &&
                same_moves(&again.steps[i], &p->steps[i]) &&
                (p->steps[i].reply == NULL) == (again.steps[i].reply == NULL) &&
                (p->steps[i].reply == NULL || json_equal(again.steps[i].reply, p->steps[i].reply)),
            "%s: step %d rebuilt from the id differs", what, i);
    free(one);
    free(two);
    puzzle_free(&again);
}

/* puzzle.h's scale for g at depth, from its words: straight lines through
 * (0, 0), the ten points at 0.05, 0.15, ..., 0.95 and (1, 1); the miss
 * itself where the game has no scale. */
static double on_scale(const gj_game *g, int depth, double miss)
{
    const double *x = g->puzzle_scale[depth - 1];
    if (x[GJ_SCALE_POINTS - 1] == 0)
        return miss;
    double x0 = 0, y0 = 0;
    for (int i = 0; i <= GJ_SCALE_POINTS; i++) {
        double x1 = i < GJ_SCALE_POINTS ? x[i] : 1, y1 = i < GJ_SCALE_POINTS ? 0.05 + 0.1 * i : 1;
        if (miss <= x1)
            return x1 > x0 ? y0 + (y1 - y0) * (miss - x0) / (x1 - x0) : y1;
        x0 = x1;
        y0 = y1;
    }
    return 1;
}

/* The bit of theme `name` in g's vocabulary. */
static int theme_at(const gj_game *g, const char *name)
{
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (strcmp(puzzle_theme_at(g, i)->name, name) == 0)
            return i;
    ck_abort_msg("no theme %s", name);
    return -1;
}

/* Every check of the header on one puzzle. */
static void check_puzzle(const game_rules *r, const puzzle *p, const char *what)
{
    EXPECT(p->game == r->game && p->depth >= 1 && p->depth <= PUZZLE_DEPTH_MAX,
           "%s: a puzzle of the wrong game or depth", what);
    double solved = 1;
    bool trap = false;
    for (int i = 0; i < p->depth; i++) {
        void *s = state_new(r);
        read_state(r, p->steps[i].position, s);
        if (i == 0)
            EXPECT(json_is_string(p->to_move) &&
                       strcmp(json_string_value(p->to_move), mover(s)) == 0,
                   "%s: to_move is not the player to move, %s", what, mover(s));
        rules_verdict v = {0};
        r->judge(s, &v);
        check_step(r, p, i, s, &v, what);
        verdict_free(&v);
        if (i + 1 < p->depth)
            check_reply(r, p, i, s, what);
        else
            EXPECT(p->steps[i].reply == NULL, "%s: a reply after the last step", what);
        free(s);
        solved *= 1 - p->steps[i].miss;
        trap = trap || p->steps[i].greedy > 0;
    }
    for (int i = p->depth; i < PUZZLE_DEPTH_MAX; i++)
        EXPECT(p->steps[i].position == NULL, "%s: a step past the depth", what);
    EXPECT(fabs(p->miss - (1 - solved)) <= 1e-12,
           "%s: miss %.15f, 1 - the product of the "
           "steps' is %.15f",
           what, p->miss, 1 - solved);
    /* Served with four decimals, the value the filter and the band judge. */
    double want = on_scale(r->game, p->depth, p->miss);
    EXPECT(p->difficulty > want - 0.00005 - 1e-12 && p->difficulty < want + 0.00005 + 1e-12,
           "%s: difficulty %.15f, the miss on the scale is %.15f", what, p->difficulty, want);
    EXPECT(p->rating == (int)(700 + 1700 * p->difficulty + 200 * (p->depth - 1) + 0.5),
           "%s: rating %d for difficulty %.4f", what, p->rating, p->difficulty);
    EXPECT((p->themes >> theme_at(r->game, "trap") & 1) == trap, "%s: trap is %s", what,
           trap ? "missing" : "there without a greedy move that fails");
    EXPECT((p->themes >> theme_at(r->game, "long") & 1) == (p->depth >= 3), "%s: long is wrong",
           what);
    check_id(r, p, what);
}

/* The most candidates one seed's search tries. */
#define ORACLE_TRIES 200

/* The seed of puzzle j of a run: fixed, and spread over the seed range. */
static long long seed_of(int depth, int j)
{
    return (long long)(((uint64_t)depth * 1000003u + (uint64_t)j) * 2654435761u % 1000000007u);
}

/* r's puzzle of `seed` and `depth` into *p: 1 when found, 0 when
 * puzzle_find answers GJ_UNMET; any other error fails the test.  The search
 * is bounded by ORACLE_TRIES candidates, not by time, so which seeds give a
 * puzzle is the same on a loaded machine. */
static int find(const game_rules *r, long long seed, int depth, puzzle *p)
{
    json_t *params = json_loads(r->knobs, 0, NULL);
    EXPECT(params != NULL, "bad knobs %s", r->knobs);
    json_object_set_new(params, "seed", json_integer(seed));
    json_object_set_new(params, "depth", json_integer(depth));
    json_object_set_new(params, "tries", json_integer(ORACLE_TRIES));
    json_object_set_new(params, "budget_ms", json_integer(60000));
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    bool seeded = false;
    gj_error e;
    gj_error_clear(&e);
    int rc = puzzle_find(r->game, params, limits, p, &seeded, &e);
    json_decref(params);
    EXPECT(rc == 0 || e.kind == GJ_UNMET, "%s seed %lld depth %d: %s", r->game->name, seed, depth,
           e.message);
    EXPECT(rc != 0 || seeded, "%s: a seed given is not seeded", r->game->name);
    return rc == 0;
}

/* Depth `depth` puzzles of r for `count` seeds, each checked; most seeds
 * must give one.  Prints the counts. */
static void check_seeds(const game_rules *r, int depth, int count)
{
    int found = 0;
    for (int j = 0; j < count; j++) {
        puzzle p;
        long long seed = seed_of(depth, j);
        if (!find(r, seed, depth, &p))
            continue;
        found++;
        char what[160];
        snprintf(what, sizeof what, "%s seed %lld depth %d (id %.100s)", r->game->name, seed, depth,
                 p.id);
        check_puzzle(r, &p, what);
        puzzle_free(&p);
    }
    printf("%s: depth %d: %d puzzles checked, %d unmet\n", r->game->name, depth, found,
           count - found);
    EXPECT(found * 4 >= count * 3, "%s: only %d of %d seeds gave a depth-%d puzzle", r->game->name,
           found, count, depth);
}

/* ---- the tests --------------------------------------------------------- */

/* Game _i's puzzles of depth 1, and 2 where it has them, against the oracle. */
START_TEST(test_served_puzzles_agree_with_the_oracle)
{
    const game_rules *r = games[_i];
    check_seeds(r, 1, DEPTH1_SEEDS);
    if (r->depth2 > 0)
        check_seeds(r, 2, r->depth2);
}
END_TEST

/* The same checks over MANY_DEPTH1 puzzles of depth 1 and MANY_DEPTH2 of
 * depth 2 (where the game has them) of every game: thousands of puzzles,
 * so tagged large and left to make check. */
#define MANY_DEPTH1 1000
#define MANY_DEPTH2 200
START_TEST(test_many_puzzles_agree_with_the_oracle)
{
    for (size_t g = 0; g < ngames; g++) {
        check_seeds(games[g], 1, MANY_DEPTH1);
        if (games[g]->depth2 > 0)
            check_seeds(games[g], 2, MANY_DEPTH2);
    }
}
END_TEST

/* Each character of the data part of game _i's id (seed 7) changed, twice:
 * to another base64url letter and to one outside the alphabet. */
START_TEST(test_a_changed_id_is_bad_input)
{
    const game_rules *r = games[_i];
    puzzle p;
    EXPECT(find(r, 7, 1, &p), "%s: seed 7 gives no puzzle", r->game->name);
    const char *first = strchr(p.id, '.'), *last = strrchr(p.id, '.');
    ck_assert(first != NULL && last > first + 1);
    long limits[GEN_NLIMITS];
    puzzle_limits(r->game, limits);
    int tried = 0;
    for (const char *c = first + 1; c < last; c++) {
        for (int way = 0; way < 2; way++) {
            char id[PUZZLE_ID_MAX];
            snprintf(id, sizeof id, "%s", p.id);
            size_t at = (size_t)(c - p.id);
            id[at] = way == 1 ? '*' : id[at] == 'A' ? 'B' : 'A';
            puzzle q;
            gj_error e;
            gj_error_clear(&e);
            int rc = puzzle_from_id(r->game, id, limits, &q, &e);
            if (rc == 0)
                puzzle_free(&q);
            EXPECT(rc != 0 && e.kind == GJ_BAD_INPUT && strcmp(e.field, "id") == 0,
                   "%s: id %s (character %zu changed) gives rc %d, kind %d, field '%s'",
                   r->game->name, id, at, rc, (int)e.kind, e.field);
            tried++;
        }
    }
    ck_assert_int_gt(tried, 20);
    puzzle_free(&p);
}
END_TEST

/* Game _i's id asked of every other game: not_found, naming "id". */
START_TEST(test_another_game_s_id_is_not_found)
{
    const game_rules *r = games[_i];
    puzzle p;
    EXPECT(find(r, 7, 1, &p), "%s: seed 7 gives no puzzle", r->game->name);
    for (size_t o = 0; o < ngames; o++) {
        if (games[o]->game == r->game)
            continue;
        long limits[GEN_NLIMITS];
        puzzle_limits(games[o]->game, limits);
        puzzle q;
        gj_error e;
        gj_error_clear(&e);
        int rc = puzzle_from_id(games[o]->game, p.id, limits, &q, &e);
        if (rc == 0)
            puzzle_free(&q);
        EXPECT(rc != 0 && e.kind == GJ_NOT_FOUND && strcmp(e.field, "id") == 0,
               "%s's id asked of %s: rc %d, kind %d, field '%s'", r->game->name,
               games[o]->game->name, rc, (int)e.kind, e.field);
    }
    puzzle_free(&p);
}
END_TEST

/* One loop test per game for each of the three checks. */
int main(void)
{
    games = game_rules_all(&ngames);
    int n = (int)ngames;
    Suite *s = suite_create("puzzle_oracle");
    harness_add_loop(s, "oracle", test_served_puzzles_agree_with_the_oracle, n, 120);
    harness_add_loop(s, "bad id", test_a_changed_id_is_bad_input, n, 60);
    harness_add_loop(s, "foreign id", test_another_game_s_id_is_not_found, n, 60);
    const harness_case large[] = {{"many puzzles", test_many_puzzles_agree_with_the_oracle}};
    harness_add_tagged(s, large, sizeof large / sizeof large[0], 1800, HARNESS_LARGE);
    return harness_main(s);
}
