/* puzzle_search.c - puzzles found, rebuilt from their ids and picked for
 * the day (puzzle_search.h): the request read, candidates tried in the
 * seed's order (each built by puzzle_build.h) until one fits. */
#include "puzzle_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "cancel.h"
#include "generate.h"
#include "puzzle_build.h"
#include "puzzle_id.h"
#include "puzzle_rating.h"
#include "puzzle_themes.h"
#include "rng.h"

/* A puzzle's own request members; every other member is a generator knob. */
static const char *const own_members[] = {"seed",  "band",      "difficulty_min", "difficulty_max",
                                          "depth", "min_moves", "budget_ms",      "tries",
                                          "theme", NULL};

/* The milliseconds left before deadline (a monotonic ns time), at least 1. */
static long ms_left(unsigned long long deadline)
{
    unsigned long long now = gj_cancel_now_ns();
    return now >= deadline ? 1 : (long)((deadline - now) / 1000000ull) + 1;
}

int puzzle_from_id(const gj_game *g, const char *id, const long *limits, puzzle *p, gj_error *e)
{
    if (puzzle_id_read(g, id, p, e) != 0)
        return -1;
    /* The id names its candidate: one position made and checked, never a
     * search, so no budget or load can make it fail.  The search's ceiling
     * does not apply to that one bounded solve (the caller's own deadline,
     * a request's timeout, still does). */
    long own[GEN_NLIMITS];
    memcpy(own, limits, sizeof own);
    own[GEN_LIMIT_BUDGET] = PUZZLE_REBUILD_MS;
    int rc = puzzle_build(p, p->seed, true, own, PUZZLE_REBUILD_MS, e);
    if (rc > 0)
        rc = puzzle_id_bad(e,
                           "it names no puzzle: its position is not one with a single solving move "
                           "at every step");
    if (rc < 0 && (e->kind == GJ_UNMET || e->kind == GJ_BAD_INPUT) && strcmp(e->field, "id") != 0) {
        /* A knob the generator refuses, or a candidate that is no puzzle:
         * the id is not one this service made. */
        char why[sizeof e->message];
        snprintf(why, sizeof why, "it names no puzzle of this service: %.300s", e->message);
        gj_error_clear(e);
        rc = puzzle_id_bad(e, why);
    }
    if (rc != 0)
        puzzle_free(p);
    return rc;
}

/* The search's request: the members of params p and its own defaults. */
typedef struct search {
    long long seed;
    double lo, hi;     /* the difficulty range */
    const char *range; /* how it was asked, for the message */
    long budget_ms;
    bool moves_asked;      /* min_moves given, so not lowered on a small board */
    long max_tries;        /* 0: as many candidates as the budget allows */
    bool bounded;          /* max_tries given by the caller (not the daily's) */
    unsigned long themes;  /* every theme asked must hold (bits as puzzle.h's) */
    char theme_names[160]; /* how they were asked, for the message */
} search;

/* The most themes one search asks for. */
#define PUZZLE_THEMES_ASKED 8

/* One theme name `name` (len bytes) asked of g into q: 0, or -1 naming
 * "theme" for a name g's puzzles never carry or one the depth rules out. */
static int read_theme(const gj_game *g, const puzzle *p, const char *name, size_t len, search *q,
                      gj_error *e)
{
    char one[64];
    if (len == 0 || len >= sizeof one)
        return gj_fail_field(e, "theme",
                             "expected theme names separated by commas, each of 1 to "
                             "63 characters");
    memcpy(one, name, len);
    one[len] = '\0';
    int at = puzzle_theme_index(g, one);
    if (at < 0) {
        char known[600] = "";
        size_t used = 0;
        for (int i = 0; puzzle_theme_at(g, i) != NULL && used < sizeof known; i++)
            used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", i ? ", " : "",
                                     puzzle_theme_at(g, i)->name);
        return gj_fail_field(e, "theme", "'%s' is no theme of %s puzzles; they have %s", one,
                             g->name, known);
    }
    if (strcmp(one, "long") == 0 && p->depth < 3)
        return gj_fail_field(e, "theme", "'long' needs depth 3 or more, not %d", p->depth);
    if (strncmp(one, "win-in-", 7) == 0 && one[7] >= '1' && one[7] <= '5' &&
        one[7] - '0' < p->depth)
        return gj_fail_field(e, "theme",
                             "'%s' cannot hold at depth %d: a puzzle of depth %d takes at least %d "
                             "of the solver's moves",
                             one, p->depth, p->depth, p->depth);
    q->themes |= 1ul << at;
    return 0;
}

