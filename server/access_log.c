/* access_log.c - formats the whole line first and writes it with one call,
 * so lines from different threads never interleave. */
#include "access_log.h"

#include <stdio.h>
#include <time.h>

void access_log(const access_entry *a)
{
    struct timespec now;
    struct tm tm;
    char stamp[32], line[1024];
    clock_gettime(CLOCK_REALTIME, &now);
    gmtime_r(&now.tv_sec, &tm);
    strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%S", &tm);
    int n = snprintf(line, sizeof line, "%s.%03ldZ %s %.300s %d %zu %lluus id=%s end=%s\n", stamp,
                     now.tv_nsec / 1000000, a->method, a->path, a->status, a->bytes, a->micros,
                     a->request_id, a->end);
    if (n > 0)
        fwrite(line, 1, (size_t)n < sizeof line ? (size_t)n : sizeof line - 1, stderr);
}
