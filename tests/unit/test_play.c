/* test_play.c - every game's parsed position in play (game.h's gj_play)
 * against the adapter over the same game's JSON analyze() and play_move()
 * (tests/oracle/play_adapter.h), which is the definition: the analysis
 * answer as JSON.
 *
 * For each game that offers gj_play, positions in play come from its
 * generator (fixed seeds, the knobs of its example), and from each a
 * random walk of a few plies.  At every position both sides must agree on
 * analyze()'s bytes, rank() (every field but the ids, for several max and
 * with or without the head), write_move() (diff and whole after, byte for
 * byte, and the after's length), find() (every listed move found as the
 * move it is, and malformed or illegal moves refused), clone() (a copy
 * played on leaves its original as it was) and write_members(); then the
 * same random move is played on both.  And every game's /analyze answer
 * with whole afters, written from the parsed position, is the answer with
 * diffs read back and rewritten by after.h's JSON writer. */
#include <check.h>
#include <jansson.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "play_adapter.h"
#include "play_pos.h"

/* Positions and plies per game: a few thousand positions in all. */
#define POSITIONS 150
#define PLIES     8
/* The most moves of one position whose entries are written and found. */
#define WRITTEN 24

/* The position `seed` of g's generator, with the knobs of its example and
 * no constraint but a move to play: a JSON object (an /analyze body). */
static json_t *generated(const gj_game *g, long seed)
{
    static const char *const constraints[] = {"outcome", "winning_moves", "score", "min_moves",
                                              NULL};
    json_t *req = json_loads(g->example_generate, 0, NULL);
    ck_assert_ptr_nonnull(req);
    for (int i = 0; constraints[i] != NULL; i++)
        json_object_del(req, constraints[i]);
    json_object_set_new(req, "seed", json_integer(seed));
    json_object_set_new(req, "min_moves", json_integer(1)); /* a position in play */
    json_object_set_new(req, "answer", json_false());
    char *body = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 60000;
    gj_buf out;
    buf_init(&out);
    gj_error e;
    int rc = g->generate(body, strlen(body), limits, &out, &e);
    free(body);
    ck_assert_msg(rc == 0, "%s: seed %ld: %s", g->name, seed, e.message);
    json_t *answer = json_loadb(out.data, out.len, 0, NULL);
    buf_free(&out);
    ck_assert_ptr_nonnull(answer);
    json_t *position = json_incref(json_object_get(answer, "position"));
    json_decref(answer);
    return position;
}

/* What write_members writes of p, as a NUL-terminated string to free. */
static char *members(const play_pos *p, int moved)
{
    gj_buf out;
    buf_init(&out);
    p->ops->write_members(p->pos, moved, &out);
    ck_assert(!out.failed);
    buf_putc(&out, '\0');
    return out.data;
}

/* What analyze writes of p, as a NUL-terminated string to free. */
static char *analysis(const play_pos *p)
{
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_msg(p->ops->analyze(p->pos, &out, &e) == 0, "analyze: %s", e.message);
    buf_putc(&out, '\0');
    return out.data;
}

/* write_move of m on p, as a NUL-terminated string to free; its after's
 * length in *bytes. */
static char *entry(const play_pos *p, const gj_move *m, int whole, size_t *bytes)
{
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_msg(p->ops->write_move(p->pos, m, whole, &out, bytes, &e) == 0, "write_move: %s",
                  e.message);
    buf_putc(&out, '\0');
    return out.data;
}

/* Two strings that must be equal, with where they part when not. */
static void same(const char *got, const char *want, const char *what, const char *game, long seed,
                 int ply)
{
    size_t at = 0;
    while (got[at] != '\0' && got[at] == want[at])
        at++;
    ck_assert_msg(got[at] == want[at], "%s seed %ld ply %d: %s part at byte %zu: %.80s | %.80s",
                  game, seed, ply, what, at, got + at, want + at);
}

/* rank() of both sides with `max` and the head: the same moves (but ids)
 * and head; the count. */
