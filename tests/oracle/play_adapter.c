/* play_adapter.c - every game driven through its JSON analyze() and
 * play_move(), the oracle of its parsed position (play_adapter.h). */
#include "play_adapter.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "after.h"
#include "analysis.h"
#include "analysis_call.h"
#include "games.h"

/* The adapter's position: the request as JSON, played on in place, and
 * the analysis its moves were last ranked or found in.  A move's id is its
 * index in that analysis' "moves". */
typedef struct adapted {
    const gj_game *g;
    const long *limits;
    json_t *req;    /* a shallow copy of the request: play_move replaces members */
    json_t *answer; /* the analysis of req that rank() or find() ran, or NULL */
    json_t *moved;  /* the "after" diff of the last move played, or NULL */
    after_writer w; /* whole afters, its cache kept for the position */
} adapted;

/* gj_play.analyze: the game's analyze() on req written compact. */
static int adapted_analyze(void *v, gj_buf *out, gj_error *e)
{
    adapted *a = v;
    char *body = json_dumps(a->req, JSON_COMPACT);
    if (body == NULL)
        return gj_fail_nomem(e);
    int rc = a->g->analyze(body, strlen(body), a->limits, out, e);
    free(body);
    return rc;
}

/* A "remoteness" member as gj_move and gj_rank_head hold it. */
static long long remoteness_of(const json_t *r)
{
    if (r == NULL)
        return ANALYSIS_REMOTENESS_NONE;
    return json_is_integer(r) ? (long long)json_integer_value(r) : ANALYSIS_REMOTENESS_NULL;
}

/* Analyse req anew with max_moves = max, the moves of any earlier one
 * forgotten: 0, or -1 with *e. */
static int adapted_reanalyse(adapted *a, long max, gj_error *e)
{
    json_decref(a->answer);
    a->answer = analysis_call(a->g, a->req, max, a->limits, e);
    return a->answer != NULL ? 0 : -1;
}

/* gj_play.rank: the analysis' entries, read back from its JSON. */
static long adapted_rank(void *v, long max, gj_move *moves, gj_rank_head *head, gj_error *e)
{
    adapted *a = v;
    if (adapted_reanalyse(a, max, e) != 0)
        return -1;
    const json_t *list = json_object_get(a->answer, "moves");
    long n = (long)json_array_size(list);
    for (long i = 0; i < n && i < max; i++) {
        const json_t *m = json_array_get(list, (size_t)i);
        const char *outcome = json_string_value(json_object_get(m, "outcome"));
        moves[i] = (gj_move){.id = (uint64_t)i,
                             .wins = outcome != NULL && strcmp(outcome, "win") == 0,
                             .score = json_integer_value(json_object_get(m, "score")),
                             .remoteness = remoteness_of(json_object_get(m, "remoteness"))};
    }
    if (head != NULL) {
        const json_t *value = json_object_get(a->answer, "value");
        head->value = json_is_integer(value) ? json_integer_value(value)
                                             : strcmp(json_string_value(value), "win") == 0;
        head->remoteness = remoteness_of(json_object_get(a->answer, "remoteness"));
        head->moves_total = json_integer_value(json_object_get(a->answer, "moves_total"));
        head->winning_moves = json_integer_value(json_object_get(a->answer, "winning_moves"));
    }
    return n < max ? n : max;
}

/* The entry of the last analysis m names, or NULL with *e. */
static const json_t *adapted_entry(const adapted *a, const gj_move *m, gj_error *e)
{
    const json_t *entry = json_array_get(json_object_get(a->answer, "moves"), (size_t)m->id);
    if (entry == NULL)
        gj_fail(e, GJ_INTERNAL, "%s: a move used that no analysis listed", a->g->name);
    return entry;
}

/* gj_play.write_move: the entry through after.h's writer, as it was. */
static int adapted_write_move(void *v, const gj_move *m, int whole, gj_buf *out,
                              size_t *after_bytes, gj_error *e)
{
    adapted *a = v;
    const json_t *entry = adapted_entry(a, m, e);
    if (entry == NULL)
        return -1;
    size_t before = a->w.bytes;
    a->w.full = whole && a->g->play_move != NULL;
    if (after_put_members(&a->w, a->req, entry, out, e) != 0)
        return -1;
    *after_bytes = a->w.bytes - before;
    return 0;
}

/* gj_play.play: the game's play_move on the JSON request. */
static int adapted_play(void *v, const gj_move *m, gj_error *e)
{
    adapted *a = v;
    const json_t *entry = adapted_entry(a, m, e);
    if (entry == NULL)
        return -1;
    json_decref(a->moved);
    a->moved = json_incref(json_object_get(entry, "after"));
    int rc = a->g->play_move(a->req, entry, e);
    json_decref(a->answer);
    a->answer = NULL;
    return rc;
}

