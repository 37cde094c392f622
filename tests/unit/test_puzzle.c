/* test_puzzle.c - the puzzles (puzzle.h) through their C interface, for
 * every game of games.def: what a puzzle promises (one solving move at each
 * step and the defender's replies on the game's own analysis, at least
 * min_moves legal moves, the asked band and depth), ids that rebuild the
 * same puzzle and refuse a changed or foreign one, the daily puzzle's
 * calendar, the check of a visitor's moves (solved, failed with the
 * solution, illegal at an index), and base64url.  The brute-force oracles
 * re-check the puzzles in test_puzzle_oracle.c. */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "analysis_call.h"
#include "b64url.h"
#include "engine.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "puzzle_check.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "puzzle_write.h"

/* The i-th game of games.def. */
static const gj_game *game_at(int i)
{
    size_t n;
    const gj_game *const *all = games_all(&n);
    ck_assert_int_lt(i, (int)n);
    return all[i];
}

/* g's default limits and a generation ceiling of `ceiling` ms. */
static void limits_of(const gj_game *g, long limits[GEN_NLIMITS], long ceiling)
{
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = ceiling;
}

/* puzzle_find on the JSON text `params`: 0, or -1 with *e. */
static int find(const gj_game *g, const char *params, puzzle *p, gj_error *e)
{
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 60000);
    json_t *o = json_loads(params, 0, NULL);
    ck_assert_ptr_nonnull(o);
    bool seeded;
    gj_error_clear(e);
    int rc = puzzle_find(g, o, limits, p, &seeded, e);
    ck_assert_int_eq(seeded, json_object_get(o, "seed") != NULL);
    json_decref(o);
    return rc;
}

/* puzzle_write's text of p (malloc'd). */
static char *written(const puzzle *p)
{
    gj_buf b;
    buf_init(&b);
    puzzle_write(p, &b);
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    size_t len;
    return buf_take(&b, &len);
}

/* The check of `body` against p: the parsed answer, or NULL with *e. */
static json_t *checked(const puzzle *p, const char *body, gj_error *e)
{
    gj_buf b;
    buf_init(&b);
    gj_error_clear(e);
    if (puzzle_check(p, body, strlen(body), &b, e) != 0) {
        buf_free(&b);
        return NULL;
    }
    json_t *a = json_loadb(b.data, b.len, 0, NULL);
    buf_free(&b);
    ck_assert_ptr_nonnull(a);
    return a;
}

/* The solving move of step i, as JSON text (malloc'd). */
static char *solution_text(const puzzle *p, int i)
{
    return json_dumps(json_object_get(p->steps[i].solving, "move"), JSON_COMPACT | JSON_ENCODE_ANY);
}

/* puzzle.h's scale, written from its definition: (0, 0), the game's ten
 * points at 0.05 .. 0.95, (1, 1), straight lines between; the miss itself
 * for a game without a scale. */
static double scaled(const gj_game *g, int depth, double miss)
{
    const double *x = g->puzzle_scale[depth - 1];
    if (x[GJ_SCALE_POINTS - 1] == 0)
        return miss;
    double px[GJ_SCALE_POINTS + 2], py[GJ_SCALE_POINTS + 2];
    px[0] = py[0] = 0;
    for (int i = 0; i < GJ_SCALE_POINTS; i++) {
        px[i + 1] = x[i];
        py[i + 1] = 0.05 + 0.1 * i;
    }
    px[GJ_SCALE_POINTS + 1] = py[GJ_SCALE_POINTS + 1] = 1;
    for (int i = 1; i < GJ_SCALE_POINTS + 2; i++)
        if (miss <= px[i])
            return px[i] > px[i - 1]
                       ? py[i - 1] + (py[i] - py[i - 1]) * (miss - px[i - 1]) / (px[i] - px[i - 1])
                       : py[i];
    return 1;
}

/* Every step of p again on the game's own analysis: one solving move, it
 * comes first, the position after it and the reply is the next step's. */
