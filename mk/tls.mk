# tls.mk - the HTTPS port as a scanner sees it: tests/integration/tls_testssl.sh
# runs Debian's testssl.sh (in the test set) against the daemon with the
# default --tls-priorities and a throwaway certificate, offline on
# 127.0.0.1, in about 30 s, and fails on an old protocol, a weak cipher
# category or any finding worse than INFO.  `make check` runs it;
# `make testssl` runs it alone.
.PHONY: testssl

EXTRA_CHECKS += tests/integration/tls_testssl.sh

testssl: test-deps
	@$(SUBMAKE) all
	GJ_BIN=$(BIN) tests/integration/tls_testssl.sh