/* The "theme" member of params, a string of names separated by commas or
 * an array of names, into q->themes: 0, or -1 naming "theme". */
static int read_themes(const gj_game *g, const puzzle *p, const json_t *params, search *q,
                       gj_error *e)
{
    const json_t *v = json_object_get(params, "theme");
    q->themes = 0;
    q->theme_names[0] = '\0';
    if (v == NULL)
        return 0;
    size_t count = 0, used = 0;
    if (json_is_string(v)) {
        const char *s = json_string_value(v), *end = s + json_string_length(v);
        for (const char *at = s; at <= end; count++) {
            const char *comma = memchr(at, ',', (size_t)(end - at));
            const char *stop = comma != NULL ? comma : end;
            if (count == PUZZLE_THEMES_ASKED ||
                read_theme(g, p, at, (size_t)(stop - at), q, e) != 0)
                return count == PUZZLE_THEMES_ASKED
                           ? gj_fail_field(e, "theme", "at most %d themes", PUZZLE_THEMES_ASKED)
                           : -1;
            at = stop + 1;
        }
    } else if (json_is_array(v) && json_array_size(v) >= 1) {
        const json_t *name;
        size_t i;
        json_array_foreach(v, i, name)
        {
            if (!json_is_string(name))
                return gj_fail_field(e, "theme", "expected theme names");
            if (++count > PUZZLE_THEMES_ASKED)
                return gj_fail_field(e, "theme", "at most %d themes", PUZZLE_THEMES_ASKED);
            if (read_theme(g, p, json_string_value(name), json_string_length(name), q, e) != 0)
                return -1;
        }
    } else {
        return gj_fail_field(e, "theme", "expected theme names separated by commas");
    }
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (q->themes >> i & 1 && used < sizeof q->theme_names)
            used += (size_t)snprintf(q->theme_names + used, sizeof q->theme_names - used, "%s%s",
                                     used ? "," : "", puzzle_theme_at(g, i)->name);
    return 0;
}

/* A difficulty bound member `name` into *out, within [0, 1]: 0, or -1. */
static int read_bound(const json_t *params, const char *name, double *out, gj_error *e)
{
    const json_t *v = json_object_get(params, name);
    if (v == NULL)
        return 0;
    if (!json_is_number(v) || !(json_number_value(v) >= 0 && json_number_value(v) <= 1))
        return gj_fail_field(e, name, "expected a number from 0 to 1");
    *out = json_number_value(v);
    return 0;
}

/* The band whose default knobs a search for params starts from: the band
 * asked, else medium (a difficulty range too, so that narrowing a range
 * around a puzzle found without a band finds it again).  A bad band falls
 * to medium here and is refused later. */
static int band_of(const json_t *params)
{
    const char *b = json_string_value(json_object_get(params, "band"));
    if (b == NULL)
        return GJ_BAND_MEDIUM;
    return strcmp(b, "easy") == 0   ? GJ_BAND_EASY
           : strcmp(b, "hard") == 0 ? GJ_BAND_HARD
                                    : GJ_BAND_MEDIUM;
}

