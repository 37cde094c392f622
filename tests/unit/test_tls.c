/* test_tls.c - tls_load (tls.h): what it refuses before GnuTLS sees the
 * files, each refusal naming the file.  The files are made here, in a
 * temporary folder, with PEM armour around bytes that are no key: the PEM
 * form is what tls_load checks (GnuTLS's own refusal is tested against the
 * daemon in tests/integration/test_edge_ops.c). */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tls.h"

#define CERT "-----BEGIN CERTIFICATE-----\nTUlJ\n-----END CERTIFICATE-----\n"
#define KEY  "-----BEGIN PRIVATE KEY-----\nTUlJ\n-----END PRIVATE KEY-----\n"

static char dir[64];

/* A file `name` in the test's folder holding `text`; its path (static). */
static const char *file(const char *name, const char *text)
{
    static char paths[16][128];
    static int next;
    char *p = paths[next++ % 16];
    snprintf(p, 128, "%s/%s", dir, name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* Make the temporary folder. */
static void setup(void)
{
    snprintf(dir, sizeof dir, "/tmp/gj-tls-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

/* Remove the folder and what the test put in it. */
static void teardown(void)
{
    const char *names[] = {"cert.pem", "key.pem", "other.pem"};
    char p[128];
    for (size_t i = 0; i < 3; i++) {
        snprintf(p, sizeof p, "%s/%s", dir, names[i]);
        unlink(p);
    }
    rmdir(dir);
}

/* tls_load must fail with a message starting with `want`. */
static void refused(const char *cert, const char *key, const char *want)
{
    tls_pair p;
    gj_error e;
    gj_error_clear(&e);
    ck_assert_int_eq(tls_load(cert, key, &p, &e), -1);
    ck_assert_ptr_null(p.cert);
    ck_assert_ptr_null(p.key);
    ck_assert_msg(strncmp(e.message, want, strlen(want)) == 0, "want '%s'\n got '%s'", want,
                  e.message);
}

/* PEM blocks of the right kinds are read whole; RSA and EC key labels too. */
START_TEST(test_reads_pem)
{
    const char *labels[] = {KEY,
                            "-----BEGIN RSA PRIVATE KEY-----\nTUlJ\n-----END RSA PRIVATE "
                            "KEY-----\n",
                            "-----BEGIN EC PARAMETERS-----\nBgg=\n-----END EC PARAMETERS-----\n"
                            "-----BEGIN EC PRIVATE KEY-----\nTUlJ\n-----END EC PRIVATE KEY-----\n"};
    for (size_t i = 0; i < 3; i++) {
        const char *cert = file("cert.pem", "subject=CN = x\n" CERT CERT);
        const char *key = file("key.pem", labels[i]);
        tls_pair p;
        gj_error e;
        ck_assert_msg(tls_load(cert, key, &p, &e) == 0, "%s", e.message);
        ck_assert_str_eq(p.cert, "subject=CN = x\n" CERT CERT);
        ck_assert_str_eq(p.key, labels[i]);
        tls_free(&p);
        ck_assert_ptr_null(p.key);
    }
}
END_TEST

/* Every refusal names the file and the flag it came from. */
START_TEST(test_refusals)
{
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.pem", dir);
    const char *key = file("key.pem", KEY);
    char want[256];
    snprintf(want, sizeof want, "--tls-cert %s: cannot open: No such file or directory", missing);
    refused(missing, key, want);

    const char *cert = file("cert.pem", CERT);
    snprintf(want, sizeof want, "--tls-key %s: cannot open:", missing);
    refused(cert, missing, want);

    snprintf(want, sizeof want, "--tls-cert %s: cannot read:", dir);
    refused(dir, key, want); /* a folder opens but does not read */

    const char *empty = file("other.pem", "");
    snprintf(want, sizeof want, "--tls-cert %s: no PEM certificate in it", empty);
    refused(empty, key, want);
    snprintf(want, sizeof want, "--tls-cert %s: no PEM certificate in it", key);
    refused(key, key, want); /* the key given as the certificate */
    snprintf(want, sizeof want, "--tls-key %s: no PEM private key in it", cert);
    refused(cert, cert, want); /* and the other way round */

    const char *cut = file("other.pem", "-----BEGIN CERTIFICATE-----\nTUlJ\n");
    snprintf(want, sizeof want, "--tls-cert %s: no PEM certificate in it", cut);
    refused(cut, key, want);
    const char *mixed = file("other.pem", "-----BEGIN CERTIFICATE-----\nTUlJ\n-----END "
                                          "PRIVATE KEY-----\n");
    refused(mixed, key, "--tls-cert");

    const char *enc = file("other.pem", "-----BEGIN ENCRYPTED PRIVATE KEY-----\nTUlJ\n"
                                        "-----END ENCRYPTED PRIVATE KEY-----\n");
    snprintf(want, sizeof want, "--tls-key %s: the key is encrypted", enc);
    refused(cert, enc, want);
    const char *old = file("other.pem", "-----BEGIN RSA PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n"
                                        "TUlJ\n-----END RSA PRIVATE KEY-----\n");
    snprintf(want, sizeof want, "--tls-key %s: the key is encrypted", old);
    refused(cert, old, want);
}
END_TEST

/* A file past TLS_MAX_FILE is refused rather than held. */
START_TEST(test_too_large)
{
    char *big = malloc(TLS_MAX_FILE + 2);
    ck_assert_ptr_nonnull(big);
    memset(big, 'A', TLS_MAX_FILE + 1);
    big[TLS_MAX_FILE + 1] = '\0';
    const char *cert = file("cert.pem", big);
    free(big);
    const char *key = file("key.pem", KEY);
    char want[256];
    snprintf(want, sizeof want, "--tls-cert %s: larger than %d bytes", cert, TLS_MAX_FILE);
    refused(cert, key, want);
}
END_TEST

/* One Check test case per test, so a timeout or a crash names its test. */
static Suite *tls_suite(void)
{
    Suite *s = suite_create("tls");
    const struct {
        const char *name;
        const TTest *test;
    } cases[] = {{"reads", test_reads_pem}, {"refusals", test_refusals}, {"large", test_too_large}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_add_checked_fixture(tc, setup, teardown);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    return s;
}

int main(void)
{
    return harness_main(tls_suite());
}