static long rank_both(const play_pos *p, const play_pos *a, long max, gj_move *pm, gj_move *am,
                      const char *game, long seed, int ply)
{
    gj_rank_head ph, ah;
    gj_error e;
    long np = p->ops->rank(p->pos, max, pm, &ph, &e);
    ck_assert_msg(np >= 0, "%s: rank: %s", game, e.message);
    long na = a->ops->rank(a->pos, max, am, &ah, &e);
    ck_assert_msg(na >= 0, "%s: adapter rank: %s", game, e.message);
    ck_assert_msg(np == na, "%s seed %ld ply %d max %ld: %ld moves ranked, not %ld", game, seed,
                  ply, max, np, na);
    ck_assert_msg(ph.value == ah.value && ph.remoteness == ah.remoteness &&
                      ph.moves_total == ah.moves_total && ph.winning_moves == ah.winning_moves,
                  "%s seed %ld ply %d: head %lld/%lld/%lld/%lld, not %lld/%lld/%lld/%lld", game,
                  seed, ply, ph.value, ph.remoteness, ph.moves_total, ph.winning_moves, ah.value,
                  ah.remoteness, ah.moves_total, ah.winning_moves);
    /* The mover and the kind of value, which the adapter's head does not
     * carry, against the game's own analysis text. */
    char *text = analysis(p);
    json_t *an = json_loads(text, 0, NULL);
    ck_assert_msg(an != NULL, "%s: the analysis is not JSON", game);
    const char *to_move = json_string_value(json_object_get(an, "to_move"));
    ck_assert_msg(to_move != NULL && ph.to_move != NULL && strcmp(ph.to_move, to_move) == 0,
                  "%s seed %ld ply %d: head's to_move %s, not %s", game, seed, ply,
                  ph.to_move ? ph.to_move : "(none)", to_move ? to_move : "(none)");
    ck_assert_msg(ph.scored == json_is_integer(json_object_get(an, "value")),
                  "%s seed %ld ply %d: head's scored %d", game, seed, ply, ph.scored);
    json_decref(an);
    free(text);
    for (long i = 0; i < np; i++)
        ck_assert_msg(pm[i].wins == am[i].wins && pm[i].score == am[i].score &&
                          pm[i].remoteness == am[i].remoteness,
                      "%s seed %ld ply %d: move %ld ranked %d/%lld/%lld, not %d/%lld/%lld", game,
                      seed, ply, i, pm[i].wins, pm[i].score, pm[i].remoteness, am[i].wins,
                      am[i].score, am[i].remoteness);
    return np;
}

/* The "move" member of an entry's members (without braces), loaded. */
static json_t *move_of(const char *members_text)
{
    size_t len = strlen(members_text);
    char *obj = malloc(len + 3);
    ck_assert_ptr_nonnull(obj);
    obj[0] = '{';
    memcpy(obj + 1, members_text, len);
    obj[len + 1] = '}';
    obj[len + 2] = '\0';
    json_t *o = json_loads(obj, 0, NULL);
    free(obj);
    ck_assert_ptr_nonnull(o);
    json_t *move = json_incref(json_object_get(o, "move"));
    json_decref(o);
    ck_assert_ptr_nonnull(move);
    return move;
}

/* Moves no position has: malformed, or far outside any board. */
static const char *const not_moves[] = {
    "null",
    "\"x\"",
    "{}",
    "[]",
    "[0]",
    "[-1, -1]",
    "[100000, 100000]",
    "[1, 2, 3]",
    "{\"heap\": 3, \"take\": 0}",
    "{\"row\": -1, \"col\": 1, \"size\": 1}",
    "1.5",
    "true",
};

/* One position of the walk, both sides checked; then the same random move
 * played on both.  1 when a move was played, 0 when the game is over. */
