/* test_glicko2.c - Glicko-2 (glicko2.h): Glickman's worked example, an
 * independent re-derivation as the oracle (the volatility's root found by
 * bisection rather than the Illinois iteration) over thousands of seeded
 * random periods, and the properties the store relies on: a win never
 * lowers a rating nor a loss raises it, a game shrinks the deviation below
 * the period's growth, the expected score is a probability and symmetric,
 * and the clamp holds the ranges. */
#include <check.h>
#include <math.h>
#include <stdint.h>

#include "glicko2.h"
#include "harness.h"

/* Uniform in [lo, hi), from the seeded generator. */
static double uniform(uint64_t *rng, double lo, double hi)
{
    return lo + (hi - lo) * (double)(rng_next(rng) >> 11) / 9007199254740992.0;
}

/* A random rating within the store's ranges. */
static glicko random_rating(uint64_t *rng)
{
    glicko g = {uniform(rng, GLICKO_RATING_MIN, GLICKO_RATING_MAX),
                uniform(rng, GLICKO_RD_MIN, GLICKO_RD_MAX),
                uniform(rng, GLICKO_VOL_MIN, GLICKO_VOL_MAX)};
    return g;
}

/* Glickman's f(x) of step 5, written out from the paper. */
static double oracle_f(double x, double delta, double phi, double v, double a, double tau)
{
    double d = phi * phi + v + exp(x);
    return exp(x) * (delta * delta - phi * phi - v - exp(x)) / (2 * d * d) - (x - a) / (tau * tau);
}

/* The oracle: Glickman's steps written out again from the paper, step 5's
 * root of f found by plain bisection over a bracket widened until f
 * changes sign (f falls strictly, so the root is unique). */
static glicko oracle_update(glicko me, const glicko *opp, const double *score, size_t n, double tau)
{
    const double pi = 3.14159265358979323846, k = 173.7178;
    double mu = (me.rating - 1500) / k, phi = me.rd / k;
    double vsum = 0, dsum = 0;
    for (size_t j = 0; j < n; j++) {
        double muj = (opp[j].rating - 1500) / k, phij = opp[j].rd / k;
        double g = 1 / sqrt(1 + 3 * phij * phij / (pi * pi));
        double e = 1 / (1 + exp(-g * (mu - muj)));
        vsum += g * g * e * (1 - e);
        dsum += g * (score[j] - e);
    }
    double v = 1 / vsum, delta = v * dsum, a = log(me.vol * me.vol);
    double lo = a - 1, hi = a + 1;
    while (oracle_f(lo, delta, phi, v, a, tau) < 0)
        lo -= 1;
    while (oracle_f(hi, delta, phi, v, a, tau) > 0)
        hi += 1;
    for (int i = 0; i < 200; i++) {
        double mid = (lo + hi) / 2;
        if (oracle_f(mid, delta, phi, v, a, tau) > 0)
            lo = mid;
        else
            hi = mid;
    }
    double sigma = exp((lo + hi) / 4);
    double phis = sqrt(phi * phi + sigma * sigma);
    double phin = 1 / sqrt(1 / (phis * phis) + 1 / v);
    glicko out = {k * (mu + phin * phin * dsum) + 1500, k * phin, sigma};
    return out;
}

START_TEST(test_glickman_example)
{
    glicko me = {1500, 200, 0.06};
    const glicko opp[] = {{1400, 30, 0.06}, {1550, 100, 0.06}, {1700, 300, 0.06}};
    const double score[] = {1, 0, 0};
    glicko r = glicko_update(me, opp, score, 3, 0.5);
    ck_assert_double_eq_tol(r.rating, 1464.06, 0.01);
    ck_assert_double_eq_tol(r.rd, 151.52, 0.01);
    ck_assert_double_eq_tol(r.vol, 0.05999, 0.00001);
    ck_assert(GLICKO_TAU == 0.5);
    /* The oracle agrees with the paper too, so the cross-check below
     * compares two right answers and not two alike wrong ones. */
    glicko o = oracle_update(me, opp, score, 3, 0.5);
    ck_assert_double_eq_tol(o.rating, 1464.06, 0.01);
    ck_assert_double_eq_tol(o.rd, 151.52, 0.01);
    ck_assert_double_eq_tol(o.vol, 0.05999, 0.00001);
}
END_TEST

START_TEST(test_matches_oracle)
{
    uint64_t rng = 0x6c69636865737331ULL;
    for (int i = 0; i < 5000; i++) {
        glicko me = random_rating(&rng), opp[4];
        double score[4];
        size_t n = 1 + rng_below(&rng, 4);
        for (size_t j = 0; j < n; j++) {
            opp[j] = random_rating(&rng);
            score[j] = (double)rng_below(&rng, 3) / 2;
        }
        double tau = uniform(&rng, 0.3, 1.2);
        glicko r = glicko_update(me, opp, score, n, tau);
        glicko o = oracle_update(me, opp, score, n, tau);
        ck_assert_msg(fabs(r.rating - o.rating) < 1e-4 && fabs(r.rd - o.rd) < 1e-4 &&
                          fabs(r.vol - o.vol) < 1e-7,
                      "case %d: %.9f/%.9f/%.9f, oracle %.9f/%.9f/%.9f", i, r.rating, r.rd, r.vol,
                      o.rating, o.rd, o.vol);
    }
}
END_TEST

