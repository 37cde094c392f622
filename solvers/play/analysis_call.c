/* analysis_call.c - running a game's analyze() on a JSON request (analysis_call.h). */
#include "analysis_call.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "buf.h"
#include "json_in.h"

json_t *analysis_call(const gj_game *g, const json_t *req, long max_moves, const long *limits,
                      gj_error *e)
{
    json_t *copy = json_copy((json_t *)req); /* shallow: the position is shared, not copied */
    if (copy == NULL || json_object_set_new(copy, "max_moves", json_integer(max_moves)) != 0) {
        json_decref(copy);
        gj_fail_nomem(e);
        return NULL;
    }
    char *body = json_dumps(copy, JSON_COMPACT);
    json_decref(copy);
    if (body == NULL) {
        gj_fail_nomem(e);
        return NULL;
    }
    gj_buf out;
    buf_init(&out);
    int rc = g->analyze(body, strlen(body), limits, &out, e);
    free(body);
    json_t *answer = NULL;
    if (rc == 0 && out.failed)
        gj_fail_nomem(e);
    else if (rc == 0) {
        json_error_t err;
        answer = json_loadb(out.data, out.len, 0, &err);
        if (answer == NULL)
            gj_fail(e, GJ_INTERNAL, "%s: the analysis is not JSON: %s", g->name, err.text);
    }
    buf_free(&out);
    return answer;
}

const char *analysis_first_member(const json_t *req, const char *const *names)
{
    for (size_t k = 0; names[k] != NULL; k++)
        if (json_object_get(req, names[k]) != NULL)
            return names[k];
    return NULL;
}

/* The game's members less `drop`, then the wrapper's, into one list. */
int analysis_known_members(const gj_game *g, const json_t *req, const char *drop,
                           const char *const *own, gj_error *e)
{
    const char *keys[ANALYSIS_MAX_MEMBERS + 1];
    size_t n = 0;
    for (size_t k = 0; g->analyze_keys[k] != NULL && n < ANALYSIS_MAX_MEMBERS; k++) {
        const char *name = g->analyze_keys[k];
        if (drop == NULL || strcmp(name + (name[0] == '?'), drop) != 0)
            keys[n++] = name;
    }
    for (size_t k = 0; own[k] != NULL && n < ANALYSIS_MAX_MEMBERS; k++)
        keys[n++] = own[k];
    keys[n] = NULL;
    return jin_known_keys(req, keys, e);
}
