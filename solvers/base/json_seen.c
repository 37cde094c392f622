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

int jseen_member(jseen_members *m, const char *s, size_t len)
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

int jseen_members_check(const jseen_members *m, gj_error *e)
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

int jseen_members_go(const jseen_members *m, gj_error *e)
{
    return m->have_unknown && jseen_members_check(m, e) != 0 ? JPULL_STOP : JPULL_GO;
}
