/* client_id.c - the client's address behind trusted proxies (client_id.h). */
#include "client_id.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Parse an address (IPv4, IPv6, IPv4-mapped IPv6 taken as IPv4) of len
 * bytes at s into net->addr and net->v4: 0, or -1. */
static int parse_addr(const char *s, size_t len, proxy_net *net)
{
    char text[INET6_ADDRSTRLEN + 1];
    if (len == 0 || len >= sizeof text)
        return -1;
    memcpy(text, s, len);
    text[len] = '\0';
    memset(net->addr, 0, sizeof net->addr);
    if (inet_pton(AF_INET, text, net->addr) == 1) {
        net->v4 = 1;
        return 0;
    }
    unsigned char six[16];
    if (inet_pton(AF_INET6, text, six) != 1)
        return -1;
    static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
    if (memcmp(six, mapped, sizeof mapped) == 0) {
        memcpy(net->addr, six + 12, 4);
        net->v4 = 1;
        return 0;
    }
    memcpy(net->addr, six, 16);
    net->v4 = 0;
    return 0;
}

/* 1 when s[0..len) is one or more decimal digits (a port). */
static int all_digits(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++)
        if (s[i] < '0' || s[i] > '9')
            return 0;
    return len > 0;
}

/* Parse one forwarded hop of len bytes as proxies write it: an address,
 * "IPv4:PORT", "[IPv6]" or "[IPv6]:PORT" (the port is not the client's
 * name): 0, or -1. */
static int parse_hop(const char *s, size_t len, proxy_net *net)
{
    if (len > 0 && s[0] == '[') {
        const char *close = memchr(s, ']', len);
        if (close == NULL)
            return -1;
        size_t after = len - (size_t)(close + 1 - s);
        if (after > 0 && (close[1] != ':' || !all_digits(close + 2, after - 1)))
            return -1;
        return parse_addr(s + 1, (size_t)(close - s - 1), net);
    }
    const char *colon = memchr(s, ':', len);
    if (colon != NULL && memchr(colon + 1, ':', len - (size_t)(colon + 1 - s)) == NULL) {
        /* One colon: IPv4 and a port (an IPv6 address has at least two). */
        if (!all_digits(colon + 1, len - (size_t)(colon + 1 - s)))
            return -1;
        return parse_addr(s, (size_t)(colon - s), net) == 0 && net->v4 ? 0 : -1;
    }
    return parse_addr(s, len, net);
}

/* Parse one "ADDR" or "ADDR/BITS" item of len bytes: 0, or -1. */
static int parse_net(const char *s, size_t len, proxy_net *net)
{
    const char *slash = memchr(s, '/', len);
    size_t alen = slash ? (size_t)(slash - s) : len;
    if (parse_addr(s, alen, net) != 0)
        return -1;
    int max = net->v4 ? 32 : 128;
    net->bits = max;
    if (slash == NULL)
        return 0;
    const char *p = slash + 1, *end = s + len;
    if (p == end || end - p > 3)
        return -1;
    int bits = 0;
    for (; p < end; p++) {
        if (*p < '0' || *p > '9')
            return -1;
        bits = bits * 10 + (*p - '0');
    }
    if (bits > max)
        return -1;
    net->bits = bits;
    return 0;
}

/* The item at s without the spaces and tabs around it: its start, *len its length. */
static const char *trim(const char *s, size_t *len)
{
    while (*len > 0 && (*s == ' ' || *s == '\t')) {
        s++;
        (*len)--;
    }
    while (*len > 0 && (s[*len - 1] == ' ' || s[*len - 1] == '\t'))
        (*len)--;
    return s;
}

int proxies_parse(const char *list, const char *origin, proxy_list *out, gj_error *e)
{
    size_t cap = 1;
    for (const char *p = list; *p; p++)
        cap += *p == ',';
    proxy_net *nets = calloc(cap, sizeof *nets);
    if (nets == NULL)
        return gj_fail_nomem(e);
    size_t n = 0;
    for (const char *p = list;;) {
        size_t len = strcspn(p, ",");
        size_t tlen = len;
        const char *item = trim(p, &tlen);
        if (tlen > 0 && parse_net(item, tlen, &nets[n++]) != 0) {
            free(nets);
            return gj_fail(e, GJ_BAD_INPUT,
                           "%s: '%.*s' is not an IP address or CIDR block (such as 10.0.0.0/8 "
                           "or ::1)",
                           origin, (int)(tlen > 60 ? 60 : tlen), item);
        }
        if (p[len] == '\0')
            break;
        p += len + 1;
    }
    if (out == NULL) {
        free(nets);
        return 0;
    }
    out->nets = nets;
    out->n = n;
    return 0;
}

