# The OpenAPI document as a tested contract, $(SPEC) (build/openapi.yaml).
#   make         assembles it from api/ (api/README.md): the shared parts,
#                one template of the per-game path items and one fragment
#                per game of solvers/registry/games.def, with the registry's
#                examples and the answers the games' own code gives them as
#                the registry-examples program (scripts/, built from the
#                solver library alone) prints them
#   make lint    also lints it with redocly (pinned in package.json; the rules
#                in api/.redocly.yaml, every example checked against its
#                schema as an error; findings we accept are listed with
#                reasons in api/.redocly.lint-ignore.yaml)
#   make check   also runs the API suite with every exchange passing the
#                validating proxy, and posts every documented example
#                (itest_contract, built from tests/integration/test_contract.c,
#                proves the check fails on a server that breaks the document);
#                spec_schemas.mjs holds every example to its schema and
#                every known shape to a type, and proves it fails on a
#                damaged copy of the document; spec_assembly.mjs compares
#                the document with its sources; tests/typed/typed_client.sh
#                generates TypeScript types from it (openapi-typescript,
#                into build/typed/), compiles the README's examples against
#                them (tests/typed/client.mts, tsc --strict) and runs them
#                on a live daemon with openapi-fetch
# The tests find the document beside the binary they test ($GJ_BIN).

.PHONY: lint-spec spec
lint: lint-spec

SPEC_SRC := api/common.yaml api/game-paths.yaml $(wildcard api/games/*.yaml) \
  solvers/registry/games.def scripts/build-spec.mjs scripts/spec-yaml.mjs

spec: $(SPEC)

$(BUILD)/tools/registry-examples: $(call obj,scripts/registry-examples.c) $(SOLVER_LIB)
	@mkdir -p $(dir $@)
	$(CC) $(LDFLAGS) $^ $(PKG_LIBS) -o $@

$(BUILD)/gen/registry-examples.json: $(BUILD)/tools/registry-examples
	@mkdir -p $(dir $@)
	$< > $@

$(SPEC): $(SPEC_SRC) $(BUILD)/gen/registry-examples.json $(NODE_STAMP)
	node scripts/build-spec.mjs solvers/registry/games.def $(BUILD)/gen/registry-examples.json $@

# redocly reads its ignore list beside its configuration, naming the file
# linted by its path from there; the built document is copied into api/ for
# the run and linted under the name the list gives it.
lint-spec: $(SPEC)
	cp $(SPEC) api/openapi.yaml
	cd api && ../node_modules/.bin/redocly lint openapi.yaml --config .redocly.yaml --format=stylish; \
	  status=$$?; rm -f openapi.yaml; exit $$status

EXTRA_CHECKS += tests/integration/contract_api.sh tests/integration/spec_examples.mjs \
  tests/integration/spec_schemas.mjs tests/integration/spec_assembly.mjs tests/typed/typed_client.sh
