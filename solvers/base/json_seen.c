/* json_seen.c - kept values and their json_in.c errors (json_seen.h). */
#include "json_seen.h"

#include <string.h>

#include "json_in.h"

/* The longest unknown member name kept, as jin_known_keys cuts it. */
#define JSEEN_CUT 40

jseen jseen_of(const jpull_event *ev)
{
    jseen s = {JSON_NULL, 0};
    switch (ev->kind) {
    case JPULL_OBJECT_BEGIN:
        s.type = JSON_OBJECT;
        break;
    case JPULL_ARRAY_BEGIN:
        s.type = JSON_ARRAY;
        break;
    case JPULL_STRING:
        s.type = JSON_STRING;
        break;
    case JPULL_INTEGER:
        s.type = JSON_INTEGER;
        s.integer = ev->integer;
        break;
    case JPULL_REAL:
        s.type = JSON_REAL;
        break;
    case JPULL_TRUE:
        s.type = JSON_TRUE;
        break;
    case JPULL_FALSE:
        s.type = JSON_FALSE;
        break;
    default:
        break;
    }
    return s;
}

jseen jseen_of_value(const json_t *v)
{
    jseen s = {json_typeof(v), 0};
    if (s.type == JSON_INTEGER)
        s.integer = json_integer_value(v);
    return s;
}

json_t *jseen_standin(const jseen *s)
{
    switch (s->type) {
    case JSON_OBJECT:
        return json_object();
    case JSON_ARRAY:
        return json_array();
    case JSON_STRING:
        return json_string("");
    case JSON_INTEGER:
        return json_integer(s->integer);
    case JSON_REAL:
        return json_real(0.5);
    case JSON_TRUE:
        return json_true();
    case JSON_FALSE:
        return json_false();
    case JSON_NULL:
        break;
    }
    return json_null();
}

json_t *jseen_event_value(const jpull_event *ev)
{
    switch (ev->kind) {
    case JPULL_STRING:
        return json_stringn_nocheck(ev->str, ev->len);
    case JPULL_REAL:
        return json_real(ev->real);
    default: {
        jseen s = jseen_of(ev);
        return jseen_standin(&s);
    }
    }
}

int jseen_array(const jseen *s, size_t size, const char *name, long i, size_t lo, size_t hi,
                gj_error *e)
{
    if (s->type == JSON_ARRAY) {
        if (size >= lo && size <= hi)
            return 0;
        char field[sizeof e->field];
        jin_field_name(field, sizeof field, name, i, -1);
        return gj_fail_field(e, field, "expected %zu to %zu elements, found %zu", lo, hi, size);
    }
    json_t *v = jseen_standin(s);
    if (v == NULL)
        return gj_fail_nomem(e);
    jin_array(v, name, i, lo, hi, e);
    json_decref(v);
    return -1;
}

int jseen_long(const jseen *s, const char *name, long i, long j, long lo, long hi, long *out,
               gj_error *e)
{
    if (s->type == JSON_INTEGER && s->integer >= lo && s->integer <= hi) {
        *out = (long)s->integer;
        return 0;
    }
    json_t *v = jseen_standin(s);
    if (v == NULL)
        return gj_fail_nomem(e);
    int status = jin_long(v, name, i, j, lo, hi, out, e);
    json_decref(v);
    return status;
}

/* A key as listed, without the '?' that marks it optional. */
static const char *jseen_key_name(const char *listed)
{
    return listed[0] == '?' ? listed + 1 : listed;
}

/* Key s (len bytes) of the body's object met: the index in keys of the
 * member it names, or -1 for one not listed (the first such is noted). */
static int jseen_member(jseen_members *m, const char *s, size_t len)
{
    for (int k = 0; m->keys[k] != NULL; k++) {
        const char *name = jseen_key_name(m->keys[k]);
        if (strlen(name) == len && memcmp(s, name, len) == 0) {
            m->present |= 1ul << k;
            return k;
        }
    }
    if (!m->have_unknown) {
        size_t cut = len < JSEEN_CUT ? len : JSEEN_CUT;
        memcpy(m->unknown, s, cut);
        m->unknown[cut] = '\0';
        m->have_unknown = 1;
    }
    return -1;
}

