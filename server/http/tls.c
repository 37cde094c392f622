/* tls.c - reading and checking the HTTPS certificate, key and priority
 * string (tls.h): the PEM form here, what it holds with GnuTLS. */
#include "tls.h"

#include <errno.h>
#include <gnutls/abstract.h>
#include <gnutls/crypto.h>
#include <gnutls/gnutls.h>
#include <gnutls/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "log.h"

/* The whole of `path` into a malloc'd NUL-terminated buffer: NULL with e
 * naming `what` and the file when it cannot be opened, read or is too big. */
static char *read_pem(const char *path, const char *what, gj_error *e)
{
    FILE *f = fopen(path, "rb");
    if (f == NULL) {
        gj_fail(e, GJ_BAD_INPUT, "%s %s: cannot open: %s", what, path, strerror(errno));
        return NULL;
    }
    char *text = malloc(TLS_MAX_FILE + 1);
    size_t len = text ? fread(text, 1, TLS_MAX_FILE + 1, f) : 0;
    int failed = text == NULL || ferror(f);
    int saved = errno;
    fclose(f);
    if (failed) {
        free(text);
        gj_fail(e, GJ_BAD_INPUT, "%s %s: cannot read: %s", what, path,
                text ? strerror(saved) : "out of memory");
        return NULL;
    }
    if (len > TLS_MAX_FILE) {
        free(text);
        gj_fail(e, GJ_BAD_INPUT, "%s %s: larger than %d bytes; is it the right file?", what, path,
                TLS_MAX_FILE);
        return NULL;
    }
    text[len] = '\0';
    return text;
}

/* 1 when text holds a "-----BEGIN <label>-----" line with its END line
 * after it, for a label ending in `suffix` (e.g. "PRIVATE KEY" matches
 * "RSA PRIVATE KEY" and "EC PRIVATE KEY"); *label gets the label found. */
static int has_block(const char *text, const char *suffix, char *label, size_t cap)
{
    for (const char *p = strstr(text, "-----BEGIN "); p != NULL; p = strstr(p + 1, "-----BEGIN ")) {
        const char *start = p + 11;
        const char *stop = strstr(start, "-----");
        if (stop == NULL)
            return 0;
        size_t n = (size_t)(stop - start), s = strlen(suffix);
        if (n >= cap || n < s || memcmp(stop - s, suffix, s) != 0 || memchr(start, '\n', n) != NULL)
            continue;
        memcpy(label, start, n);
        label[n] = '\0';
        char end[96];
        snprintf(end, sizeof end, "-----END %s-----", label);
        if (strstr(stop, end) != NULL)
            return 1;
    }
    return 0;
}

/* Import the key's PEM text into *key and check its numbers: 0, or -1 with
 * e naming --tls-key and the file.  Importing alone takes an RSA key whose
 * p is not prime; gnutls_x509_privkey_verify_params is what refuses it. */
static int check_key(const char *text, const char *path, gnutls_x509_privkey_t *key, gj_error *e)
{
    gnutls_datum_t pem = {(unsigned char *)text, (unsigned)strlen(text)};
    int rc = gnutls_x509_privkey_init(key);
    if (rc < 0)
        return gj_fail(e, GJ_INTERNAL, "--tls-key %s: GnuTLS: %s", path, gnutls_strerror(rc));
    rc = gnutls_x509_privkey_import2(*key, &pem, GNUTLS_X509_FMT_PEM, NULL, 0);
    if (rc < 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-key %s: GnuTLS cannot read the key (%s); is the PEM body damaged?",
                       path, gnutls_strerror(rc));
    rc = gnutls_x509_privkey_verify_params(*key);
    if (rc < 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-key %s: the key is damaged: its numbers do not check out (GnuTLS: "
                       "%s); no handshake could succeed with it",
                       path, gnutls_strerror(rc));
    return 0;
}

/* Import the certificate chain's PEM text into *crts (*n of them, the
 * server's own first): 0, or -1 with e naming --tls-cert and the file. */
static int check_chain(const char *text, const char *path, gnutls_x509_crt_t **crts, unsigned *n,
                       gj_error *e)
{
    gnutls_datum_t pem = {(unsigned char *)text, (unsigned)strlen(text)};
    int rc = gnutls_x509_crt_list_import2(crts, n, &pem, GNUTLS_X509_FMT_PEM, 0);
    if (rc < 0 || *n == 0) {
        *n = 0;
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-cert %s: GnuTLS cannot read the certificate (%s); is the PEM body "
                       "damaged?",
                       path, rc < 0 ? gnutls_strerror(rc) : "none found");
    }
    return 0;
}

