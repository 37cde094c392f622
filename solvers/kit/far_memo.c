/* far_memo.c - the remoteness searches' memo (far_memo.h): open addressing
 * with linear probing, kept at most half full. */
#include "far_memo.h"

#include <stdlib.h>
#include <string.h>

/* The slot a key starts probing at: the words mixed with splitmix64's
 * finaliser, so masks that differ in a few bits spread apart. */
static size_t slot_of(const far_memo *m, const far_key *k)
{
    uint64_t h = 0x9e3779b97f4a7c15ULL;
    for (int i = 0; i < 3; i++) {
        h ^= k->w[i] + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
        h = (h ^ (h >> 30)) * 0xbf58476d1ce4e5b9ULL;
        h = (h ^ (h >> 27)) * 0x94d049bb133111ebULL;
        h ^= h >> 31;
    }
    return (size_t)h & m->mask;
}

/* Tables of `slots` empty slots into *m (its count untouched): 0, or -1. */
static int alloc_slots(far_memo *m, size_t slots)
{
    m->key = malloc(slots * sizeof *m->key);
    m->val = malloc(slots * sizeof *m->val);
    if (m->key == NULL || m->val == NULL) {
        free(m->key);
        free(m->val);
        m->key = NULL;
        m->val = NULL;
        return -1;
    }
    memset(m->val, 0xff, slots * sizeof *m->val); /* every value -1: empty */
    m->mask = slots - 1;
    return 0;
}

int far_memo_init(far_memo *m, long budget)
{
    m->count = 0;
    m->budget = budget;
    return alloc_slots(m, 1024);
}

int far_memo_find(const far_memo *m, const far_key *k, int32_t *val)
{
    for (size_t s = slot_of(m, k);; s = (s + 1) & m->mask) {
        if (m->val[s] < 0)
            return 0;
        if (memcmp(&m->key[s], k, sizeof *k) == 0) {
            *val = m->val[s];
            return 1;
        }
    }
}

/* Put k at its first empty slot (the caller knows it is absent and that
 * there is room). */
static void place(far_memo *m, const far_key *k, int32_t val)
{
    size_t s = slot_of(m, k);
    while (m->val[s] >= 0)
        s = (s + 1) & m->mask;
    m->key[s] = *k;
    m->val[s] = val;
}

/* Double the table, keeping every entry: 0, or -1 (the old one kept). */
static int grow(far_memo *m)
{
    far_memo old = *m;
    if (alloc_slots(m, (old.mask + 1) * 2) != 0) {
        *m = old;
        return -1;
    }
    for (size_t s = 0; s <= old.mask; s++)
        if (old.val[s] >= 0)
            place(m, &old.key[s], old.val[s]);
    free(old.key);
    free(old.val);
    return 0;
}

int far_memo_add(far_memo *m, const far_key *k, int32_t val)
{
    if (m->count >= m->budget)
        return 1;
    if ((size_t)(m->count + 1) * 2 > m->mask + 1 && grow(m) != 0)
        return -1;
    place(m, k, val);
    m->count++;
    return 0;
}

void far_memo_free(far_memo *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
}
