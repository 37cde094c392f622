/* access_log.h - one line per request on stderr:
 *   TIME METHOD PATH STATUS BYTES DURATIONus id=ID end=HOW
 * TIME is UTC with milliseconds; BYTES is the response body size; HOW says
 * how the request ended (ok, timeout, aborted, error, shutdown). */
#ifndef GJ_ACCESS_LOG_H
#define GJ_ACCESS_LOG_H

#include <stddef.h>

typedef struct access_entry {
    const char *method;
    const char *path;
    int status; /* 0 when no response was sent */
    size_t bytes;
    unsigned long long micros;
    const char *request_id;
    const char *end;
} access_entry;

void access_log(const access_entry *a);

#endif
