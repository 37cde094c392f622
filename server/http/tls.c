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

/* One DER element as der_next reads it: its tag byte and its contents. */
typedef struct der_item {
    unsigned tag;
    const unsigned char *body;
    size_t len;
} der_item;

/* Read the DER element at *p, which ends before `end`, into *it and move *p
 * past it: 1, or 0 when the bytes there are not one whole element (a
 * multi-byte tag, an indefinite length, a length of more than 4 bytes or
 * one running past end). */
static int der_next(const unsigned char **p, const unsigned char *end, der_item *it)
{
    const unsigned char *s = *p;
    if (end - s < 2 || (s[0] & 0x1f) == 0x1f)
        return 0;
    it->tag = s[0];
    size_t len = s[1];
    s += 2;
    if (len & 0x80) {
        size_t bytes = len & 0x7f;
        if (bytes == 0 || bytes > 4 || (size_t)(end - s) < bytes)
            return 0;
        len = 0;
        while (bytes-- > 0)
            len = len << 8 | *s++;
    }
    if (len > (size_t)(end - s))
        return 0;
    it->body = s;
    it->len = len;
    *p = s + len;
    return 1;
}

/* Read into *it the element at *p before `end` when its tag is `tag`, and
 * move *p past it: 1, or 0 when there is none or it has another tag. */
static int der_want(const unsigned char **p, const unsigned char *end, unsigned tag, der_item *it)
{
    return der_next(p, end, it) && it->tag == tag;
}

#define DER_INTEGER 0x02
#define DER_OCTETS  0x04
#define DER_SEQ     0x30

/* The eight numbers after the version of the RSAPrivateKey (PKCS#1) at
 * der[0..len) into parts[] (n, e, d, p, q, dp, dq, qinv, the file's own
 * INTEGER contents): 1, or 0 when der does not begin so.  With
 * `wrapped`, der is a PrivateKeyInfo (PKCS#8) and its privateKey OCTET
 * STRING holds the RSAPrivateKey.  What follows the numbers (the other
 * primes of a multi-prime key, PKCS#8 attributes) is not read. */
static int rsa_parts(const unsigned char *der, size_t len, int wrapped, der_item parts[8])
{
    const unsigned char *p = der, *end = der + len;
    der_item it;
    if (wrapped) {
        if (!der_want(&p, end, DER_SEQ, &it))
            return 0;
        p = it.body;
        end = it.body + it.len;
        if (!der_want(&p, end, DER_INTEGER, &it) || !der_want(&p, end, DER_SEQ, &it) ||
            !der_want(&p, end, DER_OCTETS, &it))
            return 0;
        p = it.body;
        end = it.body + it.len;
    }
    if (!der_want(&p, end, DER_SEQ, &it))
        return 0;
    p = it.body;
    end = it.body + it.len;
    if (!der_want(&p, end, DER_INTEGER, &it))
        return 0;
    for (int i = 0; i < 8; i++)
        if (!der_want(&p, end, DER_INTEGER, &parts[i]))
            return 0;
    return 1;
}

/* 1 when the big-endian numbers a[0..an) and b[0..bn) are equal, leading
 * zero bytes aside (DER puts one before a high bit, GnuTLS keeps it or
 * not). */
static int same_number(const unsigned char *a, size_t an, const unsigned char *b, size_t bn)
{
    while (an > 0 && a[0] == 0)
        a++, an--;
    while (bn > 0 && b[0] == 0)
        b++, bn--;
    return an == bn && memcmp(a, b, an) == 0;
}

