/* tls.c - reading and checking the HTTPS certificate and key (tls.h). */
#include "tls.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

int tls_load(const char *cert_path, const char *key_path, tls_pair *out, gj_error *e)
{
    char label[64];
    out->cert = out->key = NULL;
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
    const char *wrong = NULL;
    if (!has_block(key, "PRIVATE KEY", label, sizeof label))
        wrong = "no PEM private key in it (expected a '-----BEGIN PRIVATE KEY-----' block)";
    else if (strcmp(label, "ENCRYPTED PRIVATE KEY") == 0 || strstr(key, "Proc-Type: 4,ENCRYPTED"))
        wrong = "the key is encrypted; give it unencrypted (e.g. openssl pkey -in KEY -out "
                "PLAIN), readable only by the service's user";
    if (wrong != NULL) {
        tls_pair p = {cert, key};
        tls_free(&p);
        return gj_fail(e, GJ_BAD_INPUT, "--tls-key %s: %s", key_path, wrong);
    }
    out->cert = cert;
    out->key = key;
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
}
