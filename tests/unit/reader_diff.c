/* reader_diff.c - the reader-against-tree driver of reader_diff.h. */
#include "reader_diff.h"

#include <check.h>
#include <string.h>

#include "harness.h"

/* The body read by the reader under test, fed in pieces: piece 0 means the
 * whole body at once, 1 one byte at a time, else random sizes up to it. */
static void *read_fed(const rd_game *t, const char *body, size_t len, const long *lim, size_t piece,
                      uint64_t *rng, gj_error *e)
{
    const gj_body_reader *rd = t->game->read_json;
    void *r = rd->open(lim, e);
    ck_assert_ptr_nonnull(r);
    size_t at = 0;
    while (at < len || (at == 0 && piece == 0 && t->feed_empty)) {
        size_t n = piece == 0 ? len : piece == 1 ? 1 : 1 + (size_t)rng_below(rng, piece);
        if (n > len - at)
            n = len - at;
        if (rd->feed(r, body + at, n, e) != 0) {
            rd->close(r);
            return NULL;
        }
        at += n;
        if (piece == 0)
            break;
    }
    return rd->finish(r, e);
}

/* Note which verdict an error (or NULL: a position) is. */
static void count_verdict(const rd_game *t, const gj_error *e)
{
    for (int v = 1; e != NULL && v < t->nverdicts; v++) {
        if (strstr(e->message, t->verdicts[v]) != NULL) {
            t->count[v]++;
            return;
        }
    }
    ck_assert_msg(e == NULL, "a verdict the table does not name: %s", e ? e->message : "");
    t->count[0]++;
}

/* rd_compare: the tree's verdict first, then the reader fed each way. */
void rd_compare(const rd_game *t, const char *body, size_t len, const long *lim, uint64_t *rng)
{
    gj_error want_e;
    gj_error_clear(&want_e);
    void *want = t->read_tree(body, len, lim, &want_e);
    gj_buf note = {0};
    if (want != NULL && t->describe != NULL)
        t->describe(want, &note);
    else if (want != NULL)
        t->settle(want);
    count_verdict(t, want != NULL ? NULL : &want_e);
    const int shown = (int)(len < 300 ? len : 300);
    const size_t pieces[] = {0, 1, 7, 300};
    for (size_t p = 0; p < sizeof pieces / sizeof pieces[0]; p++) {
        if (pieces[p] == 1 && len > 4000)
            continue;
        gj_error got_e;
        gj_error_clear(&got_e);
        void *got = read_fed(t, body, len, lim, pieces[p], rng, &got_e);
        if (want == NULL) {
            ck_assert_msg(got == NULL, "the tree says \"%s\", the reader took it (piece %zu): %.*s",
                          want_e.message, pieces[p], shown, body);
            ck_assert_msg(strcmp(got_e.message, want_e.message) == 0 &&
                              strcmp(got_e.field, want_e.field) == 0 && got_e.kind == want_e.kind &&
                              got_e.line == want_e.line && got_e.column == want_e.column,
                          "tree: [%s] %s (%ld:%ld)\nreader: [%s] %s (%ld:%ld)\npiece %zu: %.*s",
                          want_e.field, want_e.message, want_e.line, want_e.column, got_e.field,
                          got_e.message, got_e.line, got_e.column, pieces[p], shown, body);
            continue;
        }
        ck_assert_msg(got != NULL, "the reader says \"%s\" of a body the tree takes: %.*s",
                      got_e.message, shown, body);
        if (t->describe != NULL) {
            gj_buf got_d;
            t->describe(got, &got_d);
            ck_assert_msg(got_d.len == note.len && memcmp(got_d.data, note.data, note.len) == 0,
                          "the reader's position is not the tree's (piece %zu): %.*s", pieces[p],
                          shown, body);
            buf_free(&got_d);
        } else {
            t->same(got, want);
        }
        t->game->free_position(got);
    }
    buf_free(&note);
    t->game->free_position(want);
}

/* rd_clear: every count back to 0. */
void rd_clear(const rd_game *t)
{
    memset(t->count, 0, sizeof *t->count * (size_t)t->nverdicts);
}

/* rd_require: each count against the least. */
void rd_require(const rd_game *t, long least)
{
    for (int v = 0; v < t->nverdicts; v++)
        ck_assert_msg(t->count[v] >= least, "only %ld bodies ended \"%s\"", t->count[v],
                      t->verdicts[v]);
}

/* rd_one_in: one draw below n. */
int rd_one_in(rd_gen *g, uint64_t n)
{
    return rng_below(&g->rng, n) == 0;
}

/* rd_blanks: a run of 0..3 blanks, a single one a third of the time. */
void rd_blanks(rd_gen *g, int often)
{
    if (!often && !rd_one_in(g, 6))
        return;
    static const char kinds[] = " \t\n\r";
    long count = rd_one_in(g, 3) ? 1 : (long)rng_below(&g->rng, 4);
    for (long c = 0; c < count; c++)
        buf_putc(&g->b, kinds[rng_below(&g->rng, 4)]);
}

/* rd_blanks_rare: one time in five, a run of 1..3 blanks. */
void rd_blanks_rare(rd_gen *g)
{
    if (!rd_one_in(g, 5))
        return;
    static const char kinds[] = " \t\n\r";
    long count = 1 + (long)rng_below(&g->rng, 3);
    for (long c = 0; c < count; c++)
        buf_putc(&g->b, kinds[rng_below(&g->rng, 4)]);
}

/* rd_break_json: one of three breaks at a random place. */
void rd_break_json(rd_gen *g)
{
    static const char bytes[] = "{}[],:\"x0-.e \x01\xff\\";
    size_t at = (size_t)rng_below(&g->rng, g->b.len + 1);
    switch (rng_below(&g->rng, 3)) {
    case 0:
        g->b.len = at;
        break;
    case 1: {
        char c = bytes[rng_below(&g->rng, sizeof bytes - 1)];
        buf_putc(&g->b, ' ');
        memmove(g->b.data + at + 1, g->b.data + at, g->b.len - 1 - at);
        g->b.data[at] = c;
        break;
    }
    default:
        buf_puts(&g->b, rd_one_in(g, 2) ? " x" : "{}");
        break;
    }
}

/* rd_finish_body: the break, the comparison, the buffer freed. */
void rd_finish_body(const rd_game *t, rd_gen *g, uint64_t odd, const long *lim)
{
    if (odd > 0 && rd_one_in(g, odd * 2))
        rd_break_json(g);
    rd_compare(t, g->b.data != NULL ? g->b.data : "", g->b.len, lim, &g->rng);
    buf_free(&g->b);
}
