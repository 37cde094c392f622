/* analysis_call.c - a game's analyze() on a JSON request, for tests (analysis_call.h). */
#include "analysis_call.h"

#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "buf.h"

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
