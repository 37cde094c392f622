/* fuzz_puzzle.c - libFuzzer target: the puzzles' two readers of what a
 * visitor sends: an id (puzzle_id.h), and the body of a check (puzzle_check.h).
 *
 * The input is split at its first NUL byte: before it, an id given to
 * puzzle_from_id for nim-shortcuts (the cheapest game to rebuild); after
 * it, a check body judged against one fixed puzzle.  Beyond the sanitizers,
 * each call's contract is checked: a refused id fills the error with
 * bad_input or not_found naming "id" and leaves nothing held; an accepted
 * one rebuilds a puzzle whose own id is the one given; a check either
 * answers JSON with the puzzle's id, or fails with the error filled. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "games.h"
#include "generate.h"
#include "puzzle_check.h"
#include "puzzle_search.h"

/* Abort (a finding) unless `ok`. */
static void require(int ok)
{
    if (!ok)
        abort();
}

/* The fixed puzzle the check bodies are judged against, built once. */
static puzzle *fixed(const gj_game *g, const long *limits)
{
    static puzzle p;
    static int built;
    if (!built) {
        json_t *params = json_pack("{s:i, s:i}", "seed", 7, "depth", 2);
        bool seeded;
        gj_error e;
        require(params != NULL && puzzle_find(g, params, limits, &p, &seeded, &e) == 0);
        json_decref(params);
        built = 1;
    }
    return &p;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const gj_game *g = games_find("nim-shortcuts", strlen("nim-shortcuts"));
    long limits[GEN_NLIMITS];
    game_default_limits(g, limits);
    limits[GEN_LIMIT_BUDGET] = 2000;
    const char *bytes = (const char *)data;
    const char *nul = memchr(bytes, '\0', size);
    size_t idlen = nul ? (size_t)(nul - bytes) : size;
    char *id = malloc(idlen + 1);
    require(id != NULL);
    memcpy(id, bytes, idlen);
    id[idlen] = '\0';
    puzzle p;
    gj_error e;
    if (puzzle_from_id(g, id, limits, &p, &e) == 0) {
        require(strcmp(p.id, id) == 0);
        puzzle_free(&p);
    } else {
        require(e.kind != GJ_OK && e.message[0] != '\0');
    }
    free(id);
    if (nul == NULL)
        return 0;
    const puzzle *q = fixed(g, limits);
    gj_buf out;
    buf_init(&out);
    if (puzzle_check(q, nul + 1, size - idlen - 1, &out, &e) == 0) {
        json_t *a = json_loadb(out.data, out.len, 0, NULL);
        require(a != NULL && strcmp(json_string_value(json_object_get(a, "id")), q->id) == 0);
        json_decref(a);
    } else {
        require(e.kind == GJ_BAD_INPUT && e.message[0] != '\0');
    }
    buf_free(&out);
    return 0;
}