/* 0 when key is the one of crt (the same public key id), or -1 with e
 * naming both files: GnuTLS would serve the certificate and fail every
 * handshake. */
static int check_match(gnutls_x509_crt_t crt, gnutls_x509_privkey_t key, const char *cert_path,
                       const char *key_path, gj_error *e)
{
    unsigned char cert_id[64], key_id[64];
    size_t cert_len = sizeof cert_id, key_len = sizeof key_id;
    int rc = gnutls_x509_crt_get_key_id(crt, GNUTLS_KEYID_USE_SHA256, cert_id, &cert_len);
    if (rc >= 0)
        rc = gnutls_x509_privkey_get_key_id(key, GNUTLS_KEYID_USE_SHA256, key_id, &key_len);
    if (rc < 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-cert %s and --tls-key %s: GnuTLS cannot compare their public keys "
                       "(%s)",
                       cert_path, key_path, gnutls_strerror(rc));
    if (cert_len != key_len || memcmp(cert_id, key_id, key_len) != 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-cert %s and --tls-key %s: the key is not the certificate's (their "
                       "public keys differ)",
                       cert_path, key_path);
    return 0;
}

/* 0 when key signs a fresh random nonce and crt's public key verifies the
 * signature, or -1 with e naming the key's file.  This is the pair proven
 * by use, as a FIPS pairwise consistency test does: the numbers checked so
 * far (the public half, p and q prime) say nothing of d, dp, dq or qinv,
 * and a key damaged there is read without a word and then signs every
 * handshake wrongly.  The signature is the one a handshake makes: the
 * certificate's own algorithm with its preferred hash. */
static int check_signs(gnutls_x509_crt_t crt, gnutls_x509_privkey_t key, const char *key_path,
                       gj_error *e)
{
    gnutls_privkey_t priv = NULL;
    gnutls_pubkey_t pub = NULL;
    gnutls_datum_t sig = {NULL, 0};
    unsigned char nonce[32];
    gnutls_datum_t data = {nonce, sizeof nonce};
    gnutls_digest_algorithm_t hash = GNUTLS_DIG_SHA256;
    const char *step = "prepare the key";
    int rc = gnutls_rnd(GNUTLS_RND_NONCE, nonce, sizeof nonce);
    if (rc >= 0)
        rc = gnutls_privkey_init(&priv);
    if (rc >= 0)
        rc = gnutls_privkey_import_x509(priv, key, 0);
    if (rc >= 0)
        rc = gnutls_pubkey_init(&pub);
    if (rc >= 0)
        rc = gnutls_pubkey_import_x509(pub, crt, 0);
    if (rc >= 0)
        rc = gnutls_pubkey_get_preferred_hash_algorithm(pub, &hash, NULL);
    gnutls_sign_algorithm_t algo = GNUTLS_SIGN_UNKNOWN;
    if (rc >= 0) {
        algo = gnutls_pk_to_sign((gnutls_pk_algorithm_t)gnutls_pubkey_get_pk_algorithm(pub, NULL),
                                 hash);
        if (algo == GNUTLS_SIGN_UNKNOWN)
            rc = GNUTLS_E_UNKNOWN_PK_ALGORITHM;
    }
    if (rc >= 0) {
        step = "sign with it";
        rc = gnutls_privkey_sign_data2(priv, algo, 0, &data, &sig);
    }
    if (rc >= 0) {
        step = "verify its signature with the certificate";
        rc = gnutls_pubkey_verify_data2(pub, algo, 0, &data, &sig);
    }
    gnutls_free(sig.data);
    if (pub != NULL)
        gnutls_pubkey_deinit(pub);
    if (priv != NULL)
        gnutls_privkey_deinit(priv);
    if (rc < 0)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-key %s: the key is damaged: GnuTLS could not %s (%s); no handshake "
                       "could succeed with it",
                       key_path, step, gnutls_strerror(rc));
    return 0;
}

/* Log a warning when crt, the server's own certificate, has expired:
 * clients will refuse it, but a restart must not stop on it (tls.h). */
static void warn_expired(gnutls_x509_crt_t crt, const char *path)
{
    time_t until = gnutls_x509_crt_get_expiration_time(crt);
    if (until == (time_t)-1 || until >= time(NULL))
        return;
    struct tm tm;
    char when[32];
    gmtime_r(&until, &tm);
    strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
    const char *fields[] = {"tls_cert", path, "not_after", when, NULL};
    log_event("warn", "the certificate has expired; clients will refuse it", fields);
}

