#!/bin/sh
# tls_testssl.sh: what the HTTPS port offers with the default priority
# string (tls.h), as Debian's testssl.sh 3.0.8 sees it.  The daemon serves
# a throwaway RSA certificate on 127.0.0.1 (RSA, because only an RSA
# certificate could be used with a key exchange that lacks forward secrecy,
# so the check below means something); testssl.sh runs its protocol, cipher
# category, forward secrecy and server preference checks (-p -s -f -P) and
# writes its findings as JSON.  Asserted from that JSON:
#  - SSLv2, SSLv3, TLS 1.0 and TLS 1.1 not offered; TLS 1.2 and 1.3 offered;
#  - the NULL, anonymous, export, LOW, 3DES/IDEA and "AVERAGE" (CBC)
#    categories not offered, the strong (AEAD) one offered;
#  - the server has a cipher order, and every TLS 1.2 cipher in it is
#    ECDHE with AES-GCM or ChaCha20-Poly1305;
#  - every finding is OK or INFO: none LOW, MEDIUM, HIGH or CRITICAL, and
#    no WARN but engine_problem (the local openssl has no GOST engine,
#    which says nothing about the server).
# Offline and bounded: --ip 127.0.0.1 and --nodns none make no DNS query
# (it also passes with no network but loopback: unshare -n), certificate
# checks that could fetch CRLs or OCSP (-S) are not run, and the scan has
# 150 s (it takes about 30 s on the 2-core development machine).  Stops
# the daemon it started, by its PID.
set -u
bin=${GJ_BIN:-build/gamejudge}
work=$(mktemp -d)
pid=""
cleanup() {
    if [ -n "$pid" ]; then kill -TERM "$pid" 2>/dev/null; wait "$pid" 2>/dev/null; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
command -v testssl >/dev/null || { echo "testssl: not installed (make test-deps)"; exit 1; }

openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj /CN=127.0.0.1 \
    -addext subjectAltName=IP:127.0.0.1 -keyout "$work/key.pem" -out "$work/cert.pem" \
    >/dev/null 2>&1 || { echo "testssl: openssl could not make a certificate"; exit 1; }
"$bin" serve --host 127.0.0.1 --port 0 --store none --tls-cert "$work/cert.pem" --tls-key "$work/key.pem" \
    > "$work/daemon.out" 2> "$work/daemon.log" &
pid=$!
for _ in $(seq 200); do grep -q listening "$work/daemon.out" && break; sleep 0.05; done
port=$(sed -n 's|^listening on https://127\.0\.0\.1:\([0-9]*\)$|\1|p' "$work/daemon.out")
if [ -z "$port" ]; then
    echo "testssl: the daemon did not start:"
    cat "$work/daemon.log"
    exit 1
fi

start=$(date +%s)
timeout 150 testssl --quiet --color 0 --warnings off --nodns none --ip 127.0.0.1 \
    --connect-timeout 10 --openssl-timeout 10 -p -s -f -P \
    --jsonfile "$work/findings.json" "127.0.0.1:$port" > "$work/testssl.txt" 2>&1
rc=$?
took=$(($(date +%s) - start))
if [ ! -s "$work/findings.json" ] || [ "$rc" -eq 124 ]; then
    echo "testssl: no findings (exit $rc after $took s):"
    cat "$work/testssl.txt"
    exit 1
fi

# The flat JSON, one "id", "severity" and "finding" line per finding, as
# tab-separated lines: ID SEVERITY FINDING.
awk '
    function value(line) { sub(/^[^:]*: *"/, "", line); sub(/",? *$/, "", line); return line }
    /^ *"id" *:/ { id = value($0) }
    /^ *"severity" *:/ { severity = value($0) }
    /^ *"finding" *:/ { printf "%s\t%s\t%s\n", id, severity, value($0) }
' "$work/findings.json" > "$work/findings.tsv"

passed=0
failed=0
fail() { failed=$((failed + 1)); echo "testssl: FAILED: $*"; }
finding() { awk -F '\t' -v id="$1" '$1 == id { print $3; exit }' "$work/findings.tsv"; }
expect() { # expect ID PREFIX: the finding of ID starts with PREFIX
    got=$(finding "$1")
    case $got in
        "$2"*) passed=$((passed + 1)) ;;
        *) fail "$1 is '$got', expected '$2...'" ;;
    esac
}

for proto in SSLv2 SSLv3 TLS1 TLS1_1; do expect "$proto" "not offered"; done
expect TLS1_2 "offered"
expect TLS1_3 "offered"
for list in NULL aNULL EXPORT LOW 3DES_IDEA AVERAGE; do expect "cipherlist_$list" "not offered"; done
expect cipherlist_STRONG "offered"
expect cipher_order "server"

tls12=$(finding cipherorder_TLSv1_2)
[ -n "$tls12" ] || fail "no TLS 1.2 cipher order reported"
for cipher in $tls12; do
    case $cipher in
        ECDHE-*-GCM-* | ECDHE-*-CHACHA20-POLY1305) passed=$((passed + 1)) ;;
        *) fail "TLS 1.2 offers $cipher (not ECDHE with an AEAD cipher)" ;;
    esac
done

bad=$(awk -F '\t' '$2 != "OK" && $2 != "INFO" && !($2 == "WARN" && $1 == "engine_problem")' \
    "$work/findings.tsv")
if [ -n "$bad" ]; then
    fail "findings other than OK or INFO:"
    printf '%s\n' "$bad" | sed 's/^/    /'
else
    passed=$((passed + 1))
fi

if kill -0 "$pid" 2>/dev/null; then passed=$((passed + 1)); else fail "the daemon died during the scan"; fi
kill -TERM "$pid"
wait "$pid"
status=$?
pid=""
if [ "$status" -eq 0 ]; then passed=$((passed + 1)); else fail "the daemon exited $status after SIGTERM"; fi

if [ "$failed" -gt 0 ]; then
    echo "testssl: its output:"
    cat "$work/testssl.txt"
fi
echo "testssl: $passed passed, $failed failed, the scan took $took s (TLS 1.2 ciphers: $tls12)"
[ "$failed" -eq 0 ]
