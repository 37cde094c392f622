/* budget.c - the memory budget (budget.h). */
#include "budget.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "metrics.h"

/* What a request holds besides its body's multiple: the body buffer's
 * first 4 KiB, the request record and the answer of a small position. */
#define BUDGET_OVERHEAD ((size_t)8 << 10)

struct gj_budget {
    size_t limit;
    atomic_size_t charged;
    atomic_size_t peak;
    atomic_ulong refused;
};

gj_budget *budget_create(size_t limit)
{
    gj_budget *b = calloc(1, sizeof *b);
    if (b != NULL)
        b->limit = limit;
    return b;
}

void budget_free(gj_budget *b)
{
    free(b);
}

size_t budget_peak(budget_body in, size_t body)
{
    /* docs/reliability.md: judge text peaks at 2.4x its body (3x stated),
     * and so does JSON read with no tree; JSON parsed into jansson's tree
     * at 7.4x (8x stated). */
    size_t factor = in == BUDGET_JSON_TREE ? 8 : 3;
    if (body > (SIZE_MAX - BUDGET_OVERHEAD) / factor)
        return SIZE_MAX;
    return body * factor + BUDGET_OVERHEAD;
}

/* Note `now` bytes charged as the peak if it is the highest yet. */
static void note_peak(gj_budget *b, size_t now)
{
    size_t seen = atomic_load_explicit(&b->peak, memory_order_relaxed);
    while (now > seen && !atomic_compare_exchange_weak_explicit(
                             &b->peak, &seen, now, memory_order_relaxed, memory_order_relaxed))
        ;
}

int budget_charge(gj_budget *b, size_t bytes)
{
    size_t now = atomic_load_explicit(&b->charged, memory_order_relaxed);
    for (;;) {
        int over = bytes > SIZE_MAX - now || (b->limit > 0 && now + bytes > b->limit);
        if (over) {
            atomic_fetch_add_explicit(&b->refused, 1, memory_order_relaxed);
            return -1;
        }
        if (atomic_compare_exchange_weak_explicit(&b->charged, &now, now + bytes,
                                                  memory_order_relaxed, memory_order_relaxed))
            break;
    }
    note_peak(b, now + bytes);
    return 0;
}

void budget_release(gj_budget *b, size_t bytes)
{
    atomic_fetch_sub_explicit(&b->charged, bytes, memory_order_relaxed);
}

int budget_cover(gj_budget *b, size_t *charged, budget_body in, size_t body)
{
    size_t need = budget_peak(in, body);
    if (need <= *charged)
        return 0;
    if (budget_charge(b, need - *charged) != 0)
        return -1;
    *charged = need;
    return 0;
}

size_t budget_limit(const gj_budget *b)
{
    return b->limit;
}

size_t budget_charged(const gj_budget *b)
{
    return atomic_load_explicit(&b->charged, memory_order_relaxed);
}

void budget_render(gj_budget *b, gj_buf *out)
{
    const struct {
        const char *name, *type, *help;
        double value;
    } rows[] = {
        {"gamejudge_memory_budget_bytes", "gauge",
         "The bytes requests may hold at once (--memory-budget; 0: no bound).", (double)b->limit},
        {"gamejudge_memory_charged_bytes", "gauge",
         "Bytes charged now to requests being read, queued or solved (their expected peaks).",
         (double)budget_charged(b)},
        {"gamejudge_memory_charged_peak_bytes", "gauge", "The highest charge since start.",
         (double)atomic_load(&b->peak)},
        {"gamejudge_memory_refused_total", "counter",
         "Charges refused because they would pass --memory-budget: answered 503, or 413 when "
         "the whole budget could not hold them, or from the cache when a solve's was refused.",
         (double)atomic_load(&b->refused)},
    };
    for (size_t i = 0; i < sizeof rows / sizeof rows[0]; i++) {
        metrics_family(out, rows[i].name, rows[i].type, rows[i].help);
        metrics_sample(out, rows[i].name, "", rows[i].value);
    }
}

/* The first number in file `path` (a cgroup limit, or "max"): its value,
 * or 0 when unreadable or unlimited. */
static unsigned long long read_limit(const char *path)
{
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return 0;
    unsigned long long v = 0;
    if (fscanf(f, "%llu", &v) != 1)
        v = 0; /* "max": no limit */
    fclose(f);
    return v;
}

/* MemTotal from /proc/meminfo in bytes, or 0. */
static unsigned long long mem_total(void)
{
    FILE *f = fopen("/proc/meminfo", "r");
    if (f == NULL)
        return 0;
    char line[128];
    unsigned long long kib = 0;
    while (fgets(line, sizeof line, f) != NULL)
        if (sscanf(line, "MemTotal: %llu kB", &kib) == 1)
            break;
    fclose(f);
    return kib * 1024;
}

long budget_default_bytes(void)
{
    unsigned long long total = mem_total();
    const char *cgroups[] = {"/sys/fs/cgroup/memory.max",
                             "/sys/fs/cgroup/memory/memory.limit_in_bytes"};
    for (size_t i = 0; i < sizeof cgroups / sizeof cgroups[0]; i++) {
        unsigned long long limit = read_limit(cgroups[i]);
        /* cgroup v1 reports "no limit" as a huge number: above total it is none. */
        if (limit > 0 && (total == 0 || limit < total))
            total = limit;
    }
    if (total == 0)
        return 1L << 30;
    unsigned long long half = total / 2;
    return half > (1ULL << 40) ? 1L << 40 : (long)half;
}
