/* test_tls.c - tls_load (tls.h): what it refuses before libmicrohttpd sees
 * the files, each refusal naming the file, both files or --tls-priorities.
 * The PEM-form checks run on armour around bytes that are no key; the
 * GnuTLS checks on real keys and certificates that openssl (from Debian)
 * makes at run time in a temporary folder, damaged here as an operator's
 * copy might be: no key is ever committed.  The daemon's own refusals are
 * tested in tests/integration/test_listeners.c. */
#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "harness.h"
#include "tls.h"

#define CERT "-----BEGIN CERTIFICATE-----\nTUlJ\n-----END CERTIFICATE-----\n"
#define KEY  "-----BEGIN PRIVATE KEY-----\nTUlJ\n-----END PRIVATE KEY-----\n"

static char dir[64]; /* the run's keys and certificates, and each test's files */

/* The path of `name` in the run's folder (static, 16 in rotation). */
static const char *in_dir(const char *name)
{
    static char paths[16][128];
    static int next;
    char *p = paths[next++ % 16];
    snprintf(p, 128, "%s/%s", dir, name);
    return p;
}

/* A file `name` in the run's folder holding `text`; its path. */
static const char *file(const char *name, const char *text)
{
    const char *p = in_dir(name);
    FILE *f = fopen(p, "wb");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return p;
}

/* The whole of the run's file `name` (malloc'd); fails the test when it
 * cannot be read. */
static char *slurp(const char *name)
{
    size_t len;
    char *text = harness_read_file(in_dir(name), &len);
    ck_assert_msg(text != NULL, "cannot read %s", name);
    return text;
}

/* Run a shell command; fail the test when it does not exit 0. */
static void sh(const char *cmd)
{
    int rc = system(cmd);
    ck_assert_msg(rc == 0, "'%s' exited %d", cmd, rc);
}

/* A copy of the run's file `from` as `to`, with four base64 characters of
 * its line `line` (0 is the first BEGIN line) from `column` on each
 * replaced by another: the damage a bad copy or a stray edit does, the
 * armour left whole.  Its path. */
static const char *damaged(const char *from, const char *to, int line, int column)
{
    char *text = slurp(from);
    char *p = strchr(text, '\n'); /* the BEGIN line's end */
    for (int i = 1; i < line && p != NULL; i++)
        p = strchr(p + 1, '\n');
    ck_assert_msg(p != NULL && strlen(p + 1) > (size_t)column + 4, "%s is too short", from);
    for (int i = 0; i < 4; i++) {
        char *c = p + 1 + column + i;
        *c = *c == 'A' ? 'B' : 'A';
    }
    const char *path = file(to, text);
    free(text);
    return path;
}

/* tls_load must fail with a message starting with `want`, holding nothing. */
static void refused_with(const char *cert, const char *key, const char *priorities,
                         const char *want)
{
    tls_pair p;
    gj_error e;
    gj_error_clear(&e);
    ck_assert_int_eq(tls_load(cert, key, priorities, &p, &e), -1);
    ck_assert_ptr_null(p.cert);
    ck_assert_ptr_null(p.key);
    ck_assert_ptr_null(p.priorities);
    ck_assert_msg(strncmp(e.message, want, strlen(want)) == 0, "want '%s'\n got '%s'", want,
                  e.message);
}

/* refused_with the default priorities. */
static void refused(const char *cert, const char *key, const char *want)
{
    refused_with(cert, key, NULL, want);
}

/* Real pairs are read whole: RSA keys as PKCS#8 and in the old RSA form,
 * an EC key after its parameters, a chain of two certificates with text
 * before it; the priorities are the default unless given. */