static void check_line(const gj_game *g, const puzzle *p)
{
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 5000);
    double solved = 1;
    for (int i = 0; i < p->depth; i++) {
        const puzzle_step *s = &p->steps[i];
        gj_error e;
        json_t *a = analysis_call(g, s->position, ANALYSIS_MAX_MOVES_LIMIT, limits, &e);
        ck_assert_msg(a != NULL, "%s: %s", g->name, e.message);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "winning_moves")), 1);
        ck_assert_int_eq(json_integer_value(json_object_get(a, "moves_total")), s->legal);
        /* Every move ranked as the analysis lists it, the first one written. */
        const json_t *list = json_object_get(a, "moves");
        ck_assert_int_eq(json_array_size(list), s->legal);
        for (long j = 0; j < s->legal; j++) {
            json_t *entry = harness_step_entry(s, j);
            ck_assert_msg(json_equal(entry, json_array_get(list, (size_t)j)),
                          "%s: step %d's move %ld is not the analysis'", g->name, i, j);
            json_decref(entry);
        }
        ck_assert(json_equal(s->solving, json_array_get(list, 0)));
        ck_assert_int_ge(s->legal, i == 0 ? p->min_moves : 2);
        solved *= 1 - s->miss;
        ck_assert(s->miss >= 0 && s->miss < 1);
        ck_assert(s->greedy >= -1 && s->greedy < s->legal);
        json_decref(a);
        ck_assert((s->reply != NULL) == (i + 1 < p->depth));
        if (s->reply == NULL)
            continue;
        /* The next position: the solution, then the reply, played here. */
        json_t *next = json_deep_copy(s->position);
        ck_assert_int_eq(g->play_move(next, s->solving, &e), 0);
        json_t *d = analysis_call(g, next, 1, limits, &e);
        ck_assert_ptr_nonnull(d);
        ck_assert(json_equal(json_array_get(json_object_get(d, "moves"), 0), s->reply));
        json_decref(d);
        ck_assert_int_eq(g->play_move(next, s->reply, &e), 0);
        json_object_del(next, "max_moves");
        json_t *want = json_deep_copy(p->steps[i + 1].position);
        json_object_del(want, "max_moves");
        ck_assert_msg(json_equal(next, want), "%s: step %d's position is not the line's", g->name,
                      i + 1);
        json_decref(next);
        json_decref(want);
    }
    ck_assert(fabs(p->miss - (1 - solved)) <= 1e-12);
    /* The difficulty as served: the miss on the game's scale, four decimals. */
    ck_assert_msg(fabs(p->difficulty - scaled(g, p->depth, p->miss)) <= 0.00005 + 1e-12,
                  "%s: difficulty %.4f for a miss of %.6f", g->name, p->difficulty, p->miss);
    ck_assert_int_eq(p->rating, (int)(700 + 1700 * p->difficulty + 200 * (p->depth - 1) + 0.5));
    ck_assert(p->rating >= 600 && p->rating <= 2800);
}

/* Depth 1 and 2 puzzles of each game, seeds 0..11: the line holds, the id
 * rebuilds the same bytes, and a seed gives the same puzzle twice. */
START_TEST(test_puzzles_hold)
{
    const gj_game *g = game_at(_i);
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 5000);
    int made = 0;
    int deepest = puzzle_depth_max(g) < 2 ? puzzle_depth_max(g) : 2;
    for (int depth = 1; depth <= deepest; depth++) {
        for (int seed = 0; seed < 12; seed++) {
            char params[96];
            /* Bounded by a count, with time to spare: the same puzzles on
             * a loaded machine (a slow one is a 503, failing the test). */
            snprintf(params, sizeof params,
                     "{\"seed\": %d, \"depth\": %d, \"tries\": 200, \"budget_ms\": 60000}", seed,
                     depth);
            puzzle p, q, again;
            gj_error e;
            if (find(g, params, &p, &e) != 0) {
                ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, params, e.message);
                continue;
            }
            made++;
            ck_assert_int_eq(p.depth, depth);
            check_line(g, &p);
            char *text = written(&p);
            ck_assert_int_eq(puzzle_from_id(g, p.id, limits, &q, &e), 0);
            char *rebuilt = written(&q);
            ck_assert_str_eq(rebuilt, text);
            ck_assert_int_eq(find(g, params, &again, &e), 0);
            ck_assert_str_eq(again.id, p.id);
            /* No solution in what a visitor is shown. */
            for (int i = 0; i < depth; i++) {
                char *sol = solution_text(&p, i);
                json_t *shown = json_loads(text, 0, NULL);
                ck_assert_int_eq(json_object_size(shown), 11);
                ck_assert_ptr_null(json_object_get(shown, "solution"));
                ck_assert_ptr_null(json_object_get(shown, "moves"));
                json_decref(shown);
                free(sol);
            }
            free(text);
            free(rebuilt);
            puzzle_free(&p);
            puzzle_free(&q);
            puzzle_free(&again);
        }
    }
    /* Every game has depth-1 puzzles at its default size. */
    ck_assert_msg(made >= 12, "%s: only %d puzzles of 24", g->name, made);
}
END_TEST

/* A band asked for is met, or the search says which constraint failed. */
START_TEST(test_bands_met)
{
    const gj_game *g = game_at(_i);
    static const char *const bands[] = {"easy", "medium", "hard"};
    int met = 0;
    for (int b = 0; b < 3; b++) {
        for (int depth = 1; depth <= 2 && depth <= puzzle_depth_max(g); depth++) {
            char params[128];
            snprintf(params, sizeof params,
                     "{\"seed\": 5, \"band\": \"%s\", \"depth\": %d, \"tries\": 100, "
                     "\"budget_ms\": 60000}",
                     bands[b], depth);
            puzzle p;
            gj_error e;
            if (find(g, params, &p, &e) != 0) {
                ck_assert_msg(e.kind == GJ_UNMET, "%s", e.message);
                ck_assert_msg(strcmp(e.field, "band") == 0 || strcmp(e.field, "depth") == 0, "%s",
                              e.message);
                ck_assert_msg(strstr(e.message, "within tries 100 (100 candidates") != NULL, "%s",
                              e.message);
                continue;
            }
            met++;
            ck_assert_str_eq(puzzle_band(p.difficulty), bands[b]);
            puzzle_free(&p);
        }
    }
    /* Every game reaches two bands at its default size within depth 2. */
    ck_assert_msg(met >= 2, "%s: %d of 6 band and depth requests met", g->name, met);
}
END_TEST

