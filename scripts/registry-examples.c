/* registry-examples.c - print every game's registry examples as JSON, for
 * scripts/build-spec.mjs, which puts them into the OpenAPI document so that
 * the spec shows the very requests the registry (and GET /games) holds.
 *
 * Output: {"games": [{"name", "display_name", "title", "text", "json",
 * "analyze", "generate"}, ...]} in games.def's order; each example is the
 * registry's string as it is (the JSON ones unparsed), a missing one null.
 * Built from the solver library alone (mk/spec.mk), never from the server,
 * whose library embeds the document this helps to make. */
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "games.h"

/* s as a JSON string, or null when the registry has none. */
static json_t *string_or_null(const char *s)
{
    return s != NULL ? json_string(s) : json_null();
}

/* Exit 0 with the document on stdout, 1 when it could not be made. */
int main(void)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        const gj_game *g = games[i];
        json_array_append_new(list, json_pack("{s:s, s:s, s:s, s:o, s:o, s:o, s:o}", "name",
                                              g->name, "display_name", g->display_name, "title",
                                              g->title, "text", string_or_null(g->example_text),
                                              "json", string_or_null(g->example_json), "analyze",
                                              string_or_null(g->example_analyze), "generate",
                                              string_or_null(g->example_generate)));
    }
    /* A failed pack leaves an entry out; a short list is a failure too. */
    int whole = json_array_size(list) == n;
    json_t *root = json_pack("{s:o}", "games", list);
    char *out = root != NULL ? json_dumps(root, JSON_INDENT(2)) : NULL;
    json_decref(root);
    if (out == NULL || !whole) {
        fprintf(stderr, "registry-examples: out of memory\n");
        return 1;
    }
    puts(out);
    free(out);
    return 0;
}