/* gj_play.find: the move among every move one analysis lists; the last
 * one when it lists them all (a puzzle's step, ranked whole), so its ids
 * stay those rank() gave. */
static int adapted_find(void *v, const json_t *move, gj_move *m, gj_error *e)
{
    adapted *a = v;
    const json_t *list = json_object_get(a->answer, "moves");
    json_int_t total = json_integer_value(json_object_get(a->answer, "moves_total"));
    if ((a->answer == NULL || json_array_size(list) != (size_t)total) &&
        adapted_reanalyse(a, ANALYSIS_MAX_MOVES_LIMIT, e) != 0)
        return -1;
    list = json_object_get(a->answer, "moves");
    for (size_t i = 0; i < json_array_size(list); i++)
        if (json_equal(json_object_get(json_array_get(list, i), "move"), (json_t *)move)) {
            m->id = i;
            return 1;
        }
    return 0;
}

/* v written compact at the end of out, without its braces when an object. */
static void put_inner(gj_buf *out, const json_t *v, size_t flags)
{
    char *text = v != NULL ? json_dumps(v, JSON_COMPACT | flags) : NULL;
    size_t len = text != NULL ? strlen(text) : 0;
    if (len < 2)
        out->failed |= v != NULL;
    else
        buf_append(out, text + 1, len - 2);
    free(text);
}

/* gj_play.write_members: the request's members, or (moved) the last move's
 * diff with sorted keys, so equal diffs write equal bytes. */
static void adapted_write_members(void *v, int moved, gj_buf *out)
{
    adapted *a = v;
    if (moved) {
        put_inner(out, a->moved, JSON_SORT_KEYS);
        return;
    }
    json_t *copy = json_copy(a->req);
    if (copy == NULL) {
        out->failed = 1;
        return;
    }
    json_object_del(copy, "max_moves");
    put_inner(out, copy, 0);
    json_decref(copy);
}

/* gj_play.free. */
static void adapted_free(void *v)
{
    adapted *a = v;
    if (a == NULL)
        return;
    json_decref(a->req);
    json_decref(a->answer);
    json_decref(a->moved);
    after_free(&a->w);
    free(a);
}

/* The adapter's parse, which needs the game: nothing is read until analyze,
 * rank or find, so the game's own messages come from its analyze(). */
static void *adapted_open(const gj_game *g, const json_t *req, const long *limits, gj_error *e)
{
    adapted *a = calloc(1, sizeof *a);
    if (a != NULL)
        a->req = json_copy((json_t *)req);
    if (a == NULL || a->req == NULL) {
        free(a);
        gj_fail_nomem(e);
        return NULL;
    }
    a->g = g;
    a->limits = limits;
    after_init(&a->w, g, 1);
    a->w.limit = SIZE_MAX; /* the caller bounds the answer's afters */
    return a;
}

/* gj_play.clone: the request copied (shallow: play_move replaces members),
 * the analysis and the last diff shared, read only. */
static void *adapted_clone(const void *v, gj_error *e)
{
    const adapted *a = v;
    adapted *c = adapted_open(a->g, a->req, a->limits, e);
    if (c != NULL) {
        c->answer = json_incref(a->answer);
        c->moved = json_incref(a->moved);
    }
    return c;
}

/* One adapter per game of games.def: gj_play.parse has no game to name,
 * so each game's table has a parse of its own. */
#define GAME(ident, url)                                                                           \
    static void *parse_##ident(const json_t *req, const long *limits, gj_error *e)                 \
    {                                                                                              \
        return adapted_open(&game_##ident, req, limits, e);                                        \
    }
#include "games.def"
#undef GAME

static const gj_play adapters[] = {
#define GAME(ident, url)                                                                           \
    {                                                                                              \
        .parse = parse_##ident,                                                                    \
        .analyze = adapted_analyze,                                                                \
        .rank = adapted_rank,                                                                      \
        .write_move = adapted_write_move,                                                          \
        .play = adapted_play,                                                                      \
        .find = adapted_find,                                                                      \
        .clone = adapted_clone,                                                                    \
        .write_members = adapted_write_members,                                                    \
        .free = adapted_free,                                                                      \
    },
#include "games.def"
#undef GAME
};

static const gj_game *const registered[] = {
#define GAME(ident, url) &game_##ident,
#include "games.def"
#undef GAME
};

int play_adapter_game(const gj_game *g, gj_game *out)
{
    for (size_t k = 0; k < sizeof registered / sizeof registered[0]; k++)
        if (strcmp(registered[k]->name, g->name) == 0) {
            *out = *registered[k];
            out->play = &adapters[k];
            return 0;
        }
    return -1;
}