/* With tries the outcome hangs on the parameters alone: the same seeded
 * request answers the same whether its budget is the default or a minute,
 * and one that finds nothing says so after exactly `tries` candidates. */
START_TEST(test_tries_decide)
{
    const gj_game *g = game_at(_i);
    static const struct {
        const char *params; /* %s: the budget, or nothing for the default */
        long tries;
    } asks[] = {
        {"{\"seed\": 9, \"depth\": 2, \"band\": \"hard\", \"tries\": 40%s}", 40},
        {"{\"seed\": 9, \"depth\": 1, \"band\": \"easy\", \"tries\": 40%s}", 40},
        {"{\"seed\": 9, \"depth\": 2, \"difficulty_min\": 0.5, \"tries\": 7%s}", 7},
    };
    for (size_t k = 0; k < sizeof asks / sizeof asks[0]; k++) {
        if (puzzle_depth_max(g) < 2 && strstr(asks[k].params, "\"depth\": 2") != NULL)
            continue; /* no such puzzle (test_deeper_than_the_rules) */
        char quick[160], slow[160];
        snprintf(quick, sizeof quick, asks[k].params, "");
        snprintf(slow, sizeof slow, asks[k].params, ", \"budget_ms\": 60000");
        puzzle a, b;
        gj_error ea, eb;
        int ra = find(g, quick, &a, &ea);
        int rb = find(g, slow, &b, &eb);
        ck_assert_msg(rb == 0 || eb.kind == GJ_UNMET, "%s %s: %s", g->name, slow, eb.message);
        /* The default budget may run out on a slow machine: then the
         * answer is "retry", never another outcome. */
        bool late = ra != 0 && ea.kind == GJ_OVERLOADED;
        ck_assert_msg(late || ra == rb, "%s %s: %d with the default budget, %d with a minute",
                      g->name, quick, ra, rb);
        if (late)
            ck_assert_msg(strstr(ea.message, "retry") != NULL, "%s", ea.message);
        if (rb == 0 && ra == 0)
            ck_assert_str_eq(a.id, b.id);
        if (rb != 0) {
            char count[64];
            snprintf(count, sizeof count, "within tries %ld (%ld candidates", asks[k].tries,
                     asks[k].tries);
            ck_assert_msg(strstr(eb.message, count) != NULL, "%s: %s", g->name, eb.message);
            if (!late)
                ck_assert_str_eq(ea.message, eb.message);
        }
        if (ra == 0)
            puzzle_free(&a);
        if (rb == 0)
            puzzle_free(&b);
    }
}
END_TEST

/* A difficulty range; both a band and a range is refused. */
START_TEST(test_difficulty_range)
{
    const gj_game *g = game_at(0);
    puzzle p;
    gj_error e;
    ck_assert_int_eq(
        find(g, "{\"seed\": 3, \"difficulty_min\": 0.25, \"difficulty_max\": 0.4}", &p, &e), 0);
    ck_assert(p.difficulty >= 0.25 && p.difficulty < 0.4);
    puzzle_free(&p);
    ck_assert_int_ne(find(g, "{\"band\": \"hard\", \"difficulty_min\": 0.4}", &p, &e), 0);
    ck_assert_str_eq(e.field, "band");
    ck_assert_int_ne(find(g, "{\"difficulty_min\": 0.7, \"difficulty_max\": 0.6}", &p, &e), 0);
    ck_assert_str_eq(e.field, "difficulty_min");
    ck_assert_int_ne(find(g, "{\"difficulty_max\": 1.5}", &p, &e), 0);
    ck_assert_str_eq(e.field, "difficulty_max");
}
END_TEST

/* Every band at every depth the game lists (puzzle_themes.h, as /games
 * shows it) is served for the fixed seeds 1..SERVED_SEEDS: some seed
 * finds one within SERVED_TRIES candidates, and it is of that band and
 * depth. */
#define SERVED_SEEDS 3
#define SERVED_TRIES 300
START_TEST(test_listed_is_served)
{
    const gj_game *g = game_at(_i);
    static const char *const bands[] = {"easy", "medium", "hard"};
    for (int depth = 1; depth <= puzzle_depth_max(g); depth++)
        for (int b = 0; b < 3; b++) {
            bool served = false;
            char last[sizeof((gj_error *)0)->message] = "";
            for (int seed = 1; seed <= SERVED_SEEDS && !served; seed++) {
                char params[160];
                snprintf(params, sizeof params,
                         "{\"seed\": %d, \"band\": \"%s\", \"depth\": %d, \"tries\": %d, "
                         "\"budget_ms\": 60000}",
                         seed, bands[b], depth, SERVED_TRIES);
                puzzle p;
                gj_error e;
                if (find(g, params, &p, &e) != 0) {
                    ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, params, e.message);
                    snprintf(last, sizeof last, "%s", e.message);
                    continue;
                }
                served = true;
                ck_assert_int_eq(p.depth, depth);
                ck_assert_str_eq(puzzle_band(p.difficulty), bands[b]);
                puzzle_free(&p);
            }
            ck_assert_msg(served, "%s lists depth %d, but no %s puzzle for seeds 1..%d: %s",
                          g->name, depth, bands[b], SERVED_SEEDS, last);
        }
}
END_TEST

