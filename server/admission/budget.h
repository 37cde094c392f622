/* budget.h - the memory budget: a bound on the bytes held for requests.
 *
 * Every request with a body is charged its expected peak (budget_peak:
 * about 3x the body for judge text and for JSON a game reads with no tree,
 * 8x for JSON parsed into a tree, as docs/reliability.md measures) before
 * its body is read when Content-Length announces it, or as the body grows
 * while it streams.  The caller names the body's kind (budget_body): this
 * layer knows no route and no game.  A charge that would pass the limit
 * is refused and counted; the HTTP front answers it 503.  The front
 * releases what a request was charged exactly once, when it ends.  Charges
 * and releases are lock-free (one atomic word), from any thread. */
#ifndef GJ_BUDGET_H
#define GJ_BUDGET_H

#include <stddef.h>

#include "buf.h"

typedef struct gj_budget gj_budget;

/* What a body costs to read, by how it is read.  Judge text and a JSON
 * body read straight into a game's arrays (game.h's read_json) peak the
 * daemon at about 2.4x the body, charged 3x; JSON that jansson parses into
 * a tree first at about 7.4x, charged 8x (bench/NOTES.md section 11). */
typedef enum budget_body {
    BUDGET_TEXT,      /* judge text */
    BUDGET_JSON_TREE, /* JSON parsed into a tree */
    BUDGET_JSON_READ, /* JSON read with no tree */
} budget_body;

/* A budget of `limit` bytes; 0 means no bound (charges always succeed but
 * are still counted).  NULL when memory is short. */
gj_budget *budget_create(size_t limit);
void budget_free(gj_budget *b);

/* The expected peak of a request whose body is `body` bytes of kind `in`:
 * the body, the parsed position and the answer, plus a fixed overhead. */
size_t budget_peak(budget_body in, size_t body);

/* Charge `bytes` more: 0, or -1 (nothing charged, a refusal counted) when
 * the total would pass the limit. */
int budget_charge(gj_budget *b, size_t bytes);

/* Give back `bytes` charged before. */
void budget_release(gj_budget *b, size_t bytes);

/* Raise a request's charge from *charged to what a body of `body` bytes of
 * kind `in` needs (nothing when it already covers it): 0, or -1 when the
 * budget refuses, *charged unchanged. */
int budget_cover(gj_budget *b, size_t *charged, budget_body in, size_t body);

/* The limit (0: none) and the bytes charged now. */
size_t budget_limit(const gj_budget *b);
size_t budget_charged(const gj_budget *b);

/* Append the budget's metrics (Prometheus text). */
void budget_render(gj_budget *b, gj_buf *out);

/* The default budget: half of the machine's memory, or of the cgroup's
 * memory limit when that is lower (cgroup v2 memory.max, v1
 * memory.limit_in_bytes); 1 GiB when neither can be read. */
long budget_default_bytes(void);

#endif