/* Read params into p (game, depth, min_moves, knobs) and *q: 0, or -1. */
static int read_params(const gj_game *g, const json_t *params, const long *limits, puzzle *p,
                       search *q, bool *seeded, gj_error *e)
{
    if (!json_is_object(params))
        return gj_fail(e, GJ_BAD_INPUT, "expected an object of parameters");
    p->game = g;
    p->depth = 1;
    p->min_moves = PUZZLE_MIN_MOVES_DEFAULT;
    /* The game's own defaults for puzzles of the band asked first
     * (game.h), the caller's knobs over them. */
    const char *knobs = g->puzzle_knobs[band_of(params)];
    p->knobs = knobs != NULL ? json_loads(knobs, 0, NULL) : json_object();
    if (!json_is_object(p->knobs))
        return gj_fail_nomem(e);
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)params, key, v)
    {
        bool own = false;
        for (int i = 0; own_members[i] != NULL; i++)
            own = own || strcmp(key, own_members[i]) == 0;
        if (strcmp(key, "outcome") == 0 || strcmp(key, "winning_moves") == 0)
            return gj_fail_field(e, key,
                                 "not taken by /puzzle: a puzzle is always won by the player "
                                 "to move, with one solving move at each step");
        bool knob = false;
        for (int i = 0; !own && g->generate_knobs != NULL && g->generate_knobs[i] != NULL; i++)
            knob = knob || strcmp(key, g->generate_knobs[i]) == 0;
        if (!own && !knob) {
            char knobs[160] = "";
            size_t used = 0;
            for (int i = 0;
                 g->generate_knobs != NULL && g->generate_knobs[i] != NULL && used < sizeof knobs;
                 i++)
                used += (size_t)snprintf(knobs + used, sizeof knobs - used, "%s%s", i ? ", " : "",
                                         g->generate_knobs[i]);
            return gj_fail_field(e, key,
                                 "unknown parameter; a %s puzzle takes seed, band, "
                                 "difficulty_min, difficulty_max, depth, min_moves, budget_ms, "
                                 "tries and the generator's %s",
                                 g->name, knobs);
        }
        if (!own && json_object_set(p->knobs, key, v) != 0)
            return gj_fail_nomem(e);
    }
    const json_t *seed = json_object_get(params, "seed");
    *seeded = seed != NULL;
    if (seed == NULL) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        gj_rng r = {(uint64_t)ts.tv_nsec ^ (uint64_t)ts.tv_sec << 30 ^ gj_cancel_now_ns()};
        q->seed = (long long)(gj_rng_next(&r) & (uint64_t)GEN_SEED_MAX);
    } else if (!json_is_integer(seed) || json_integer_value(seed) < 0 ||
               json_integer_value(seed) > GEN_SEED_MAX) {
        return gj_fail_field(e, "seed", "expected an integer from 0 to %lld (2^53 - 1)",
                             (long long)GEN_SEED_MAX);
    } else {
        q->seed = (long long)json_integer_value(seed);
    }
    long depth = 1;
    if (gen_long(params, "depth", 1, PUZZLE_DEPTH_MAX, NULL, &depth, e) != 0 ||
        gen_long(params, "min_moves", 2, 1000000, NULL, &p->min_moves, e) != 0)
        return -1;
    p->depth = (int)depth;
    if (p->depth > puzzle_depth_max(g) && g->puzzle_depth_note != NULL)
        return gj_fail_field(e, "depth", "%d is deeper than any %s puzzle (at most %d): %s",
                             p->depth, g->name, puzzle_depth_max(g), g->puzzle_depth_note);
    if (p->depth > puzzle_depth_max(g))
        return gj_fail_field(e, "depth", "%d is deeper than puzzles are served: at most %d",
                             p->depth, puzzle_depth_max(g));
    q->moves_asked = json_object_get(params, "min_moves") != NULL;
    q->budget_ms = gen_cap(GEN_BUDGET_DEFAULT_MS * 4, limits[GEN_LIMIT_BUDGET]);
    char limit[64];
    snprintf(limit, sizeof limit, "--generate-budget-ms %ld", limits[GEN_LIMIT_BUDGET]);
    if (gen_long(params, "budget_ms", 1, limits[GEN_LIMIT_BUDGET], limit, &q->budget_ms, e) != 0)
        return -1;
    /* tries is no part of the id: the id holds the kept candidate's own
     * generator seed, which rebuilds the puzzle without any search. */
    const json_t *tries = json_object_get(params, "tries");
    q->bounded = tries != NULL;
    q->max_tries = 0;
    if (tries != NULL && (!json_is_integer(tries) || json_integer_value(tries) < 1 ||
                          json_integer_value(tries) > PUZZLE_TRIES_MAX))
        return gj_fail_field(e, "tries", "expected an integer from 1 to %d", PUZZLE_TRIES_MAX);
    if (tries != NULL)
        q->max_tries = (long)json_integer_value(tries);
    q->lo = 0;
    q->hi = 1;
    q->range = NULL;
    const json_t *band = json_object_get(params, "band");
    bool ranged = json_object_get(params, "difficulty_min") != NULL ||
                  json_object_get(params, "difficulty_max") != NULL;
    if (band != NULL && ranged)
        return gj_fail_field(e, "band",
                             "give a band or difficulty_min and difficulty_max, not both");
    if (band != NULL) {
        const char *b = json_string_value(band);
        if (b == NULL || (strcmp(b, "easy") && strcmp(b, "medium") && strcmp(b, "hard")))
            return gj_fail_field(e, "band", "expected \"easy\", \"medium\" or \"hard\"");
        q->lo = strcmp(b, "easy") == 0     ? 0
                : strcmp(b, "medium") == 0 ? PUZZLE_MEDIUM_FROM
                                           : PUZZLE_HARD_FROM;
        q->hi = strcmp(b, "hard") == 0     ? 1
                : strcmp(b, "medium") == 0 ? PUZZLE_HARD_FROM
                                           : PUZZLE_MEDIUM_FROM;
        q->range = strcmp(b, "easy") == 0     ? "band \"easy\""
                   : strcmp(b, "medium") == 0 ? "band \"medium\""
                                              : "band \"hard\"";
    }
    if (read_bound(params, "difficulty_min", &q->lo, e) != 0 ||
        read_bound(params, "difficulty_max", &q->hi, e) != 0)
        return -1;
    if (ranged && q->lo > q->hi)
        return gj_fail_field(e, "difficulty_min", "%g is above difficulty_max %g", q->lo, q->hi);
    if (ranged)
        q->range = "difficulty_min..difficulty_max";
    return read_themes(g, p, params, q, e);
}

