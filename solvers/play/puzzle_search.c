/* puzzle_search.c - puzzles found, rebuilt from their ids and picked for
 * the day, over any game's generator and analysis (puzzle_search.h). */
#include "puzzle_search.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "analysis.h"
#include "cancel.h"
#include "generate.h"
#include "play_pos.h"
#include "puzzle_id.h"
#include "puzzle_themes.h"
#include "rng.h"

/* Why a candidate was not kept, counted for the message of a search that
 * found none in time. */
enum { MISS_UNIQUE, MISS_ENDS, MISS_LISTED, MISS_REPEATS, MISS_BAND, MISS_THEME, NMISS };

/* A puzzle's own request members; every other member is a generator knob. */
static const char *const own_members[] = {"seed",  "band",      "difficulty_min", "difficulty_max",
                                          "depth", "min_moves", "budget_ms",      "tries",
                                          "theme", NULL};

/* ---- small pieces ------------------------------------------------------ */

/* The milliseconds left before deadline (a monotonic ns time), at least 1. */
static long ms_left(unsigned long long deadline)
{
    unsigned long long now = gj_cancel_now_ns();
    return now >= deadline ? 1 : (long)((deadline - now) / 1000000ull) + 1;
}

/* Free step s of a puzzle and zero it. */
static void step_free(puzzle_step *s)
{
    json_decref(s->position);
    play_close(&s->at);
    free(s->moves);
    json_decref(s->solving);
    json_decref(s->reply);
    memset(s, 0, sizeof *s);
}

void puzzle_free(puzzle *p)
{
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        step_free(&p->steps[i]);
    json_decref(p->knobs);
    json_decref(p->to_move);
    memset(p, 0, sizeof *p);
}

/* ---- one candidate ----------------------------------------------------- */

/* The generator's position for seed s into step 0 (its analyze() request
 * and that parsed, read under p->limits): one with exactly one solving
 * move and at least p->min_moves moves, handed over parsed by the
 * generator (gen_keep), never written and read back.  With `again` the one
 * candidate at p->skip is made (a rebuild, no search), else the generator
 * searches and p->skip is set to where its kept candidate began.  0, or -1
 * with *e. */
static int generated(puzzle *p, long long s, bool again, long budget_ms, gj_error *e)
{
    const gj_game *g = p->game;
    json_t *req = json_deep_copy(p->knobs);
    if (req == NULL || json_object_set_new(req, "seed", json_integer(s)) != 0 ||
        (again && (json_object_set_new(req, "skip", json_integer(p->skip)) != 0 ||
                   json_object_set_new(req, "tries", json_integer(1)) != 0)) ||
        json_object_set_new(req, "winning_moves", json_integer(1)) != 0 ||
        json_object_set_new(req, "min_moves", json_integer(p->min_moves)) != 0 ||
        json_object_set_new(req, "budget_ms", json_integer(budget_ms)) != 0 ||
        /* Only the position is read: no analysis written out, whole afters and all. */
        json_object_set_new(req, "answer", json_false()) != 0) {
        json_decref(req);
        return gj_fail_nomem(e);
    }
    char *text = json_dumps(req, JSON_COMPACT);
    json_decref(req);
    if (text == NULL)
        return gj_fail_nomem(e);
    gen_kept kept;
    int rc = g->generate_keep(text, strlen(text), p->limits, &kept, e);
    free(text);
    if (rc != 0)
        return -1;
    p->skip = kept.skip;
    p->steps[0].position = kept.position;
    p->steps[0].at = (play_pos){g->play, kept.pos};
    return 0;
}

/* The entry of m, a move ranked or found on `at` as it is now, as the
 * analysis writes it (its "after" the diff): NULL with *e. */