static int check_position(const gj_game *g, play_pos *p, play_pos *a, long seed, int ply,
                          uint64_t *rng)
{
    gj_move *pm = malloc(ANALYSIS_MAX_MOVES_LIMIT * sizeof *pm);
    gj_move *am = malloc(ANALYSIS_MAX_MOVES_LIMIT * sizeof *am);
    ck_assert(pm != NULL && am != NULL);
    char *x = analysis(p), *y = analysis(a);
    same(x, y, "analyze", g->name, seed, ply);
    free(x);
    free(y);
    x = members(p, 0);
    y = members(a, 0);
    same(x, y, "write_members", g->name, seed, ply);
    free(y);
    char *before = x;

    /* The line's call: the first move, no head. */
    gj_error e;
    gj_move first;
    long n1 = p->ops->rank(p->pos, 1, &first, NULL, &e);
    ck_assert_msg(n1 >= 0, "rank: %s", e.message);
    long max = 1 + (long)rng_below(rng, 5);
    rank_both(p, a, max, pm, am, g->name, seed, ply);
    long n = rank_both(p, a, ANALYSIS_MAX_MOVES_LIMIT, pm, am, g->name, seed, ply);
    ck_assert_int_eq(n1, n > 0);
    if (n > 0)
        ck_assert(first.id == pm[0].id && first.wins == pm[0].wins && first.score == pm[0].score &&
                  first.remoteness == pm[0].remoteness);

    /* Entries and find, on the moves of the last full ranking. */
    for (long i = 0; i < n && i < WRITTEN; i++) {
        for (int whole = 0; whole <= 1; whole++) {
            size_t pb, ab;
            char *pe = entry(p, &pm[i], whole, &pb), *ae = entry(a, &am[i], whole, &ab);
            same(pe, ae, whole ? "whole entry" : "entry", g->name, seed, ply);
            ck_assert_uint_eq(pb, ab);
            ck_assert(whole || pb == 0);
            if (whole) {
                json_t *move = move_of(pe);
                gj_move found = pm[i];
                found.id = ~pm[i].id;
                ck_assert_int_eq(p->ops->find(p->pos, move, &found, &e), 1);
                ck_assert_msg(found.id == pm[i].id, "%s seed %ld ply %d: move %ld found as another",
                              g->name, seed, ply, i);
                json_decref(move);
            }
            free(pe);
            free(ae);
        }
    }
    for (size_t k = 0; k < sizeof not_moves / sizeof not_moves[0]; k++) {
        json_t *move = json_loads(not_moves[k], JSON_DECODE_ANY, NULL);
        gj_move found;
        ck_assert_msg(p->ops->find(p->pos, move, &found, &e) == 0, "%s: %s found as a move",
                      g->name, not_moves[k]);
        json_decref(move);
    }
    /* find ranked again on the adapter: the ids of both are fresh. */
    n = rank_both(p, a, ANALYSIS_MAX_MOVES_LIMIT, pm, am, g->name, seed, ply);
    if (n == 0) {
        free(before);
        free(pm);
        free(am);
        return 0;
    }

    /* A clone played on leaves its original alone. */
    long pick = (long)rng_below(rng, (uint64_t)n);
    play_pos pc = {p->ops, p->ops->clone(p->pos, &e)}, ac = {a->ops, a->ops->clone(a->pos, &e)};
    ck_assert(pc.pos != NULL && ac.pos != NULL);
    ck_assert_int_eq(pc.ops->play(pc.pos, &pm[pick], &e), 0);
    ck_assert_int_eq(ac.ops->play(ac.pos, &am[pick], &e), 0);
    x = members(&pc, 0);
    y = members(&ac, 0);
    same(x, y, "write_members after a move on a clone", g->name, seed, ply);
    free(x);
    free(y);
    x = members(p, 0);
    same(x, before, "write_members of the original after its clone moved", g->name, seed, ply);
    free(x);
    play_close(&pc);
    play_close(&ac);

    /* The moves ranked before the clone still name theirs. */
    pick = (long)rng_below(rng, (uint64_t)n);
    ck_assert_int_eq(p->ops->play(p->pos, &pm[pick], &e), 0);
    ck_assert_int_eq(a->ops->play(a->pos, &am[pick], &e), 0);
    free(before);
    free(pm);
    free(am);
    return 1;
}

/* Every game with gj_play, against the adapter over its JSON path. */
START_TEST(parsed_as_adapted)
{
    int checked = 0;
    size_t count;
    const gj_game *const *all = games_all(&count);
    for (size_t i = 0; i < count; i++) {
        const gj_game *g = all[i];
        if (g->play == NULL)
            continue;
        gj_game adapted;
        ck_assert_int_eq(play_adapter_game(g, &adapted), 0);
        long limits[GJ_MAX_LIMITS];
        game_default_limits(g, limits);
        uint64_t rng = 5150 + (uint64_t)i;
        for (long seed = 1; seed <= POSITIONS; seed++) {
            json_t *req = generated(g, seed);
            if (rng_below(&rng, 3) == 0)
                json_object_set_new(req, "max_moves", json_integer(1 + (long)rng_below(&rng, 4)));
            play_pos p, a;
            gj_error e;
            ck_assert_msg(play_open(&p, g, req, limits, &e) == 0, "%s seed %ld: %s", g->name, seed,
                          e.message);
            ck_assert_int_eq(play_open(&a, &adapted, req, limits, &e), 0);
            for (int ply = 0; ply < PLIES && check_position(g, &p, &a, seed, ply, &rng); ply++)
                checked++;
            play_close(&p);
            play_close(&a);
            json_decref(req);
        }
    }
    ck_assert_int_gt(checked, 0);
}
END_TEST

/* A body without one of the position's required members is refused
 * naming it, in every game and with or without the line: the wrappers
 * check only that each member is known, so play_open checks the rest
 * before a game's parse relies on it. */
START_TEST(required_members)
{
    size_t count;
    const gj_game *const *all = games_all(&count);
    for (size_t i = 0; i < count; i++) {
        const gj_game *g = all[i];
        json_t *full = json_loads(g->example_analyze, 0, NULL);
        ck_assert_ptr_nonnull(full);
        for (size_t k = 0; g->analyze_keys[k] != NULL; k++) {
            const char *key = g->analyze_keys[k];
            if (key[0] == '?')
                continue;
            for (int line = 0; line <= 1; line++) {
                json_t *req = json_copy(full);
                json_object_del(req, key);
                if (line)
                    json_object_set_new(req, "line", json_true());
                gj_error e;
                char *answer = harness_analyze(g, req, &e);
                ck_assert_msg(answer == NULL, "%s without %s was answered", g->name, key);
                ck_assert_msg(strcmp(e.field, key) == 0 && strstr(e.message, "missing") != NULL,
                              "%s without %s: %s", g->name, key, e.message);
                json_decref(req);
            }
        }
        json_decref(full);
    }
}
END_TEST