void proxies_free(proxy_list *l)
{
    free(l->nets);
    l->nets = NULL;
    l->n = 0;
}

/* 1 when a (parsed, bits unused) lies in block net. */
static int in_net(const proxy_net *net, const proxy_net *a)
{
    if (net->v4 != a->v4)
        return 0;
    int whole = net->bits / 8, rest = net->bits % 8;
    if (memcmp(net->addr, a->addr, (size_t)whole) != 0)
        return 0;
    if (rest == 0)
        return 1;
    unsigned char mask = (unsigned char)(0xff << (8 - rest));
    return (net->addr[whole] & mask) == (a->addr[whole] & mask);
}

/* 1 when the parsed address a is in one of l's blocks. */
static int contains(const proxy_list *l, const proxy_net *a)
{
    for (size_t i = 0; l != NULL && i < l->n; i++)
        if (in_net(&l->nets[i], a))
            return 1;
    return 0;
}

int proxies_cover_all(const proxy_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        if (l->nets[i].bits == 0)
            return 1;
    return 0;
}

int proxies_contain(const proxy_list *l, const char *addr)
{
    proxy_net a;
    return parse_addr(addr, strlen(addr), &a) == 0 && contains(l, &a);
}

/* The canonical text of parsed address a into out. */
static void put_addr(const proxy_net *a, char *out, size_t cap)
{
    if (inet_ntop(a->v4 ? AF_INET : AF_INET6, a->addr, out, (socklen_t)cap) == NULL)
        snprintf(out, cap, "-");
}

int client_address_canonical(const char *addr, char *out, size_t cap)
{
    proxy_net a;
    if (parse_addr(addr, strlen(addr), &a) != 0)
        return -1;
    put_addr(&a, out, cap);
    return 0;
}

void client_address(const proxy_list *l, const char *peer, const char *xff, char *out, size_t cap)
{
    proxy_net at;
    if (parse_addr(peer, strlen(peer), &at) != 0) {
        snprintf(out, cap, "%s", peer); /* not an address (a test's socket): as it is */
        return;
    }
    if (xff != NULL && contains(l, &at)) {
        /* From the right: each hop vouches for the one to its left. */
        size_t end = strlen(xff);
        while (end > 0) {
            size_t start = end;
            while (start > 0 && xff[start - 1] != ',')
                start--;
            size_t len = end - start;
            const char *item = trim(xff + start, &len);
            proxy_net hop;
            if (len > 0) {
                if (parse_hop(item, len, &hop) != 0)
                    break;
                at = hop;
                if (!contains(l, &hop))
                    break;
            }
            end = start > 0 ? start - 1 : 0;
        }
    }
    put_addr(&at, out, cap);
}

/* The end of the RFC 7239 value (token or quoted-string) at p, its bytes
 * unquoted into out (at most cap - 1, NUL-terminated). */
static const char *take_value(const char *p, char *out, size_t cap)
{
    size_t n = 0;
    if (*p == '"') {
        for (p++; *p != '\0' && *p != '"'; p++) {
            if (*p == '\\' && p[1] != '\0')
                p++;
            if (n + 1 < cap)
                out[n++] = *p;
        }
        if (*p == '"')
            p++;
    } else {
        for (; *p != '\0' && *p != ';' && *p != ',' && *p != ' ' && *p != '\t'; p++)
            if (n + 1 < cap)
                out[n++] = *p;
    }
    out[n] = '\0';
    return p;
}

void forwarded_for(const char *value, gj_buf *out)
{
    char node[96];
    const char *p = value;
    while (*p != '\0') {
        /* One element: pairs separated by ';', up to a ',' outside quotes. */
        int have = 0;
        while (*p != '\0' && *p != ',') {
            while (*p == ' ' || *p == '\t' || *p == ';')
                p++;
            const char *name = p;
            while (*p != '\0' && *p != '=' && *p != ';' && *p != ',')
                p++;
            size_t name_len = (size_t)(p - name);
            while (name_len > 0 && (name[name_len - 1] == ' ' || name[name_len - 1] == '\t'))
                name_len--;
            if (*p != '=')
                continue;
            p = take_value(p + 1, node, sizeof node);
            if (name_len == 3 && strncasecmp(name, "for", 3) == 0 && !have) {
                have = 1;
                if (out->len > 0)
                    buf_putc(out, ',');
                buf_puts(out, node);
            }
            while (*p == ' ' || *p == '\t')
                p++;
        }
        if (!have) { /* an element with no node: nothing left of it is vouched for */
            if (out->len > 0)
                buf_putc(out, ',');
            buf_puts(out, "unknown");
        }
        if (*p == ',')
            p++;
        while (*p == ' ' || *p == '\t')
            p++;
    }
}
