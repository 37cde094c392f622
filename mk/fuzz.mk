# fuzz.mk - libFuzzer targets and the ThreadSanitizer suite.
#
#   make fuzz [FUZZ_SECONDS=N]   build every fuzz target and run each for N s
#   make fuzz-build              only build them (build/fuzz/bin/*)
#   make fuzz-replay             build them and run every committed input once
#   make tsan                    the integration suite and the daemon under TSan
#
# Targets: <game>-text, <game>-json, <game>-analyze and <game>-generate for every game of
# solvers/registry/games.def (tests/fuzz/fuzz_game.c compiled per game and mode) and
# http (tests/fuzz/fuzz_http.c, whose seeds reach /solve, /analyze, /judge
# and /batch) and query (tests/fuzz/fuzz_query.c: the GET forms' query
# decoding and If-None-Match, as pure functions) and puzzle
# (tests/fuzz/fuzz_puzzle.c: a puzzle id and a check body).  Seeds are tests/fuzz/corpus/<target>/, read-only; what a run
# learns goes to build/fuzz/work/<target>/ and crashes to
# build/fuzz/artifacts/.  Every file in tests/fuzz/regress/<target>/ is
# replayed before each run.  `make check` runs tests/fuzz/check.sh, which is
# `make fuzz-replay`: the reproducers and the seeds, each once, no fuzzing,
# so its result depends only on the tree.

FUZZ_CC ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD := $(BUILD)/fuzz
FUZZ_GAMES := $(shell scripts/games)
# A game target's mode is the last word of its name; the value is fuzz_game.c's FUZZ_JSON.
FUZZ_MODES := text json analyze generate
FUZZ_MODE_text := 0
FUZZ_MODE_json := 1
FUZZ_MODE_analyze := 2
FUZZ_MODE_generate := 3
FUZZ_GAME_TARGETS := $(foreach g,$(FUZZ_GAMES),$(addprefix $(g)-,$(FUZZ_MODES)))
FUZZ_TARGETS := $(FUZZ_GAME_TARGETS) http query puzzle
FUZZ_GAME_BINS := $(addprefix $(FUZZ_BUILD)/bin/,$(FUZZ_GAME_TARGETS))
FUZZ_BINS := $(addprefix $(FUZZ_BUILD)/bin/,$(FUZZ_TARGETS))
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS = -std=c11 $(WARN) -O1 -g $(FUZZ_SAN) -D_POSIX_C_SOURCE=200809L \
              -DGJ_VERSION='"$(VERSION)"' $(INC_ALL) -MMD -MP $(PKG_CFLAGS)
FUZZ_OBJS = $(patsubst %.c,$(FUZZ_BUILD)/obj/%.o,$(SOLVER_SRC) $(SERVER_SRC)) \
            $(patsubst $(BUILD)/obj/%,$(FUZZ_BUILD)/obj/%,$(SPEC_OBJ))

.PHONY: fuzz fuzz-build fuzz-replay tsan

fuzz-build: $(FUZZ_BINS)

fuzz: test-deps
	@$(SUBMAKE) fuzz-build
	@tests/fuzz/run.sh $(FUZZ_BUILD) $(FUZZ_SECONDS) $(FUZZ_TARGETS)

fuzz-replay: test-deps
	@$(SUBMAKE) fuzz-build
	@tests/fuzz/run.sh $(FUZZ_BUILD) replay $(FUZZ_TARGETS)

# The project's code is instrumented for coverage; libmicrohttpd, jansson
# and libc are not, which keeps the fuzzer on what this project can fix.
$(FUZZ_BUILD)/obj/%.o: %.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c $< -o $@

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -c $< -o $@

# One rule for every game target: <game>-<mode> names both.
fuzz_mode = $(lastword $(subst -, ,$(1)))
fuzz_game = $(patsubst %-$(call fuzz_mode,$(1)),%,$(1))

$(FUZZ_GAME_BINS): $(FUZZ_BUILD)/bin/%: tests/fuzz/fuzz_game.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer -DFUZZ_GAME=game_$(subst -,_,$(call fuzz_game,$*)) \
	  -DFUZZ_JSON=$(FUZZ_MODE_$(call fuzz_mode,$*)) $^ $(PKG_LIBS) -o $@

$(FUZZ_BUILD)/bin/http $(FUZZ_BUILD)/bin/query $(FUZZ_BUILD)/bin/puzzle: $(FUZZ_BUILD)/bin/%: tests/fuzz/fuzz_%.c $(FUZZ_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(FUZZ_CFLAGS) -fsanitize=fuzzer $^ $(PKG_LIBS) -o $@

EXTRA_CHECKS += tests/fuzz/check.sh

-include $(shell find $(FUZZ_BUILD)/obj -name '*.d' 2>/dev/null)

# ThreadSanitizer.  Reports from the daemon (a child process) land in its
# log file, so they must fail it by exit status: with exitcode=66 a daemon
# that raced exits 66 instead of 0 and the test's daemon_stop assertion
# fails; halt_on_error makes the first race end the process at once.  The
# canary proves those options do that before the suite runs.
TSAN_BUILD := build/tsan
TSAN_OPTS := halt_on_error=1 exitcode=66 second_deadlock_stack=1
TSAN_ITESTS = $(patsubst $(BUILD)/%,$(TSAN_BUILD)/%,$(ITEST_BINS))

tsan: test-deps
	@$(SUBMAKE) BUILD=$(TSAN_BUILD) OPT="-O1 -g" SAN="-fsanitize=thread" \
	  $(TSAN_BUILD)/gamejudge $(TSAN_ITESTS)
	@mkdir -p $(TSAN_BUILD)/tests
	$(CC) -std=c11 $(WARN) -O1 -g -fsanitize=thread tests/fuzz/tsan_canary.c -lpthread \
	  -o $(TSAN_BUILD)/tests/tsan_canary
	@TSAN_OPTIONS="$(TSAN_OPTS)" $(TSAN_BUILD)/tests/tsan_canary 2>/dev/null; \
	  [ $$? -eq 66 ] || { echo "tsan: a race does not fail the process; check TSAN_OPTIONS"; exit 1; }
	@TSAN_OPTIONS="$(TSAN_OPTS)" scripts/run-tests $(TSAN_BUILD)/gamejudge $(TSAN_ITESTS)
