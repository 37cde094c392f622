/* parse_limit.c - the least work any solver of these inputs must do.
 *
 * Reads all of stdin with read(2) and parses every unsigned integer with the
 * plainest digit loop, storing each one (so the work cannot be optimised
 * away); any other non-space byte (grid cells) is counted.  Prints a
 * checksum.  No validation, no line tracking, no answer: the time of this
 * whole process is the floor that "within 2x of the parse limit" refers to. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char *slurp(size_t *len)
{
    size_t cap = 1 << 20, n = 0;
    char *buf = malloc(cap);
    for (;;) {
        if (buf == NULL)
            return NULL;
        if (n == cap) {
            cap *= 2;
            char *p = realloc(buf, cap);
            if (p == NULL)
                free(buf);
            buf = p;
            continue;
        }
        ssize_t got = read(0, buf + n, cap - n);
        if (got <= 0)
            break;
        n += (size_t)got;
    }
    *len = n;
    return buf;
}

int main(void)
{
    size_t len;
    char *buf = slurp(&len);
    if (buf == NULL)
        return 1;
    /* At most one integer per two bytes. */
    uint32_t *vals = malloc((len / 2 + 1) * sizeof *vals);
    if (vals == NULL)
        return 1;
    size_t nvals = 0, other = 0;
    const char *p = buf, *end = buf + len;
    while (p < end) {
        unsigned c = (unsigned char)*p;
        if (c - '0' < 10) {
            uint32_t v = 0;
            while (p < end && (unsigned)(*p - '0') < 10)
                v = v * 10 + (uint32_t)(*p++ - '0');
            vals[nvals++] = v;
        } else {
            other += c > ' ';
            p++;
        }
    }
    uint32_t sum = 0;
    for (size_t i = 0; i < nvals; i++)
        sum += vals[i];
    printf("%zu %zu %u\n", nvals, other, sum);
    free(vals);
    free(buf);
    return 0;
}
