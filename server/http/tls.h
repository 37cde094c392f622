/* tls.h - the certificate, key and priorities for HTTPS (--tls-cert,
 * --tls-key, --tls-priorities), read and checked once at start-up.
 *
 * libmicrohttpd takes all three as text and hands them to GnuTLS when the
 * daemon starts, and GnuTLS takes some damage there without a word: an RSA
 * key whose p is not prime (four base64 characters changed) is loaded, and
 * every handshake then fails with nothing logged.  So tls_load checks them
 * first, with GnuTLS itself: the PEM form of each file (missing, unreadable,
 * empty, encrypted or the wrong kind), that GnuTLS can read the key and the
 * certificate chain, that the key's numbers check out
 * (gnutls_x509_privkey_verify_params), that the key is the first
 * certificate's (their public key ids), that the pair works when used (the
 * key signs a random nonce and the certificate's public key verifies it,
 * which catches a damaged d that the number checks cannot see), that an
 * RSA key's own dp, dq and qinv are the ones its other numbers make
 * (GnuTLS computes its own and ignores the file's, so a key damaged there
 * works but is no longer the file an operator has), and that GnuTLS takes
 * the priority string.  Each refusal names the file, both files for a mismatch, or
 * --tls-priorities.  An expired certificate is only logged: refusing it
 * would stop a restart that the certificate's renewal is meant to follow. */
#ifndef GJ_TLS_H
#define GJ_TLS_H

#include <stddef.h>

#include "error.h"

/* The largest certificate chain or key file taken (1 MiB). */
#define TLS_MAX_FILE (1 << 20)

/* The GnuTLS priority string when --tls-priorities is not given: TLS 1.3
 * and 1.2 only, AEAD ciphers only, and in TLS 1.2 only key exchanges with
 * forward secrecy (ECDHE), in the server's order of preference: the cipher
 * list is explicit, AES-256-GCM first, and SECURE256:+SECURE128 brings
 * GnuTLS's groups and signature algorithms, the stronger level first.
 * testssl.sh rates what it offers with no finding worse than INFO
 * (tests/integration/tls_testssl.sh). */
#define TLS_DEFAULT_PRIORITIES                                                                     \
    "SECURE256:+SECURE128:-VERS-ALL:+VERS-TLS1.3:+VERS-TLS1.2:-CIPHER-ALL:+AES-256-GCM:"           \
    "+CHACHA20-POLY1305:+AES-128-GCM:-MAC-ALL:+AEAD:-KX-ALL:+ECDHE-ECDSA:+ECDHE-RSA:"              \
    "%SERVER_PRECEDENCE"

typedef struct tls_pair {
    char *cert;             /* NUL-terminated PEM, malloc'd */
    char *key;              /* the same, wiped before it is freed */
    const char *priorities; /* the priority string in force (not owned) */
} tls_pair;

/* Read and check both files and the priority string (NULL or "" for
 * TLS_DEFAULT_PRIORITIES) into *out: 0, or -1 with e naming the file, the
 * two files or --tls-priorities and what is wrong (and *out holding
 * nothing).  Logs a warning when the first certificate has expired. */
int tls_load(const char *cert_path, const char *key_path, const char *priorities, tls_pair *out,
             gj_error *e);

/* Free what tls_load read, wiping the key's bytes first. */
void tls_free(tls_pair *p);

#endif