/* theme: every puzzle found carries every theme asked, a name of no
 * puzzle of the game or one the depth rules out is refused naming
 * "theme", and a theme no candidate has within tries is GJ_UNMET naming
 * it. */
START_TEST(test_themes)
{
    const gj_game *g = game_at(_i);
    int found = 0;
    for (int t = 0; puzzle_theme_at(g, t) != NULL; t++) {
        const char *name = puzzle_theme_at(g, t)->name;
        int depth = strcmp(name, "long") == 0 ? 3 : 1;
        char params[160];
        snprintf(params, sizeof params,
                 "{\"seed\": 4, \"depth\": %d, \"theme\": \"%s\", \"tries\": 60, "
                 "\"budget_ms\": 60000}",
                 depth, name);
        puzzle p;
        gj_error e;
        if (find(g, params, &p, &e) != 0) {
            ck_assert_msg(e.kind == GJ_UNMET || e.kind == GJ_BAD_INPUT, "%s %s: %s", g->name,
                          params, e.message);
            if (e.kind == GJ_UNMET && strcmp(e.field, "depth") != 0)
                ck_assert_msg(strcmp(e.field, "theme") == 0 && strstr(e.message, name) != NULL,
                              "%s %s: %s", g->name, params, e.message);
            continue;
        }
        found++;
        ck_assert_msg(p.themes >> t & 1, "%s: a puzzle asked for %s does not carry it", g->name,
                      name);
        char *text = written(&p);
        char quoted[80];
        snprintf(quoted, sizeof quoted, "\"%s\"", name);
        ck_assert_ptr_nonnull(strstr(strstr(text, "\"themes\":"), quoted));
        free(text);
        puzzle_free(&p);
    }
    ck_assert_msg(found >= 2, "%s: puzzles of only %d themes found", g->name, found);
    puzzle p;
    gj_error e;
    static const char *const bad[] = {"{\"theme\": \"no-such-theme\"}",
                                      "{\"theme\": \"long\", \"depth\": 1}",
                                      "{\"theme\": \"win-in-1\", \"depth\": 2}",
                                      "{\"theme\": \",\"}",
                                      "{\"theme\": 7}",
                                      "{\"theme\": \"a,b,c,d,e,f,g,h,i\"}"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ck_assert_int_ne(find(g, bad[k], &p, &e), 0);
        /* A game without depth 2 refuses the depth before the theme. */
        const char *field =
            puzzle_depth_max(g) < 2 && strstr(bad[k], "\"depth\": 2") != NULL ? "depth" : "theme";
        ck_assert_msg(e.kind == GJ_BAD_INPUT && strcmp(e.field, field) == 0, "%s %s: %s", g->name,
                      bad[k], e.message);
    }
}
END_TEST

/* A depth past the game's deepest (gj_game.puzzle_depth_max) is refused at
 * once, naming depth and the rule, and /games-listed depths are not. */
START_TEST(test_deeper_than_the_rules)
{
    const gj_game *g = game_at(_i);
    int deepest = puzzle_depth_max(g);
    ck_assert(deepest >= 1 && deepest <= GJ_PUZZLE_DEPTHS);
    ck_assert_msg((deepest < GJ_PUZZLE_DEPTHS) == (g->puzzle_depth_note != NULL),
                  "%s: a game short of %d steps says why, and only then", g->name,
                  GJ_PUZZLE_DEPTHS);
    for (int depth = deepest + 1; depth <= PUZZLE_DEPTH_MAX; depth++) {
        char params[96];
        snprintf(params, sizeof params, "{\"seed\": 1, \"depth\": %d}", depth);
        puzzle p;
        gj_error e;
        ck_assert_int_ne(find(g, params, &p, &e), 0);
        ck_assert_msg(e.kind == GJ_BAD_INPUT && strcmp(e.field, "depth") == 0, "%s", e.message);
        /* The reason, as far as the message holds it. */
        char start[41];
        snprintf(start, sizeof start, "%s",
                 g->puzzle_depth_note != NULL ? g->puzzle_depth_note
                                              : "is deeper than puzzles are served");
        ck_assert_msg(strstr(e.message, start) != NULL, "%s", e.message);
    }
}
END_TEST

/* Bad parameters name themselves. */
START_TEST(test_bad_params)
{
    static const struct {
        const char *params, *field, *text;
    } bad[] = {
        {"{\"seed\": -1}", "seed", "expected an integer"},
        {"{\"depth\": 0}", "depth", "out of range"},
        {"{\"depth\": 7}", "depth", "out of range"},
        {"{\"band\": \"fiendish\"}", "band", "\"easy\", \"medium\" or \"hard\""},
        {"{\"min_moves\": 1}", "min_moves", "out of range"},
        {"{\"outcome\": \"win\"}", "outcome", "not taken by /puzzle"},
        {"{\"colour\": 2}", "colour", "unknown parameter"},
        {"{\"seed\": 1, \"min_moves\": 100000}", "min_moves", "impossible here"},
        {"{\"tries\": 0}", "tries", "from 1 to 5000"},
        {"{\"tries\": 5001}", "tries", "from 1 to 5000"},
        {"{\"tries\": 2.5}", "tries", "from 1 to 5000"},
        {"{\"tries\": \"ten\"}", "tries", "from 1 to 5000"},
        {"{\"colour\": 2}", "colour", "budget_ms, tries and"},
    };
    const gj_game *g = game_at(_i);
    puzzle p;
    gj_error e;
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++) {
        ck_assert_msg(find(g, bad[k].params, &p, &e) != 0, "%s %s", g->name, bad[k].params);
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_msg(strcmp(e.field, bad[k].field) == 0 && strstr(e.message, bad[k].text),
                      "%s %s: %s (%s)", g->name, bad[k].params, e.message, e.field);
    }
}
END_TEST