/* In the asked range: [lo, hi), or [lo, 1] when hi is 1. */
static bool in_range(const search *q, double d)
{
    return d >= q->lo && (d < q->hi || (q->hi >= 1 && d <= 1));
}

/* GJ_UNMET: what no candidate met in time, and why each was dropped. */
static int unmet(const puzzle *p, const search *q, const long misses[PUZZLE_NMISS], long tried,
                 gj_error *e)
{
    static const char *const why[PUZZLE_NMISS] = {
        "without one solving move at every step", "where the game ended before the depth",
        "with more moves than one list holds",    "that came back to a position already met",
        "outside the difficulty asked",           "without every theme asked"};
    char counts[240] = "";
    size_t used = 0;
    for (int m = 0; m < PUZZLE_NMISS && used < sizeof counts; m++)
        if (misses[m] > 0)
            used += (size_t)snprintf(counts + used, sizeof counts - used, "%s%ld %s",
                                     used ? ", " : "", misses[m], why[m]);
    /* The field to blame: the difficulty asked when it dropped the most
     * candidates (or none finished), else the depth. */
    bool range = q->range != NULL && misses[PUZZLE_MISS_BAND] >= misses[PUZZLE_MISS_UNIQUE] +
                                                                     misses[PUZZLE_MISS_ENDS] +
                                                                     misses[PUZZLE_MISS_LISTED] +
                                                                     misses[PUZZLE_MISS_REPEATS];
    long built = 0;
    for (int m = 0; m < PUZZLE_NMISS; m++)
        built += m == PUZZLE_MISS_BAND || m == PUZZLE_MISS_THEME ? 0 : misses[m];
    bool theme = q->themes != 0 && misses[PUZZLE_MISS_THEME] > 0 &&
                 misses[PUZZLE_MISS_THEME] >= built &&
                 misses[PUZZLE_MISS_THEME] >= misses[PUZZLE_MISS_BAND];
    const char *field = theme                               ? "theme"
                        : !range                            ? "depth"
                        : strncmp(q->range, "band", 4) == 0 ? "band"
                                                            : "difficulty_min";
    /* A bounded search names its count, the one thing its outcome hangs
     * on; an unbounded one its budget. */
    char within[64];
    if (q->max_tries > 0)
        snprintf(within, sizeof within, "%s %ld", q->bounded ? "within tries" : "among the first",
                 q->max_tries);
    else
        snprintf(within, sizeof within, "within budget_ms %ld", q->budget_ms);
    gj_fail(e, GJ_UNMET,
            "%s: no %s puzzle of depth %d%s%s%s%s found %s (%ld candidate%s: %s); "
            "try another size, depth, difficulty or theme, or %s",
            field, p->game->name, p->depth, q->range ? " and " : "", q->range ? q->range : "",
            q->themes ? " with theme " : "", q->themes ? q->theme_names : "", within, tried,
            tried == 1 ? "" : "s", used ? counts : "none finished",
            q->max_tries > 0 ? "more tries" : "a larger budget");
    snprintf(e->field, sizeof e->field, "%s", field);
    return -1;
}