static json_t *entry_of(play_pos *at, const gj_move *m, gj_error *e)
{
    gj_buf text;
    buf_init(&text);
    size_t bytes;
    buf_putc(&text, '{');
    int rc = at->ops->write_move(at->pos, m, 0, &text, &bytes, e);
    buf_putc(&text, '}');
    json_t *entry = NULL;
    if (rc == 0 && text.failed)
        gj_fail_nomem(e);
    else if (rc == 0 && (entry = json_loadb(text.data, text.len, 0, NULL)) == NULL)
        gj_fail(e, GJ_INTERNAL, "an entry of a puzzle's position is not JSON");
    buf_free(&text);
    return entry;
}

/* at's members as a request object's text, "{...}", into out (emptied
 * first); allocation failure shows in out->failed. */
static void members_of(play_pos *at, gj_buf *out)
{
    out->len = 0;
    buf_putc(out, '{');
    at->ops->write_members(at->pos, 0, out);
    buf_putc(out, '}');
}

/* d as it is served, four decimals (puzzle_write's text read back): the
 * value the filter and the band judge, so a puzzle shown as 0.3000 is in
 * difficulty_min 0.3. */
static double served(double d)
{
    char text[16];
    snprintf(text, sizeof text, "%.4f", d);
    return strtod(text, NULL);
}

/* The bounded finder's chance to miss the solving move, moves[0], of step
 * s (puzzle.h), and the greedy move (the one the measure alone likes best
 * at one ply, -1 on a tie) into s->greedy: 0, or -1 with *e.  A game
 * without a measure looks level everywhere: each move 1 in n. */
static int finder_miss(puzzle_step *s, gj_error *e)
{
    long n = s->legal;
    double *value = malloc((size_t)n * sizeof *value);
    if (value == NULL)
        return gj_fail_nomem(e);
    double found = 0;
    s->greedy = -1;
    for (int plies = 1; plies <= 2; plies++) {
        if (s->at.ops->look == NULL)
            memset(value, 0, (size_t)n * sizeof *value);
        else if (s->at.ops->look(s->at.pos, s->moves, n, plies, value, e) != 0) {
            free(value);
            return -1;
        }
        double best = value[0];
        long top = 0, ties = 1;
        for (long i = 1; i < n; i++) {
            if (value[i] > best) {
                best = value[i];
                top = i;
                ties = 1;
            } else if (value[i] == best) {
                ties++;
            }
        }
        if (plies == 1)
            s->greedy = ties == 1 ? top : -1;
        double sum = 0, own = 0;
        for (long i = 0; i < n; i++) {
            double d = 1 + PUZZLE_FINDER_FOCUS * (best - value[i]);
            double w = 1 / (d * d);
            sum += w;
            if (i == 0)
                own = w;
        }
        found += own / sum;
    }
    free(value);
    s->miss = 1 - found / 2;
    return 0;
}

/* Step i from its position, p->steps[i].at (opened): ranked with every
 * move, it must have one solving move among at least two (and
 * p->min_moves at the start).  0, 1 + MISS_* when the line is no puzzle,
 * -1 with *e. */
static int take_step(puzzle *p, int i, gj_error *e)
{
    puzzle_step *s = &p->steps[i];
    s->moves = malloc(ANALYSIS_MAX_MOVES_LIMIT * sizeof *s->moves);
    if (s->moves == NULL)
        return gj_fail_nomem(e);
    gj_rank_head head;
    long n = s->at.ops->rank(s->at.pos, ANALYSIS_MAX_MOVES_LIMIT, s->moves, &head, e);
    if (n < 0)
        return -1;
    /* Kept as long as the puzzle: only the moves there are. */
    gj_move *fit = realloc(s->moves, (size_t)(n > 0 ? n : 1) * sizeof *fit);
    if (fit != NULL)
        s->moves = fit;
    if (head.moves_total < 0)
        return gj_fail(e, GJ_INTERNAL, "%s: an analysis without moves_total", p->game->name);
    if (head.moves_total != n)
        return 1 + MISS_LISTED;
    if (i == 0 && head.to_move == NULL)
        return gj_fail(e, GJ_INTERNAL, "%s: a ranking without to_move", p->game->name);
    if (i == 0)
        p->mover = head.to_move;
    /* One winning move: then the mover wins (a win/lose game's position is
     * won exactly when a move wins; a scored game's has a best score). */
    s->legal = n;
    if (head.winning_moves != 1 || s->legal < 2 || (i == 0 && s->legal < p->min_moves))
        return 1 + MISS_UNIQUE;
    if (finder_miss(s, e) != 0)
        return -1;
    s->motifs = 0;
    if (s->at.ops->motifs != NULL &&
        s->at.ops->motifs(s->at.pos, s->moves, s->legal, &s->motifs, e) != 0)
        return -1;
    s->solving = entry_of(&s->at, &s->moves[0], e);
    return s->solving != NULL ? 0 : -1;
}