START_TEST(test_reads_pairs)
{
    const char *pairs[][2] = {{"cert.pem", "key.pem"},
                              {"cert.pem", "rsa-key.pem"},
                              {"ec-cert.pem", "ec-key.pem"},
                              {"chain.pem", "key.pem"}};
    char *chain = slurp("cert.pem"), *ec = slurp("ec-cert.pem");
    char *text = malloc(strlen(chain) + strlen(ec) + 32);
    ck_assert_ptr_nonnull(text);
    sprintf(text, "subject=CN = 127.0.0.1\n%s%s", chain, ec);
    file("chain.pem", text);
    free(chain);
    free(ec);
    free(text);
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char *cert = slurp(pairs[i][0]), *key = slurp(pairs[i][1]);
        tls_pair p;
        gj_error e;
        gj_error_clear(&e);
        int rc =
            tls_load(in_dir(pairs[i][0]), in_dir(pairs[i][1]), i == 1 ? "NORMAL" : NULL, &p, &e);
        ck_assert_msg(rc == 0, "%s, %s: %s", pairs[i][0], pairs[i][1], e.message);
        ck_assert_str_eq(p.cert, cert);
        ck_assert_str_eq(p.key, key);
        ck_assert_str_eq(p.priorities, i == 1 ? "NORMAL" : TLS_DEFAULT_PRIORITIES);
        tls_free(&p);
        ck_assert_ptr_null(p.key);
        ck_assert_ptr_null(p.priorities);
        free(cert);
        free(key);
    }
    tls_pair p;
    gj_error e;
    ck_assert_int_eq(tls_load(in_dir("cert.pem"), in_dir("key.pem"), "", &p, &e), 0);
    ck_assert_str_eq(p.priorities, TLS_DEFAULT_PRIORITIES);
    tls_free(&p);
}
END_TEST

/* Every refusal of the PEM form names the file and the flag it came from. */
START_TEST(test_refusals)
{
    char missing[128];
    snprintf(missing, sizeof missing, "%s/none.pem", dir);
    const char *key = file("fake-key.pem", KEY);
    char want[256];
    snprintf(want, sizeof want, "--tls-cert %s: cannot open: No such file or directory", missing);
    refused(missing, key, want);

    const char *cert = file("fake-cert.pem", CERT);
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

/* A key GnuTLS reads but whose numbers are wrong: four base64 characters
 * inside the RSA prime p (body line 13 of a 2048-bit PKCS#8 key: bytes
 * 591-593 of its DER, where p's value is bytes 565-693 give or take one),
 * so that `openssl rsa -check` says "p not prime".  libmicrohttpd took it and failed every
 * handshake; tls_load names the key.  A key whose body does not decode is
 * named too. */
START_TEST(test_damaged_key)
{
    const char *cert = in_dir("cert.pem");
    const char *bad = damaged("key.pem", "bad-key.pem", 13, 20);
    char cmd[512], want[256];
    snprintf(cmd, sizeof cmd, "openssl rsa -check -noout -in %s 2>&1 | grep -q 'p not prime'", bad);
    sh(cmd); /* the premise: the damage is the issue's */
    snprintf(want, sizeof want, "--tls-key %s: the key is damaged: its numbers do not check out",
             bad);
    refused(cert, bad, want);

    /* Body line 9 lies inside d: p and q are prime, so only using the key
     * shows it signs wrongly ("d e not congruent to 1"). */
    const char *bad_d = damaged("key.pem", "bad-d-key.pem", 9, 10);
    snprintf(want, sizeof want, "--tls-key %s: the key is damaged: GnuTLS could not sign", bad_d);
    refused(cert, bad_d, want);

    const char *garbled = damaged("key.pem", "garbled-key.pem", 1, 0);
    snprintf(want, sizeof want, "--tls-key %s: GnuTLS cannot read the key", garbled);
    refused(cert, garbled, want);
    /* ec-key.pem: the EC PARAMETERS block, then the key's body on line 4. */
    const char *ec = damaged("ec-key.pem", "garbled-ec-key.pem", 4, 0);
    snprintf(want, sizeof want, "--tls-key %s: GnuTLS cannot read the key", ec);
    refused(in_dir("ec-cert.pem"), ec, want);
}
END_TEST

/* 1 when openssl reads the key file at `path` as a key (whatever its
 * numbers), with `check` also when `openssl rsa -check` finds them sound:
 * that prints "RSA key ok" or "RSA key not ok" but exits 0 either way. */
static int openssl_takes(const char *path, int check)
{
    char cmd[512];
    if (check)
        snprintf(cmd, sizeof cmd, "openssl rsa -check -noout -in %s 2>&1 | grep -qx 'RSA key ok'",
                 path);
    else
        snprintf(cmd, sizeof cmd, "openssl pkey -noout -in %s >/dev/null 2>&1", path);
    fflush(stdout);
    return system(cmd) == 0;
}

/* tls_load must refuse the RSA certificate with `key` as bad input, the
 * message naming the key's file ("--tls-key PATH:") and holding `part`
 * (any when NULL); `what` says which damage, for the failure message. */
static void refuses_key(const char *key, const char *part, const char *what)
{
    tls_pair p;
    gj_error e;
    char named[192];
    gj_error_clear(&e);
    snprintf(named, sizeof named, "--tls-key %s:", key);
    int rc = tls_load(in_dir("cert.pem"), key, NULL, &p, &e);
    if (rc == 0)
        tls_free(&p);
    ck_assert_msg(rc == -1, "%s: the damaged key was taken", what);
    ck_assert_msg(e.kind == GJ_BAD_INPUT && strstr(e.message, named) != NULL &&
                      (part == NULL || strstr(e.message, part) != NULL),
                  "%s: want bad input naming '%s'%s%s\n got '%s'", what, named, part ? " and " : "",
                  part ? part : "", e.message);
}

/* tls_load must take the RSA certificate with `key`. */
static void takes_key(const char *key)
{
    tls_pair p;
    gj_error e;
    gj_error_clear(&e);
    ck_assert_msg(tls_load(in_dir("cert.pem"), key, NULL, &p, &e) == 0, "%s: %s", key, e.message);
    tls_free(&p);
}

/* Each body line of the RSA-2048 key, as PKCS#8 and in the old RSA form,
 * damaged in turn (four base64 characters from column 32, or the last
 * four before the padding of a shorter line): of the copies openssl still
 * reads as a key, every one whose numbers `openssl rsa -check` refuses is
 * refused naming the key's file.  Before check_crt, the lines lying only
 * inside dp, dq or qinv were taken. */
START_TEST(test_damaged_lines)
{
    const char *forms[] = {"key.pem", "rsa-key.pem"};
    int lines = 0, read = 0, refused = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        char *text = slurp(forms[f]);
        const char *line = strchr(text, '\n') + 1; /* the first body line */
        for (int n = 1; strncmp(line, "-----END", 8) != 0; n++) {
            const char *eol = strchr(line, '\n');
            ck_assert_ptr_nonnull(eol);
            int len = (int)(eol - line), pad = 0;
            while (pad < len && line[len - 1 - pad] == '=')
                pad++;
            int column = len - pad - 4 < 32 ? len - pad - 4 : 32;
            ck_assert_int_ge(column, 0);
            char what[64];
            snprintf(what, sizeof what, "%s, body line %d", forms[f], n);
            const char *bad = damaged(forms[f], "line-key.pem", n, column);
            lines++;
            if (openssl_takes(bad, 0)) {
                read++;
                if (!openssl_takes(bad, 1)) {
                    refused++;
                    refuses_key(bad, NULL, what);
                }
            }
            line = eol + 1;
        }
        free(text);
    }
    printf("tls: %d body lines damaged, %d still read as keys, %d of those refused by openssl's "
           "check: each refused by tls_load\n",
           lines, read, refused);
    ck_assert_int_gt(refused, 0);
}
END_TEST

