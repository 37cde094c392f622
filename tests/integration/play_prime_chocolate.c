/* play_prime_chocolate.c - prime-chocolate's side of the scripted games.
 *
 * A state is a small bar (side 1..5, at most 16 squares of chocolate so the
 * oracle answers at once), the primes already chosen and the player to move.
 * Starts have random squares eaten and random primes used; the oracle
 * (tests/oracle, a game-tree search from the rules) judges every state. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "play.h"
#include "prime_chocolate_oracle.h"

#define SIDE_MAX  5
#define CHOCO_MAX 16

typedef struct state {
    int n;
    unsigned char cell[SIDE_MAX * SIDE_MAX];
    unsigned char used[SIDE_MAX + 1]; /* used[p]: prime p chosen */
    int dia;                          /* DIA to move */
} state;

static int chocolate(const state *s)
{
    int c = 0;
    for (int k = 0; k < s->n * s->n; k++)
        c += s->cell[k];
    return c;
}

static void *start(unsigned seed)
{
    state *s = calloc(1, sizeof *s);
    if (s == NULL)
        return NULL;
    unsigned rng = seed * 2654435761u + 1u;
    s->n = 1 + (int)(play_random(&rng) % SIDE_MAX);
    unsigned eaten = play_random(&rng) % 50; /* percent */
    for (int k = 0; k < s->n * s->n; k++)
        s->cell[k] = play_random(&rng) % 100 >= eaten;
    for (int left = chocolate(s); left > CHOCO_MAX;) {
        int k = (int)(play_random(&rng) % (unsigned)(s->n * s->n));
        if (s->cell[k]) {
            s->cell[k] = 0;
            left--;
        }
    }
    for (int p = 2; p <= s->n; p++)
        s->used[p] = prime_chocolate_oracle_is_prime(p) && play_random(&rng) % 3 == 0;
    s->dia = (int)(play_random(&rng) % 2);
    return s;
}

static char *request(const void *p)
{
    const state *s = p;
    size_t cap = 128 + (size_t)(s->n * (s->n + 4)), o = 0;
    char *body = malloc(cap);
    if (body == NULL)
        return NULL;
    o += (size_t)snprintf(body + o, cap - o, "{\"grid\": [");
    for (int i = 0; i < s->n; i++) {
        o += (size_t)snprintf(body + o, cap - o, "%s\"", i ? ", " : "");
        for (int j = 0; j < s->n; j++)
            body[o++] = s->cell[i * s->n + j] ? '-' : 'X';
        body[o++] = '"';
    }
    o += (size_t)snprintf(body + o, cap - o, "], \"primes_used\": [");
    const char *sep = "";
    for (int q = 2; q <= s->n; q++)
        if (s->used[q]) {
            o += (size_t)snprintf(body + o, cap - o, "%s%d", sep, q);
            sep = ", ";
        }
    snprintf(body + o, cap - o, "], \"to_move\": \"%s\"}", s->dia ? "DIA" : "RUBY");
    return body;
}

static long oracle_value(const void *p)
{
    const state *s = p;
    return prime_chocolate_oracle_mid(s->n, s->cell, s->used, NULL, 0, NULL);
}

static int over(const void *p)
{
    return chocolate(p) == 0;
}

/* Eat the square at 0-based (r, c) of side `size` if the rules allow it. */
static long play(state *s, int r, int c, int size)
{
    if (size < 1 || r < 0 || c < 0 || r + size > s->n || c + size > s->n)
        return -1;
    if (size > 1 && (!prime_chocolate_oracle_is_prime(size) || s->used[size]))
        return -1;
    for (int i = r; i < r + size; i++)
        for (int j = c; j < c + size; j++)
            if (!s->cell[i * s->n + j])
                return -1;
    for (int i = r; i < r + size; i++)
        for (int j = c; j < c + size; j++)
            s->cell[i * s->n + j] = 0;
    /* size <= SIDE_MAX was checked above; cppcheck loses track of it. */
    if (size > 1)
        s->used[size] = 1; // cppcheck-suppress arrayIndexOutOfBoundsCond
    s->dia = !s->dia;
    return 0;
}

static int member(const json_t *move, const char *key, int *out)
{
    const json_t *v = json_object_get(move, key);
    if (!json_is_integer(v) || json_integer_value(v) < -1000 || json_integer_value(v) > 1000)
        return -1;
    *out = (int)json_integer_value(v);
    return 0;
}

static long apply(void *p, const json_t *move)
{
    int row, col, size;
    if (!json_is_object(move) || member(move, "row", &row) != 0 || member(move, "col", &col) != 0 ||
        member(move, "size", &size) != 0)
        return -1;
    return play(p, row - 1, col - 1, size);
}

static void oracle_move(void *p, unsigned *rng)
{
    state *s = p;
    pc_oracle_move moves[256];
    int count = 0, best = 0;
    if (prime_chocolate_oracle_mid(s->n, s->cell, s->used, moves, 256, &count) < 0 || count == 0)
        return;
    if (count > 256)
        count = 256;
    for (int k = 0; k < count; k++)
        if (!moves[k].opponent_wins)
            moves[best++] = moves[k];
    int pool = best > 0 ? best : count;
    const pc_oracle_move *m = &moves[play_random(rng) % (unsigned)pool];
    play(s, m->row, m->col, m->size);
}

static void free_state(void *p)
{
    free(p);
}

const play_game play_prime_chocolate = {
    .name = "prime-chocolate",
    .scored = 0,
    .start = start,
    .request = request,
    .oracle_value = oracle_value,
    .over = over,
    .apply = apply,
    .oracle_move = oracle_move,
    .free_state = free_state,
};
