# bench.mk - `make bench`: baselines, inputs, measurements, bench/results.md and plots.
#
# The helpers in bench/ are built here with the project's flags; the seed
# reference programs are built from ../shared/reference with g++ -O2 when
# that directory exists (never copied into the project).  Missing tools
# (wrk, gnuplot, g++) are installed with apt-get when running as root.

BENCH_DIR := $(BUILD)/bench
BENCH_TOOLS := $(addprefix $(BENCH_DIR)/,gen measure parse_limit bare_server cost_fit levels line_rate \
                 puzzle_time store_bench mg_json_rate game_loop)
REFERENCE_DIR ?= ../shared/reference
# The games' URL names, from the one list (solvers/registry/games.def).
REFERENCE_GAMES := $(shell scripts/games)
REFERENCE_BINS := $(if $(wildcard $(REFERENCE_DIR)/*.cpp),\
                    $(addprefix $(BENCH_DIR)/ref/,$(REFERENCE_GAMES)))
BENCH_APT := wrk gnuplot-nox g++ curl
BENCH_CMDS := wrk gnuplot g++ curl

.PHONY: bench bench-deps bench-tools bench-tiny bench-large bench-store bench-peak

bench-deps:
	@missing=""; for c in $(BENCH_CMDS); do command -v $$c >/dev/null || missing=1; done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then \
	    echo "bench: installing $(BENCH_APT)"; \
	    (apt-get install -y $(BENCH_APT) || (apt-get update && apt-get install -y $(BENCH_APT))) \
	      >/dev/null; \
	  else \
	    echo "bench: missing one of: $(BENCH_CMDS); run as root or: sudo apt-get install -y $(BENCH_APT)"; \
	    exit 1; \
	  fi; \
	fi

$(BENCH_DIR)/bare_server: bench/bare_server.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $< $(PKG_LIBS) -o $@

# The cost models against solve times: linked with the solvers.
$(BENCH_DIR)/cost_fit: bench/cost_fit.c $(BUILD)/libsolvers.a
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $< $(BUILD)/libsolvers.a $(PKG_LIBS) -o $@

# The generator's figures need the solvers themselves (bench/NOTES.md, "Puzzles").
$(BENCH_DIR)/generate_rate: bench/generate_rate.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The puzzles' figures (bench/results.md, "Puzzles"): the solvers, in process.
$(BENCH_DIR)/puzzle_rate: bench/puzzle_rate.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -lm -o $@

# matrix-game's JSON body: jansson's tree against the chunk-fed reader.
$(BENCH_DIR)/mg_json_rate: bench/mg_json_rate.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The perfect line per move, parsed position against the JSON adapter,
# which is the tests' oracle (tests/oracle/play_adapter.h), not the product's.
$(BENCH_DIR)/line_rate: bench/line_rate.c tests/oracle/play_adapter.c tests/oracle/analysis_call.c \
                         $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) -Itests/oracle $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The chunk-fed JSON reader against jansson's tree, run by hand
# (bench/json_pull_rate.c says how).
$(BENCH_DIR)/json_pull_rate: bench/json_pull_rate.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The puzzle search alone, timed on one tree (bench/puzzle_versus.sh runs it
# against an older tree's as well).
$(BENCH_DIR)/puzzle_time: bench/puzzle_time.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The levels' calibration needs the solvers too (bench/NOTES.md, "Levels").
$(BENCH_DIR)/levels: bench/levels.c $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $^ $(PKG_LIBS) -o $@

# The puzzle store's figures (bench/results.md, "The puzzle store"): the
# store in process, and a daemon through libcurl.
$(BENCH_DIR)/store_bench: bench/store_bench.c $(SERVER_LIB) $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $(TEST_CFLAGS) $< $(SERVER_LIB) $(SOLVER_LIB) \
	  $(PKG_LIBS) $(TEST_LIBS) -lm -o $@

# A game's own cost per tiny request, in process (bench/tiny.sh's target line).
$(BENCH_DIR)/game_loop: bench/game_loop.c $(SERVER_LIB) $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $(PKG_CFLAGS) $< $(SERVER_LIB) $(SOLVER_LIB) $(PKG_LIBS) -lm -o $@

$(BENCH_DIR)/%: bench/%.c
	@mkdir -p $(dir $@)
	$(CC) $(CFLAGS) $(INC_ALL) $< -o $@

$(BENCH_DIR)/ref/%: $(REFERENCE_DIR)/%.cpp
	@mkdir -p $(dir $@)
	g++ -O2 -w $< -o $@

bench-tools: $(BIN) $(BENCH_TOOLS) $(REFERENCE_BINS)

bench: test-deps bench-deps
	@$(SUBMAKE) bench-tools
	bench/run.sh $(BIN) $(BENCH_DIR) $(if $(REFERENCE_BINS),$(BENCH_DIR)/ref,-)

# The puzzle store alone (issue 32): rated plays per second on SQLite and on
# a throwaway PostgreSQL cluster (one and two handles), the latency a rated
# /check adds, /next over a pool of 100,000 and `puzzles fill`; the
# section is printed and written to $(BENCH_DIR)/store.md (bench/store.sh;
# STORE_BENCH_POOL, STORE_BENCH_SECONDS).  `make bench` runs it too.
bench-store: test-deps
	@$(SUBMAKE) $(BIN) $(BENCH_DIR)/store_bench
	bench/store.sh $(BIN) $(BENCH_DIR)

# Table 3 alone (issue 22): the bare server in its fastest mode and the daemon
# in its default configuration, interleaved round by round, with CPU per
# request (bench/tiny.sh; TINY_ROUNDS, TINY_SECONDS, TINY_GAMES, TINY_PIN).
bench-tiny: bench-deps
	@$(SUBMAKE) $(BIN) $(BENCH_DIR)/bare_server $(BENCH_DIR)/game_loop
	GAME_LOOP=$(BENCH_DIR)/game_loop bench/tiny.sh $(BIN) $(BENCH_DIR)/bare_server

# The daemon's peak memory per body, judge text against JSON at about 1, 8
# and 31 MB (bench/peak.sh; PEAK_ROUNDS).
bench-peak: bench-deps
	@$(SUBMAKE) $(BIN) $(BENCH_DIR)/gen
	bench/peak.sh $(BIN) $(BENCH_DIR)

# Table 2 alone (issue 22): the large inputs through HTTP against the solve
# command in the same rounds, with the daemon's split of each request
# (bench/large.sh; LARGE_ROUNDS, LARGE_INPUTS).
bench-large: bench-deps
	@$(SUBMAKE) $(BIN) $(addprefix $(BENCH_DIR)/,bare_server measure gen)
	bench/large.sh $(BIN) $(BENCH_DIR)
