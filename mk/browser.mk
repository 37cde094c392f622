# browser.mk - the playground page (GET /, web/playground.html) in a real
# browser: playwright-core (pinned in package.json) drives Debian's
# /usr/bin/chromium, headless and kept off the network, against a live
# daemon.  `make check` runs it; `make screenshots` refreshes the ones the
# README shows (docs/screenshots/).
.PHONY: browser screenshots

EXTRA_CHECKS += tests/browser/playground.mjs
# CORS (--cors-origins): pages on a listed and another loopback origin call
# the daemon with fetch.
EXTRA_CHECKS += tests/browser/cors.mjs
# Puzzles, the solution kept back while playing, the line and links.
EXTRA_CHECKS += tests/browser/puzzle.mjs
# Large boards (zoom, pan, the token) and the visitor's small faults.
EXTRA_CHECKS += tests/browser/boards.mjs
# axe-core (pinned in package.json) over every state of the page.
EXTRA_CHECKS += tests/browser/a11y.mjs

browser: test-deps
	@$(SUBMAKE) all
	GJ_BIN=$(BIN) tests/browser/playground.mjs
	GJ_BIN=$(BIN) tests/browser/cors.mjs
	GJ_BIN=$(BIN) tests/browser/puzzle.mjs
	GJ_BIN=$(BIN) tests/browser/boards.mjs
	GJ_BIN=$(BIN) tests/browser/a11y.mjs

screenshots: test-deps
	@$(SUBMAKE) all
	GJ_BIN=$(BIN) GJ_SCREENSHOTS=docs/screenshots tests/browser/playground.mjs
	GJ_BIN=$(BIN) GJ_SCREENSHOTS=docs/screenshots tests/browser/boards.mjs
