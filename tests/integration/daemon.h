/* daemon.h - start build/gamejudge as a child process for a test.
 *
 * The daemon is started with `serve --host 127.0.0.1 --port 0` plus the
 * test's flags (and `--store none` unless they name a --store); its first stdout line gives the
 * port (http or, with
 * --tls-cert, https), the second the admin port when --admin-address is
 * among the flags; its stderr goes to a
 * temporary file the test can read.  daemon_stop sends SIGTERM, reaps it
 * and removes the file, so a test never leaves a server behind.
 *
 * With GJ_CONTRACT=1 in the environment, a validating proxy (prism, from
 * node_modules) is started in front of each daemon and `base` points at it:
 * every request and answer of the suite is then checked against the
 * OpenAPI document (see contract_check in client.h). */
#ifndef GJ_TEST_DAEMON_H
#define GJ_TEST_DAEMON_H

#include <sys/types.h>

typedef struct test_daemon {
    pid_t pid;
    pid_t proxy_pid; /* the contract proxy in front of it, 0 when none */
    unsigned port;
    char base[64];       /* "http://127.0.0.1:PORT": the daemon, or its proxy */
    char direct[64];     /* the daemon itself, bypassing any proxy */
    char log[64];        /* file holding the daemon's stderr (the access log) */
    unsigned admin_port; /* with --admin-address: its port, else 0 */
    char admin[64];      /* "http://127.0.0.1:PORT" of the admin listener */
} test_daemon;

/* The binary under test: $GJ_BIN, or build/gamejudge. */
const char *daemon_binary(void);
/* The OpenAPI document built beside that binary (mk/spec.mk): $GJ_SPEC, or
 * the document of that name in the binary's folder. */
const char *daemon_spec(void);

/* Start with extra arguments (NULL-terminated, may be NULL).  Fails the
 * test when the daemon does not announce its port within 10 s. */
void daemon_start(test_daemon *d, const char *const *extra);

/* Put the contract proxy in front of d->port and point d->base at it;
 * d->log receives the proxy's output.  daemon_start does this itself when
 * GJ_CONTRACT=1. */
void daemon_start_proxy(test_daemon *d);

/* SIGTERM, wait (at most 30 s, then SIGKILL); the exit status as from
 * waitpid's WEXITSTATUS, or -1 when it did not exit normally. */
int daemon_stop(test_daemon *d);

/* The daemon's stderr so far, malloc'd and NUL-terminated. */
char *daemon_log(const test_daemon *d);

/* The daemon's stderr once it contains `needle` (polled for up to 10 s: a
 * request is logged after its answer is sent, and access lines are
 * buffered up to a second, log.h), or NULL. */
char *daemon_wait_log(const test_daemon *d, const char *needle);

/* The sample `series` ("name" or "name{labels}", exactly as exposed) of
 * d's /metrics, from the admin listener when d has one; -1 when absent.
 * Fails the test when /metrics does not answer 200. */
double daemon_metric(const test_daemon *d, const char *series);

/* Is the process still running? */
int daemon_alive(const test_daemon *d);

/* Run the binary with args and stdin bytes; capture stdout and stderr
 * (malloc'd, NUL-terminated).  Returns the exit status. */
int run_cli(const char *const *args, const char *in, size_t in_len, char **out, char **err);

#endif
