/* client.h - a small libcurl client for the integration tests. */
#ifndef GJ_TEST_CLIENT_H
#define GJ_TEST_CLIENT_H

#include <check.h>
#include <stddef.h>

typedef struct http_reply {
    long status;
    char *body; /* NUL-terminated */
    size_t len;
    char *headers;  /* raw header block, NUL-terminated */
    int curl_error; /* CURLcode, 0 on success */
} http_reply;

typedef struct http_call {
    const char *method; /* "GET", "POST", ... */
    const char *url;
    const char *const *headers; /* NULL-terminated "Name: value" list, or NULL */
    const char *body;           /* sent as is when not NULL */
    size_t len;
    int chunked; /* send the body with Transfer-Encoding: chunked */
} http_call;

http_reply http_do(const http_call *c);

/* http_do from the local address `from` (e.g. "127.0.0.2"): loopback holds
 * all of 127/8, so tests get distinct peers on one machine. */
http_reply http_do_from(const http_call *c, const char *from);
/* From now on, https calls trust the CA certificate in PEM file `path`
 * (NULL: the system's CAs again). */
void http_trust(const char *path);
void http_reply_free(http_reply *r);

/* A header's value from the raw block (case-insensitive), malloc'd, or NULL. */
char *http_header(const http_reply *r, const char *name);

/* Run all calls at once through one curl multi handle. */
void http_do_parallel(const http_call *calls, http_reply *replies, int n);

/* Violations of the OpenAPI document (build/openapi.yaml) that the contract proxy reported for this
 * exchange and that the exchange does not excuse, as one line in `why`;
 * returns their count (0 when there is no proxy).  Every reply is checked
 * by http_do when GJ_CONTRACT=1, and the test fails on any. */
int contract_check(const http_call *c, const http_reply *r, char *why, size_t cap);

/* Run a Check suite (each test in a child process), release libcurl, and
 * return the exit status for main: 0 when every test passed. */
int run_suite(Suite *s);

/* Whole file, malloc'd, NUL-terminated; fails the test when unreadable. */
char *read_file_or_fail(const char *path, size_t *len);

#endif