/* The members met, checked as jin_load_object checks them: an unknown one
 * first, then a missing one.  0, or -1 with *e. */
static int jseen_members_check(const jseen_members *m, gj_error *e)
{
    json_t *present = json_object();
    if (present == NULL)
        return gj_fail_nomem(e);
    /* The unknown name may be cut inside a character: set unchecked. */
    int bad = m->have_unknown && json_object_set_new_nocheck(present, m->unknown, json_null());
    for (int k = 0; !bad && m->keys[k] != NULL; k++)
        if (m->present & (1ul << k))
            bad = json_object_set_new(present, jseen_key_name(m->keys[k]), json_null()) != 0;
    int status;
    if (bad)
        status = gj_fail_nomem(e);
    else if (jin_known_keys(present, m->keys, e) != 0)
        status = -1;
    else
        status = jin_required_keys(present, m->keys, e);
    json_decref(present);
    return status;
}

/* What the consumer returns after a member's key: JPULL_STOP with *e once
 * a member not listed has been met (that error holds whatever follows,
 * short of a JSON error, which json_pull.h puts first), else JPULL_GO. */
static int jseen_members_go(const jseen_members *m, gj_error *e)
{
    return m->have_unknown && jseen_members_check(m, e) != 0 ? JPULL_STOP : JPULL_GO;
}

int jseen_body_take(jseen_body *b, const jpull_event *ev, gj_error *e)
{
    if (ev->depth == 0)
        return JPULL_GO;
    if (ev->depth == 1) {
        if (ev->kind == JPULL_KEY) {
            b->member = jseen_member(&b->members, ev->str, ev->len);
            return jseen_members_go(&b->members, e);
        }
        if (ev->kind != JPULL_ARRAY_END && ev->kind != JPULL_OBJECT_END && b->member >= 0)
            b->value[b->member] = jseen_of(ev);
        return JPULL_GO;
    }
    if (b->member < 0 || b->value[b->member].type != JSON_ARRAY)
        return JPULL_GO;
    if (b->inner(b->ctx, b->member, ev) != 0) {
        gj_fail_nomem(e);
        return JPULL_ABORT;
    }
    return JPULL_GO;
}

/* json_pull's consumer for a jseen_body: the members and their values
 * kept here, the events inside an array-valued one handed to the game. */
static int jseen_body_event(void *ctx, const jpull_event *ev, gj_error *e)
{
    return jseen_body_take(ctx, ev, e);
}

void jseen_body_init_events(jseen_body *b, const char *const *keys, jseen_inner_fn inner, void *ctx)
{
    b->pull = NULL;
    b->members = (jseen_members){.keys = keys};
    b->member = -1;
    for (int k = 0; k < JSEEN_MAX_KEYS; k++)
        b->value[k] = (jseen){JSON_NULL, 0};
    b->inner = inner;
    b->ctx = ctx;
}

int jseen_body_init(jseen_body *b, const char *const *keys, jseen_inner_fn inner, void *ctx,
                    gj_error *e)
{
    jseen_body_init_events(b, keys, inner, ctx);
    b->pull = jpull_new(jseen_body_event, b);
    return b->pull != NULL ? 0 : gj_fail_nomem(e);
}

int jseen_body_judge(const jseen_body *b, gj_error *e)
{
    return jseen_members_check(&b->members, e);
}

int jseen_body_feed(jseen_body *b, const char *p, size_t n, gj_error *e)
{
    return jpull_feed(b->pull, p, n, e);
}

int jseen_body_end(jseen_body *b, gj_error *e)
{
    if (jpull_end(b->pull, e) != 0)
        return -1;
    return jseen_body_judge(b, e);
}

void jseen_body_free(jseen_body *b)
{
    jpull_free(b->pull);
    b->pull = NULL;
}
