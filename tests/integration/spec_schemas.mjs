#!/usr/bin/env node
// spec_schemas.mjs [SPEC]: hold the OpenAPI document (SPEC, else the one
// built beside $GJ_BIN: build/openapi.yaml) to its own
// schemas, so a typed client can trust it:
//   - every example (request and response bodies, parameters, headers;
//     `example` and `examples`) is valid against the schema it illustrates,
//     checked with ajv (JSON Schema 2020-12, as OpenAPI 3.1 has it);
//   - no known shape is left untyped: an object schema has properties (or
//     a schema for its additional ones), refuses unknown fields unless it
//     says otherwise with a schema, and every property has a type, a const,
//     an enum, a $ref or a combination of them.
// Without SPEC it also proves the check bites: it writes damaged copies of
// the spec (one example broken, one known shape written as a bare object,
// one property left untyped) and runs itself on each, which must fail
// naming the damage.  Prints "spec-schemas: N passed, M failed".
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const yaml = require(process.cwd() + '/node_modules/js-yaml');
const Ajv2020 = require(process.cwd() + '/node_modules/ajv/dist/2020').default;

/** JSON pointer segment. */
const esc = (s) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');

/** Every problem of `doc` as a sentence naming its place. */
export function problems(doc) {
  const found = [];
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  ajv.addSchema(doc, 'spec');
  const checked = { examples: 0, schemas: 0 };

  // The schema at pointer `at` (inside the document) against `value`.
  function validate(at, value, where) {
    checked.examples++;
    let check;
    try {
      check = ajv.compile({ $ref: `spec#${at}` });
    } catch (err) {
      found.push(`${where}: its schema does not compile: ${err.message}`);
      return;
    }
    if (!check(value)) {
      const why = check.errors.slice(0, 3).map((e) => `${e.instancePath || '/'} ${e.message}`).join('; ');
      found.push(`${where}: the example breaks its schema: ${why}`);
    }
  }

  // A media type, parameter or header object at pointer `at`.
  function examplesOf(obj, at, where) {
    if (!obj || !obj.schema) return;
    if (obj.example !== undefined) validate(`${at}/schema`, obj.example, `${where} example`);
    for (const [name, ex] of Object.entries(obj.examples || {})) {
      if (ex && ex.value !== undefined) validate(`${at}/schema`, ex.value, `${where} example '${name}'`);
    }
  }

  function responses(rs, at, where) {
    for (const [status, r] of Object.entries(rs || {})) {
      if (!r || r.$ref) continue;
      const rat = `${at}/${esc(status)}`;
      for (const [type, media] of Object.entries(r.content || {})) {
        examplesOf(media, `${rat}/content/${esc(type)}`, `${where} ${status} ${type}`);
      }
      for (const [name, h] of Object.entries(r.headers || {})) {
        if (h && !h.$ref) examplesOf(h, `${rat}/headers/${esc(name)}`, `${where} ${status} header ${name}`);
      }
    }
  }

  function parameters(ps, at, where) {
    (ps || []).forEach((p, i) => {
      if (p && !p.$ref) examplesOf(p, `${at}/${i}`, `${where} parameter ${p.name}`);
    });
  }

  for (const [path, item] of Object.entries(doc.paths || {})) {
    const at = `/paths/${esc(path)}`;
    parameters(item.parameters, `${at}/parameters`, path);
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || !op.responses) continue;
      const where = `${method.toUpperCase()} ${path}`;
      parameters(op.parameters, `${at}/${method}/parameters`, where);
      for (const [type, media] of Object.entries((op.requestBody && op.requestBody.content) || {})) {
        examplesOf(media, `${at}/${method}/requestBody/content/${esc(type)}`, `${where} request ${type}`);
      }
      responses(op.responses, `${at}/${method}/responses`, where);
    }
  }
  const comp = doc.components || {};
  responses(comp.responses, '/components/responses', 'components');
  for (const [name, p] of Object.entries(comp.parameters || {})) {
    examplesOf(p, `/components/parameters/${esc(name)}`, `parameter ${name}`);
  }
  for (const [name, h] of Object.entries(comp.headers || {})) {
    examplesOf(h, `/components/headers/${esc(name)}`, `header ${name}`);
  }

  // The shapes: walk every schema, components' and inline ones.
  const typed = (s) => ['type', 'const', 'enum', '$ref', 'oneOf', 'anyOf', 'allOf'].some((k) => s[k] !== undefined);
  const isObject = (s) => s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
  function shape(s, where, constraint) {
    if (!s || typeof s !== 'object' || Array.isArray(s)) return;
    checked.schemas++;
    if (!constraint && !typed(s)) found.push(`${where}: a schema with no type, const, enum, $ref or combination`);
    if (isObject(s) && !s.properties && !s.patternProperties && !s.oneOf && !s.anyOf && !s.allOf &&
        (s.additionalProperties === undefined || typeof s.additionalProperties === 'boolean')) {
      found.push(`${where}: type object without properties (an untyped shape)`);
    }
    if (isObject(s) && s.properties && !constraint && s.additionalProperties !== false &&
        typeof s.additionalProperties !== 'object') {
      found.push(`${where}: an object with properties that does not say additionalProperties: false`);
    }
    for (const [k, v] of Object.entries(s.properties || {})) shape(v, `${where}.${k}`, false);
    if (s.items && typeof s.items === 'object') shape(s.items, `${where}[]`, false);
    (s.prefixItems || []).forEach((v, i) => shape(v, `${where}[${i}]`, false));
    for (const k of ['oneOf', 'anyOf', 'allOf']) (s[k] || []).forEach((v, i) => shape(v, `${where}/${k}/${i}`, false));
    if (typeof s.additionalProperties === 'object') shape(s.additionalProperties, `${where}{}`, false);
    // Constraints on a shape typed elsewhere: only their own objects count.
    for (const v of Object.values(s.dependentSchemas || {})) shape(v, `${where} (dependent)`, true);
    if (s.not) shape(s.not, `${where} (not)`, true);
  }
  // A component that only constrains shapes typed elsewhere (the target
  // of a dependentSchemas or a not) is held to the constraint rules.
  const constraints = new Set();
  for (const s of Object.values(comp.schemas || {})) {
    for (const v of [...Object.values(s.dependentSchemas || {}), s.not]) {
      if (v && v.$ref) constraints.add(v.$ref.replace('#/components/schemas/', ''));
    }
  }
  for (const [name, s] of Object.entries(comp.schemas || {})) shape(s, `schema ${name}`, constraints.has(name));
  const inline = (media, where) => {
    if (media && media.schema && !media.schema.$ref) shape(media.schema, where, false);
  };
  for (const [path, item] of Object.entries(doc.paths || {})) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || !op.responses) continue;
      const where = `${method.toUpperCase()} ${path}`;
      for (const [type, media] of Object.entries((op.requestBody && op.requestBody.content) || {})) {
        inline(media, `${where} request ${type}`);
      }
      for (const [status, r] of Object.entries(op.responses)) {
        for (const [type, media] of Object.entries((r && r.content) || {})) inline(media, `${where} ${status} ${type}`);
      }
    }
  }
  return { found, checked };
}

