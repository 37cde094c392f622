/* prime_chocolate_generate.c - POST /generate/prime-chocolate: random bars.
 *
 * Knobs: "n" (the side, default 4, at most the limit in force and
 * PC_GEN_MAX_N), "eaten" (the share of squares already eaten, 0..1,
 * default 0.3: each square is eaten with that chance) and "primes_used"
 * (primes already chosen, each at most n; giving it makes the position one
 * in play, as does "winning_moves"; with 2 used every move has the same
 * outcome, so a winning_moves above 0 is refused).  RUBY is to move: the opening's
 * outcome is hers; in play the /analyze body leaves to_move at its default,
 * RUBY.
 *
 * The most moves such a position has (pc_gen_most): every square single,
 * n^2, plus every full p x p square of each prime p <= n not used,
 * (n - p + 1)^2 each; the whole bar (eaten 0, or any chance below 1 on a
 * lucky draw) reaches it.  With eaten 1 nothing is left: no move. */
#include <stdio.h>

#include "prime_chocolate.h"
#include "generate.h"
#include "json_in.h"
#include "prime_chocolate_core.h"

#define PC_GEN_MAX_N 64

typedef struct knobs {
    long n;
    double eaten;
    long primes[PC_GEN_MAX_N]; /* primes_used */
    long nprimes;
} knobs;

const char *const prime_chocolate_generate_knobs[] = {"n", "eaten", "primes_used", NULL};

/* "primes_used": distinct primes up to n, in k->primes. */
static int read_primes(const json_t *v, knobs *k, gj_error *e)
{
    if (jin_array(v, "primes_used", -1, 0, (size_t)k->n, e) != 0)
        return -1;
    for (size_t i = 0; i < json_array_size(v); i++) {
        long p;
        char field[48];
        jin_field_name(field, sizeof field, "primes_used", (long)i, -1);
        if (jin_long(json_array_get(v, i), "primes_used", (long)i, -1, 2, k->n, &p, e) != 0)
            return -1;
        if (!pc_is_prime(p))
            return gj_fail_field(e, field, "%ld is not a prime", p);
        for (long j = 0; j < k->nprimes; j++)
            if (k->primes[j] == p)
                return gj_fail_field(e, field, "%ld is listed twice", p);
        k->primes[k->nprimes++] = p;
    }
    return 0;
}

/* The limit in force: n (prime_chocolate.c's only one). */
static int read_knobs(gen_request *req, const long *limits, void *out, gj_error *e)
{
    knobs *k = out;
    char limit[48];
    k->n = gen_cap(4, limits[0]); /* the default fits any limit in force */
    k->eaten = 0.3;
    k->nprimes = 0;
    snprintf(limit, sizeof limit, "prime-chocolate.n %ld or %d", limits[0], PC_GEN_MAX_N);
    if (gen_long(req->root, "n", 1, gen_cap(limits[0], PC_GEN_MAX_N), limit, &k->n, e) != 0 ||
        gen_share(req->root, "eaten", 0, 1, &k->eaten, e) != 0)
        return -1;
    const json_t *v = json_object_get(req->root, "primes_used");
    if (v != NULL) {
        if (read_primes(v, k, e) != 0)
            return -1;
        req->in_play = true;
    }
    for (long i = 0; i < k->nprimes && req->winning_moves > 0; i++)
        if (k->primes[i] == 2)
            return gj_fail_field(e, "winning_moves",
                                 "%ld is impossible with 2 used: every move then eats an odd "
                                 "count, so all moves win or all lose",
                                 req->winning_moves);
    req->most_moves = k->eaten >= 1 ? 0 : pc_gen_most(k->n, k->primes, k->nprimes);
    return 0;
}

long pc_gen_most(long n, const long *used, long nused)
{
    long most = n * n;
    for (long p = 2; p <= n; p++) {
        bool taken = false;
        for (long i = 0; i < nused; i++)
            taken = taken || used[i] == p;
        if (pc_is_prime(p) && !taken)
            most += (n - p + 1) * (n - p + 1);
    }
    return most;
}

/* One random bar. */
static int sample(gj_rng *r, const gen_request *req, const void *in, gen_candidate *c)
{
    const knobs *k = in;
    buf_put_long(&c->input, k->n);
    buf_putc(&c->input, '\n');
    buf_puts(&c->position, "{\"grid\":[");
    for (long i = 0; i < k->n; i++) {
        char row[PC_GEN_MAX_N];
        for (long j = 0; j < k->n; j++)
            row[j] = gj_rng_chance(r, k->eaten) ? 'X' : '-';
        gen_put_row(c, i, row, (size_t)k->n);
    }
    buf_putc(&c->position, ']');
    if (req->in_play) {
        buf_puts(&c->position, ",\"primes_used\":[");
        for (long i = 0; i < k->nprimes; i++) {
            if (i)
                buf_putc(&c->position, ',');
            buf_put_long(&c->position, k->primes[i]);
        }
        buf_putc(&c->position, ']');
    }
    buf_putc(&c->position, '}');
    return 0;
}

/* RUBY moves first. */
static int score(const json_t *answer, long long *out)
{
    return gen_score_word(json_object_get(answer, "winner"), "RUBY", out);
}

static const gen_spec spec = {
    .game = &game_prime_chocolate,
    .knobs = prime_chocolate_generate_knobs,
    .read = read_knobs,
    .sample = sample,
    .score = score,
};

int prime_chocolate_generate(const char *buf, size_t len, const long *limits, gj_buf *out,
                             gj_error *e)
{
    knobs k;
    return gen_run(&spec, buf, len, limits, &k, out, e);
}

int prime_chocolate_generate_most(const char *buf, size_t len, const long *limits, long long *most,
                                  int *scored, gj_error *e)
{
    knobs k;
    return gen_most(&spec, buf, len, limits, &k, most, scored, e);
}

int prime_chocolate_generate_keep(const char *buf, size_t len, const long *limits, gen_kept *kept,
                                  gj_error *e)
{
    knobs k;
    return gen_keep(&spec, buf, len, limits, &k, kept, e);
}
