/* tls.h - the certificate and key for HTTPS (--tls-cert, --tls-key), read
 * and checked once at start-up.
 *
 * libmicrohttpd takes both as PEM text and hands them to GnuTLS when the
 * daemon starts, and GnuTLS takes some damage there without a word: an RSA
 * key whose p is not prime (four base64 characters changed) is loaded, and
 * every handshake then fails with nothing logged.  So tls_load checks them
 * first, with GnuTLS itself: the PEM form of each file (missing, unreadable,
 * empty, encrypted or the wrong kind), that GnuTLS can read the key and the
 * certificate chain, that the key's numbers check out
 * (gnutls_x509_privkey_verify_params) and that the key is the first
 * certificate's (their public key ids).  Each refusal names the file, or
 * both for a mismatch.  An expired certificate is only logged: refusing it
 * would stop a restart that the certificate's renewal is meant to follow. */
#ifndef GJ_TLS_H
#define GJ_TLS_H

#include <stddef.h>

#include "error.h"

/* The largest certificate chain or key file taken (1 MiB). */
#define TLS_MAX_FILE (1 << 20)

typedef struct tls_pair {
    char *cert; /* NUL-terminated PEM, malloc'd */
    char *key;  /* the same, wiped before it is freed */
} tls_pair;

/* Read and check both files into *out: 0, or -1 with e naming the file or
 * the two files and what is wrong (and *out holding nothing).  Logs a
 * warning when the first certificate has expired. */
int tls_load(const char *cert_path, const char *key_path, tls_pair *out, gj_error *e);

/* Free what tls_load read, wiping the key's bytes first. */
void tls_free(tls_pair *p);

#endif
