/* test_stored_puzzle.c - a rated puzzle as the store keeps it
 * (stored_puzzle.h), for every game of games.def and many seeds, depths
 * and bands: each field agrees with what GET /puzzle writes of the same
 * puzzle (puzzle_write: game, id, position byte for byte, themes, band,
 * depth, difficulty, rating), the solution is the line (its solving moves
 * solve the puzzle through puzzle_check, and its replies are the ones the
 * check answers), the starting rating is the computed one with
 * GLICKO_PUZZLE_RD and GLICKO_START_VOL, and the puzzle its id rebuilds
 * gives the same stored puzzle (what `puzzles import` relies on). */
#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "generate.h"
#include "harness.h"
#include "puzzle_check.h"
#include "puzzle_search.h"
#include "puzzle_themes.h"
#include "puzzle_write.h"
#include "stored_puzzle.h"

/* Seeds tried per game and depth. */
#define SEEDS 8

/* The i-th game of games.def. */
static const gj_game *game_at(int i)
{
    size_t n;
    const gj_game *const *all = games_all(&n);
    ck_assert_int_lt(i, (int)n);
    return all[i];
}

/* g's default limits with a generous generation ceiling. */
static void limits_of(const gj_game *g, long limits[GEN_NLIMITS])
{
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
}

/* puzzle_write's answer of p, parsed. */
static json_t *written(const puzzle *p)
{
    gj_buf b;
    buf_init(&b);
    puzzle_write(p, &b);
    ck_assert(!b.failed);
    json_t *w = json_loadb(b.data, b.len, 0, NULL);
    buf_free(&b);
    ck_assert_ptr_nonnull(w);
    return w;
}

