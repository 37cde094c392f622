# Operating it: the deployment files against the binary (and the installed
# layout under chroot), and two daemons behind nginx with one stopped under
# load.  itest_ops (tests/integration/test_ops.c) covers /metrics with
# promtool, /readyz and the JSON log; it is built and run with the others.
EXTRA_CHECKS += tests/integration/deploy_files.sh tests/integration/nginx_lb.sh
# The framing set (tests/cases/framing.cases) through the same nginx: the
# daemon answers no request nginx did not forward.
EXTRA_CHECKS += tests/integration/nginx_framing.sh
# Slow clients as the field tests them: Debian's slowhttptest (slow headers,
# slow body, slow read) against a daemon with short timeouts, a normal
# client polling throughout (docs/reliability.md).
EXTRA_CHECKS += tests/integration/slowhttp.sh
# docker/k8s/ against the Kubernetes schemas (npm's kubernetes-models,
# pinned) and against the binary: probes, scraping, env, grace, the HPA.
EXTRA_CHECKS += tests/integration/k8s_manifests.mjs
# The store's backups as docs/backups.md gives them, each restored once:
# sqlite3 .backup and VACUUM INTO while the daemon serves, pg_dump and
# pg_restore on a throwaway cluster; the restored store answers the same.
EXTRA_CHECKS += tests/integration/store_backup.sh

# The API suite, the one for /analyze, /judge, /batch and the cache, and
# the JSON bodies read as they arrive (a reader held from one piece of the
# body to the next, and clients that leave mid-body), once more with every
# daemon and CLI run under valgrind memcheck
# (scripts/valgrind-daemon): any memory error or leak fails it.  The
# document the daemon serves is the one built beside the real binary, not
# beside the wrapper (GJ_SPEC, tests/integration/daemon.h).
.PHONY: valgrind
valgrind: test-deps
	@$(SUBMAKE) tests
	GJ_BIN=scripts/valgrind-daemon GJ_SPEC=$(BUILD)/openapi.yaml $(BUILD)/tests/itest_api
	GJ_BIN=scripts/valgrind-daemon GJ_SPEC=$(BUILD)/openapi.yaml $(BUILD)/tests/itest_beyond
	GJ_BIN=scripts/valgrind-daemon GJ_SPEC=$(BUILD)/openapi.yaml $(BUILD)/tests/itest_arriving