/* A changed, cut, foreign or future id is refused, naming "id". */
START_TEST(test_bad_ids)
{
    const gj_game *g = game_at(2), *other = game_at(3);
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 5000);
    puzzle p, q;
    gj_error e;
    ck_assert_int_eq(find(g, "{\"seed\": 9}", &p, &e), 0);
    char id[PUZZLE_ID_MAX];
    /* Each character of the data part changed in turn. */
    size_t len = strlen(p.id);
    const char *last = strrchr(p.id, '.');
    for (size_t i = 2; p.id + i < last; i++) {
        memcpy(id, p.id, len + 1);
        id[i] = id[i] == 'A' ? 'B' : 'A';
        ck_assert_int_ne(puzzle_from_id(g, id, limits, &q, &e), 0);
        ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
        ck_assert_str_eq(e.field, "id");
    }
    static const char *const junk[] = {"",
                                       "1",
                                       "1.",
                                       "1..",
                                       "x.abc.00000000",
                                       "2.abc.00000000",
                                       "1.a.00000000",
                                       "1.$$$.00000000",
                                       "daily"};
    for (size_t k = 0; k < sizeof junk / sizeof junk[0]; k++) {
        ck_assert_int_ne(puzzle_from_id(g, junk[k], limits, &q, &e), 0);
        ck_assert_msg(e.kind == GJ_BAD_INPUT && strcmp(e.field, "id") == 0, "'%s': %s", junk[k],
                      e.message);
    }
    ck_assert_int_ne(puzzle_from_id(other, p.id, limits, &q, &e), 0);
    ck_assert_int_eq(e.kind, GJ_NOT_FOUND);
    ck_assert_ptr_nonnull(strstr(e.message, g->name));
    puzzle_free(&p);
}
END_TEST

/* An id of the JSON text `data` (any spelling), with a checksum that
 * matches it, under major version `major`, into id. */
static void id_of(const char *data, int major, char id[PUZZLE_ID_MAX])
{
    uint64_t h = 0xcbf29ce484222325ull; /* FNV-1a 64, as puzzle_id.h states */
    for (const char *c = data; *c != '\0'; c++) {
        h ^= (unsigned char)*c;
        h *= 0x100000001b3ull;
    }
    gj_buf b;
    buf_init(&b);
    b64url_encode(data, strlen(data), &b);
    buf_putc(&b, '\0');
    ck_assert(!b.failed);
    snprintf(id, PUZZLE_ID_MAX, "%d.%s.%08x", major, b.data, (unsigned)(h & 0xffffffffu));
    buf_free(&b);
}

/* The JSON text an id holds (malloc'd). */
static char *id_data(const char *id)
{
    const char *dot = strchr(id, '.'), *last = strrchr(id, '.');
    gj_buf b;
    buf_init(&b);
    ck_assert_int_eq(b64url_decode(dot + 1, (size_t)(last - dot - 1), &b), 0);
    buf_putc(&b, '\0');
    size_t len;
    return buf_take(&b, &len);
}

/* The id, not a search, makes the puzzle: it is rebuilt the same under a
 * generation ceiling of 1 ms, far below what the search took, and on any
 * budget; the id names its candidate's seed and skip. */
START_TEST(test_id_names_candidate)
{
    const gj_game *g = game_at(_i);
    long tiny[GEN_NLIMITS];
    limits_of(g, tiny, 1);
    int searched = 0;
    for (int seed = 0; seed < 12; seed++) {
        char params[96];
        snprintf(params, sizeof params, "{\"seed\": %d, \"tries\": 200, \"budget_ms\": 60000}",
                 seed);
        puzzle p, q;
        gj_error e;
        if (find(g, params, &p, &e) != 0) {
            ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, params, e.message);
            continue;
        }
        ck_assert(strncmp(p.id, "2.", 2) == 0);
        searched += p.skip > 0;
        char *data = id_data(p.id);
        json_t *o = json_loads(data, 0, NULL);
        ck_assert_int_eq(json_integer_value(json_object_get(o, "c")), p.skip);
        ck_assert_int_eq(json_integer_value(json_object_get(o, "s")), p.seed);
        json_decref(o);
        free(data);
        ck_assert_msg(puzzle_from_id(g, p.id, tiny, &q, &e) == 0, "%s: %s", p.id, e.message);
        char *a = written(&p), *b = written(&q);
        ck_assert_str_eq(a, b);
        free(a);
        free(b);
        puzzle_free(&p);
        puzzle_free(&q);
    }
    ck_assert_msg(searched > 0, "%s: no id needed a skip; the test shows nothing", g->name);
}
END_TEST

/* The difficulty filter judges the value as served (four decimals): a
 * range [d, d + 0.0001) around a puzzle's served d finds that puzzle
 * again, whichever side of d its unrounded value lies.  A search without
 * a band starts from the medium band's knobs and one with a range from
 * the band holding the range, so the second search names the medium
 * band's knobs itself. */
