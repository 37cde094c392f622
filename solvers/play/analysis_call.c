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

int analysis_play_moves(const gj_game *g, json_t *req, const json_t *moves, const long *limits,
                        gj_error *e)
{
    if (moves == NULL)
        return 0;
    if (jin_array(moves, "moves", -1, 0, ANALYSIS_MOVES_MAX, e) != 0)
        return -1;
    if (json_array_size(moves) > 0 && g->play_move == NULL)
        return gj_fail_field(e, "moves", "%s takes no moves to play", g->name);
    for (size_t k = 0; k < json_array_size(moves); k++) {
        char field[32];
        snprintf(field, sizeof field, "moves[%zu]", k);
        const json_t *move = json_array_get(moves, k);
        json_t *a = analysis_call(g, req, ANALYSIS_MAX_MOVES_LIMIT, limits, e);
        if (a == NULL) {
            if (e->kind == GJ_BAD_INPUT && k > 0) {
                char why[sizeof e->message];
                snprintf(why, sizeof why, "%s", e->message);
                gj_fail_field(e, field, "the position it is played in is refused: %.300s", why);
            }
            return -1;
        }
        const json_t *list = json_object_get(a, "moves");
        long long total = json_integer_value(json_object_get(a, "moves_total"));
        const json_t *entry = NULL;
        for (size_t i = 0; i < json_array_size(list) && entry == NULL; i++)
            if (json_equal(json_object_get(json_array_get(list, i), "move"), (json_t *)move))
                entry = json_array_get(list, i);
        int rc = 0;
        if (entry == NULL && total == 0)
            rc = gj_fail_field(e, field,
                               "the game is over after the moves before it: no move "
                               "is legal there");
        else if (entry == NULL && (size_t)total > json_array_size(list))
            rc = gj_fail_field(e, field,
                               "not among the %zu moves one analysis lists of the %lld legal "
                               "there; send the position it is played in instead",
                               json_array_size(list), total);
        else if (entry == NULL) {
            const json_t *last = json_array_get(list, json_array_size(list) - 1);
            char *like = json_dumps(json_object_get(last, "move"), JSON_COMPACT | JSON_ENCODE_ANY);
            rc = gj_fail_field(e, field,
                               "not a legal move of the position it is played in, which has %lld, "
                               "each written as the analysis writes a move, like %.80s",
                               total, like != NULL ? like : "its moves");
            free(like);
        } else {
            rc = g->play_move(req, entry, e);
        }
        json_decref(a);
        if (rc != 0)
            return -1;
    }
    return 0;
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
