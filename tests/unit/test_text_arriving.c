/* test_text_arriving.c - judge text read as it arrives (game.h's read_text)
 * against the same bytes read whole (parse_text), for every game.
 *
 * The daemon feeds a /solve text body to the game's reader piece by piece
 * as libmicrohttpd hands it over; the answer must not depend on where the
 * pieces split.  Each body here, a generated position's judge text damaged
 * in random ways (cut short, a byte put in or taken out, a token replaced,
 * copied or moved, blanks of every kind, something after the end), is read
 * whole and then fed at once, a byte at a time and in random pieces: the
 * same position (its cache key) or the same error (kind, message, line and
 * column) every time.  Limits are sometimes lowered so the size checks
 * refuse too. */
#include <check.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "buf.h"
#include "games.h"
#include "generate.h"
#include "harness.h"
#include "reader.h"

enum {
    SEEDS = 24,         /* generated positions per game */
    VARIANTS = 48,      /* bodies made of each */
    BYTEWISE_MAX = 3000 /* bodies fed a byte at a time, up to this length */
};

/* What the bodies of one game came to. */
typedef struct tally {
    long positions, errors, later_lines; /* errors past line 1 */
} tally;

/* The judge text g's generator writes for `seed`, malloc'd, *len set. */
static char *generated_text(const gj_game *g, long seed, size_t *len)
{
    long limits[GEN_NLIMITS];
    char req[64];
    gj_buf out;
    gj_error e;
    buf_init(&out);
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 2000;
    snprintf(req, sizeof req, "{\"seed\": %ld}", seed);
    ck_assert_msg(g->generate(req, strlen(req), limits, &out, &e) == 0, "%s seed %ld: %s", g->name,
                  seed, e.message);
    json_error_t je;
    json_t *a = json_loadb(out.data, out.len, 0, &je);
    ck_assert_msg(a != NULL, "%s: the answer is no JSON: %s", g->name, je.text);
    const char *in = json_string_value(json_object_get(a, "input"));
    ck_assert_msg(in != NULL, "%s: no input in the generated answer", g->name);
    *len = strlen(in);
    char *text = malloc(*len + 1);
    ck_assert_ptr_nonnull(text);
    memcpy(text, in, *len + 1);
    json_decref(a);
    buf_free(&out);
    return text;
}

/* pos's cache key (equal exactly when the positions are), malloc'd. */
static char *key_of(const gj_game *g, const void *pos, size_t *len)
{
    gj_buf b;
    buf_init(&b);
    g->write_key(pos, &b);
    ck_assert(!b.failed);
    return buf_take(&b, len);
}

/* body read whole and fed every way: the same position or error. */
static void compare(const gj_game *g, const char *body, size_t len, const long *lim, uint64_t *rng,
                    tally *t)
{
    gj_error want_e;
    gj_error_clear(&want_e);
    void *want = g->parse_text(body, len, lim, &want_e);
    size_t want_len = 0;
    char *want_key = want != NULL ? key_of(g, want, &want_len) : NULL;
    if (want != NULL)
        t->positions++;
    else {
        t->errors++;
        t->later_lines += want_e.line > 1;
    }
    const int shown = (int)(len < 200 ? len : 200);
    const size_t pieces[] = {0, 1, 7, 300};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && len > BYTEWISE_MAX)
            continue;
        gj_error got_e;
        gj_error_clear(&got_e);
        void *got = harness_read_fed(g->read_text, body, len, lim, pieces[p], 0, rng, &got_e);
        if (want == NULL) {
            ck_assert_msg(got == NULL, "%s: whole \"%s\", fed in pieces of %zu it was taken: %.*s",
                          g->name, want_e.message, pieces[p], shown, body);
            ck_assert_msg(got_e.kind == want_e.kind && strcmp(got_e.message, want_e.message) == 0 &&
                              strcmp(got_e.field, want_e.field) == 0 && got_e.line == want_e.line &&
                              got_e.column == want_e.column,
                          "%s: whole [%ld:%ld] %s\nfed (%zu): [%ld:%ld] %s\nbody: %.*s", g->name,
                          want_e.line, want_e.column, want_e.message, pieces[p], got_e.line,
                          got_e.column, got_e.message, shown, body);
            continue;
        }
        ck_assert_msg(got != NULL,
                      "%s: fed in pieces of %zu it says \"%s\", whole it is taken: %.*s", g->name,
                      pieces[p], got_e.message, shown, body);
        size_t got_len;
        char *got_key = key_of(g, got, &got_len);
        ck_assert_msg(got_len == want_len && memcmp(got_key, want_key, want_len) == 0,
                      "%s: fed in pieces of %zu, another position: %.*s", g->name, pieces[p], shown,
                      body);
        free(got_key);
        g->free_position(got);
    }
    free(want_key);
    if (want != NULL)
        g->free_position(want);
}