/* The offset and length of the contents of each of the nine INTEGERs of
 * the RSAPrivateKey in the run's DER file `name` (version, n, e, d, p, q,
 * dp, dq, qinv), as `openssl asn1parse` gives them; with `wrapped` the
 * file is PKCS#8 and they are inside its OCTET STRING. */
static void integers(const char *name, int wrapped, long at[9], long len[9])
{
    char cmd[512], row[4096];
    long base = 0, octets = 0, off, l;
    int depth, head, k = 0;
    snprintf(cmd, sizeof cmd, "openssl asn1parse -inform DER -in %s", in_dir(name));
    if (wrapped) {
        FILE *f = popen(cmd, "r");
        ck_assert_ptr_nonnull(f);
        while (fgets(row, sizeof row, f) != NULL)
            if (sscanf(row, " %ld:d=%d hl=%d l=%ld", &off, &depth, &head, &l) == 4 && depth == 1 &&
                strstr(row, "OCTET STRING") != NULL) {
                octets = off;
                base = off + head;
            }
        ck_assert_int_eq(pclose(f), 0);
        ck_assert_int_gt(base, 0);
        size_t used = strlen(cmd);
        snprintf(cmd + used, sizeof cmd - used, " -strparse %ld", octets);
    }
    FILE *f = popen(cmd, "r");
    ck_assert_ptr_nonnull(f);
    while (fgets(row, sizeof row, f) != NULL)
        if (sscanf(row, " %ld:d=%d hl=%d l=%ld", &off, &depth, &head, &l) == 4 && depth == 1 &&
            strstr(row, "prim: INTEGER") != NULL && k < 9) {
            at[k] = base + off + head;
            len[k++] = l;
        }
    ck_assert_int_eq(pclose(f), 0);
    ck_assert_int_eq(k, 9);
}