/* GJ_OVERLOADED: a search bounded by a count that ran out of time after
 * `tried` of its candidates, whose answer is not known yet. */
static int late(const search *q, long tried, gj_error *e)
{
    return gj_fail(e, GJ_OVERLOADED,
                   "the puzzle's search took longer than budget_ms %ld after %ld of its %ld "
                   "candidates; retry shortly or with a larger budget_ms",
                   q->budget_ms, tried, q->max_tries);
}

/* The generator's bound on the moves of a position of p's size
 * (generate_most), asked with winning_moves 1 (`one`: a puzzle's
 * positions) or without, into *most.  0, or -1. */
static int reach_most(const gj_game *g, const puzzle *p, bool one, const long *limits,
                      long long *most, int *scored, gj_error *e)
{
    json_t *req = json_deep_copy(p->knobs);
    if (req == NULL || (one && json_object_set_new(req, "winning_moves", json_integer(1)) != 0)) {
        json_decref(req);
        return gj_fail_nomem(e);
    }
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    if (text == NULL)
        return gj_fail_nomem(e);
    int rc = g->generate_most(text, strlen(text), limits, most, scored, e);
    free(text);
    return rc;
}

/* Drop from p's knobs each band default (gj_game.puzzle_knobs) that the
 * limits in force refuse, so that a daemon configured with smaller limits
 * serves its bands on the generator's own default size instead of
 * refusing them: a knob the caller gave is never dropped (its error
 * stands).  0, or -1 with *e (any other refusal of the generator). */
static int fit_band_knobs(const gj_game *g, puzzle *p, const json_t *params, const long *limits,
                          gj_error *e)
{
    for (int tries = 0;; tries++) {
        long long most;
        int scored;
        if (reach_most(g, p, false, limits, &most, &scored, e) == 0)
            return 0;
        if (tries >= 8 || e->kind != GJ_BAD_INPUT || json_object_get(params, e->field) != NULL ||
            json_object_get(p->knobs, e->field) == NULL)
            return -1;
        json_object_del(p->knobs, e->field);
        gj_error_clear(e);
    }
}

/* Refuse at once what no puzzle of the asked size can meet, before any
 * search: a size whose positions have fewer than two legal moves, a
 * min_moves above the most they have (the generator's proven bound,
 * generate.h, among the positions with exactly one winning move, which on
 * a small grid-walk board is below the most of any position; a default
 * min_moves is lowered to it instead, and the answer says so), a
 * difficulty range holding no value a puzzle is served with.  0, or -1. */
