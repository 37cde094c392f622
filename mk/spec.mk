# The OpenAPI document as a tested contract (api/openapi.yaml).
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
#                damaged copy of the document; tests/typed/typed_client.sh
#                generates TypeScript types from it (openapi-typescript,
#                into build/typed/), compiles the README's examples against
#                them (tests/typed/client.mts, tsc --strict) and runs them
#                on a live daemon with openapi-fetch

.PHONY: lint-spec
lint: lint-spec

lint-spec: $(NODE_STAMP)
	cd api && ../node_modules/.bin/redocly lint openapi.yaml --config .redocly.yaml --format=stylish

EXTRA_CHECKS += tests/integration/contract_api.sh tests/integration/spec_examples.mjs \
  tests/integration/spec_schemas.mjs tests/typed/typed_client.sh