/* ---- difficulty, rating and themes ------------------------------------- */

/* miss, a chance, on g's scale for depth (puzzle.h): piecewise linear
 * through (0, 0), the scale's points and (1, 1); miss itself where the
 * game has no scale yet. */
static double on_scale(const gj_game *g, int depth, double miss)
{
    const double *x = g->puzzle_scale[depth - 1];
    if (x[GJ_SCALE_POINTS - 1] <= 0)
        return miss;
    double lo_x = 0, lo_y = 0;
    for (int i = 0; i <= GJ_SCALE_POINTS; i++) {
        double hi_x = i < GJ_SCALE_POINTS ? x[i] : 1,
               hi_y = i < GJ_SCALE_POINTS ? (2 * i + 1) / (2.0 * GJ_SCALE_POINTS) : 1;
        if (miss <= hi_x)
            return hi_x > lo_x ? lo_y + (hi_y - lo_y) * (miss - lo_x) / (hi_x - lo_x) : hi_y;
        lo_x = hi_x;
        lo_y = hi_y;
    }
    return 1;
}

/* The index of theme `name` in g's vocabulary, or -1 when it has none of that name. */
static int theme_index(const gj_game *g, const char *name)
{
    for (int i = 0; puzzle_theme_at(g, i) != NULL; i++)
        if (strcmp(puzzle_theme_at(g, i)->name, name) == 0)
            return i;
    return -1;
}

/* Whether every other move of step s loses at once: a win/lose game whose
 * every move but the solving one leaves the opponent a win in one move. */
static bool every_other_loses_at_once(const puzzle_step *s)
{
    for (long i = 1; i < s->legal; i++)
        if (s->moves[i].wins || s->moves[i].remoteness != 1)
            return false;
    return true;
}

/* p's themes (puzzle_themes.h) from its built line into p->themes. */
static void find_themes(puzzle *p)
{
    const gj_game *g = p->game;
    unsigned long t = 0;
    /* A scored game (staircase-chess) wins by margin: no outcome to count. */
    bool won = p->steps[0].moves[0].wins != 0;
    bool only = won, trap = false;
    for (int i = 0; i < p->depth; i++) {
        only = only && every_other_loses_at_once(&p->steps[i]);
        trap = trap || p->steps[i].greedy > 0;
    }
    if (only)
        t |= 1ul << theme_index(g, "only-move");
    long long r = p->steps[0].moves[0].remoteness;
    if (won && r >= 0) {
        static const char *const win_in[] = {"win-in-1", "win-in-2", "win-in-3",
                                             "win-in-4", "win-in-5", "win-in-6-plus"};
        long long moves = r / 2 + 1; /* the solver's, the solving move included */
        t |= 1ul << theme_index(g, win_in[moves > 6 ? 5 : moves - 1]);
    }
    if (p->depth >= 3)
        t |= 1ul << theme_index(g, "long");
    if (trap)
        t |= 1ul << theme_index(g, "trap");
    int general = 0;
    while (puzzle_general_themes[general].name != NULL)
        general++;
    for (int i = 0; i < p->depth; i++)
        t |= (unsigned long)p->steps[i].motifs << general;
    p->themes = t;
}

