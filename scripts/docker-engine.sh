# docker-engine.sh: sourced by scripts/fresh-check and scripts/container-test.
#
#   engine_up        make sure a Docker engine answers: Debian's dockerd is
#                    started (no bridge, no iptables) when none runs, and
#                    engine_down stops it again, by PID, and only if we
#                    started it.
#   base_images      make sure debian:bookworm and debian:bookworm-slim
#                    exist: pulled when a registry answers, else made with
#                    debootstrap from the mirror apt already uses.  The root
#                    file system is cached in $GJ_CACHE between runs.
#   ca_bundle        print the PEM bundle to trust for TLS inside builds and
#                    containers ($GJ_CA_BUNDLE, else the system's), or nothing.
#
# Containers started by the callers use host networking and bind 127.0.0.1
# only: the engine gets no bridge network at all.

DOCKER=${DOCKER:-/usr/bin/docker}
GJ_CACHE=${GJ_CACHE:-/var/cache/gamejudge}
engine_pid=""

# engine_up STATE_DIR: start dockerd unless an engine already answers.
engine_up() {
    [ -x "$DOCKER" ] || DOCKER=$(command -v docker)
    if "$DOCKER" info >/dev/null 2>&1; then
        return 0
    fi
    mkdir -p "$1"
    echo "docker: starting dockerd (log: $1/dockerd.log)" >&2
    dockerd --bridge=none --iptables=false --ip-masq=false \
        --pidfile "$1/dockerd.pid" > "$1/dockerd.log" 2>&1 &
    engine_pid=$!
    for _ in $(seq 120); do
        "$DOCKER" info >/dev/null 2>&1 && return 0
        kill -0 "$engine_pid" 2>/dev/null || break
        sleep 0.5
    done
    echo "docker: dockerd did not come up:" >&2
    tail -n 20 "$1/dockerd.log" >&2
    return 1
}

# engine_down: stop the dockerd that engine_up started, and wait for it.
engine_down() {
    [ -n "$engine_pid" ] || return 0
    kill -TERM "$engine_pid" 2>/dev/null
    wait "$engine_pid" 2>/dev/null
    engine_pid=""
}

# apt_mirror SUITE_RE DEFAULT: the first URI apt's own sources use for a
# suite matching SUITE_RE (deb822 or one-line form), else DEFAULT.
apt_mirror() {
    uri=$(cat /etc/apt/sources.list.d/*.sources 2>/dev/null | awk -v re="$1" '
        /^URIs:/ { u = $2 } /^Suites:/ { for (i = 2; i <= NF; i++) if ($i ~ re) { print u; exit } }')
    [ -n "$uri" ] || uri=$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null |
        awk -v re="$1" '$1 == "deb" && $3 ~ re { print $2; exit }')
    echo "${uri:-$2}"
}

# make_rootfs TARBALL: debootstrap a minimal bookworm (the official image's
# variant) with the official image's three suites, and pack it.
make_rootfs() {
    mirror=$(apt_mirror '^bookworm$' http://deb.debian.org/debian)
    security=$(apt_mirror '^bookworm-security$' http://deb.debian.org/debian-security)
    dir=$(mktemp -d /var/tmp/gj-rootfs.XXXXXX)
    echo "docker: no registry answers; debootstrap bookworm from $mirror" >&2
    if ! debootstrap --variant=minbase bookworm "$dir" "$mirror" > "$dir.log" 2>&1; then
        tail -n 20 "$dir.log" >&2
        rm -rf "$dir" "$dir.log"
        return 1
    fi
    rm -f "$dir/etc/apt/sources.list" "$dir.log"
    cat > "$dir/etc/apt/sources.list.d/debian.sources" <<EOF
Types: deb
URIs: $mirror
Suites: bookworm bookworm-updates
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb
URIs: $security
Suites: bookworm-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF
    rm -rf "$dir"/var/lib/apt/lists/* "$dir"/var/cache/apt/*.bin "$dir"/var/cache/apt/archives/*.deb
    mkdir -p "$(dirname "$1")"
    tar -C "$dir" -cf "$1.tmp" . && mv "$1.tmp" "$1"
    rm -rf "$dir"
}

# base_images: debian:bookworm and debian:bookworm-slim, pulled or made.
base_images() {
    if "$DOCKER" image inspect debian:bookworm >/dev/null 2>&1 &&
        "$DOCKER" image inspect debian:bookworm-slim >/dev/null 2>&1; then
        return 0
    fi
    if timeout 60 "$DOCKER" pull -q debian:bookworm >/dev/null 2>&1 &&
        timeout 60 "$DOCKER" pull -q debian:bookworm-slim >/dev/null 2>&1; then
        return 0
    fi
    tarball=$GJ_CACHE/bookworm-minbase.tar
    [ -s "$tarball" ] || make_rootfs "$tarball" || return 1
    "$DOCKER" import --change 'CMD ["bash"]' "$tarball" debian:bookworm >/dev/null || return 1
    # slim: the same system without documentation, manuals and translations,
    # and a dpkg rule that keeps them out of later installs, as the official
    # slim image does.
    cid=$("$DOCKER" create --network none debian:bookworm sh -c '
        printf "%s\n" "path-exclude /usr/share/doc/*" "path-include /usr/share/doc/*/copyright" \
            "path-exclude /usr/share/man/*" "path-exclude /usr/share/info/*" \
            "path-exclude /usr/share/locale/*" "path-include /usr/share/locale/locale.alias" \
            > /etc/dpkg/dpkg.cfg.d/docker
        find /usr/share/doc -mindepth 1 ! -name copyright ! -type d -delete
        find /usr/share/doc -mindepth 1 -type d -empty -delete
        rm -rf /usr/share/man/* /usr/share/info/*
        find /usr/share/locale -mindepth 1 -maxdepth 1 ! -name locale.alias -exec rm -rf {} +') || return 1
    "$DOCKER" start -a "$cid" >/dev/null &&
        "$DOCKER" export "$cid" | "$DOCKER" import --change 'CMD ["bash"]' - debian:bookworm-slim >/dev/null
    status=$?
    "$DOCKER" rm -f "$cid" >/dev/null
    return $status
}

# ca_bundle: the PEM bundle to hand to builds and containers, if any.
ca_bundle() {
    for f in "${GJ_CA_BUNDLE:-}" /etc/ssl/certs/ca-certificates.crt; do
        if [ -n "$f" ] && [ -s "$f" ]; then
            echo "$f"
            return 0
        fi
    done
}