static int check_reach(const gj_game *g, puzzle *p, const json_t *params, search *q,
                       const long *limits, gj_error *e)
{
    if (g->generate_most == NULL)
        return 0;
    long long most, any_most;
    int scored;
    if (fit_band_knobs(g, p, params, limits, e) != 0 ||
        reach_most(g, p, true, limits, &most, &scored, e) != 0 ||
        reach_most(g, p, false, limits, &any_most, &scored, e) != 0)
        return -1;
    /* A bound below the one on every position is the game's count of the
     * positions with one winning move alone, and the message says so. */
    if (most < any_most && most < 2)
        return gj_fail_field(e, "min_moves",
                             "no %s puzzle of this size: no position of it has exactly one winning "
                             "move and another move",
                             g->name);
    if (most < 2)
        return gj_fail_field(e, "min_moves",
                             "no %s puzzle of this size: a position of it has at most %lld legal "
                             "move%s, and a puzzle needs 2 (the solving move and another)",
                             g->name, most, most == 1 ? "" : "s");
    if (q->moves_asked && p->min_moves > most && most < any_most)
        return gj_fail_field(e, "min_moves",
                             "%ld is impossible here: a %s position of this size with exactly one "
                             "winning move has at most %lld legal moves",
                             p->min_moves, g->name, most);
    if (q->moves_asked && p->min_moves > most)
        return gj_fail_field(e, "min_moves",
                             "%ld is impossible here: a %s position of this size has at most "
                             "%lld legal moves",
                             p->min_moves, g->name, most);
    if (p->min_moves > ANALYSIS_MAX_MOVES_LIMIT)
        return gj_fail_field(e, "min_moves",
                             "%ld is impossible: a puzzle's moves are listed whole, at most %d",
                             p->min_moves, ANALYSIS_MAX_MOVES_LIMIT);
    if (!q->moves_asked && p->min_moves > most)
        p->min_moves = (long)most;
    /* Any difficulty is in reach of any size (the scale spans [0, 1]);
     * only a range that holds no served value is not. */
    for (long k = 0; k <= 10000; k++)
        if (in_range(q, (double)k / 10000))
            return 0;
    const char *field =
        q->range != NULL && strncmp(q->range, "band", 4) == 0 ? "band" : "difficulty_min";
    return gj_fail_field(e, field,
                         "[%g, %g) holds no difficulty a puzzle is served with (four "
                         "decimals from 0 to 1; a difficulty_max of 1 takes 1 itself)",
                         q->lo, q->hi);
}

/* puzzle_find with at most max_tries candidates (0: no bound but the
 * budget); a search bounded so that runs out of time is an error, never
 * another puzzle, so its answer is the same on every machine. */
static int find(const gj_game *g, const json_t *params, const long *limits, long max_tries,
                puzzle *p, bool *seeded, gj_error *e)
{
    memset(p, 0, sizeof *p);
    *seeded = false; /* set on every path, a refused request's too */
    if (g->generate_keep == NULL || g->play == NULL)
        return gj_fail(e, GJ_NOT_FOUND, "%s has no puzzles", g->name);
    search q;
    if (read_params(g, params, limits, p, &q, seeded, e) != 0 ||
        check_reach(g, p, params, &q, limits, e) != 0) {
        puzzle_free(p);
        return -1;
    }
    unsigned long long deadline = gj_cancel_now_ns() + (unsigned long long)q.budget_ms * 1000000ull;
    if (max_tries > 0)
        q.max_tries = max_tries;
    gj_rng order = {(uint64_t)q.seed};
    long misses[PUZZLE_NMISS] = {0};
    long tried = 0;
    int rc;
    for (;;) {
        long long s = (long long)(gj_rng_next(&order) & (uint64_t)GEN_SEED_MAX);
        tried++;
        rc = puzzle_build(p, s, false, limits, ms_left(deadline), e);
        if (rc == 0 && !in_range(&q, p->difficulty))
            rc = 1 + PUZZLE_MISS_BAND;
        else if (rc == 0 && (p->themes & q.themes) != q.themes)
            rc = 1 + PUZZLE_MISS_THEME;
        if (rc <= 0)
            break;
        misses[rc - 1]++;
        if (gj_cancel_check(e) != 0) {
            rc = -1;
            break;
        }
        if (q.max_tries > 0 && tried >= q.max_tries) {
            rc = unmet(p, &q, misses, tried, e);
            break;
        }
        if (gj_cancel_now_ns() > deadline) {
            rc = q.max_tries > 0 ? late(&q, tried, e) : unmet(p, &q, misses, tried, e);
            break;
        }
    }
    if (rc < 0 && e->kind == GJ_UNMET && strcmp(e->field, "depth") != 0 &&
        strcmp(e->field, "band") != 0 && strcmp(e->field, "difficulty_min") != 0 &&
        strcmp(e->field, "theme") != 0) {
        /* The generator ran out of the budget: for a bounded search that
         * is the clock, not the candidates, so no answer yet. */
        gj_error_clear(e);
        rc = q.max_tries > 0 ? late(&q, tried, e) : unmet(p, &q, misses, tried, e);
    }
    if (rc != 0)
        puzzle_free(p);
    return rc;
}