START_TEST(test_filter_served_value)
{
    const gj_game *g = game_at(_i);
    for (int seed = 0; seed < 6; seed++) {
        char params[160];
        snprintf(params, sizeof params, "{\"seed\": %d, \"tries\": 200, \"budget_ms\": 60000}",
                 seed);
        puzzle p, q;
        gj_error e;
        if (find(g, params, &p, &e) != 0)
            continue;
        char *text = written(&p);
        json_t *shown = json_loads(text, 0, NULL);
        double d = json_number_value(json_object_get(shown, "difficulty"));
        const char *medium = g->puzzle_knobs[GJ_BAND_MEDIUM];
        json_t *again = json_loads(medium != NULL ? medium : "{}", 0, NULL);
        ck_assert_ptr_nonnull(again);
        json_object_set_new(again, "seed", json_integer(seed));
        json_object_set_new(again, "tries", json_integer(200));
        json_object_set_new(again, "budget_ms", json_integer(60000));
        snprintf(params, sizeof params, "%.4f %.4f", d, d + 0.0001);
        char *hi;
        double lo = strtod(params, &hi);
        json_object_set_new(again, "difficulty_min", json_real(lo));
        json_object_set_new(again, "difficulty_max", json_real(strtod(hi, NULL)));
        char *asked = json_dumps(again, JSON_COMPACT);
        json_decref(again);
        ck_assert_msg(find(g, asked, &q, &e) == 0, "%s %s: %s", g->name, asked, e.message);
        free(asked);
        ck_assert_str_eq(q.id, p.id);
        json_decref(shown);
        free(text);
        puzzle_free(&p);
        puzzle_free(&q);
    }
}
END_TEST

/* One puzzle, one id: every other spelling of a real id's fields, each
 * with a checksum that matches, is refused naming "id"; so are members
 * that are no knobs, a version-1 id and a forged candidate. */
START_TEST(test_id_canonical)
{
    const gj_game *g = game_at(_i);
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 5000);
    puzzle p, q;
    gj_error e;
    ck_assert_int_eq(find(g, "{\"seed\": 4, \"tries\": 200, \"budget_ms\": 60000}", &p, &e), 0);
    char *data = id_data(p.id);
    char id[PUZZLE_ID_MAX];
    id_of(data, 2, id);
    ck_assert_str_eq(id, p.id); /* the test's own encoding is the service's */
    ck_assert_int_eq(puzzle_from_id(g, id, limits, &q, &e), 0);
    puzzle_free(&q);
    json_t *o = json_loads(data, 0, NULL);
    char variant[PUZZLE_ID_MAX * 2];
    char *spelled[8];
    int n = 0;
    spelled[n++] = json_dumps(o, JSON_COMPACT);                  /* as loaded: the real one */
    spelled[n++] = json_dumps(o, JSON_SORT_KEYS);                /* spaces */
    spelled[n++] = json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS); /* the real one */
    snprintf(variant, sizeof variant, "{\"d\":%d,%s", p.depth + 1, data + 1);
    spelled[n++] = strdup(variant); /* depth given twice */
    static const char *const stray[] = {"winning_moves", "answer", "budget_ms", "after"};
    for (int i = 0; i < 4; i++) {
        json_t *c = json_deep_copy(o);
        json_object_set_new(json_object_get(c, "k"), stray[i], json_integer(1));
        spelled[n++] = json_dumps(c, JSON_COMPACT | JSON_SORT_KEYS);
        json_decref(c);
    }
    for (int i = 0; i < n; i++) {
        ck_assert_ptr_nonnull(spelled[i]);
        id_of(spelled[i], 2, id);
        int rc = puzzle_from_id(g, id, limits, &q, &e);
        if (strcmp(spelled[i], data) == 0) {
            ck_assert_msg(rc == 0, "%s: %s", spelled[i], e.message);
            puzzle_free(&q);
        } else {
            ck_assert_msg(rc != 0 && e.kind == GJ_BAD_INPUT && strcmp(e.field, "id") == 0,
                          "%s accepted: %s", spelled[i], rc == 0 ? "" : e.message);
        }
        free(spelled[i]);
    }
    /* A version-1 id of the same puzzle: refused, saying why. */
    json_t *v1 = json_deep_copy(o);
    json_object_del(v1, "c");
    char *text = json_dumps(v1, JSON_COMPACT | JSON_SORT_KEYS);
    id_of(text, 1, id);
    ck_assert_int_ne(puzzle_from_id(g, id, limits, &q, &e), 0);
    ck_assert_str_eq(e.field, "id");
    ck_assert_ptr_nonnull(strstr(e.message, "version 1"));
    free(text);
    json_decref(v1);
    /* A forged candidate: another skip or a deeper line than its position
     * has is no puzzle, a 400 naming id, never a search. */
    for (int i = 0; i < 2; i++) {
        json_t *f = json_deep_copy(o);
        if (i == 0)
            json_object_set_new(f, "c", json_integer(p.skip + 1));
        else
            json_object_set_new(f, "d", json_integer(PUZZLE_DEPTH_MAX));
        text = json_dumps(f, JSON_COMPACT | JSON_SORT_KEYS);
        id_of(text, 2, id);
        int rc = puzzle_from_id(g, id, limits, &q, &e);
        if (rc == 0) {
            /* A neighbouring candidate that happens to be a puzzle too is
             * a real one: its id is canonical and rebuilds. */
            ck_assert_str_eq(q.id, id);
            puzzle_free(&q);
        } else {
            ck_assert_msg(e.kind == GJ_BAD_INPUT && strcmp(e.field, "id") == 0, "%s: %s", text,
                          e.message);
        }
        free(text);
        json_decref(f);
    }
    json_decref(o);
    free(data);
    puzzle_free(&p);
}
END_TEST

