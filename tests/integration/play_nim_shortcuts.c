/* play_nim_shortcuts.c - nim-shortcuts' side of the scripted games (play.h).
 *
 * A state is a small random shortcut set (on a board of side up to 10,
 * some shortcuts beyond the heaps), the two heaps (at most 12 each, so a
 * losing position's moves always fit in the default max_moves and the
 * engine always has one listed) and the label of the player to move.  The
 * game ends on a shortcut or at (0, 0).  The oracle's game tree covers
 * every position up to the starting heaps, built once per game: heaps only
 * shrink. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "nim_shortcuts_tree.h"
#include "play.h"

#define MAX_SIDE      10
#define MAX_HEAP      12
#define MAX_SHORTCUTS 24

typedef struct state {
    long n;
    long sx[MAX_SHORTCUTS], sy[MAX_SHORTCUTS];
    long heap[2];
    int second; /* the player to move is "second" */
    nim_tree tree;
} state;

static long below(unsigned *rng, long n)
{
    return (long)(play_random(rng) % (unsigned)n);
}

static int taken(const state *s, long x, long y)
{
    for (long i = 0; i < s->n; i++)
        if (s->sx[i] == x && s->sy[i] == y)
            return 1;
    return 0;
}

static void *start(unsigned seed)
{
    unsigned rng = seed * 2246822519u + 7u;
    state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    long side = 1 + below(&rng, MAX_SIDE), want = below(&rng, MAX_SHORTCUTS + 1);
    if (want > side * side)
        want = side * side;
    while (s->n < want) {
        long x = below(&rng, side), y = below(&rng, side);
        if (!taken(s, x, y)) {
            s->sx[s->n] = x;
            s->sy[s->n++] = y;
        }
    }
    s->heap[0] = below(&rng, MAX_HEAP + 1);
    s->heap[1] = below(&rng, MAX_HEAP + 1);
    s->second = (int)below(&rng, 2);
    if (nim_tree_build(&s->tree, s->sx, s->sy, s->n, s->heap[0] + 1, s->heap[1] + 1) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

static void free_state(void *p)
{
    state *s = p;
    if (s == NULL)
        return;
    nim_tree_free(&s->tree);
    free(s);
}

static char *request(const void *p)
{
    const state *s = p;
    size_t cap = 128 + (size_t)s->n * 32, len = 0;
    char *out = malloc(cap);
    if (out == NULL)
        return NULL;
    len += (size_t)snprintf(out, cap, "{\"shortcuts\": [");
    for (long i = 0; i < s->n; i++)
        len += (size_t)snprintf(out + len, cap - len, "%s[%ld, %ld]", i > 0 ? ", " : "", s->sx[i],
                                s->sy[i]);
    snprintf(out + len, cap - len, "], \"heaps\": [%ld, %ld], \"to_move\": \"%s\"}", s->heap[0],
             s->heap[1], s->second ? "second" : "first");
    return out;
}

static long oracle_value(const void *p)
{
    const state *s = p;
    return !nim_tree_loses(&s->tree, s->heap[0], s->heap[1]);
}

static int over(const void *p)
{
    const state *s = p;
    return nim_tree_is_shortcut(&s->tree, s->heap[0], s->heap[1]) ||
           (s->heap[0] == 0 && s->heap[1] == 0);
}

static void play(state *s, int heap, long take)
{
    s->heap[heap - 1] -= take;
    s->second = !s->second;
}

static long apply(void *p, const json_t *move)
{
    state *s = p;
    const json_t *h = json_object_get(move, "heap"), *t = json_object_get(move, "take");
    if (over(s) || !json_is_object(move) || json_object_size(move) != 2 || !json_is_integer(h) ||
        !json_is_integer(t))
        return -1;
    json_int_t heap = json_integer_value(h), take = json_integer_value(t);
    if (heap < 1 || heap > 2 || take < 1 || take > s->heap[heap - 1])
        return -1;
    play(s, (int)heap, (long)take);
    return 0;
}

/* A random winning move when there is one (it reaches a losing position),
 * else any move. */
static void oracle_move(void *p, unsigned *rng)
{
    state *s = p;
    int heap[2 * (MAX_HEAP + 1)], best[2 * (MAX_HEAP + 1)];
    long take[2 * (MAX_HEAP + 1)], n = 0, nbest = 0;
    if (over(s))
        return;
    for (int h = 1; h <= 2; h++)
        for (long k = 1; k <= s->heap[h - 1]; k++) {
            long x = s->heap[0] - (h == 1 ? k : 0), y = s->heap[1] - (h == 2 ? k : 0);
            if (nim_tree_loses(&s->tree, x, y))
                best[nbest++] = (int)n;
            heap[n] = h;
            take[n++] = k;
        }
    long pick = nbest > 0 ? best[below(rng, nbest)] : below(rng, n);
    play(s, heap[pick], take[pick]);
}

const play_game play_nim_shortcuts = {
    .name = "nim-shortcuts",
    .scored = 0,
    .start = start,
    .request = request,
    .oracle_value = oracle_value,
    .over = over,
    .apply = apply,
    .oracle_move = oracle_move,
    .free_state = free_state,
};