/* Where the tokens of text[0..len) start: up to cap, their count returned. */
static size_t token_starts(const char *text, size_t len, size_t *at, size_t cap)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n < cap; i++)
        if (!reader_is_space((unsigned char)text[i]) &&
            (i == 0 || reader_is_space((unsigned char)text[i - 1])))
            at[n++] = i;
    return n;
}

/* The length of the token at text[i]. */
static size_t token_len(const char *text, size_t len, size_t i)
{
    size_t j = i;
    while (j < len && !reader_is_space((unsigned char)text[j]))
        j++;
    return j - i;
}

/* b with bytes[0..n) put in place of b[at..at+cut). */
static void splice(gj_buf *b, size_t at, size_t cut, const char *bytes, size_t n)
{
    gj_buf out;
    buf_init(&out);
    buf_append(&out, b->data, at);
    buf_append(&out, bytes, n);
    buf_append(&out, b->data + at + cut, b->len - at - cut);
    ck_assert(!out.failed);
    buf_free(b);
    *b = out;
}

/* One random damage to the body in b. */
static void damage(gj_buf *b, uint64_t *rng)
{
    static const char bytes[] = "0123456789-+ \t\n\r\v\f.#X-a\x01\xe2\x80\x93";
    static const char *const tokens[] = {"0",  "-1",  "1",   "2",   "99999999999999999999",
                                         "+3", "1e3", "#.#", "-X-", "\xe2\x80\x93",
                                         "00", "3.0"};
    static const char *const blanks[] = {" ", "\n", "\r\n", "\t", "\v", "\f", "  \n \n", "\n\n\n"};
    size_t at[4096];
    size_t ntok = token_starts(b->data, b->len, at, sizeof at / sizeof at[0]);
    size_t where = (size_t)rng_below(rng, b->len + 1);
    switch (rng_below(rng, 9)) {
    case 0: /* cut short */
        b->len = where;
        break;
    case 1: /* a byte put in */
        splice(b, where, 0, &bytes[rng_below(rng, sizeof bytes - 1)], 1);
        break;
    case 2: /* a byte taken out */
        if (where < b->len)
            splice(b, where, 1, "", 0);
        break;
    case 3: /* a token replaced */
        if (ntok > 0) {
            size_t i = at[rng_below(rng, ntok)];
            const char *s = tokens[rng_below(rng, sizeof tokens / sizeof tokens[0])];
            splice(b, i, token_len(b->data, b->len, i), s, strlen(s));
        }
        break;
    case 4: /* a token copied over another (repeats) */
        if (ntok > 1) {
            size_t from = at[rng_below(rng, ntok)], to = at[rng_below(rng, ntok)];
            size_t n = token_len(b->data, b->len, from);
            char copy[256];
            if (n < sizeof copy) {
                memcpy(copy, b->data + from, n);
                splice(b, to, token_len(b->data, b->len, to), copy, n);
            }
        }
        break;
    case 5: { /* a blank made another run of blanks */
        size_t i = where;
        while (i < b->len && !reader_is_space((unsigned char)b->data[i]))
            i++;
        if (i < b->len) {
            const char *s = blanks[rng_below(rng, sizeof blanks / sizeof blanks[0])];
            splice(b, i, 1, s, strlen(s));
        }
        break;
    }
    case 6: { /* something after the end */
        static const char *const tails[] = {" x", "\n\n", " 0", "\n1 2", "\n#"};
        const char *s = tails[rng_below(rng, sizeof tails / sizeof tails[0])];
        buf_append(b, s, strlen(s));
        break;
    }
    case 7: { /* blanks before */
        const char *s = blanks[rng_below(rng, sizeof blanks / sizeof blanks[0])];
        splice(b, 0, 0, s, strlen(s));
        break;
    }
    default: /* a token taken out */
        if (ntok > 0) {
            size_t i = at[rng_below(rng, ntok)];
            splice(b, i, token_len(b->data, b->len, i), "", 0);
        }
        break;
    }
}

