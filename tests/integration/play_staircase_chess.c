/* play_staircase_chess.c - staircase-chess's side of the scripted games
 * (play.h): boards up to 4 x 4 with random A and B and a few random stones
 * already down; the oracle plays the whole game tree from the rules. */
#include <stdlib.h>

#include "play.h"
#include "staircase_chess_oracle.h"

#define CELLS STAIRCASE_CHESS_ORACLE_CELLS

typedef struct state {
    int n, m;
    int by_profile; /* the request gives the row lengths, not the stones */
    long a[CELLS], b[CELLS];
    unsigned char stone[CELLS];
    int order[CELLS]; /* cells in the order placed */
    int placed;
} state;

static long margin(const state *s)
{
    return staircase_chess_oracle_margin(s->n, s->m, s->a, s->b, s->stone);
}

static int legal(const state *s, int cell)
{
    return staircase_chess_oracle_legal(s->n, s->m, s->stone, cell / s->m, cell % s->m);
}

/* Put the mover's stone on `cell` (legal); returns the mover's gain. */
static long place(state *s, int cell)
{
    long gain = s->placed % 2 == 0 ? s->a[cell] : s->b[cell];
    s->stone[cell] = 1;
    s->order[s->placed++] = cell;
    return gain;
}

static void unplace(state *s)
{
    s->stone[s->order[--s->placed]] = 0;
}

static void *start(unsigned seed)
{
    state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    unsigned rng = seed * 7919u + 17u;
    s->n = 1 + (int)(play_random(&rng) % 4);
    s->m = 1 + (int)(play_random(&rng) % 4);
    s->by_profile = seed % 3 == 0;
    /* Mostly small values, so that equal scores are common. */
    unsigned hi = seed % 4 == 0 ? 100001 : 10;
    for (int k = 0; k < s->n * s->m; k++) {
        s->a[k] = (long)(play_random(&rng) % hi);
        s->b[k] = (long)(play_random(&rng) % hi);
    }
    int stones = (int)(play_random(&rng) % (unsigned)(s->n * s->m / 2 + 1));
    while (s->placed < stones) {
        int cell = (int)(play_random(&rng) % (unsigned)(s->n * s->m));
        if (legal(s, cell))
            place(s, cell);
    }
    return s;
}

static json_t *matrix(const state *s, const long *v)
{
    json_t *rows = json_array();
    for (int i = 0; i < s->n; i++) {
        json_t *row = json_array();
        for (int j = 0; j < s->m; j++)
            json_array_append_new(row, json_integer(v[i * s->m + j]));
        json_array_append_new(rows, row);
    }
    return rows;
}

static json_t *profile(const state *s)
{
    json_t *rows = json_array();
    for (int i = 0; i < s->n; i++) {
        int len = 0;
        while (len < s->m && s->stone[i * s->m + len])
            len++;
        json_array_append_new(rows, json_integer(len));
    }
    return rows;
}

static json_t *stones(const state *s)
{
    json_t *list = json_array();
    for (int k = 0; k < s->placed; k++)
        json_array_append_new(list,
                              json_pack("[ii]", s->order[k] / s->m + 1, s->order[k] % s->m + 1));
    return list;
}

static char *request(const void *p)
{
    const state *s = p;
    json_t *body = json_object();
    json_object_set_new(body, "a", matrix(s, s->a));
    json_object_set_new(body, "b", matrix(s, s->b));
    if (s->by_profile)
        json_object_set_new(body, "profile", profile(s));
    else
        json_object_set_new(body, "stones", stones(s));
    char *text = json_dumps(body, JSON_COMPACT);
    json_decref(body);
    return text;
}

static long oracle_value(const void *p)
{
    return margin(p);
}

static int over(const void *p)
{
    const state *s = p;
    return s->placed == s->n * s->m;
}

static long apply(void *p, const json_t *move)
{
    state *s = p;
    const json_t *r = json_array_get(move, 0), *c = json_array_get(move, 1);
    if (json_array_size(move) != 2 || !json_is_integer(r) || !json_is_integer(c))
        return -1;
    json_int_t i = json_integer_value(r) - 1, j = json_integer_value(c) - 1;
    if (i < 0 || i >= s->n || j < 0 || j >= s->m || !legal(s, (int)(i * s->m + j)))
        return -1;
    return place(s, (int)(i * s->m + j));
}

/* A random one among the moves whose gain minus the opponent's margin
 * afterwards is the highest. */
static void oracle_move(void *p, unsigned *rng)
{
    state *s = p;
    int best[CELLS], count = 0;
    long top = 0;
    for (int cell = 0; cell < s->n * s->m; cell++) {
        if (!legal(s, cell))
            continue;
        long score = place(s, cell);
        score -= margin(s);
        unplace(s);
        if (count == 0 || score > top) {
            top = score;
            count = 0;
        }
        if (score == top)
            best[count++] = cell;
    }
    if (count > 0)
        place(s, best[play_random(rng) % (unsigned)count]);
}

static void free_state(void *p)
{
    free(p);
}

const play_game play_staircase_chess = {
    .name = "staircase-chess",
    .scored = 1,
    .start = start,
    .request = request,
    .oracle_value = oracle_value,
    .over = over,
    .apply = apply,
    .oracle_move = oracle_move,
    .free_state = free_state,
};
