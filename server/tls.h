/* tls.h - the certificate and key for HTTPS (--tls-cert, --tls-key), read
 * once at start-up.
 *
 * libmicrohttpd takes both as PEM text in memory and hands them to GnuTLS
 * when the daemon starts.  tls_load reads them first and checks their PEM
 * form, so that a missing, unreadable, empty, encrypted or wrong kind of
 * file is refused with a message naming that file; what only GnuTLS can
 * tell (a damaged body, a key that is not the certificate's) is reported by
 * http_start, naming both files. */
#ifndef GJ_TLS_H
#define GJ_TLS_H

#include <stddef.h>

#include "error.h"

/* The largest certificate chain or key file taken (1 MiB). */
#define TLS_MAX_FILE (1 << 20)

typedef struct tls_pair {
    char *cert; /* NUL-terminated PEM, malloc'd */
    char *key;
} tls_pair;

/* Read and check both files into *out: 0, or -1 with e naming the file and
 * what is wrong with it (and *out holding nothing). */
int tls_load(const char *cert_path, const char *key_path, tls_pair *out, gj_error *e);

/* Free what tls_load read, wiping the key's bytes first. */
void tls_free(tls_pair *p);

#endif
