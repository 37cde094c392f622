# gamejudge: build on Debian bookworm, run on bookworm-slim with only the
# runtime libraries.  Configure with GAMEJUDGE_* variables (see
# `gamejudge serve --help`); the container answers on port 8080.
#
#   docker build -t gamejudge .
#   docker run --rm -p 8080:8080 -v gamejudge-store:/var/lib/gamejudge gamejudge
#
# The puzzle store is a SQLite file in the volume /var/lib/gamejudge (owned
# by the service user, uid 10001); several replicas share a PostgreSQL
# store instead: GAMEJUDGE_STORE=postgresql://... (docker/compose.yml).
#
# Behind a TLS-inspecting proxy, hand its CA bundle (PEM) to the one step
# that fetches over TLS (npm ci) as a BuildKit secret; it is mounted for
# that step only and is in no layer:
#
#   DOCKER_BUILDKIT=1 docker build --secret id=ca,src=/etc/ssl/certs/ca-certificates.crt -t gamejudge .

FROM debian:bookworm AS build
# The build set of scripts/install-deps; Debian's nodejs and npm only
# unpack the pinned Node.js and redocly, which render GET /docs.
RUN apt-get update \
 && apt-get install -y --no-install-recommends \
      gcc libc6-dev make pkg-config libmicrohttpd-dev libjansson-dev libxxhash-dev libgnutls28-dev \
      libsqlite3-dev libpq-dev nodejs npm ca-certificates \
 && rm -rf /var/lib/apt/lists/*
WORKDIR /src
# The pinned tools in their own layer for the cache.
COPY package.json package-lock.json ./
COPY scripts/install-deps scripts/
RUN --mount=type=secret,id=ca \
    if [ -s /run/secrets/ca ]; then \
      export NODE_EXTRA_CA_CERTS=/run/secrets/ca npm_config_cafile=/run/secrets/ca; \
    fi \
 && scripts/install-deps node
COPY . .
RUN make BUILD=/build all \
 && make BUILD=/build install DESTDIR=/out PREFIX=/usr/local

FROM debian:bookworm-slim
# libmicrohttpd12 and libjansson4 bring the rest (GnuTLS and its helpers);
# libxxhash0 (the ETag hash) and libgnutls30 (which the binary links itself
# to check the HTTPS key and certificate) are in bookworm-slim already, for
# apt, and are named so that the image does not depend on that.
# libsqlite3-0 and libpq5 are the store's two engines.
# apt-get clean drops apt's package caches (80 MB) on any base image.
# The user's ids are fixed so that a volume, a mounted API keys file or a
# pod's securityContext (runAsUser, fsGroup) can name them.
RUN apt-get update \
 && apt-get install -y --no-install-recommends libmicrohttpd12 libjansson4 libxxhash0 \
      libgnutls30 libsqlite3-0 libpq5 \
 && apt-get clean \
 && rm -rf /var/lib/apt/lists/* \
 && groupadd --system --gid 10001 gamejudge \
 && useradd --system --uid 10001 --gid 10001 --no-create-home --shell /usr/sbin/nologin gamejudge \
 && mkdir -p /var/lib/gamejudge \
 && chown gamejudge:gamejudge /var/lib/gamejudge \
 && chmod 0750 /var/lib/gamejudge
COPY --from=build /out/usr/local/bin/gamejudge /usr/local/bin/gamejudge
USER gamejudge
# The volume is declared after the folder is made and owned, so a new
# named volume starts with the service user's ownership.  SQLite keeps the
# database, its -wal and -shm files there (WAL: one writer, readers beside it).
VOLUME /var/lib/gamejudge
ENV GAMEJUDGE_HOST=0.0.0.0 \
    GAMEJUDGE_PORT=8080 \
    GAMEJUDGE_LOG_FORMAT=json \
    GAMEJUDGE_GRACE=30 \
    GAMEJUDGE_STORE=sqlite:/var/lib/gamejudge/gamejudge.db
EXPOSE 8080
# The binary checks itself: GET /healthz on 127.0.0.1:$GAMEJUDGE_PORT.
HEALTHCHECK --interval=10s --timeout=4s --start-period=5s --retries=3 \
  CMD ["gamejudge", "healthcheck"]
# SIGTERM: refuse new connections, answer every request received, exit 0.
STOPSIGNAL SIGTERM
ENTRYPOINT ["gamejudge", "serve"]