int puzzle_find(const gj_game *g, const json_t *params, const long *limits, puzzle *p, bool *seeded,
                gj_error *e)
{
    return find(g, params, limits, 0, p, seeded, e);
}

/* Days since 1970-01-01 of y-m-d, for a valid date (the civil calendar). */
static long days_of(int y, int m, int d)
{
    y -= m <= 2;
    long era = (y >= 0 ? y : y - 399) / 400;
    long yoe = y - era * 400;
    long doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

/* "YYYY-MM-DD" as days since 1970-01-01: 0, or -1 when s is no such date. */
static int read_date(const char *s, long *days)
{
    int y, m, d;
    char tail;
    if (strlen(s) != 10 || s[4] != '-' || s[7] != '-' ||
        sscanf(s, "%4d-%2d-%2d%c", &y, &m, &d, &tail) != 3)
        return -1;
    for (int i = 0; i < 10; i++)
        if (i != 4 && i != 7 && (s[i] < '0' || s[i] > '9'))
            return -1;
    static const int mdays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    if (m < 1 || m > 12 || d < 1 || d > mdays[m - 1] + (m == 2 && leap))
        return -1;
    *days = days_of(y, m, d);
    return 0;
}

int puzzle_daily(const gj_game *g, const char *date, const char *today, const long *limits,
                 puzzle *p, gj_error *e)
{
    long day, first, now;
    if (read_date(date, &day) != 0)
        return gj_fail_field(e, "date", "'%.20s' is not a date: expected YYYY-MM-DD", date);
    if (read_date(PUZZLE_DAILY_FIRST, &first) != 0 || read_date(today, &now) != 0)
        return gj_fail(e, GJ_INTERNAL, "the daily puzzle's calendar is broken");
    if (day < first || day > now + 1)
        return gj_fail_field(e, "date",
                             "%s is out of range: daily puzzles run from %s to tomorrow (UTC)",
                             date, PUZZLE_DAILY_FIRST);
    char key[64];
    int n = snprintf(key, sizeof key, "daily:%s:%s", g->name, date);
    long long seed = (long long)(puzzle_fnv1a(key, (size_t)n) & (uint64_t)GEN_SEED_MAX);
    /* Two moves deep where the game has such puzzles within a bounded
     * number of candidates, else one: bounded by count, not time, so the
     * day's puzzle is the same on every machine. */
    int rc = -1;
    int deepest =
        puzzle_depth_max(g) < PUZZLE_DAILY_DEPTH ? puzzle_depth_max(g) : PUZZLE_DAILY_DEPTH;
    for (int depth = deepest; depth >= 1 && rc != 0; depth--) {
        json_t *params = json_pack("{s:I, s:i, s:I}", "seed", (json_int_t)seed, "depth", depth,
                                   "budget_ms", (json_int_t)limits[GEN_LIMIT_BUDGET]);
        if (params == NULL)
            return gj_fail_nomem(e);
        bool seeded;
        gj_error_clear(e);
        rc = find(g, params, limits, PUZZLE_DAILY_TRIES, p, &seeded, e);
        json_decref(params);
        if (rc != 0 && e->kind != GJ_UNMET)
            break;
    }
    return rc;
}
