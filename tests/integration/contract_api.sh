#!/bin/sh
# contract_api.sh: the API integration suite again, with every request and
# answer passing the validating proxy (GJ_CONTRACT=1; see daemon.h).  Its
# large bodies stay out: the proxy refuses bodies over 10 MB.
set -eu
bin=${GJ_BIN:-build/gamejudge}
GJ_CONTRACT=1 exec "$(dirname "$bin")/tests/itest_api"