/** Check one file; print its problems; true when it has none. */
function checkFile(file) {
  const { found, checked } = problems(yaml.load(readFileSync(file, 'utf8')));
  for (const p of found) console.log(`FAIL ${file}: ${p}`);
  console.log(`${file}: ${checked.examples} examples and ${checked.schemas} schemas checked, ${found.length} problems`);
  return found.length === 0;
}

const self = fileURLToPath(import.meta.url);
const builtSpec = process.env.GJ_SPEC ||
  (process.env.GJ_BIN || 'build/gamejudge').replace(/[^/]*$/, 'openapi.yaml');
if (process.argv[2]) {
  process.exit(checkFile(process.argv[2]) ? 0 : 1);
}

let passed = 0;
let failed = 0;
function report(ok, name, detail) {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok || !detail ? '' : `\n     ${detail}`}`);
}

report(checkFile(builtSpec), `${builtSpec}: every example valid, every known shape typed`);

// The damaged copies: each must fail, naming what was damaged.
const dir = mkdtempSync(join(tmpdir(), 'gj-spec-'));
const damages = [
  {
    name: 'a response example that breaks its schema',
    damage: (d) => {
      d.paths['/solve/grid-walk'].post.responses['200'].content['application/json'].examples.sample.value.verdict = 'MAYBE';
    },
    expect: "POST /solve/grid-walk 200 application/json example 'sample': the example breaks its schema",
  },
  {
    name: 'a request example that breaks its schema',
    damage: (d) => {
      d.paths['/analyze/nim-shortcuts'].post.requestBody.content['application/json'].examples.sample.value.heaps = [2];
    },
    expect: "POST /analyze/nim-shortcuts request application/json example 'sample': the example breaks its schema",
  },
  {
    name: 'a parameter example that breaks its schema',
    damage: (d) => {
      d.components.parameters.format.example = 'xml';
    },
    expect: 'parameter format example: the example breaks its schema',
  },
  {
    name: 'a known shape written as an object without properties',
    damage: (d) => {
      d.components.schemas.GridWalkAfter = { type: 'object', description: 'The position after the move.' };
    },
    expect: 'schema GridWalkAfter: type object without properties (an untyped shape)',
  },
  {
    name: 'a property left untyped',
    damage: (d) => {
      d.components.schemas.NimShortcutsMove.properties.move = { description: 'The move.' };
    },
    expect: 'schema NimShortcutsMove.move: a schema with no type, const, enum, $ref or combination',
  },
  {
    name: 'an object that takes unknown fields',
    damage: (d) => {
      d.components.schemas.MatrixGameMoveRequest.additionalProperties = true;
    },
    expect: 'schema MatrixGameMoveRequest: an object with properties that does not say additionalProperties: false',
  },
];
try {
  for (const { name, damage, expect } of damages) {
    const doc = yaml.load(readFileSync(builtSpec, 'utf8'));
    damage(doc);
    const file = join(dir, 'openapi.yaml');
    writeFileSync(file, yaml.dump(doc));
    let status = 0;
    let out = '';
    try {
      out = execFileSync(process.execPath, [self, file], { encoding: 'utf8' });
    } catch (err) {
      status = err.status;
      out = err.stdout;
    }
    report(status === 1 && out.includes(expect), `the check fails on ${name}`,
      `exit ${status}, expected a line with: ${expect}\n${out}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
console.log(`spec-schemas: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
