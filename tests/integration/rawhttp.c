/* rawhttp.c - raw-socket requests for the integration tests. */
#include "rawhttp.h"

#include <arpa/inet.h>
#include <check.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

static int dial(unsigned port)
{
    struct sockaddr_in a;
    memset(&a, 0, sizeof a);
    a.sin_family = AF_INET;
    a.sin_port = htons((unsigned short)port);
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    ck_assert_int_ge(fd, 0);
    ck_assert_msg(connect(fd, (struct sockaddr *)&a, sizeof a) == 0, "cannot connect to %u", port);
    /* A safety net, not a measurement: a server that never answers must fail
     * the case rather than stall the suite. */
    struct timeval limit = {60, 0};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, sizeof limit);
    return fd;
}

/* The server may answer early (413, 431) and close before it has read all
 * of a large request; what it did not read is not our concern. */
static void send_all(int fd, const char *p, size_t len)
{
    while (len > 0) {
        ssize_t n = send(fd, p, len, MSG_NOSIGNAL);
        if (n <= 0)
            return;
        p += n;
        len -= (size_t)n;
    }
}

static char *read_to_close(int fd, size_t *len)
{
    size_t cap = 4096, n = 0;
    char *s = malloc(cap);
    ck_assert_ptr_nonnull(s);
    for (;;) {
        if (cap - n < 2) {
            cap *= 2;
            char *more = realloc(s, cap);
            ck_assert_ptr_nonnull(more);
            s = more;
        }
        ssize_t got = recv(fd, s + n, cap - n - 1, 0);
        if (got == 0)
            break;
        ck_assert_msg(got > 0, "no complete reply within 60 s");
        n += (size_t)got;
    }
    s[n] = '\0';
    *len = n;
    return s;
}

static char *copy(const char *s, size_t n)
{
    char *out = malloc(n + 1);
    ck_assert_ptr_nonnull(out);
    memcpy(out, s, n);
    out[n] = '\0';
    return out;
}

/* Split the final response out of everything received. */
static raw_reply parse(const char *all, size_t n)
{
    raw_reply r = {0, NULL, NULL, 0};
    const char *p = all, *end = all + n;
    for (;;) {
        const char *blank = strstr(p, "\r\n\r\n");
        if (strncmp(p, "HTTP/1.", 7) != 0 || blank == NULL || blank + 4 > end)
            break;
        int status = atoi(p + 9);
        if (status >= 100 && status < 200) {
            p = blank + 4; /* 100 Continue: the real answer follows */
            continue;
        }
        r.status = status;
        r.head = copy(p, (size_t)(blank + 2 - p));
        r.len = (size_t)(end - (blank + 4));
        r.body = copy(blank + 4, r.len);
        return r;
    }
    r.head = copy("", 0);
    r.body = copy("", 0);
    return r;
}

raw_reply raw_exchange(unsigned port, const char *req, size_t len)
{
    int fd = dial(port);
    send_all(fd, req, len);
    size_t n;
    char *all = read_to_close(fd, &n);
    close(fd);
    raw_reply r = parse(all, n);
    free(all);
    return r;
}

void raw_hang_up(unsigned port, const char *req, size_t len)
{
    int fd = dial(port);
    send_all(fd, req, len);
    close(fd);
}

void raw_reply_free(raw_reply *r)
{
    free(r->head);
    free(r->body);
    memset(r, 0, sizeof *r);
}
