# gamejudge - see README.md.
#
#   make                 build build/gamejudge
#   make run             install what building and serving need, build, serve on 127.0.0.1:8080
#   make check           install the test tools too, build, run every unit and integration test
#   make test-unit       the unit and oracle tests alone, on every core (the quick loop)
#   make asan            the same suite under AddressSanitizer + UndefinedBehaviorSanitizer
#   make lint            the include graph, the files comments name, clang-format, cppcheck
#                        and the spec linter
#   make fresh-check     the quick start in a pristine Debian bookworm container (mk/docker.mk)
#   make container-test  build the Dockerfile's image and test the running container
#   make install         install the binary under $(DESTDIR)$(PREFIX) (default /usr/local)
#   make clean           remove build/ (and $(BUILD))
#
# Dependencies come in sets (scripts/install-deps says what each holds):
# `deps` for building and serving, `test-deps` for every test target.

VERSION := 0.1.0
BUILD ?= build

CC ?= cc
PKGS := libmicrohttpd jansson libxxhash gnutls sqlite3 libpq
TEST_PKGS := check libcurl
WARN := -Wall -Wextra -Werror -Wpedantic
OPT ?= -O2 -g
SAN ?=
CFLAGS := -std=c11 $(WARN) $(OPT) $(SAN) -D_POSIX_C_SOURCE=200809L -DGJ_VERSION='"$(VERSION)"' \
          -MMD -MP $(EXTRA_CFLAGS)

# The layers, bottom to top (docs/ARCHITECTURE.md).  A layer's sources are
# compiled with only the folders it may see on the include path (INC_<layer>),
# so a file that includes a header of a folder it may not see does not build;
# scripts/include-graph.mjs (make lint) checks the same from the sources.
# Below the server the solvers are not one line but a small tree: the kit
# (the game interface and what games share) above base, each game above the
# kit and blind to its siblings, the registry (the one code naming every
# game, and only by symbol) and play (line, engine, levels, puzzles) above
# the kit and the registry, never a game.
GAME_IDENTS := $(shell sed -n 's/^GAME.\([a-z_]*\), .*/\1/p' solvers/registry/games.def)
GAME_DIRS := $(addprefix solvers/games/,$(GAME_IDENTS))
LAYERS := solvers/base solvers/kit $(GAME_DIRS) solvers/registry solvers/play server/store \
          server/runtime \
          server/admission server/http server/endpoints server/start
INC_solvers/base := -Isolvers/base
INC_solvers/kit := $(INC_solvers/base) -Isolvers/kit
$(foreach d,$(GAME_DIRS),$(eval INC_$(d) := $(INC_solvers/kit) -I$(d)))
INC_solvers/registry := $(INC_solvers/kit) -Isolvers/registry
INC_solvers/play := $(INC_solvers/registry) -Isolvers/play
INC_server/store := $(INC_solvers/play) -Iserver/store
INC_server/runtime := $(INC_server/store) -Iserver/runtime
INC_server/admission := $(INC_server/runtime) -Iserver/admission
INC_server/http := $(INC_server/admission) -Iserver/http
INC_server/endpoints := $(INC_server/http) -Iserver/endpoints
INC_server/start := $(INC_server/endpoints) -Iserver/start
# Tests, benchmarks and fuzz targets stand above every layer and see every
# game, so they may test a game's private parts.
INC_ALL := $(INC_server/start) $(addprefix -I,$(GAME_DIRS))
# The include path of the source file $(1): its layer's, or INC_ALL.
src_inc = $(or $(INC_$(patsubst %/,%,$(dir $(1)))),$(INC_ALL))
LDFLAGS := $(SAN) $(EXTRA_LDFLAGS)

# pkg-config only once dependencies exist; `make run`/`make check` install them first.
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lpthread -lm
TEST_CFLAGS = $(shell pkg-config --cflags $(TEST_PKGS) 2>/dev/null)
TEST_LIBS = $(shell pkg-config --libs $(TEST_PKGS) 2>/dev/null)

