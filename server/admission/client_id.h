/* client_id.h - who the client is, for the quotas (quota.h).
 *
 * The client is the peer's address, unless the peer is one of the trusted
 * proxies (--trusted-proxies: addresses and CIDR blocks, IPv4 or IPv6):
 * then it is the right-most address of X-Forwarded-For that is not itself
 * trusted.  The header is read only from a trusted peer; from anyone else
 * it changes nothing.  Walking from the right, an entry that is not an
 * address ends the walk, and the client is the last trusted hop seen (a
 * proxy does not vouch for what lies left of garbage); when every entry is
 * trusted, the client is the left-most.  Addresses come out in canonical
 * text (inet_ntop), IPv4-mapped IPv6 as plain IPv4, so one client has one
 * name however it is spelled.  A hop may carry a port as proxies write it
 * ("192.0.2.1:80", "[2001:db8::1]:443"); the port is dropped.  The RFC 7239
 * Forwarded header is read as the same list (its for= nodes, in order)
 * when a trusted peer sent no X-Forwarded-For; an obfuscated or "unknown"
 * node is not an address, so it ends the walk like garbage does. */
#ifndef GJ_CLIENT_ID_H
#define GJ_CLIENT_ID_H

#include <stddef.h>

#include "buf.h"
#include "error.h"

typedef struct proxy_net {
    int v4; /* 1: the first 4 bytes of addr are an IPv4 address */
    unsigned char addr[16];
    int bits; /* prefix length */
} proxy_net;

typedef struct proxy_list {
    proxy_net *nets;
    size_t n;
} proxy_list;

/* Parse a comma-separated list of addresses and CIDR blocks ("10.0.0.0/8,
 * ::1") into *out (NULL: only check it): 0, or -1 with *e naming `origin`
 * and the bad item. */
int proxies_parse(const char *list, const char *origin, proxy_list *out, gj_error *e);
void proxies_free(proxy_list *l);

/* 1 when a block of the list is a whole address family (0.0.0.0/0,
 * ::/0): every peer is then trusted to name its own client. */
int proxies_cover_all(const proxy_list *l);

/* 1 when the address text is in one of the list's blocks. */
int proxies_contain(const proxy_list *l, const char *addr);

/* Canonical text of an address into out: 0, or -1 when it is not one. */
int client_address_canonical(const char *addr, char *out, size_t cap);

/* The client's address into out (see above): `peer` the peer's address
 * text, `xff` every X-Forwarded-For value joined by commas (NULL: none). */
void client_address(const proxy_list *l, const char *peer, const char *xff, char *out, size_t cap);

/* Append the for= node of each element of a Forwarded header value (RFC
 * 7239), unquoted, to out as an X-Forwarded-For list (comma-separated, in
 * order); an element with no for= adds "unknown". */
void forwarded_for(const char *value, gj_buf *out);

#endif
