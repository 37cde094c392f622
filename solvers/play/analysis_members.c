/* analysis_members.c - the members an endpoint over analyze() takes (analysis_members.h). */
#include "analysis_members.h"

#include <string.h>

#include "json_in.h"

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