/* /analyze's answer to req (the position and its options) through the
 * line (line.h), the game's own gj_play: malloc'd text. */
static char *analyze_text(const gj_game *g, const json_t *req)
{
    gj_error e;
    char *answer = harness_analyze(g, req, &e);
    ck_assert_msg(answer != NULL, "%s: %s", g->name, e.message);
    return answer;
}

/* The definition of whole afters: req's answer with diffs, read back as
 * JSON, each listed move played on req with the game's play_move
 * (after.h's after_put_answer), the way /analyze wrote them before it
 * wrote them from the parsed position.  malloc'd text. */
static char *whole_by_text(const gj_game *g, const json_t *req)
{
    json_t *diff = json_copy((json_t *)req);
    json_object_set_new(diff, "after", json_string("diff"));
    char *text = analyze_text(g, diff);
    json_decref(diff);
    json_t *answer = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(answer);
    free(text);
    after_writer w;
    after_init(&w, g, 1);
    gj_buf out;
    buf_init(&out);
    gj_error e;
    ck_assert_msg(after_put_answer(&w, req, answer, &out, &e) == 0, "%s: %s", g->name, e.message);
    after_free(&w);
    json_decref(answer);
    buf_putc(&out, '\0');
    ck_assert(!out.failed);
    return buf_take(&out, NULL);
}

/* Every game's /analyze answer with whole afters (the default), written
 * from its parsed position, is byte for byte the definition above, on
 * generated positions and on those a few random moves lead to (played on
 * the request with play_move), with max_moves from 1 to all. */
START_TEST(whole_afters_as_text)
{
    size_t count;
    long compared = 0;
    const gj_game *const *all = games_all(&count);
    for (size_t i = 0; i < count; i++) {
        const gj_game *g = all[i];
        uint64_t rng = 7070 + (uint64_t)i;
        for (long seed = 1; seed <= POSITIONS / 3; seed++) {
            json_t *req = generated(g, seed);
            for (int ply = 0; ply < PLIES; ply++) {
                if (rng_below(&rng, 2) == 0)
                    json_object_set_new(req, "max_moves",
                                        json_integer(1 + (long)rng_below(&rng, 30)));
                else
                    json_object_del(req, "max_moves");
                char *got = analyze_text(g, req), *want = whole_by_text(g, req);
                size_t at = 0;
                while (got[at] != '\0' && got[at] == want[at])
                    at++;
                ck_assert_msg(got[at] == want[at],
                              "%s seed %ld ply %d: part at byte %zu: %.80s | %.80s", g->name, seed,
                              ply, at, got + at, want + at);
                compared++;
                free(want);
                /* A random listed move, played on the request. */
                json_t *answer = json_loads(got, 0, NULL);
                free(got);
                const json_t *moves = json_object_get(answer, "moves");
                size_t n = json_array_size(moves);
                json_t *entry =
                    n > 0 ? json_deep_copy(json_array_get(moves, rng_below(&rng, n))) : NULL;
                json_decref(answer);
                if (entry == NULL)
                    break;
                /* play_move reads the entry's diff. */
                json_t *diff = json_copy(req);
                json_object_set_new(diff, "after", json_string("diff"));
                json_object_set_new(diff, "max_moves", json_integer(ANALYSIS_MAX_MOVES_LIMIT));
                char *dtext = analyze_text(g, diff);
                json_decref(diff);
                json_t *danswer = json_loads(dtext, 0, NULL);
                free(dtext);
                const json_t *dmoves = json_object_get(danswer, "moves");
                const json_t *played = NULL;
                for (size_t k = 0; k < json_array_size(dmoves); k++)
                    if (json_equal(json_object_get(json_array_get(dmoves, k), "move"),
                                   json_object_get(entry, "move")))
                        played = json_array_get(dmoves, k);
                ck_assert_ptr_nonnull(played);
                gj_error e;
                json_object_del(req, "max_moves");
                ck_assert_msg(g->play_move(req, played, &e) == 0, "%s: %s", g->name, e.message);
                json_decref(danswer);
                json_decref(entry);
            }
            json_decref(req);
        }
    }
    ck_assert_int_gt(compared, 1000);
}
END_TEST

static Suite *play_suite(void)
{
    const harness_case cases[] = {
        {"adapter", parsed_as_adapted},
        {"required", required_members},
        {"whole", whole_afters_as_text},
    };
    return harness_suite("play", cases, sizeof cases / sizeof cases[0], 600);
}

int main(void)
{
    return harness_main(play_suite());
}