# solvers/: base (buffers, errors, readers: knows no game), kit, games/*,
# registry and play; solvers/README.md says what each holds.
SOLVER_SRC := $(wildcard $(addsuffix /*.c,$(filter solvers/%,$(LAYERS))))
SERVER_SRC := $(filter-out server/start/main.c,$(wildcard server/*/*.c))
ORACLE_SRC := $(wildcard tests/oracle/*.c)
UNIT_SRC := $(wildcard tests/unit/test_*.c)
ITEST_SRC := $(wildcard tests/integration/test_*.c)

obj = $(patsubst %.c,$(BUILD)/obj/%.o,$(1))

BIN := $(BUILD)/gamejudge
SOLVER_LIB := $(BUILD)/libsolvers.a
SERVER_LIB := $(BUILD)/libserver.a
# The OpenAPI document, assembled from api/ (mk/spec.mk, api/README.md).
SPEC := $(BUILD)/openapi.yaml
SPEC_OBJ := $(BUILD)/obj/gen/openapi.o $(BUILD)/obj/gen/docs.o $(BUILD)/obj/gen/playground.o
UNIT_BINS := $(patsubst tests/unit/%.c,$(BUILD)/tests/%,$(UNIT_SRC))

# mk/*.mk (included at the end) add targets (bench, fuzz, spec tooling) and
# may append test programs to EXTRA_CHECKS, run by `make check` after the rest.
# sixth_game.sh builds a copy of the tree with the toy game of
# tests/fixtures/toy_game/ added as docs/adding-a-game.md says; store_pg.sh
# runs the store's tests on a throwaway PostgreSQL cluster.
EXTRA_CHECKS := tests/lint/include_graph.sh tests/lint/comment_paths.sh \
  tests/integration/sixth_game.sh tests/integration/store_pg.sh
# puzzles_cli.sh: the puzzles command (fill, export, import) on SQLite files.
EXTRA_CHECKS += tests/integration/puzzles_cli.sh
# store_http_pg.sh: the store's routes on a throwaway PostgreSQL, two replicas.
EXTRA_CHECKS += tests/integration/store_http_pg.sh

PREFIX ?= /usr/local

# The inner builds of run, check and the other test targets use every core
# (JOBS=1 for a serial build); the tests themselves run one at a time.
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
SUBMAKE = $(MAKE) --no-print-directory -j$(JOBS)

# Every JavaScript tool runs on the Node.js pinned in package-lock.json,
# which scripts/install-deps links as node_modules/.bin/node: first on PATH,
# so `#!/usr/bin/env node` finds it and not the machine's own.
export PATH := $(CURDIR)/node_modules/.bin:$(PATH)

.PHONY: all deps test-deps run check test-unit asan lint clean tests install print-layers
# Objects made through pattern chains (a test's own object) are kept, so a
# second make does nothing.  Named, not every target: a header that moved
# away must still make the objects that included it stale (a missing
# secondary file would not).
.SECONDARY: $(call obj,$(UNIT_SRC) $(ITEST_SRC))
.DEFAULT_GOAL := all

all: $(BIN)

deps:
	@scripts/install-deps build

test-deps:
	@scripts/install-deps test

run: deps
	@$(SUBMAKE) all
	./$(BIN) serve

$(BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(call src_inc,$<) $(PKG_CFLAGS) $(if $(findstring tests/,$<),$(TEST_CFLAGS) -Itests/unit -Itests/oracle -Itests/integration) -c $< -o $@

# The spec and its HTML rendering (GET /openapi.yaml, GET /docs) are compiled
# into the binary.  The page is rendered by redocly, pinned in package.json,
# on the pinned Node.js; a bare `make` installs those two with npm if needed.
NODE_STAMP := node_modules/.gj-installed

$(NODE_STAMP): package.json package-lock.json
	@scripts/install-deps node

$(BUILD)/gen/openapi.c: $(SPEC) scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< gj_openapi_yaml > $@

$(BUILD)/gen/docs.html: $(SPEC) scripts/build-docs.mjs $(NODE_STAMP)
	@mkdir -p $(dir $@)
	node scripts/build-docs.mjs $< $@

$(BUILD)/gen/docs.c: $(BUILD)/gen/docs.html scripts/embed
	scripts/embed $< gj_docs_html > $@

# The playground (GET /): one hand-written page, HTML, CSS and JavaScript
# in a single file, compiled in as it is; no build step.
$(BUILD)/gen/playground.c: web/playground.html scripts/embed
	@mkdir -p $(dir $@)
	scripts/embed $< gj_playground_html > $@

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) -c $< -o $@

$(SOLVER_LIB): $(call obj,$(SOLVER_SRC))
	@rm -f $@
	ar rcs $@ $^

$(SERVER_LIB): $(call obj,$(SERVER_SRC)) $(SPEC_OBJ)
	@rm -f $@
	ar rcs $@ $^

$(BIN): $(call obj,server/start/main.c) $(SERVER_LIB) $(SOLVER_LIB)
	$(CC) $(LDFLAGS) $^ $(PKG_LIBS) -o $@

UNIT_DEPS := $(call obj,tests/unit/harness.c tests/unit/reader_diff.c $(ORACLE_SRC)) $(SERVER_LIB) $(SOLVER_LIB)
ITEST_DEPS := $(call obj,$(filter-out $(ITEST_SRC),$(wildcard tests/integration/*.c)) $(ORACLE_SRC)) \
              $(SERVER_LIB) $(SOLVER_LIB)

$(BUILD)/tests/test_%: $(BUILD)/obj/tests/unit/test_%.o $(UNIT_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -lm -o $@

$(BUILD)/tests/itest_%: $(BUILD)/obj/tests/integration/test_%.o $(ITEST_DEPS)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(PKG_LIBS) $(TEST_LIBS) -lm -o $@

ITEST_BINS := $(patsubst tests/integration/test_%.c,$(BUILD)/tests/itest_%,$(ITEST_SRC))

tests: $(BIN) $(UNIT_BINS) $(ITEST_BINS)

# Every test binary runs even when an earlier one fails; the target fails if any did.
check: test-deps
	@$(SUBMAKE) tests
	@scripts/run-tests $(BIN) $(UNIT_BINS) $(ITEST_BINS) tests/integration/readme_examples.sh \
	  $(EXTRA_CHECKS)

# The unit tests (each solver against its oracle, the modules one by one)
# share no daemon, port or file, so they run on every core at once; the
# few tagged large (tests/unit/harness.h) are left to `make check`.
test-unit: test-deps
	@$(SUBMAKE) $(BIN) $(UNIT_BINS)
	@CK_EXCLUDE_TAGS=large scripts/run-tests -j $(JOBS) $(BIN) $(UNIT_BINS)

# ASan keeps freed memory in a quarantine (256 MiB by default) that fills
# at the pace of the load, so test_load's flat-RSS check would measure how
# far it had filled; 16 MiB still catches a use after free of recent blocks.
# tests/lsan.supp names the one leak that is libmicrohttpd's, not ours.
asan: test-deps
	@$(SUBMAKE) BUILD=build/asan OPT="-O1 -g" \
	  SAN="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all" tests
	@ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:quarantine_size_mb=16 UBSAN_OPTIONS=print_stacktrace=1 \
	  LSAN_OPTIONS=suppressions=$(CURDIR)/tests/lsan.supp:print_suppressions=0 \
	  scripts/run-tests build/asan/gamejudge $(patsubst $(BUILD)/%,build/asan/%,$(UNIT_BINS) $(ITEST_BINS))

LINT_FILES := $(wildcard $(addsuffix /*.[ch],$(LAYERS)) tests/*/*.[ch])

lint: test-deps
	node scripts/include-graph.mjs $(LAYER_ARGS)
	node scripts/comment-paths.mjs
	clang-format --dry-run --Werror $(LINT_FILES)
	cppcheck --quiet --error-exitcode=1 --enable=warning,performance,portability \
	  --inline-suppr --std=c11 $(INC_ALL) --suppress=missingIncludeSystem \
	  solvers server tests

# The layers with what each may see, LAYER=FOLDER,FOLDER,... (its include
# path, itself last), for scripts/include-graph.mjs and the tests of it.
LAYER_ARGS = $(foreach l,$(LAYERS),$(l)=$(subst $(eval) ,$(comma),$(strip $(patsubst -I%,%,$(INC_$(l))))))
comma := ,
print-layers:
	@echo $(LAYER_ARGS)

# One file: the spec and its web page are compiled in.
install: $(BIN)
	install -D -m 0755 $(BIN) $(DESTDIR)$(PREFIX)/bin/gamejudge

clean:
	rm -rf build $(BUILD)

-include $(sort $(wildcard mk/*.mk))
-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