/* p's difficulty, rating and themes, from its built line. */
static void rate(puzzle *p)
{
    double solved = 1;
    for (int i = 0; i < p->depth; i++)
        solved *= 1 - p->steps[i].miss;
    p->miss = 1 - solved;
    p->difficulty = served(on_scale(p->game, p->depth, p->miss));
    double rating = 700 + 1700 * p->difficulty + 200 * (p->depth - 1);
    p->rating = (int)(rating + 0.5);
    find_themes(p);
}

/* ---- what a size allows ------------------------------------------------ */

/* Whether step i + 1's position was met at an earlier step of a game
 * whose positions repeat (matrix-game may send the token back where it
 * was: the same step twice is no deeper a puzzle).  keys[k] holds step
 * k's members (members_of), compared as its JSON object was: equal bytes,
 * written in one request's order, are equal members.  1, 0, or -1 with
 * *e. */
static int met_before(puzzle *p, int i, gj_buf *keys, gj_error *e)
{
    members_of(&p->steps[i + 1].at, &keys[i + 1]);
    if (keys[i + 1].failed)
        return gj_fail_nomem(e);
    for (int k = 0; k <= i; k++)
        if (keys[k].len == keys[i + 1].len &&
            memcmp(keys[k].data, keys[i + 1].data, keys[k].len) == 0)
            return 1;
    return 0;
}

/* The defender's reply after step i's solving move, then step i + 1's
 * position, a copy of step i's with both played: 0, 1 + MISS_ENDS when
 * the game ends there, -1 with *e. */
static int reply_to(puzzle *p, int i, gj_error *e)
{
    puzzle_step *s = &p->steps[i], *next = &p->steps[i + 1];
    next->at.ops = s->at.ops;
    next->at.pos = s->at.ops->clone(s->at.pos, e);
    if (next->at.pos == NULL)
        return -1;
    play_pos *d = &next->at;
    if (d->ops->play(d->pos, &s->moves[0], e) != 0)
        return -1;
    gj_move reply;
    long n = d->ops->rank(d->pos, 1, &reply, NULL, e);
    if (n <= 0)
        return n < 0 ? -1 : 1 + MISS_ENDS;
    s->reply = entry_of(d, &reply, e);
    if (s->reply == NULL || d->ops->play(d->pos, &reply, e) != 0)
        return -1;
    return 0;
}

/* The JSON of p's positions after the first and of its "to_move" (the
 * first ranking's), which only a kept line is written with: 0, or -1 with
 * *e.  keys holds the members of each step when the game's positions
 * repeat (met_before). */
static int keep_line(puzzle *p, gj_buf *keys, gj_error *e)
{
    gj_buf text;
    buf_init(&text);
    int rc = 0;
    for (int i = 1; i < p->depth && rc == 0; i++) {
        puzzle_step *s = &p->steps[i];
        const gj_buf *own = keys[i].len > 0 ? &keys[i] : &text;
        if (own == &text)
            members_of(&s->at, &text);
        s->position = own->failed ? NULL : json_loadb(own->data, own->len, 0, NULL);
        if (s->position == NULL)
            rc = own->failed ? gj_fail_nomem(e)
                             : gj_fail(e, GJ_INTERNAL, "a puzzle's position is not JSON");
    }
    if (rc == 0 && (p->to_move = json_string(p->mover)) == NULL)
        rc = gj_fail_nomem(e);
    buf_free(&text);
    return rc;
}

/* The whole line of p->depth steps from the generated position (step 0's,
 * opened), its difficulty, rating and themes: 0, 1 + MISS_* when it is no puzzle, -1
 * with *e. */
