/* rated.c - what the routes that learn from players share (rated.h). */
#include "rated.h"

#include <math.h>
#include <string.h>
#include <time.h>

#include "admission.h"

int rated_player_id(const char *s, size_t len, const char *field, gj_error *e)
{
    if (len == 0 || len > STORE_PLAYER_MAX - 1)
        return gj_fail_field(e, field, "expected a player id of 1 to %d bytes, not %zu",
                             STORE_PLAYER_MAX - 1, len);
    for (size_t i = 0; i < len; i++) {
        unsigned char c = (unsigned char)s[i];
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                  c == '.' || c == '_' || c == ':' || c == '@' || c == '-';
        if (!ok)
            return gj_fail_field(e, field,
                                 "byte %zu (0x%02x) is not one a player id may hold: letters, "
                                 "digits and . _ : @ -",
                                 i, c);
    }
    return 0;
}

int rated_number(const json_t *params, const char *name, double lo, double hi, double *out,
                 gj_error *e)
{
    const json_t *v = json_object_get(params, name);
    if (v == NULL)
        return 0;
    /* Decimal bounds as written ("0.01"), so the message shows them so. */
    if (!json_is_number(v) || json_number_value(v) < lo || json_number_value(v) > hi)
        return gj_fail_field(e, name, "expected a number from %g to %g", lo, hi);
    *out = json_number_value(v);
    return 0;
}

int rated_take(json_t *root, rated_player *r, gj_error *e)
{
    memset(r, 0, sizeof *r);
    const json_t *player = json_object_get(root, "player");
    const json_t *rating = json_object_get(root, "rating");
    const json_t *rd = json_object_get(root, "rating_deviation");
    const json_t *vol = json_object_get(root, "volatility");
    if (player != NULL) {
        if (!json_is_string(player))
            return gj_fail_field(e, "player", "expected a string, the player's id");
        size_t len = json_string_length(player);
        if (rated_player_id(json_string_value(player), len, "player", e) != 0)
            return -1;
        memcpy(r->player, json_string_value(player), len + 1);
        r->has_player = true;
    }
    if (rating == NULL && (rd != NULL || vol != NULL))
        return gj_fail_field(e, rd != NULL ? "rating_deviation" : "volatility",
                             "given without rating: the site's deviation and volatility go with "
                             "its rating");
    if (rating != NULL && player == NULL)
        return gj_fail_field(e, "rating", "given without player: whose rating is it?");
    r->rating = (glicko){GLICKO_START_RATING, GLICKO_START_RD, GLICKO_START_VOL};
    if (rated_number(root, "rating", GLICKO_RATING_MIN, GLICKO_RATING_MAX, &r->rating.rating, e) ||
        rated_number(root, "rating_deviation", GLICKO_RD_MIN, GLICKO_RD_MAX, &r->rating.rd, e) ||
        rated_number(root, "volatility", GLICKO_VOL_MIN, GLICKO_VOL_MAX, &r->rating.vol, e))
        return -1;
    r->has_rating = rating != NULL;
    json_object_del(root, "player");
    json_object_del(root, "rating");
    json_object_del(root, "rating_deviation");
    json_object_del(root, "volatility");
    return 0;
}

int rated_need_store(const job *j, const char *what, gj_error *e)
{
    if (j->rt->store != NULL)
        return j->rt->watch != NULL ? storewatch_health(j->rt->watch, e) : 0;
    return gj_fail(e, GJ_NOT_FOUND,
                   "%s needs the puzzle store, and this service runs without one (--store none); "
                   "start it with --store sqlite:PATH or --store postgresql://...",
                   what);
}

int rated_need_key(const job *j, bool always, const char *what, gj_error *e)
{
    if (j->by_key || (!always && j->rt->cfg->rated_plays_open))
        return 0;
    return gj_fail(e, GJ_UNAUTHORIZED,
                   "%s is only for a client holding an API key (the " ADMISSION_KEY_HEADER
                   " header, one of --api-keys)%s",
                   what, always ? "" : ", unless the service runs with --rated-plays anyone");
}

int rated_idempotency_key(const job *j, gj_error *e)
{
    const char *k = j->idempotency_key;
    if (k == NULL)
        return 0;
    size_t n = strlen(k);
    bool ok = n >= 1 && n <= STORE_KEY_MAX - 1;
    for (size_t i = 0; ok && i < n; i++)
        ok = k[i] >= 0x20 && k[i] <= 0x7e;
    if (ok)
        return 0;
    return gj_fail_field(e, "Idempotency-Key", "expected 1 to %d printable ASCII bytes",
                         STORE_KEY_MAX - 1);
}

long long rated_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rated_put_fixed(gj_buf *out, double v, int decimals)
{
    long long scale = decimals == 2 ? 100 : decimals == 4 ? 10000 : 1000000;
    long long units = llround(v * (double)scale);
    if (units < 0) { /* a change rounded to zero is 0.00, never -0.00 */
        buf_putc(out, '-');
        units = -units;
    }
    buf_put_long(out, units / scale);
    char digits[8] = "";
    long long rest = units % scale;
    for (int i = decimals - 1; i >= 0; i--) {
        digits[i] = (char)('0' + rest % 10);
        rest /= 10;
    }
    int n = decimals;
    while (n > 0 && digits[n - 1] == '0')
        n--;
    if (n > 0) {
        buf_putc(out, '.');
        buf_append(out, digits, (size_t)n);
    }
}

void rated_put_stats(gj_buf *out, const store_puzzle *p)
{
    buf_puts(out, "\"rating\":");
    rated_put_fixed(out, p->rating.rating, 2);
    buf_puts(out, ",\"rating_deviation\":");
    rated_put_fixed(out, p->rating.rd, 2);
    buf_puts(out, ",\"volatility\":");
    rated_put_fixed(out, p->rating.vol, 6);
    buf_puts(out, ",\"plays\":");
    buf_put_long(out, p->plays);
    buf_puts(out, ",\"wins\":");
    buf_put_long(out, p->wins);
    buf_puts(out, ",\"success_rate\":");
    if (p->plays > 0)
        rated_put_fixed(out, (double)p->wins / (double)p->plays, 4);
    else
        buf_puts(out, "null");
}

int rated_extend(gj_buf *out, const char *members, size_t len)
{
    if (out->failed || out->len == 0 || out->data[out->len - 1] != '}')
        return -1;
    out->len--;
    buf_append(out, members, len);
    buf_putc(out, '}');
    return 0;
}

void rated_put_player(gj_buf *out, glicko before, glicko after)
{
    buf_puts(out, "\"rating\":");
    rated_put_fixed(out, after.rating, 2);
    buf_puts(out, ",\"rating_deviation\":");
    rated_put_fixed(out, after.rd, 2);
    buf_puts(out, ",\"volatility\":");
    rated_put_fixed(out, after.vol, 6);
    buf_puts(out, ",\"change\":");
    long long change = llround(after.rating * 100) - llround(before.rating * 100);
    rated_put_fixed(out, (double)change / 100, 2);
}