/* 0 when key, imported by GnuTLS from the PEM text, is not RSA or holds
 * the file's own eight numbers, or -1 with e naming the file and the first
 * that differs.  GnuTLS (3.7.9) takes n, e, d, p and q from the file but
 * computes dp = d mod (p-1), dq = d mod (q-1) and qinv = q^-1 mod p anew,
 * and exports those, not the file's (its u is the file's qinv, also when
 * p < q).  So a key damaged only there serves, verify_params and
 * check_signs see nothing, while a reader that uses the file's own values
 * signs wrongly with it or refuses it (openssl's check does), and a file
 * damaged in one place is not to be trusted in the rest.  Comparing the
 * file's numbers with GnuTLS's is the arithmetic check, made by GnuTLS; it
 * runs after check_signs, so that a damaged d (which GnuTLS's dp and dq
 * follow) is named as before.  A body that does not read here as an RSA
 * key, though GnuTLS read it, is refused too. */
static int check_crt(const char *text, const char *path, gnutls_x509_privkey_t key, gj_error *e)
{
    static const char *const names[8] = {
        "modulus (n)", "public exponent (e)", "private exponent (d)", "prime1 (p)",
        "prime2 (q)",  "exponent1 (dp)",      "exponent2 (dq)",       "coefficient (qinv)"};
    static const char *const whence[8] = {NULL, NULL,          NULL,          NULL,
                                          NULL, "d mod (p-1)", "d mod (q-1)", "q^-1 mod p"};
    int algo = gnutls_x509_privkey_get_pk_algorithm(key);
    if (algo != GNUTLS_PK_RSA && algo != GNUTLS_PK_RSA_PSS)
        return 0;
    /* The block GnuTLS reads first: the PKCS#1 one when there is one. */
    int wrapped = strstr(text, "-----BEGIN RSA PRIVATE KEY-----") == NULL;
    gnutls_datum_t pem = {(unsigned char *)text, (unsigned)strlen(text)};
    gnutls_datum_t der = {NULL, 0}, got[8];
    memset(got, 0, sizeof got);
    der_item parts[8];
    const char *step = "decode the key's body";
    int rc = gnutls_pem_base64_decode2(wrapped ? "PRIVATE KEY" : "RSA PRIVATE KEY", &pem, &der);
    int bad = -1; /* the first part that differs, 8 for a body not read */
    if (rc >= 0) {
        step = "give back the key's numbers";
        rc = gnutls_x509_privkey_export_rsa_raw2(key, &got[0], &got[1], &got[2], &got[3], &got[4],
                                                 &got[5], &got[6], &got[7]);
    }
    if (rc >= 0 && !rsa_parts(der.data, der.size, wrapped, parts))
        bad = 8;
    /* The order raw2 exports them in: m, e, d, p, q, u, e1, e2. */
    static const int order[8] = {0, 1, 2, 3, 4, 6, 7, 5};
    for (int i = 0; rc >= 0 && bad < 0 && i < 8; i++) {
        const gnutls_datum_t *g = &got[order[i]];
        if (!same_number(parts[i].body, parts[i].len, g->data, g->size))
            bad = i;
    }
    for (int i = 0; i < 8; i++) {
        gnutls_memset(got[i].data, 0, got[i].size);
        gnutls_free(got[i].data);
    }
    gnutls_memset(der.data, 0, der.size);
    gnutls_free(der.data);
    if (rc < 0)
        return gj_fail(e, GJ_BAD_INPUT, "--tls-key %s: GnuTLS cannot %s again (%s)", path, step,
                       gnutls_strerror(rc));
    if (bad == 8)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-key %s: the key is damaged: its body does not read as an RSA private "
                       "key (a sequence of nine integers)",
                       path);
    if (bad >= 0 && whence[bad] != NULL)
        return gj_fail(e, GJ_BAD_INPUT,
                       "--tls-key %s: the key is damaged: its %s does not match %s computed from "
                       "its other numbers",
                       path, names[bad], whence[bad]);
    if (bad >= 0)
        return gj_fail(
            e, GJ_BAD_INPUT,
            "--tls-key %s: the key is damaged: its %s does not match the one GnuTLS read", path,
            names[bad]);
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
        rc = check_crt(key, key_path, pkey, e);
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
