# The replay set (tests/replay/README): `make replay-record` records
# tests/replay/answers.replay again from the binary as built; run it by hand
# when answers are meant to change, and read the file's diff.
.PHONY: replay-record
replay-record: $(BIN) $(NODE_STAMP)
	node tests/replay/record.mjs $(BIN) tests/replay/answers.replay
