/* glicko2.c - Glickman's steps 2 to 8 for one player over one rating
 * period.  Everything is computed on the Glicko-2 scale (mu, phi) and
 * converted back at the end; nothing here is clamped, so the property
 * tests can see the raw arithmetic and glicko_clamp applies the store's
 * ranges separately. */
#include "glicko2.h"

#include <math.h>

/* pi, which C11 leaves to the platform (M_PI is POSIX XSI, not C). */
#define GLICKO_PI 3.14159265358979323846

/* Glickman's g(phi): how much an opponent's uncertainty flattens the expected score. */
static double glicko_g(double phi)
{
    return 1.0 / sqrt(1.0 + 3.0 * phi * phi / (GLICKO_PI * GLICKO_PI));
}

/* Glickman's E(mu, mu_j, phi_j): the expected score against opponent j. */
static double glicko_e(double mu, double mu_j, double phi_j)
{
    return 1.0 / (1.0 + exp(-glicko_g(phi_j) * (mu - mu_j)));
}

/* Step 5's f(x), whose root is the log of the new volatility squared. */
static double vol_f(double x, double delta, double phi, double v, double a, double tau)
{
    double ex = exp(x);
    double d = phi * phi + v + ex;
    return ex * (delta * delta - phi * phi - v - ex) / (2.0 * d * d) - (x - a) / (tau * tau);
}

/* Step 5: the new volatility, by the Illinois algorithm from the bracket
 * Glickman prescribes (5.2) to his tolerance (5.4). */
static double new_volatility(double sigma, double delta, double phi, double v, double tau)
{
    double a = log(sigma * sigma);
    double big_a = a, big_b;
    if (delta * delta > phi * phi + v) {
        big_b = log(delta * delta - phi * phi - v);
    } else {
        double k = 1.0;
        while (vol_f(a - k * tau, delta, phi, v, a, tau) < 0.0)
            k += 1.0;
        big_b = a - k * tau;
    }
    double fa = vol_f(big_a, delta, phi, v, a, tau);
    double fb = vol_f(big_b, delta, phi, v, a, tau);
    while (fabs(big_b - big_a) > GLICKO_EPSILON) {
        double big_c = big_a + (big_a - big_b) * fa / (fb - fa);
        double fc = vol_f(big_c, delta, phi, v, a, tau);
        if (fc * fb <= 0.0) {
            big_a = big_b;
            fa = fb;
        } else {
            fa /= 2.0;
        }
        big_b = big_c;
        fb = fc;
    }
    return exp(big_a / 2.0);
}

glicko glicko_update(glicko me, const glicko *opp, const double *score, size_t n, double tau)
{
    double mu = (me.rating - 1500.0) / GLICKO_SCALE;
    double phi = me.rd / GLICKO_SCALE;
    if (n == 0) {
        /* Step 6 alone: a period without games only widens the deviation. */
        me.rd = sqrt(phi * phi + me.vol * me.vol) * GLICKO_SCALE;
        return me;
    }
    /* Steps 3 and 4: the estimated variance v and the improvement delta. */
    double inv_v = 0.0, sum = 0.0;
    for (size_t j = 0; j < n; j++) {
        double mu_j = (opp[j].rating - 1500.0) / GLICKO_SCALE;
        double phi_j = opp[j].rd / GLICKO_SCALE;
        double g = glicko_g(phi_j);
        double e = glicko_e(mu, mu_j, phi_j);
        inv_v += g * g * e * (1.0 - e);
        sum += g * (score[j] - e);
    }
    double v = 1.0 / inv_v;
    double delta = v * sum;
    double sigma = new_volatility(me.vol, delta, phi, v, tau);
    /* Steps 6 to 8. */
    double phi_star = sqrt(phi * phi + sigma * sigma);
    double phi_new = 1.0 / sqrt(1.0 / (phi_star * phi_star) + 1.0 / v);
    double mu_new = mu + phi_new * phi_new * sum;
    glicko out = {GLICKO_SCALE * mu_new + 1500.0, GLICKO_SCALE * phi_new, sigma};
    return out;
}

/* x held within [lo, hi]; a NaN becomes lo, so nothing out of range is ever stored. */
static double clamp_to(double x, double lo, double hi)
{
    if (!(x >= lo))
        return lo;
    return x > hi ? hi : x;
}

glicko glicko_clamp(glicko g)
{
    g.rating = clamp_to(g.rating, GLICKO_RATING_MIN, GLICKO_RATING_MAX);
    g.rd = clamp_to(g.rd, GLICKO_RD_MIN, GLICKO_RD_MAX);
    g.vol = clamp_to(g.vol, GLICKO_VOL_MIN, GLICKO_VOL_MAX);
    return g;
}

double glicko_expected(glicko a, glicko b)
{
    return glicko_e((a.rating - 1500.0) / GLICKO_SCALE, (b.rating - 1500.0) / GLICKO_SCALE,
                    b.rd / GLICKO_SCALE);
}
