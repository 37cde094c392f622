#!/bin/sh
# nginx_framing.sh: the framing set (tests/cases/framing.cases) sent through
# Debian's nginx running docker/nginx.conf (substituted as for nginx_lb.sh,
# by tests/integration/nginx_edge.sh): the daemon behind nginx must never
# answer a request nginx did not forward.
#
# One daemon (port 0, access log on, nginx trusted for X-Forwarded-For) and
# nginx in front of it.  Each raw case of framing.cases, read from that file
# so the set is one list, is sent as its bytes, the hidden `GET /SMUGGLED`
# included, on its own connection to nginx from its own loopback address
# (127.0.0.10 for the first case, .11 for the next, ...): nginx logs that
# address, and the daemon logs it as client= from X-Forwarded-For, so each
# request either one saw is tied to its case.  The client reads whole
# answers until nginx closes, or two answers came, or its 10 s socket
# timeout; all connections are closed together at the end, so no address
# is reused while nginx may still log.  A last plain GET /healthz from
# 127.0.0.9 must show once in both logs, so the comparison does see
# forwarded requests.  Then the daemon is stopped (its buffered log is
# written at exit), nginx too, and:
#
#   1. every request in the daemon's access log (client, method, path)
#      matches a line nginx logged as forwarded to it, at least as many
#      times: the daemon read no request out of bytes nginx sent as fewer;
#   2. nginx either refused the case itself, one 4xx (or 501 for a transfer
#      coding it lacks) and nothing forwarded, or forwarded the case's own
#      first request (its method and path), read its own way.  A keep-alive
#      connection goes on after such an answer, so nginx then reads the
#      hidden GET /SMUGGLED as a request of its own and forwards that too:
#      allowed, since nginx saw and logged it (1 still holds the daemon to
#      what nginx forwarded); nothing else may be forwarded.  The client got
#      exactly the statuses nginx logged for its address;
#   3. no case ended by its socket timeout.
#
# A table of what nginx did with each case is printed: refused (its status),
# or forwarded (+hidden when it forwarded GET /SMUGGLED as well), with the
# daemon's statuses, the client's, and whether nginx closed.
# Loopback only; everything it starts is stopped by PID (nginx_edge.sh).
# shellcheck source=tests/integration/nginx_edge.sh
. "$(dirname "$0")/nginx_edge.sh"
start_daemon 1
start_nginx "$port_1"

# send: every case to nginx, one line per case in $work/sent:
# ADDR<TAB>FIRST REQUEST'S METHOD AND TARGET<TAB>STATUSES<TAB>END<TAB>NAME.
python3 - tests/cases/framing.cases "$port" > "$work/sent" <<'EOF'
import socket, sys

def decode(v):
    """The bytes a body: value stands for (tests/cases/README's escapes)."""
    out, i = bytearray(), 0
    simple = {"n": b"\n", "r": b"\r", "t": b"\t", "\\": b"\\"}
    while i < len(v):
        c = v[i]
        if c != "\\":
            out += c.encode()
            i += 1
        elif v[i + 1] in simple:
            out += simple[v[i + 1]]
            i += 2
        elif v[i + 1] == "x":
            out.append(int(v[i + 2:i + 4], 16))
            i += 4
        else:
            raise ValueError("a bad escape in " + v)
    return bytes(out)

def read_cases(path):
    """[(name, request bytes)] of the raw cases, parsed as the catalogue driver does."""
    cases = []
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n").rstrip(" \t\r")
            if not line or line.startswith("#"):
                continue
            key, sep, value = line.partition(": ")
            if not sep or ":" in key:
                sys.exit("%s:%d: not a 'key: value' line" % (path, n))
            if key == "case":
                cases.append([value, b"", None])
            elif key == "send":
                cases[-1][2] = value
            elif key == "body":
                cases[-1][1] += decode(value)
    return [(name, body) for name, body, how in cases if how == "raw"]

def answers(sock):
    """The statuses of the whole answers read, and how the connection ended."""
    buf, got = b"", []
    while len(got) < 2:
        head_end = buf.find(b"\r\n\r\n")
        if head_end < 0:
            try:
                more = sock.recv(65536)
            except socket.timeout:
                return got, "timeout"
            except OSError:
                return got, "closed"
            if not more:
                return got, "closed"
            buf += more
            continue
        lines = buf[:head_end].decode("latin-1").split("\r\n")
        status = int(lines[0].split()[1])
        fields = {}
        for l in lines[1:]:
            k, _, v = l.partition(":")
            fields[k.strip().lower()] = v.strip().lower()
        rest = buf[head_end + 4:]
        if "chunked" in fields.get("transfer-encoding", ""):
            end = rest.find(b"\r\n0\r\n\r\n")
            need = None if end < 0 and not rest.startswith(b"0\r\n\r\n") else \
                (5 if rest.startswith(b"0\r\n\r\n") else end + 7)
        else:
            need = int(fields.get("content-length", "0"))
        if need is None or len(rest) < need:
            try:
                more = sock.recv(65536)
            except socket.timeout:
                return got, "timeout"
            except OSError:
                return got + [status], "closed"
            if not more:
                return got + [status], "closed"
            buf += more
            continue
        got.append(status)
        buf = rest[need:]
    return got, "open"

