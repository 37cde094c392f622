/* solve.c - the parse -> solve -> write pipeline with timings. */
#include "solve.h"

#include <time.h>

unsigned long long solve_clock_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (unsigned long long)ts.tv_sec * 1000000000ULL + (unsigned long long)ts.tv_nsec;
}

static double ms_since(unsigned long long *mark)
{
    unsigned long long now = solve_clock_ns();
    double ms = (double)(now - *mark) / 1e6;
    *mark = now;
    return ms;
}

int solve_position(const gj_game *g, const long *limits, media_kind input, const char *in,
                   size_t len, media_kind output, gj_buf *out, solve_timing *t, gj_error *e)
{
    unsigned long long mark = solve_clock_ns();
    gj_error_clear(e);
    void *pos =
        input == MEDIA_JSON ? g->parse_json(in, len, limits, e) : g->parse_text(in, len, limits, e);
    t->parse_ms = ms_since(&mark);
    if (pos == NULL) {
        if (e->kind == GJ_OK)
            gj_fail(e, GJ_INTERNAL, "%s: the parser failed without saying why", g->name);
        return -1;
    }
    int rc = g->solve(pos, e);
    t->solve_ms = ms_since(&mark);
    if (rc == 0) {
        if (output == MEDIA_JSON)
            g->write_json(pos, out);
        else
            g->write_text(pos, out);
        if (out->failed)
            rc = gj_fail_nomem(e);
    }
    t->write_ms = ms_since(&mark);
    g->free_position(pos);
    return rc;
}

media_kind solve_sniff_input(const char *in, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        char c = in[i];
        if (c == ' ' || c == '\t' || c == '\n' || c == '\r')
            continue;
        return c == '{' ? MEDIA_JSON : MEDIA_TEXT;
    }
    return MEDIA_TEXT;
}
