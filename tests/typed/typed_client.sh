#!/bin/sh
# typed_client.sh: the README's examples as a TypeScript client would
# write them (tests/typed/client.mts): generate the types from the
# OpenAPI document built beside $GJ_BIN (build/openapi.yaml, or $GJ_SPEC)
# with openapi-typescript into build/typed/ (never committed), compile the client with `tsc --noEmit --strict`, refuse a
# cast, an `any`, an `unknown` or a `Record<string, never>` in it, then
# run it on the pinned Node.js (which strips the types) against a daemon
# it starts on 127.0.0.1.  GJ_BIN names the daemon (build/gamejudge).
set -eu
cd "$(dirname "$0")/../.."
bin=node_modules/.bin
mkdir -p build/typed
# Both tools on the pinned Node.js, whatever node comes first on PATH.
spec=${GJ_SPEC:-$(dirname "${GJ_BIN:-build/gamejudge}")/openapi.yaml}
"$bin/node" "$bin/openapi-typescript" "$spec" -o build/typed/api.d.ts >/dev/null
"$bin/node" "$bin/tsc" --noEmit --strict -p tests/typed/tsconfig.json
echo "typed-client: tsc --noEmit --strict passed"
# The generated types leave no shape open: no Record<string, never> (an
# object without properties) and no unknown, but for the two empty
# top-level maps and the response headers' catch-all.
if grep -n -E 'Record<string, never>|[:|<(,] *unknown\b' build/typed/api.d.ts |
    grep -v -E 'export type (webhooks|\$defs) = Record<string, never>;|\[name: string\]: unknown;|^[0-9]+: +(/?\*|\*)'; then
    echo "typed-client: the generated types above leave a shape open" >&2
    exit 1
fi
# The client reads the answers through the generated types alone.
# (Comments are left out: they speak English.)
if grep -n -v -E '^[[:space:]]*//' tests/typed/client.mts |
    grep -E '\bas [A-Za-z{[(]|<[A-Za-z]+>[a-z(]|\bany\b|\bunknown\b|Record<string, never>'; then
    echo "typed-client: the lines above cast or use any, unknown or Record<string, never>" >&2
    exit 1
fi
exec "$bin/node" tests/typed/client.mts