def send(addr, port, data, keep):
    """Send data to nginx from addr; the answers' statuses and the end."""
    s = socket.socket()
    keep.append(s)
    s.settimeout(10)
    s.bind((addr, 0))
    s.connect(("127.0.0.1", port))
    s.sendall(data)
    return answers(s)

cases, port, keep = read_cases(sys.argv[1]), int(sys.argv[2]), []
for i, (name, data) in enumerate(cases):
    addr = "127.0.0.%d" % (10 + i)
    first = data.split(b"\n", 1)[0].split(b" ")
    target = (first[0] + b" " + first[1]).decode("latin-1")
    got, end = send(addr, port, data, keep)
    print("\t".join([addr, target, ",".join(map(str, got)) or "-", end, name]))
got, end = send("127.0.0.9", port, b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", keep)
print("\t".join(["127.0.0.9", "GET /healthz", ",".join(map(str, got)) or "-", end, "control"]))
for s in keep:
    s.close()
EOF
[ $? -eq 0 ] || { echo "nginx_framing: FAILED: the cases were not all sent"; exit 1; }

stop_daemon 1
kill -QUIT "$(cat "$work/nginx.pid")"
for _ in $(seq 200); do [ -f "$work/nginx.pid" ] || break; sleep 0.05; done

# judge: the checks above, from the two logs and $work/sent.
python3 - "$work/sent" "$work/nginx.access" "$work/d1.log" <<'EOF'
import collections, sys

sent = [l.rstrip("\n").split("\t") for l in open(sys.argv[1])]
seen = collections.defaultdict(list)     # addr: [(method, path, status, forwarded)] in nginx's order
forwarded = collections.Counter()        # (addr, method, path) nginx sent upstream
for l in open(sys.argv[2]):
    f = l.split()
    addr, method, uri, status, upstream = f[0], f[1], " ".join(f[2:-2]), f[-2], f[-1]
    path = uri.split("?", 1)[0]
    seen[addr].append((method, path, status, upstream != "-"))
    if upstream != "-":
        forwarded[(addr, method, path)] += 1
served = collections.Counter()           # (client, method, path) the daemon answered
daemon = collections.defaultdict(list)   # client: [status] in the daemon's order
for l in open(sys.argv[3]):
    f = l.split()
    client = [x[7:] for x in f if x.startswith("client=")]
    if len(f) > 3 and client and f[1].isupper():
        served[(client[0], f[1], f[2].split("?", 1)[0])] += 1
        daemon[client[0]].append(f[3])

failed = 0
def verdict(what, ok):
    """Count one check; say what failed."""
    global failed
    if not ok:
        failed += 1
        print("nginx_framing: FAILED: " + what)

# 1: the daemon answered nothing nginx did not forward.
for key, n in sorted(served.items()):
    verdict("the daemon answered %s %s from %s %d times, nginx forwarded it %d times"
            % (key[1], key[2], key[0], n, forwarded[key]), n <= forwarded[key])
control = ("127.0.0.9", "GET", "/healthz")
verdict("the control GET /healthz is in both logs once (nginx %d, daemon %d)"
        % (forwarded[control], served[control]), forwarded[control] == served[control] == 1)

# 2 and 3, case by case; the table.
rows, kinds = [], collections.Counter()
for addr, target, got, end, name in sent[:-1]:
    method, path = target.split(" ", 1)
    lines = seen.get(addr, [])
    sent_up = [(m, p) for m, p, s, up in lines if up]
    statuses = ",".join(s for m, p, s, up in lines) or "-"
    if not sent_up:
        kind = "refused " + statuses
        verdict("%s: nginx answered %s, not one 4xx (or 501 for a coding it lacks)" % (name, statuses),
                len(lines) == 1 and (lines[0][2].startswith("4") or lines[0][2] == "501"))
    else:
        # nginx read the first request its own way and forwarded it; a
        # second request it forwarded is the hidden one, which nginx itself
        # read as a request of its own after answering the first.
        kind = "forwarded" + (" +hidden" if len(sent_up) > 1 else "")
        verdict("%s: nginx forwarded %s, not the case's request (then at most GET /SMUGGLED)"
                % (name, sent_up), sent_up[0] == (method, path.split("?", 1)[0])
                and sent_up[1:] in ([], [("GET", "/SMUGGLED")]) and lines[0][3])
    verdict("%s: the client got %s, nginx logged %s" % (name, got, statuses), got == statuses)
    verdict("%s: ended by the socket timeout" % name, end != "timeout")
    kinds[kind.split(" ")[0]] += 1
    rows.append((kind, ",".join(daemon.get(addr, [])) or "-", got, end, name))

print("%-3s %-18s %-8s %-8s %-7s %s" % ("#", "nginx", "daemon", "client", "end", "case"))
for i, r in enumerate(rows):
    print("%-3d %-18s %-8s %-8s %-7s %s" % ((i + 1,) + r))
print("nginx_framing: %d cases: nginx refused %d, forwarded %d; %d checks failed"
      % (len(rows), kinds["refused"], kinds["forwarded"], failed))
sys.exit(1 if failed else 0)
EOF