static int build_line(puzzle *p, gj_error *e)
{
    gj_buf keys[PUZZLE_DEPTH_MAX];
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        buf_init(&keys[i]);
    int rc = 0;
    bool repeats = p->game->play_repeats && p->depth > 1;
    if (repeats) {
        members_of(&p->steps[0].at, &keys[0]);
        if (keys[0].failed)
            rc = gj_fail_nomem(e);
    }
    for (int i = 0; rc == 0 && i < p->depth; i++) {
        rc = take_step(p, i, e);
        if (rc != 0)
            break;
        if (i + 1 == p->depth)
            break;
        rc = reply_to(p, i, e);
        int met = rc == 0 && repeats ? met_before(p, i, keys, e) : 0;
        if (met != 0)
            rc = met < 0 ? -1 : 1 + MISS_REPEATS;
    }
    if (rc == 0) {
        rate(p);
        rc = keep_line(p, keys, e);
    }
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        buf_free(&keys[i]);
    return rc;
}

/* Empty p's line, keeping what names the puzzle. */
static void drop_line(puzzle *p)
{
    for (int i = 0; i < PUZZLE_DEPTH_MAX; i++)
        step_free(&p->steps[i]);
    json_decref(p->to_move);
    p->to_move = NULL;
}

/* ---- building ---------------------------------------------------------- */

/* The puzzle of generator seed s (p's game, depth, min_moves and knobs
 * set), its candidate at p->skip when `again`: 0, 1 + MISS_* when it is no
 * puzzle, -1 with *e. */
static int build(puzzle *p, long long s, bool again, const long *limits, long budget_ms,
                 gj_error *e)
{
    drop_line(p);
    p->seed = s;
    /* The steps' positions read limits for as long as the puzzle lives. */
    memcpy(p->limits, limits, sizeof p->limits);
    int rc = generated(p, s, again, budget_ms, e);
    if (rc == 0)
        rc = build_line(p, e);
    if (rc == 0)
        rc = puzzle_id_make(p, e);
    return rc;
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
    int rc = build(p, p->seed, true, own, PUZZLE_REBUILD_MS, e);
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
    int at = theme_index(g, one);
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
static int unmet(const puzzle *p, const search *q, const long misses[NMISS], long tried,
                 gj_error *e)
{
    static const char *const why[NMISS] = {
        "without one solving move at every step", "where the game ended before the depth",
        "with more moves than one list holds",    "that came back to a position already met",
        "outside the difficulty asked",           "without every theme asked"};
    char counts[240] = "";
    size_t used = 0;
    for (int m = 0; m < NMISS && used < sizeof counts; m++)
        if (misses[m] > 0)
            used += (size_t)snprintf(counts + used, sizeof counts - used, "%s%ld %s",
                                     used ? ", " : "", misses[m], why[m]);
    /* The field to blame: the difficulty asked when it dropped the most
     * candidates (or none finished), else the depth. */
    bool range = q->range != NULL && misses[MISS_BAND] >= misses[MISS_UNIQUE] + misses[MISS_ENDS] +
                                                              misses[MISS_LISTED] +
                                                              misses[MISS_REPEATS];
    long built = 0;
    for (int m = 0; m < NMISS; m++)
        built += m == MISS_BAND || m == MISS_THEME ? 0 : misses[m];
    bool theme = q->themes != 0 && misses[MISS_THEME] > 0 && misses[MISS_THEME] >= built &&
                 misses[MISS_THEME] >= misses[MISS_BAND];
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
    long misses[NMISS] = {0};
    long tried = 0;
    int rc;
    for (;;) {
        long long s = (long long)(gj_rng_next(&order) & (uint64_t)GEN_SEED_MAX);
        tried++;
        rc = build(p, s, false, limits, ms_left(deadline), e);
        if (rc == 0 && !in_range(&q, p->difficulty))
            rc = 1 + MISS_BAND;
        else if (rc == 0 && (p->themes & q.themes) != q.themes)
            rc = 1 + MISS_THEME;
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