/* v as the one text a puzzle answer writes it in (malloc'd). */
static char *canonical(const json_t *v)
{
    char *t = json_dumps(v, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
    ck_assert_ptr_nonnull(t);
    return t;
}

/* The written themes array joined with single spaces, into out. */
static void joined(const json_t *themes, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    for (size_t i = 0; i < json_array_size(themes); i++) {
        const char *name = json_string_value(json_array_get(themes, i));
        ck_assert_ptr_nonnull(name);
        int n = snprintf(out + len, cap - len, "%s%s", i ? " " : "", name);
        ck_assert(n > 0 && (size_t)n < cap - len);
        len += (size_t)n;
    }
}

/* The stored solution against the puzzle's own check: its solving moves
 * (even entries) played in turn solve it, and each reply the check
 * answers is the next (odd) entry. */
static void check_solution(const puzzle *p, const store_puzzle *sp)
{
    json_t *line = json_loads(sp->solution, 0, NULL);
    ck_assert_msg(json_is_array(line), "%s: solution %s", p->id, sp->solution);
    ck_assert_int_eq(json_array_size(line), 2 * p->depth - 1);
    char *again = json_dumps(line, JSON_COMPACT | JSON_SORT_KEYS);
    ck_assert_str_eq(again, sp->solution);
    free(again);
    json_t *moves = json_array();
    for (size_t k = 0; k < json_array_size(line); k += 2)
        json_array_append(moves, json_array_get(line, k));
    json_t *body = json_pack("{sO}", "moves", moves);
    char *text = json_dumps(body, JSON_COMPACT);
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_msg(puzzle_check(p, text, strlen(text), &out, &e) == 0, "%s: %s", p->id, e.message);
    json_t *a = json_loadb(out.data, out.len, 0, NULL);
    ck_assert_ptr_nonnull(a);
    ck_assert_msg(json_is_true(json_object_get(a, "solved")), "%s: the line does not solve it",
                  p->id);
    const json_t *results = json_object_get(a, "results");
    ck_assert_int_eq(json_array_size(results), p->depth);
    for (int k = 0; k + 1 < p->depth; k++)
        ck_assert(json_equal(json_object_get(json_array_get(results, (size_t)k), "reply"),
                             json_array_get(line, (size_t)(2 * k + 1))));
    json_decref(a);
    buf_free(&out);
    free(text);
    json_decref(body);
    json_decref(moves);
    json_decref(line);
}

/* Every field of sp against the written answer of the same puzzle. */
static void check_fields(const puzzle *p, const store_puzzle *sp)
{
    json_t *w = written(p);
    ck_assert_str_eq(sp->game, json_string_value(json_object_get(w, "game")));
    ck_assert_str_eq(sp->id, json_string_value(json_object_get(w, "id")));
    char *position = canonical(json_object_get(w, "position"));
    ck_assert_str_eq(sp->position, position);
    free(position);
    char themes[STORE_THEMES_MAX];
    joined(json_object_get(w, "themes"), themes, sizeof themes);
    ck_assert_str_eq(sp->themes, themes);
    static const char *const bands[] = {"easy", "medium", "hard"};
    ck_assert(sp->band >= 0 && sp->band <= 2);
    ck_assert_str_eq(bands[sp->band], json_string_value(json_object_get(w, "band")));
    /* The band from the definition too: easy below 0.35, hard from 0.65. */
    ck_assert_int_eq(sp->band, sp->difficulty < 0.35 ? 0 : sp->difficulty < 0.65 ? 1 : 2);
    ck_assert_int_eq(sp->depth, json_integer_value(json_object_get(w, "depth")));
    ck_assert(fabs(sp->difficulty - json_number_value(json_object_get(w, "difficulty"))) < 1e-9);
    ck_assert(sp->rating.rating == (double)json_integer_value(json_object_get(w, "rating")));
    ck_assert(sp->rating.rd == 250.0 && sp->rating.vol == 0.06);
    ck_assert(sp->plays == 0 && sp->wins == 0);
    json_decref(w);
}

/* Two stored puzzles hold the same values. */
static void check_same(const store_puzzle *a, const store_puzzle *b)
{
    ck_assert_str_eq(a->game, b->game);
    ck_assert_str_eq(a->id, b->id);
    ck_assert_str_eq(a->position, b->position);
    ck_assert_str_eq(a->solution, b->solution);
    ck_assert_str_eq(a->themes, b->themes);
    ck_assert(a->band == b->band && a->depth == b->depth && a->difficulty == b->difficulty);
    ck_assert(a->rating.rating == b->rating.rating && a->rating.rd == b->rating.rd &&
              a->rating.vol == b->rating.vol);
}

/* For SEEDS seeds at each depth the game serves (up to 3), and once per
 * band: the stored puzzle agrees with the written one and with its
 * rebuild from the id. */
START_TEST(test_agrees)
{
    const gj_game *g = game_at(_i);
    long limits[GEN_NLIMITS];
    limits_of(g, limits);
    int depths = puzzle_depth_max(g) < 3 ? puzzle_depth_max(g) : 3;
    static const char *const bands[] = {"", ",\"band\":\"easy\"", ",\"band\":\"medium\"",
                                        ",\"band\":\"hard\""};
    int made = 0, seen_depth[4] = {0, 0, 0, 0};
    for (int depth = 1; depth <= depths; depth++)
        for (int b = 0; b < 4; b++)
            for (int s = 0; s < (b == 0 ? SEEDS : 2); s++) {
                char text[160];
                snprintf(text, sizeof text,
                         "{\"seed\":%d,\"depth\":%d%s,\"tries\":300,\"budget_ms\":60000}",
                         1000 * depth + 37 * b + s, depth, bands[b]);
                json_t *params = json_loads(text, 0, NULL);
                ck_assert_ptr_nonnull(params);
                puzzle p;
                bool seeded;
                gj_error e;
                int rc = puzzle_find(g, params, limits, &p, &seeded, &e);
                json_decref(params);
                if (rc != 0) {
                    ck_assert_msg(e.kind == GJ_UNMET, "%s %s: %s", g->name, text, e.message);
                    continue;
                }
                store_puzzle sp, back;
                ck_assert_int_eq(stored_puzzle_from(&p, &sp, &e), 0);
                check_fields(&p, &sp);
                check_solution(&p, &sp);
                puzzle q;
                ck_assert_msg(puzzle_from_id(g, p.id, limits, &q, &e) == 0, "%s", e.message);
                ck_assert_int_eq(stored_puzzle_from(&q, &back, &e), 0);
                check_same(&sp, &back);
                seen_depth[sp.depth]++;
                made++;
                free(sp.position);
                free(sp.solution);
                free(back.position);
                free(back.solution);
                puzzle_free(&q);
                puzzle_free(&p);
            }
    /* Enough of each kind that the checks above meant something. */
    ck_assert_int_ge(made, SEEDS * depths);
    for (int depth = 1; depth <= depths; depth++)
        ck_assert_msg(seen_depth[depth] >= SEEDS / 2, "%s: %d puzzles of depth %d", g->name,
                      seen_depth[depth], depth);
}
END_TEST

/* Every theme of a game's vocabulary fits the store's field with all the
 * others, so none is ever left out. */
START_TEST(test_vocabulary_fits)
{
    const gj_game *g = game_at(_i);
    size_t len = 0;
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        len += strlen(puzzle_theme_at(g, i)->name) + 1;
    ck_assert_int_le(len, STORE_THEMES_MAX);
    ck_assert_int_le(strlen(g->name) + 1, STORE_GAME_MAX);
}
END_TEST

int main(void)
{
    size_t n;
    games_all(&n);
    Suite *s = suite_create("stored_puzzle");
    harness_add_loop(s, "agrees", test_agrees, (int)n, 300);
    harness_add_loop(s, "vocabulary fits", test_vocabulary_fits, (int)n, 10);
    return harness_main(s);
}