/* The daily puzzle: the same for a date, different days differ, dates
 * outside the calendar or not dates at all are refused. */
START_TEST(test_daily)
{
    const gj_game *g = game_at(_i);
    long limits[GEN_NLIMITS];
    limits_of(g, limits, 5000);
    puzzle a, b, c;
    gj_error e;
    ck_assert_msg(puzzle_daily(g, "2026-03-14", "2026-12-01", limits, &a, &e) == 0, "%s: %s",
                  g->name, e.message);
    ck_assert_int_eq(puzzle_daily(g, "2026-03-14", "2027-05-01", limits, &b, &e), 0);
    ck_assert_str_eq(a.id, b.id);
    ck_assert_int_eq(puzzle_daily(g, "2026-03-15", "2026-12-01", limits, &c, &e), 0);
    ck_assert_str_ne(a.id, c.id);
    check_line(g, &a);
    puzzle_free(&a);
    puzzle_free(&b);
    puzzle_free(&c);
    ck_assert_int_eq(puzzle_daily(g, "2026-12-02", "2026-12-01", limits, &a, &e), 0);
    puzzle_free(&a);
    static const char *const refused[] = {"2026-12-03",  "2025-12-31", "2026-02-29",
                                          "2026-13-01",  "2026-1-01",  "20260101",
                                          "2026-01-01x", "today",      ""};
    for (size_t k = 0; k < sizeof refused / sizeof refused[0]; k++) {
        ck_assert_int_ne(puzzle_daily(g, refused[k], "2026-12-01", limits, &a, &e), 0);
        ck_assert_msg(e.kind == GJ_BAD_INPUT && strcmp(e.field, "date") == 0, "'%s': %s",
                      refused[k], e.message);
    }
    ck_assert_int_eq(puzzle_daily(g, "2028-02-29", "2028-02-29", limits, &a, &e), 0);
    puzzle_free(&a);
}
END_TEST

/* The check: the whole line solves, a wrong move fails and reveals, the
 * solution is shown only when earned or asked, and bad moves are named. */
START_TEST(test_check)
{
    const gj_game *g = game_at(_i);
    puzzle p;
    gj_error e;
    if (find(g, "{\"seed\": 2, \"depth\": 2, \"tries\": 100, \"budget_ms\": 60000}", &p, &e) != 0)
        ck_assert_int_eq(find(g, "{\"seed\": 2}", &p, &e), 0);
    /* Nothing played yet: no results, no solution. */
    json_t *a = checked(&p, "{\"moves\": []}", &e);
    ck_assert(json_is_false(json_object_get(a, "solved")));
    ck_assert_ptr_null(json_object_get(a, "solution"));
    json_decref(a);
    a = checked(&p, "{}", &e);
    ck_assert_ptr_null(json_object_get(a, "solution"));
    json_decref(a);
    a = checked(&p, "{\"reveal\": true}", &e);
    ck_assert_int_eq(json_array_size(json_object_get(a, "solution")), p.depth);
    json_decref(a);
    /* The line, move by move. */
    gj_buf body;
    buf_init(&body);
    buf_puts(&body, "{\"moves\": [");
    for (int i = 0; i < p.depth; i++) {
        char *sol = solution_text(&p, i);
        buf_puts(&body, i ? "," : "");
        buf_puts(&body, sol);
        free(sol);
        gj_buf now;
        buf_init(&now);
        buf_append(&now, body.data, body.len);
        buf_puts(&now, "]}");
        buf_putc(&now, '\0');
        a = checked(&p, now.data, &e);
        ck_assert_msg(a != NULL, "%s", e.message);
        const json_t *results = json_object_get(a, "results");
        ck_assert_int_eq(json_array_size(results), i + 1);
        const json_t *r = json_array_get(results, (size_t)i);
        ck_assert(json_is_true(json_object_get(r, "correct")));
        ck_assert_int_eq(json_object_get(r, "reply") != NULL, i + 1 < p.depth);
        ck_assert_int_eq(json_is_true(json_object_get(a, "solved")), i + 1 == p.depth);
        ck_assert_ptr_null(json_object_get(a, "solution"));
        json_decref(a);
        buf_free(&now);
    }
    buf_free(&body);
    /* A wrong first move: failed, and the solution with it. */
    json_t *second = harness_step_entry(&p.steps[0], 1);
    char *w = json_dumps(json_object_get(second, "move"), JSON_COMPACT | JSON_ENCODE_ANY);
    json_decref(second);
    char text[512];
    snprintf(text, sizeof text, "{\"moves\": [%s]}", w);
    a = checked(&p, text, &e);
    ck_assert(json_is_false(
        json_object_get(json_array_get(json_object_get(a, "results"), 0), "correct")));
    ck_assert(json_is_true(json_object_get(a, "failed")));
    ck_assert_int_eq(json_array_size(json_object_get(a, "solution")), p.depth);
    json_decref(a);
    /* A move after the wrong one, an illegal move, a bad shape. */
    if (p.depth > 1) {
        snprintf(text, sizeof text, "{\"moves\": [%s, %s]}", w, w);
        ck_assert_ptr_null(checked(&p, text, &e));
        ck_assert_str_eq(e.field, "moves[1]");
    }
    free(w);
    ck_assert_ptr_null(checked(&p, "{\"moves\": [{\"nonsense\": 1}]}", &e));
    ck_assert_str_eq(e.field, "moves[0]");
    ck_assert_ptr_nonnull(strstr(e.message, "not a legal move"));
    ck_assert_ptr_null(checked(&p, "{\"moves\": [1, 2, 3, 4, 5, 6, 7]}", &e));
    ck_assert_str_eq(e.field, "moves");
    ck_assert_ptr_null(checked(&p, "{\"reveal\": 1}", &e));
    ck_assert_str_eq(e.field, "reveal");
    ck_assert_ptr_null(checked(&p, "{\"moves\": [], \"hint\": true}", &e));
    ck_assert_int_eq(e.kind, GJ_BAD_INPUT);
    puzzle_free(&p);
}
END_TEST