/* The run's DER file `from` as PEM `to` under `label`, its byte `at` (when
 * not negative) with its lowest bit flipped; to's path. */
static const char *pem_of(const char *from, long at, const char *label, const char *to)
{
    size_t n;
    char *der = harness_read_file(in_dir(from), &n);
    ck_assert_ptr_nonnull(der);
    ck_assert_int_lt(at, (long)n);
    if (at >= 0)
        der[at] ^= 1;
    FILE *f = fopen(in_dir("part-key.der"), "wb");
    ck_assert_ptr_nonnull(f);
    ck_assert_uint_eq(fwrite(der, 1, n, f), n);
    fclose(f);
    free(der);
    const char *path = in_dir(to);
    char cmd[512];
    snprintf(cmd, sizeof cmd,
             "(echo '-----BEGIN %s-----' && openssl base64 -in %s && echo '-----END %s-----') > %s",
             label, in_dir("part-key.der"), label, path);
    sh(cmd);
    return path;
}

/* Each of the eight numbers of the RSA-2048 key, as PKCS#8 and in the old
 * RSA form, damaged alone (the lowest bit of its middle byte flipped in the
 * DER, then armoured again): openssl reads every copy and `rsa -check`
 * refuses it, and tls_load refuses it naming the key's file, and names the
 * part itself when it is dp, dq or qinv, which GnuTLS computes anew and
 * so took before check_crt.  The same armouring without the damage is
 * taken. */
START_TEST(test_damaged_parts)
{
    static const char *const parts[8] = {"(n)", "(e)",  "(d)",  "(p)",
                                         "(q)", "(dp)", "(dq)", "(qinv)"};
    const struct {
        const char *der, *label;
        int wrapped;
    } forms[] = {{"key.der", "PRIVATE KEY", 1}, {"rsa-key.der", "RSA PRIVATE KEY", 0}};
    int refused = 0;
    for (size_t f = 0; f < sizeof forms / sizeof forms[0]; f++) {
        long at[9], len[9];
        integers(forms[f].der, forms[f].wrapped, at, len);
        takes_key(pem_of(forms[f].der, -1, forms[f].label, "part-key.pem"));
        for (int i = 0; i < 8; i++) {
            char what[64];
            snprintf(what, sizeof what, "%s, %s damaged", forms[f].der, parts[i]);
            const char *bad =
                pem_of(forms[f].der, at[i + 1] + len[i + 1] / 2, forms[f].label, "part-key.pem");
            ck_assert_msg(openssl_takes(bad, 0) && !openssl_takes(bad, 1),
                          "%s: openssl should read it and find it damaged", what);
            refuses_key(bad, i >= 5 ? parts[i] : NULL, what);
            refused++;
        }
    }
    printf("tls: %d keys damaged in one of their eight numbers: each refused by tls_load\n",
           refused);
}
END_TEST

/* A certificate whose body does not decode (its first four base64
 * characters changed: the outer DER header) is named, alone. */
START_TEST(test_damaged_cert)
{
    const char *bad = damaged("cert.pem", "bad-cert.pem", 1, 0);
    char want[256];
    snprintf(want, sizeof want, "--tls-cert %s: GnuTLS cannot read the certificate", bad);
    refused(bad, in_dir("key.pem"), want);
    const char *ec = damaged("ec-cert.pem", "bad-ec-cert.pem", 1, 0);
    snprintf(want, sizeof want, "--tls-cert %s: GnuTLS cannot read the certificate", ec);
    refused(ec, in_dir("ec-key.pem"), want);
}
END_TEST

/* A good key that is not the certificate's: another RSA key, an EC key for
 * an RSA certificate, and a chain whose first certificate is another's. */
START_TEST(test_mismatch)
{
    const char *cases[][2] = {
        {"cert.pem", "other-key.pem"}, {"cert.pem", "ec-key.pem"}, {"ec-cert.pem", "key.pem"}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char want[384];
        const char *cert = in_dir(cases[i][0]), *key = in_dir(cases[i][1]);
        snprintf(want, sizeof want,
                 "--tls-cert %s and --tls-key %s: the key is not the certificate's", cert, key);
        refused(cert, key, want);
    }
    char *ec = slurp("ec-cert.pem"), *rsa = slurp("cert.pem");
    char *text = malloc(strlen(ec) + strlen(rsa) + 1);
    ck_assert_ptr_nonnull(text);
    sprintf(text, "%s%s", ec, rsa);
    const char *chain = file("wrong-chain.pem", text);
    free(ec);
    free(rsa);
    free(text);
    char want[384];
    snprintf(want, sizeof want, "--tls-cert %s and --tls-key %s: the key is not", chain,
             in_dir("key.pem"));
    refused(chain, in_dir("key.pem"), want);
}
END_TEST

