/* analysis.c - the frame every game's analysis answer shares. */
#include "analysis.h"

#include <string.h>

#include "json_in.h"

int analysis_max_moves(const json_t *root, long *out, gj_error *e)
{
    const json_t *v = json_object_get(root, "max_moves");
    *out = ANALYSIS_MAX_MOVES_DEFAULT;
    if (v == NULL)
        return 0;
    return jin_long(v, "max_moves", -1, -1, 1, ANALYSIS_MAX_MOVES_LIMIT, out, e);
}

/* By length then bytes, so "M\u0000x" is no "M". */
int analysis_to_move(const json_t *v, const char *const names[2], bool null_is_absent, int absent,
                     int *mover, gj_error *e)
{
    const char *s;
    size_t len;
    *mover = absent;
    if (v == NULL || (null_is_absent && json_is_null(v)))
        return 0;
    if (jin_string(v, "to_move", -1, &s, &len, e) != 0)
        return -1;
    for (int k = 0; k < 2; k++)
        if (len == strlen(names[k]) && memcmp(s, names[k], len) == 0) {
            *mover = k;
            return 0;
        }
    return gj_fail_field(e, "to_move", "expected \"%s\" or \"%s\", found \"%.40s\"", names[0],
                         names[1], s);
}

const char *analysis_outcome(int wins)
{
    return wins ? "win" : "lose";
}

/* The frame's start, up to the value of "value". */
static void begin(gj_buf *out, const char *game, const char *to_move)
{
    buf_puts(out, "{\"game\":\"");
    buf_puts(out, game);
    buf_puts(out, "\",\"to_move\":\"");
    buf_puts(out, to_move);
    buf_puts(out, "\",\"value\":");
}

/* The counts members, after the value. */
static void counts(gj_buf *out, const analysis_counts *c)
{
    buf_puts(out, ",\"moves_total\":");
    buf_put_long(out, c->moves_total);
    buf_puts(out, ",\"winning_moves\":");
    buf_put_long(out, c->winning_moves);
    buf_puts(out, ",\"truncated\":");
    buf_puts(out, c->listed < c->moves_total ? "true" : "false");
}

void analysis_begin(gj_buf *out, const char *game, const char *to_move, int mover_wins,
                    const analysis_counts *c)
{
    begin(out, game, to_move);
    buf_putc(out, '"');
    buf_puts(out, analysis_outcome(mover_wins));
    buf_putc(out, '"');
    counts(out, c);
}

void analysis_begin_score(gj_buf *out, const char *game, const char *to_move, long long value,
                          const analysis_counts *c)
{
    begin(out, game, to_move);
    buf_put_long(out, value);
    counts(out, c);
}

void analysis_move_open(gj_buf *out, long i)
{
    buf_puts(out, i == 0 ? ",\"moves\":[{" : ",{");
}

void analysis_move_close(gj_buf *out)
{
    buf_putc(out, '}');
}

void analysis_end(gj_buf *out, long listed)
{
    buf_puts(out, listed == 0 ? ",\"moves\":[]}" : "]}");
}

int analysis_play_set(json_t *req, const char *name, const json_t *value, gj_error *e)
{
    if (value == NULL)
        return gj_fail(e, GJ_INTERNAL, "an analysis entry lacks the member for \"%s\"", name);
    json_t *copy = json_deep_copy(value);
    if (copy == NULL || json_object_set_new(req, name, copy) != 0)
        return gj_fail_nomem(e);
    return 0;
}
