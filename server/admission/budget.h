/* budget.h - the memory budget: a bound on the bytes held for requests.
 *
 * Every request with a body is charged its expected peak (budget_peak:
 * about 3x the body for judge text, 8x for JSON, as docs/reliability.md
 * measures) before its body is read when Content-Length announces it, or
 * as the body grows while it streams.  A charge that would pass the limit
 * is refused and counted; the HTTP front answers it 503.  The front
 * releases what a request was charged exactly once, when it ends.  Charges
 * and releases are lock-free (one atomic word), from any thread. */
#ifndef GJ_BUDGET_H
#define GJ_BUDGET_H

#include <stddef.h>

#include "buf.h"
#include "media.h"

typedef struct gj_budget gj_budget;

/* A budget of `limit` bytes; 0 means no bound (charges always succeed but
 * are still counted).  NULL when memory is short. */
gj_budget *budget_create(size_t limit);
void budget_free(gj_budget *b);

/* The expected peak of a request whose body is `body` bytes of kind `in`:
 * the body, the parsed position and the answer, plus a fixed overhead. */
size_t budget_peak(media_kind in, size_t body);

/* Charge `bytes` more: 0, or -1 (nothing charged, a refusal counted) when
 * the total would pass the limit. */
int budget_charge(gj_budget *b, size_t bytes);

/* Give back `bytes` charged before. */
void budget_release(gj_budget *b, size_t bytes);

/* Raise a request's charge from *charged to what a body of `body` bytes of
 * kind `in` needs (nothing when it already covers it): 0, or -1 when the
 * budget refuses, *charged unchanged. */
int budget_cover(gj_budget *b, size_t *charged, media_kind in, size_t body);

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