/* engine_chance is the exact share engine_pick draws, within sampling
 * error over 40,000 fixed seeds. */
START_TEST(test_chance_is_the_draw)
{
    const int q[] = {0, 16, 16, 4, 16, 0, 9};
    const long n = sizeof q / sizeof q[0];
    for (int level = 1; level <= ENGINE_LEVELS; level++) {
        double total = 0;
        for (long i = 0; i < n; i++) {
            long hits = 0;
            for (uint64_t seed = 0; seed < 40000; seed++)
                hits += engine_pick(&game_matrix_game, level, q, n, seed * 7919 + 1) == i;
            double want = engine_chance(&game_matrix_game, level, q, n, i);
            total += want;
            ck_assert_msg(fabs((double)hits / 40000 - want) < 0.01, "level %d index %ld: %f vs %f",
                          level, i, (double)hits / 40000, want);
        }
        ck_assert(fabs(total - 1) < 1e-9);
    }
}
END_TEST

/* base64url: round trips of every length, the alphabet, and refusals. */
START_TEST(test_b64url)
{
    unsigned char bytes[64];
    uint64_t s = 42;
    for (size_t len = 0; len < sizeof bytes; len++) {
        for (size_t i = 0; i < len; i++)
            bytes[i] = (unsigned char)rng_below(&s, 256);
        gj_buf text, back;
        buf_init(&text);
        buf_init(&back);
        b64url_encode(bytes, len, &text);
        ck_assert_int_eq(text.len, (len * 4 + 2) / 3);
        for (size_t i = 0; i < text.len; i++)
            ck_assert(strchr("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_",
                             text.data[i]) != NULL);
        ck_assert_int_eq(b64url_decode(text.data ? text.data : "", text.len, &back), 0);
        ck_assert_int_eq(back.len, len);
        ck_assert(len == 0 || memcmp(back.data, bytes, len) == 0);
        buf_free(&text);
        buf_free(&back);
    }
    gj_buf out;
    buf_init(&out);
    ck_assert_int_eq(b64url_decode("TWFu", 4, &out), 0);
    ck_assert(out.len == 3 && memcmp(out.data, "Man", 3) == 0);
    static const char *const bad[] = {"A", "TWF=", "TW+u", "TW/u", "TWG", "TWFuA"};
    for (size_t k = 0; k < sizeof bad / sizeof bad[0]; k++)
        ck_assert_msg(b64url_decode(bad[k], strlen(bad[k]), &out) != 0, "%s", bad[k]);
    buf_free(&out);
}
END_TEST

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("puzzle");
    harness_add_loop(s, "hold", test_puzzles_hold, (int)n, 240);
    harness_add_loop(s, "bands", test_bands_met, (int)n, 120);
    harness_add_loop(s, "tries", test_tries_decide, (int)n, 120);
    harness_add_loop(s, "bad params", test_bad_params, (int)n, 60);
    harness_add_loop(s, "daily", test_daily, (int)n, 120);
    harness_add_loop(s, "id names its candidate", test_id_names_candidate, (int)n, 120);
    harness_add_loop(s, "id canonical", test_id_canonical, (int)n, 120);
    harness_add_loop(s, "filter served value", test_filter_served_value, (int)n, 120);
    harness_add_loop(s, "check", test_check, (int)n, 60);
    harness_add_loop(s, "themes", test_themes, (int)n, 240);
    harness_add_loop(s, "listed is served", test_listed_is_served, (int)n, 600);
    harness_add_loop(s, "deeper than the rules", test_deeper_than_the_rules, (int)n, 60);
    const harness_case cases[] = {
        {"range", test_difficulty_range},
        {"bad ids", test_bad_ids},
        {"chance", test_chance_is_the_draw},
        {"b64url", test_b64url},
    };
    harness_add(s, cases, sizeof cases / sizeof cases[0], 120);
    return harness_main(s);
}