START_TEST(test_direction)
{
    uint64_t rng = 0x646972656374ULL;
    for (int i = 0; i < 20000; i++) {
        glicko me = random_rating(&rng), opp = random_rating(&rng);
        double win = 1, loss = 0;
        glicko w = glicko_update(me, &opp, &win, 1, GLICKO_TAU);
        glicko l = glicko_update(me, &opp, &loss, 1, GLICKO_TAU);
        ck_assert_msg(w.rating >= me.rating, "case %d: a win lowered %.6f to %.6f", i, me.rating,
                      w.rating);
        ck_assert_msg(l.rating <= me.rating, "case %d: a loss raised %.6f to %.6f", i, me.rating,
                      l.rating);
        /* The clamp keeps the direction, as the store applies it. */
        ck_assert(glicko_clamp(w).rating >= glicko_clamp(me).rating);
        ck_assert(glicko_clamp(l).rating <= glicko_clamp(me).rating);
    }
}
END_TEST

START_TEST(test_deviation_shrinks)
{
    uint64_t rng = 0x646576696174ULL;
    for (int i = 0; i < 20000; i++) {
        glicko me = random_rating(&rng), opp = random_rating(&rng);
        double s = (double)rng_below(&rng, 2);
        glicko r = glicko_update(me, &opp, &s, 1, GLICKO_TAU);
        double grown = sqrt(me.rd * me.rd + (r.vol * GLICKO_SCALE) * (r.vol * GLICKO_SCALE));
        ck_assert_msg(r.rd < grown, "case %d: deviation %.6f not below %.6f", i, r.rd, grown);
        ck_assert(r.rd > 0 && r.vol > 0);
    }
    /* A period without games only widens the deviation, by the volatility. */
    glicko idle = glicko_update((glicko){1500, 100, 0.06}, NULL, NULL, 0, GLICKO_TAU);
    ck_assert_double_eq_tol(idle.rd, sqrt(100.0 * 100.0 + pow(0.06 * GLICKO_SCALE, 2)), 1e-9);
    ck_assert(idle.rating == 1500 && idle.vol == 0.06);
}
END_TEST

START_TEST(test_many_games_converge)
{
    uint64_t rng = 0x636f6e76ULL;
    for (int run = 0; run < 200; run++) {
        glicko me = {uniform(&rng, 1000, 2000), GLICKO_START_RD, GLICKO_START_VOL};
        double first = me.rd;
        /* Opponents of the player's own strength, results as expected on
         * average: the deviation falls from the start and stays low. */
        for (int k = 0; k < 300; k++) {
            glicko opp = {me.rating + uniform(&rng, -50, 50), uniform(&rng, 40, 80), 0.06};
            double s = (double)(k % 2);
            glicko next = glicko_clamp(glicko_update(me, &opp, &s, 1, GLICKO_TAU));
            if (me.rd > 120)
                ck_assert_msg(next.rd < me.rd, "run %d game %d: %.3f -> %.3f", run, k, me.rd,
                              next.rd);
            me = next;
        }
        ck_assert_msg(me.rd < 100 && me.rd >= GLICKO_RD_MIN && me.rd < first,
                      "run %d: deviation %.3f after 300 games", run, me.rd);
    }
}
END_TEST

START_TEST(test_expected)
{
    uint64_t rng = 0x657870ULL;
    for (int i = 0; i < 20000; i++) {
        glicko a = random_rating(&rng), b = random_rating(&rng);
        double e = glicko_expected(a, b);
        ck_assert_msg(e > 0 && e < 1, "case %d: %.17g", i, e);
        b.rd = a.rd;
        ck_assert_double_eq_tol(glicko_expected(a, b) + glicko_expected(b, a), 1.0, 1e-12);
        /* Stronger is expected to score more. */
        glicko c = b;
        c.rating = b.rating + 1;
        ck_assert(glicko_expected(a, c) < glicko_expected(a, b));
    }
    ck_assert_double_eq_tol(glicko_expected((glicko){1500, 350, 0.06}, (glicko){1500, 50, 0.06}),
                            0.5, 1e-15);
}
END_TEST

START_TEST(test_clamp)
{
    uint64_t rng = 0x636c616d70ULL;
    for (int i = 0; i < 20000; i++) {
        glicko g = {uniform(&rng, -1000, 9000), uniform(&rng, -10, 2000), uniform(&rng, -1, 2)};
        glicko c = glicko_clamp(g);
        ck_assert(c.rating >= GLICKO_RATING_MIN && c.rating <= GLICKO_RATING_MAX);
        ck_assert(c.rd >= GLICKO_RD_MIN && c.rd <= GLICKO_RD_MAX);
        ck_assert(c.vol >= GLICKO_VOL_MIN && c.vol <= GLICKO_VOL_MAX);
        if (g.rating >= GLICKO_RATING_MIN && g.rating <= GLICKO_RATING_MAX)
            ck_assert(c.rating == g.rating);
        if (g.rd >= GLICKO_RD_MIN && g.rd <= GLICKO_RD_MAX)
            ck_assert(c.rd == g.rd);
        if (g.vol >= GLICKO_VOL_MIN && g.vol <= GLICKO_VOL_MAX)
            ck_assert(c.vol == g.vol);
    }
    glicko nan = glicko_clamp((glicko){NAN, NAN, NAN});
    ck_assert(nan.rating == GLICKO_RATING_MIN && nan.rd == GLICKO_RD_MIN &&
              nan.vol == GLICKO_VOL_MIN);
}
END_TEST

int main(void)
{
    const harness_case cases[] = {
        {"glickman example", test_glickman_example},
        {"matches oracle", test_matches_oracle},
        {"direction", test_direction},
        {"deviation shrinks", test_deviation_shrinks},
        {"many games converge", test_many_games_converge},
        {"expected", test_expected},
        {"clamp", test_clamp},
    };
    return harness_main(harness_suite("glicko2", cases, sizeof cases / sizeof cases[0], 60));
}
