/* fuzz_http.c - libFuzzer target: raw bytes through the HTTP request path.
 *
 * The daemon's HTTP layer (server/http/http.c with its worker pool, routing,
 * media negotiation, the solvers and the error renderer) runs in this
 * process on a loopback port, exactly as `gamejudge serve` starts it.  Each
 * input is written to a fresh connection as a client would send it, the
 * write side is shut, and the reply is read (see below for how it ends).
 *
 * Configuration is the default except for sizes small enough that a few
 * kilobytes of input reach every limit: a 2 KB body, 8 KB of header memory,
 * test sets of 4 cases and 256 bytes, a 2 KB query and game limits of 8, so
 * that solves stay fast.
 *
 * Ending a connection: libmicrohttpd (0.9.75) usually misses a FIN
 * that arrives together with a complete keep-alive request, and then holds
 * the connection until its idle timeout.  So the reply is read until the
 * server closes or stays quiet for IDLE_MS, and the connection is then
 * reset (RST), which the server always notices.  A reset mid-request is a
 * client vanishing, itself a path worth fuzzing.  Afterwards every request
 * the input began must complete; one that never does is a hang. */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "app.h"
#include "config.h"
#include "games.h"
#include "http.h"

#define SMALL_LIMIT 8
#define IDLE_MS     10

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static gj_config cfg;
static gj_app *app;
static struct sockaddr_in server;

static void small_limits(gj_config *c)
{
    size_t n;
    const gj_game *const *games = games_all(&n);
    for (size_t g = 0; g < n && g < GJ_MAX_GAMES; g++)
        for (int i = 0; i < games[g]->nlimits; i++) {
            long min = games[g]->limits[i].min;
            long small = SMALL_LIMIT < min ? min : SMALL_LIMIT;
            if (small < c->limits[g][i])
                c->limits[g][i] = small;
        }
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    gj_error e;
    config_defaults(&cfg);
    cfg.port = 0;
    cfg.workers = 1;
    cfg.queue = 4;
    cfg.max_body = 2048;
    cfg.connection_memory = 8192;
    cfg.timeout = 600;       /* a request that never completes must show as a hang */
    cfg.judge_max_cases = 4; /* a test set reaches its limits within the body limit */
    cfg.judge_max_bytes = 256;
    cfg.max_query = 2048; /* half the header memory, so both 414s are reachable */
    small_limits(&cfg);

    signal(SIGPIPE, SIG_IGN); /* the server may close before we finish writing */
    app = app_start(&cfg, &e);
    if (app == NULL) {
        fprintf(stderr, "fuzz_http: cannot start the service: %s\n", e.message);
        exit(1);
    }
    memset(&server, 0, sizeof server);
    server.sin_family = AF_INET;
    server.sin_port = htons((uint16_t)app_port(app));
    server.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return 0;
}

/* Write what the server takes; it may answer early and close. */
static void send_all(int fd, const uint8_t *data, size_t size)
{
    while (size > 0) {
        ssize_t n = send(fd, data, size, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        data += n;
        size -= (size_t)n;
    }
}

/* Read until the server closes or goes quiet; a reply must be HTTP. */
static void drain_reply(int fd)
{
    char buf[4096], head[8];
    size_t total = 0;
    ssize_t n;
    struct pollfd p = {fd, POLLIN, 0};
    while (poll(&p, 1, IDLE_MS) > 0 && (n = recv(fd, buf, sizeof buf, 0)) > 0) {
        if (total < sizeof head)
            memcpy(head + total, buf,
                   (size_t)n < sizeof head - total ? (size_t)n : sizeof head - total);
        total += (size_t)n;
    }
    if (total >= 7 && memcmp(head, "HTTP/1.", 7) != 0)
        abort();
}

/* Connect to the in-process server.  After hundreds of thousands of
 * connections loopback can briefly run out of something (a port not yet
 * reusable, a full accept queue); that is the harness's problem, not a
 * finding, so retry for a while and abort, saying why, only if it lasts. */
static int connect_server(void)
{
    for (int attempt = 0; attempt < 200; attempt++) {
        int fd = socket(AF_INET, SOCK_STREAM, 0);
        if (fd >= 0 && connect(fd, (struct sockaddr *)&server, sizeof server) == 0)
            return fd;
        int err = errno;
        if (fd >= 0)
            close(fd);
        if (attempt == 199) {
            fprintf(stderr, "fuzz_http: cannot connect to the server: %s\n", strerror(err));
            abort();
        }
        poll(NULL, 0, 10);
    }
    return -1;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    int fd = connect_server();
    send_all(fd, data, size);
    shutdown(fd, SHUT_WR);
    drain_reply(fd);
    struct linger reset = {1, 0};
    setsockopt(fd, SOL_SOCKET, SO_LINGER, &reset, sizeof reset);
    close(fd);
    /* Every request the input began must have completed and been freed. */
    if (!http_wait_idle(app->http, 60))
        abort();
    return 0;
}