/* A priority string GnuTLS does not take is refused naming the option and
 * where GnuTLS stopped (1-based). */
START_TEST(test_priorities)
{
    const char *cert = in_dir("cert.pem"), *key = in_dir("key.pem");
    refused_with(cert, key, "NONSENSE",
                 "--tls-priorities: GnuTLS refuses the priority string at character 1 "
                 "('NONSENSE')");
    refused_with(cert, key, "NORMAL:+VERS-TLS9.9",
                 "--tls-priorities: GnuTLS refuses the priority string at character 8 "
                 "('+VERS-TLS9.9')");
}
END_TEST

/* A file past TLS_MAX_FILE is refused rather than held. */
START_TEST(test_too_large)
{
    char *big = malloc(TLS_MAX_FILE + 2);
    ck_assert_ptr_nonnull(big);
    memset(big, 'A', TLS_MAX_FILE + 1);
    big[TLS_MAX_FILE + 1] = '\0';
    const char *cert = file("big.pem", big);
    free(big);
    const char *key = file("fake-key.pem", KEY);
    char want[256];
    snprintf(want, sizeof want, "--tls-cert %s: larger than %d bytes", cert, TLS_MAX_FILE);
    refused(cert, key, want);
}
END_TEST

/* The run's folder with an RSA certificate for 127.0.0.1 and its key
 * (PKCS#8, and again in the old RSA form, each also as DER), a second RSA
 * key, and an EC certificate with its key after its parameters: 0, or -1
 * when openssl failed. */
static int make_keys(void)
{
    snprintf(dir, sizeof dir, "/tmp/gj-tls-XXXXXX");
    if (mkdtemp(dir) == NULL)
        return -1;
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "(cd %s && openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 "
             "-keyout key.pem -out cert.pem && openssl rsa -traditional -in key.pem -out "
             "rsa-key.pem && openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "
             "other-key.pem && openssl ecparam -name prime256v1 -genkey -out ec-key.pem && "
             "openssl req -x509 -key ec-key.pem -days 1 -subj /CN=127.0.0.1 -out ec-cert.pem && "
             "openssl pkcs8 -topk8 -nocrypt -in key.pem -outform DER -out key.der && "
             "openssl rsa -traditional -in key.pem -outform DER -out rsa-key.der) "
             ">/dev/null 2>&1",
             dir);
    fflush(stdout);
    if (system(cmd) != 0) {
        fprintf(stderr, "test_tls: openssl could not make the keys: %s\n", cmd);
        return -1;
    }
    return 0;
}

/* One Check test case per test, so a timeout or a crash names its test;
 * openssl makes the keys once, before any runs. */
int main(void)
{
    if (make_keys() != 0)
        return 1;
    Suite *s = suite_create("tls");
    const struct {
        const char *name;
        const TTest *test;
        const char *tags; /* HARNESS_LARGE: left to `make check` */
    } cases[] = {{"reads", test_reads_pairs, NULL},
                 {"refusals", test_refusals, NULL},
                 {"damaged_key", test_damaged_key, NULL},
                 /* Two openssl processes per damaged line, the longest case. */
                 {"damaged_lines", test_damaged_lines, HARNESS_LARGE},
                 {"damaged_parts", test_damaged_parts, NULL},
                 {"damaged_cert", test_damaged_cert, NULL},
                 {"mismatch", test_mismatch, NULL},
                 {"priorities", test_priorities, NULL},
                 {"large", test_too_large, NULL}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        TCase *tc = tcase_create(cases[i].name);
        tcase_set_timeout(tc, 30);
        if (cases[i].tags != NULL)
            tcase_set_tags(tc, cases[i].tags);
        tcase_add_test(tc, cases[i].test);
        suite_add_tcase(s, tc);
    }
    int rc = harness_main(s);
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf %s", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "test_tls: could not remove %s\n", dir);
    return rc;
}
