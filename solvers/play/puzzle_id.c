/* puzzle_id.c - a puzzle's id written, read back and held to its one
 * spelling (puzzle_id.h). */
#include "puzzle_id.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "b64url.h"
#include "generate.h"

uint64_t puzzle_fnv1a(const char *s, size_t len)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 0x100000001b3ull;
    }
    return h;
}

/* The id of p's fields into b (nothing checked of its length). */
static void put_id(const puzzle *p, gj_buf *b)
{
    json_t *o = json_pack("{s:s, s:I, s:I, s:i, s:I, s:O}", "g", p->game->name, "s",
                          (json_int_t)p->seed, "c", (json_int_t)p->skip, "d", p->depth, "m",
                          (json_int_t)p->min_moves, "k", p->knobs);
    char *text = o != NULL ? json_dumps(o, JSON_COMPACT | JSON_SORT_KEYS) : NULL;
    json_decref(o);
    if (text == NULL) {
        b->failed = 1;
        return;
    }
    char head[8];
    snprintf(head, sizeof head, "%d.", PUZZLE_ID_MAJOR);
    buf_puts(b, head);
    b64url_encode(text, strlen(text), b);
    char sum[16];
    snprintf(sum, sizeof sum, ".%08x", (unsigned)(puzzle_fnv1a(text, strlen(text)) & 0xffffffffu));
    buf_puts(b, sum);
    free(text);
}

int puzzle_id_make(puzzle *p, gj_error *e)
{
    gj_buf b;
    buf_init(&b);
    put_id(p, &b);
    int rc = 0;
    if (b.failed)
        rc = gj_fail_nomem(e);
    else if (b.len >= sizeof p->id)
        rc = gj_fail(e, GJ_UNMET, "the puzzle's knobs make an id over %d characters",
                     PUZZLE_ID_MAX - 1);
    else {
        memcpy(p->id, b.data, b.len);
        p->id[b.len] = '\0';
    }
    buf_free(&b);
    return rc;
}

int puzzle_id_bad(gj_error *e, const char *why)
{
    gj_fail(e, GJ_BAD_INPUT, "id: %s", why);
    snprintf(e->field, sizeof e->field, "id");
    return -1;
}

/* The JSON an id names (checked: version, encoding, checksum), or NULL. */
static json_t *read_id(const char *id, gj_error *e)
{
    size_t len = strlen(id);
    const char *dot = memchr(id, '.', len);
    const char *last = dot != NULL ? strrchr(id, '.') : NULL;
    if (len >= PUZZLE_ID_MAX || dot == NULL || last == dot) {
        puzzle_id_bad(
            e, "not a puzzle id (expected VERSION.DATA.CHECKSUM, as GET /puzzle answers it)");
        return NULL;
    }
    char major[16];
    snprintf(major, sizeof major, "%d", PUZZLE_ID_MAJOR);
    if ((size_t)(dot - id) != strlen(major) || memcmp(id, major, strlen(major)) != 0) {
        bool first = dot - id == 1 && id[0] == '1';
        gj_fail(e, GJ_BAD_INPUT, "id: format version '%.*s' is not one this service reads (%s)%s",
                (int)((dot - id) < 8 ? dot - id : 8), id, major,
                first ? "; version 1 ids named the search that found a puzzle, which a busy "
                        "server could fail to repeat: ask GET /puzzle again for its id"
                      : "");
        snprintf(e->field, sizeof e->field, "id");
        return NULL;
    }
    gj_buf b;
    buf_init(&b);
    if (b64url_decode(dot + 1, (size_t)(last - dot - 1), &b) != 0 || b.failed) {
        buf_free(&b);
        puzzle_id_bad(e, "its data is not base64url; was it cut or changed?");
        return NULL;
    }
    char sum[16];
    snprintf(sum, sizeof sum, "%08x",
             (unsigned)(puzzle_fnv1a(b.data ? b.data : "", b.len) & 0xffffffffu));
    if (strcmp(last + 1, sum) != 0) {
        buf_free(&b);
        puzzle_id_bad(e, "its checksum does not match its data; was it cut or changed?");
        return NULL;
    }
    json_t *o = json_loadb(b.data ? b.data : "", b.len, JSON_REJECT_DUPLICATES, NULL);
    buf_free(&b);
    if (!json_is_object(o) || json_object_size(o) != 6 ||
        !json_is_string(json_object_get(o, "g")) || !json_is_integer(json_object_get(o, "s")) ||
        !json_is_integer(json_object_get(o, "c")) || !json_is_integer(json_object_get(o, "d")) ||
        !json_is_integer(json_object_get(o, "m")) || !json_is_object(json_object_get(o, "k"))) {
        json_decref(o);
        puzzle_id_bad(e, "its data is not a puzzle's");
        return NULL;
    }
    return o;
}

/* Whether every member of knobs is one of g's generator knobs. */
static bool knobs_known(const gj_game *g, const json_t *knobs)
{
    const char *key;
    json_t *v;
    json_object_foreach((json_t *)knobs, key, v)
    {
        bool known = false;
        for (int i = 0; g->generate_knobs != NULL && g->generate_knobs[i] != NULL; i++)
            known = known || strcmp(key, g->generate_knobs[i]) == 0;
        if (!known)
            return false;
    }
    return true;
}

int puzzle_id_read(const gj_game *g, const char *id, puzzle *p, gj_error *e)
{
    memset(p, 0, sizeof *p);
    json_t *o = read_id(id, e);
    if (o == NULL)
        return -1;
    const char *name = json_string_value(json_object_get(o, "g"));
    if (strcmp(name, g->name) != 0) {
        gj_fail(e, GJ_NOT_FOUND, "id: this id is a %.40s puzzle, not a %s one; ask /puzzle/%.40s/",
                name, g->name, name);
        snprintf(e->field, sizeof e->field, "id");
        json_decref(o);
        return -1;
    }
    json_int_t s = json_integer_value(json_object_get(o, "s"));
    json_int_t c = json_integer_value(json_object_get(o, "c"));
    json_int_t d = json_integer_value(json_object_get(o, "d"));
    json_int_t m = json_integer_value(json_object_get(o, "m"));
    if (s < 0 || s > GEN_SEED_MAX || c < 0 || c > GEN_SEED_MAX || d < 1 || d > PUZZLE_DEPTH_MAX ||
        m < 2 || m > 1000000) {
        json_decref(o);
        return puzzle_id_bad(e, "its data is out of range");
    }
    p->game = g;
    p->seed = (long long)s;
    p->skip = (long long)c;
    p->depth = (int)d;
    p->min_moves = (long)m;
    p->knobs = json_incref(json_object_get(o, "k"));
    json_decref(o);
    /* One puzzle, one id: the id is the one this puzzle's fields make, or
     * another spelling of it (keys reordered or repeated, other base64
     * letters, members that are no knobs), each of which would be another
     * URL and cache entry for the same puzzle. */
    gj_buf canon;
    buf_init(&canon);
    put_id(p, &canon);
    bool same = !canon.failed && canon.len == strlen(id) && memcmp(canon.data, id, canon.len) == 0;
    buf_free(&canon);
    if (!same || !knobs_known(g, p->knobs)) {
        json_decref(p->knobs);
        memset(p, 0, sizeof *p);
        return puzzle_id_bad(e, same
                                    ? "it holds a member that is no generator knob of this game"
                                    : "not in the form GET /puzzle writes; was it cut or changed?");
    }
    return 0;
}