/* 0 when GnuTLS takes the priority string, or -1 with e naming
 * --tls-priorities and where in the string GnuTLS stopped. */
static int check_priorities(const char *priorities, gj_error *e)
{
    gnutls_priority_t cache;
    const char *where = NULL;
    int rc = gnutls_priority_init(&cache, priorities, &where);
    if (rc >= 0) {
        gnutls_priority_deinit(cache);
        return 0;
    }
    if (where == NULL || where < priorities || where > priorities + strlen(priorities))
        return gj_fail(e, GJ_BAD_INPUT, "--tls-priorities '%.200s': GnuTLS refuses it: %s",
                       priorities, gnutls_strerror(rc));
    return gj_fail(e, GJ_BAD_INPUT,
                   "--tls-priorities: GnuTLS refuses the priority string at character %d "
                   "('%.40s'): %s",
                   (int)(where - priorities) + 1, where, gnutls_strerror(rc));
}

/* The checks of tls.h that need GnuTLS, on the PEM texts read from the two
 * files: 0, or -1 with e set. */
static int check_with_gnutls(const char *cert, const char *cert_path, const char *key,
                             const char *key_path, gj_error *e)
{
    gnutls_x509_privkey_t pkey = NULL;
    gnutls_x509_crt_t *crts = NULL;
    unsigned n = 0;
    int rc = check_key(key, key_path, &pkey, e);
    if (rc == 0)
        rc = check_chain(cert, cert_path, &crts, &n, e);
    if (rc == 0)
        rc = check_match(crts[0], pkey, cert_path, key_path, e);
    if (rc == 0)
        rc = check_signs(crts[0], pkey, key_path, e);
    if (rc == 0)
        warn_expired(crts[0], cert_path);
    for (unsigned i = 0; i < n; i++)
        gnutls_x509_crt_deinit(crts[i]);
    gnutls_free(crts);
    if (pkey != NULL)
        gnutls_x509_privkey_deinit(pkey);
    return rc;
}

int tls_load(const char *cert_path, const char *key_path, const char *priorities, tls_pair *out,
             gj_error *e)
{
    char label[64];
    out->cert = out->key = NULL;
    out->priorities = NULL;
    if (priorities == NULL || priorities[0] == '\0')
        priorities = TLS_DEFAULT_PRIORITIES;
    char *cert = read_pem(cert_path, "--tls-cert", e);
    if (cert == NULL)
        return -1;
    if (!has_block(cert, "CERTIFICATE", label, sizeof label) || strcmp(label, "CERTIFICATE") != 0) {
        free(cert);
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-cert %s: no PEM certificate in it (expected a "
                       "'-----BEGIN CERTIFICATE-----' block)",
                       cert_path);
    }
    char *key = read_pem(key_path, "--tls-key", e);
    if (key == NULL) {
        free(cert);
        return -1;
    }
    tls_pair p = {cert, key, NULL};
    const char *wrong = NULL;
    if (!has_block(key, "PRIVATE KEY", label, sizeof label))
        wrong = "no PEM private key in it (expected a '-----BEGIN PRIVATE KEY-----' block)";
    else if (strcmp(label, "ENCRYPTED PRIVATE KEY") == 0 || strstr(key, "Proc-Type: 4,ENCRYPTED"))
        wrong = "the key is encrypted; give it unencrypted (e.g. openssl pkey -in KEY -out "
                "PLAIN), readable only by the service's user";
    if (wrong != NULL) {
        tls_free(&p);
        return gj_fail(e, GJ_BAD_INPUT, "--tls-key %s: %s", key_path, wrong);
    }
    if (check_with_gnutls(cert, cert_path, key, key_path, e) != 0 ||
        check_priorities(priorities, e) != 0) {
        tls_free(&p);
        return -1;
    }
    out->cert = cert;
    out->key = key;
    out->priorities = priorities;
    return 0;
}

void tls_free(tls_pair *p)
{
    if (p->key != NULL) {
        /* Through a volatile pointer, so the wipe is not optimised away. */
        volatile char *k = p->key;
        while (*k != '\0')
            *k++ = '\0';
    }
    free(p->key);
    free(p->cert);
    p->key = p->cert = NULL;
    p->priorities = NULL;
}