/* limits: g's defaults, each lowered to a random value one time in eight. */
static void draw_limits(const gj_game *g, long *lim, uint64_t *rng)
{
    game_default_limits(g, lim);
    for (int i = 0; i < g->nlimits; i++)
        if (rng_below(rng, 8) == 0 && lim[i] > 1)
            lim[i] = 1 + (long)rng_below(rng, lim[i] < 64 ? (uint64_t)lim[i] : 64);
}

/* The bodies every game meets besides its own: empty, blank, one long
 * token, a sign alone, bytes that are no number. */
static const struct {
    const char *text;
    size_t len;
} edges[] = {
    {"", 0},
    {" ", 1},
    {"\n\n\r\n", 4},
    {"5", 1},
    {"-", 1},
    {"+", 1},
    {"x", 1},
    {"3 1", 3},
    {"1\n", 2},
    {"\x00", 1},
    {"1 2 3 4 5 6 7 8 9", 17},
    {"123456789012345678901234567890123456789012345678901234567890", 60},
};

/* Game _i: its example, its generated positions and their damaged
 * variants, each compared whole and fed. */
START_TEST(test_fed_as_whole)
{
    const gj_game *g = harness_game(_i);
    ck_assert_msg(g->read_text != NULL, "%s has no read_text", g->name);
    uint64_t rng = 0x7e47a331u + (uint64_t)_i;
    long lim[GEN_NLIMITS];
    tally t = {0, 0, 0};
    for (size_t k = 0; k < sizeof edges / sizeof edges[0]; k++) {
        game_default_limits(g, lim);
        compare(g, edges[k].text, edges[k].len, lim, &rng, &t);
    }
    for (long seed = -1; seed < SEEDS; seed++) {
        size_t base_len;
        char *base = seed < 0 ? strdup(g->example_text) : generated_text(g, seed, &base_len);
        ck_assert_ptr_nonnull(base);
        base_len = strlen(base);
        for (int v = 0; v < VARIANTS; v++) {
            gj_buf b;
            buf_init(&b);
            buf_append(&b, base, base_len);
            for (int d = v == 0 ? 0 : 1 + (int)rng_below(&rng, 3); d > 0; d--)
                damage(&b, &rng);
            draw_limits(g, lim, &rng);
            compare(g, b.data != NULL ? b.data : "", b.len, lim, &rng, &t);
            buf_free(&b);
        }
        free(base);
    }
    fprintf(stderr, "%s: %ld positions, %ld errors (%ld past line 1)\n", g->name, t.positions,
            t.errors, t.later_lines);
    /* A comparison no body reached is one the test did not make. */
    ck_assert_msg(t.positions >= 100 && t.errors >= 300 && t.later_lines >= 50,
                  "%s: %ld positions, %ld errors (%ld past line 1)", g->name, t.positions, t.errors,
                  t.later_lines);
}
END_TEST

int main(void)
{
    size_t ngames;
    games_all(&ngames);
    Suite *s = suite_create("text arriving");
    harness_add_loop(s, "fed_as_whole", test_fed_as_whole, (int)ngames, 120);
    return harness_main(s);
}
