/* bare_server.c - the small-request ceiling: libmicrohttpd alone.
 *
 *   bare_server PORT [poll|epoll [THREADS]]
 *
 * For every request, whatever its method or body, the same small JSON
 * answer from a static buffer: no routing, no worker hand-off, no logging,
 * so what the service adds to a small request is the difference to this.
 * Without a mode it runs the service's own threading mode of old (one
 * internal poll() polling thread, inter-thread signalling, suspend/resume
 * allowed, 32 KiB of connection memory); `epoll THREADS` is libmicrohttpd's
 * fastest mode on Linux, an internal pool of THREADS epoll threads, which
 * issue 22 takes as the ceiling for the daemon with as many I/O threads. */
#include <microhttpd.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char answer[] = "{\"game\":\"matrix-game\",\"outcomes\":[\"GGG\",\"MGG\",\"MGG\"]}";

/* The access handler: wait for the whole body, drop it, answer `answer`. */
static enum MHD_Result on_request(void *cls, struct MHD_Connection *conn, const char *url,
                                  const char *method, const char *version, const char *data,
                                  size_t *size, void **state)
{
    static int seen;
    (void)cls, (void)url, (void)method, (void)version, (void)data;
    if (*state == NULL) { /* the headers: wait for the body */
        *state = &seen;
        return MHD_YES;
    }
    if (*size != 0) { /* a piece of the body: drop it */
        *size = 0;
        return MHD_YES;
    }
    struct MHD_Response *resp =
        MHD_create_response_from_buffer(sizeof answer - 1, (void *)answer, MHD_RESPMEM_PERSISTENT);
    if (resp == NULL)
        return MHD_NO;
    MHD_add_response_header(resp, MHD_HTTP_HEADER_CONTENT_TYPE, "application/json");
    enum MHD_Result rc = MHD_queue_response(conn, MHD_HTTP_OK, resp);
    MHD_destroy_response(resp);
    return rc;
}

/* Serve on argv[1] in the mode argv[2] (poll or epoll) with argv[3]
 * threads until SIGTERM or SIGINT. */
int main(int argc, char **argv)
{
    if (argc < 2 || argc > 4)
        return 2;
    int epoll = argc >= 3 && strcmp(argv[2], "epoll") == 0;
    unsigned threads = argc == 4 ? (unsigned)atoi(argv[3]) : 1;
    if (threads < 1)
        threads = 1;
    sigset_t stop;
    int sig;
    sigemptyset(&stop);
    sigaddset(&stop, SIGTERM);
    sigaddset(&stop, SIGINT);
    pthread_sigmask(SIG_BLOCK, &stop, NULL);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC |
                     (epoll ? MHD_USE_EPOLL : MHD_USE_POLL);
    struct MHD_Daemon *d =
        MHD_start_daemon(flags, (uint16_t)atoi(argv[1]), NULL, NULL, on_request, NULL,
                         MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_THREAD_POOL_SIZE, threads,
                         MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)32 << 10, MHD_OPTION_END);
    if (d == NULL)
        return 1;
    printf("listening on http://127.0.0.1:%s\n", argv[1]);
    fflush(stdout);
    sigwait(&stop, &sig);
    MHD_stop_daemon(d);
    return 0;
}
