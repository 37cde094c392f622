#!/usr/bin/env node
// spec_examples.mjs: post every example request of the OpenAPI document
// (built beside $GJ_BIN, build/openapi.yaml; or $GJ_SPEC) to a
// live daemon (and GET every example query of the GET forms) and compare
// the answer with the documented example response.
// A request example and the response example it produces share a name
// ("sample", "malformed", ...); the JSON answer is compared as data, the
// text answer byte for byte.  A request the server refuses breaks its
// schema, so its example lives with the error response it gets, the body
// in the example's `x-request-body`: those are posted too and must get
// that status and that answer.  The daemon runs on a store of its own, a
// fresh SQLite file, with --rated-plays anyone, so the rated examples are
// first plays and the stats they leave are the documented ones.
// Prints "spec-examples: N passed, N failed".
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';

const require = createRequire(import.meta.url);
const yaml = require(process.cwd() + '/node_modules/js-yaml');
const bin = process.env.GJ_BIN || 'build/gamejudge';
// The document built beside the binary (mk/spec.mk).
const specFile = process.env.GJ_SPEC || bin.replace(/[^/]*$/, 'openapi.yaml');
const spec = yaml.load(readFileSync(specFile, 'utf8'));

const storeDir = mkdtempSync(join(tmpdir(), 'gj-spec-examples-'));

function startDaemon() {
  return new Promise((resolve, reject) => {
    const child = spawn(bin, ['serve', '--host', '127.0.0.1', '--port', '0',
      '--store', `sqlite:${join(storeDir, 'store.db')}`, '--rated-plays', 'anyone'],
      { stdio: ['ignore', 'pipe', 'ignore'] });
    let seen = '';
    child.stdout.on('data', (chunk) => {
      seen += chunk;
      const m = seen.match(/^listening on (http:\/\/\S+)\n/);
      if (m) resolve({ child, base: m[1] });
    });
    child.on('exit', (code) => reject(new Error(`daemon exited with ${code}`)));
  });
}

// A parameter object, through its $ref to components.parameters.
function resolved(p) {
  const ref = p.$ref && p.$ref.match(/^#\/components\/parameters\/(.+)$/);
  return ref ? spec.components.parameters[ref[1]] : p;
}

// The path with each {parameter} replaced by the parameter's example.
function concrete(path, item) {
  let out = path;
  for (const p of (item.parameters || []).map(resolved)) {
    if (p.in === 'path' && p.example !== undefined) out = out.replace(`{${p.name}}`, p.example);
  }
  return out;
}

// Every (response status, content type) that documents an example `name`.
function documented(op, name) {
  const found = [];
  for (const [status, resp] of Object.entries(op.responses || {})) {
    for (const [type, media] of Object.entries(resp.content || {})) {
      if (media.examples && media.examples[name]) {
        found.push({ status: Number(status), type, value: media.examples[name].value });
      }
    }
  }
  return found;
}

const { child, base } = await startDaemon();
let passed = 0;
let failed = 0;
function verdict(ok, what, detail) {
  if (ok) {
    passed++;
  } else {
    failed++;
    console.log(`FAILED: ${what}\n  ${detail}`);
  }
}

// Ask for each response that documents example `name` (fetchFor(accept)
// sends the request) and compare the answer with it; `extra(res)` names
// what else a right answer lacks, or null.
async function expectDocumented(op, name, label, fetchFor, extra = () => null) {
  const expected = documented(op, name);
  verdict(expected.length > 0, `${label} example '${name}'`, 'no response documents it');
  for (const want of expected) {
    const res = await fetchFor(want.type === 'text/plain' ? 'text/plain' : 'application/json');
    const text = await res.text();
    const what = `${label} '${name}' -> ${want.status} ${want.type}`;
    const lacks = res.status === want.status ? extra(res) : null;
    if (res.status !== want.status) {
      verdict(false, what, `status ${res.status}: ${text}`);
    } else if (lacks !== null) {
      verdict(false, what, lacks);
    } else if (want.type === 'text/plain') {
      verdict(text === want.value, what, `got ${JSON.stringify(text)}`);
    } else {
      verdict(isDeepStrictEqual(JSON.parse(text), want.value), what, `got ${text}`);
    }
  }
}

// A 200 of a GET form carries its ETag and Cache-Control; null when it does.
function cachingHeaders(res) {
  const etag = res.headers.get('etag');
  const control = res.headers.get('cache-control');
  const ok = res.status !== 200 ||
    (/^"[^"]+-[0-9a-f]{16}"$/.test(etag) && /^public, max-age=\d+$/.test(control));
  return ok ? null : `caching headers: ${etag}, ${control}`;
}

try {
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.post;
    if (!op || !op.requestBody) continue;
    for (const [type, media] of Object.entries(op.requestBody.content)) {
      for (const [name, example] of Object.entries(media.examples || {})) {
        const body = typeof example.value === 'string' ? example.value : JSON.stringify(example.value);
        await expectDocumented(op, name, `${path} ${type}`, (accept) => fetch(base + concrete(path, item), {
          method: 'POST', body,
          headers: { 'Content-Type': type, Accept: accept, 'X-Request-Id': 'example' },
        }));
      }
    }
  }
  // The refused requests: each error example with an `x-request-body`.
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.post;
    if (!op) continue;
    for (const [status, resp] of Object.entries(op.responses || {})) {
      for (const [type, media] of Object.entries(resp.content || {})) {
        for (const [name, example] of Object.entries(media.examples || {})) {
          if (example['x-request-body'] === undefined) continue;
          const sent = example['x-request-body'];
          const text = typeof sent === 'string';
          const res = await fetch(base + concrete(path, item), {
            method: 'POST', body: text ? sent : JSON.stringify(sent),
            headers: { 'Content-Type': text ? 'text/plain' : 'application/json', Accept: type, 'X-Request-Id': 'example' },
          });
          const got = await res.text();
          const what = `${path} refused '${name}' -> ${status} ${type}`;
          if (res.status !== Number(status)) verdict(false, what, `status ${res.status}: ${got}`);
          else verdict(isDeepStrictEqual(JSON.parse(got), example.value), what, `got ${got}`);
        }
      }
    }
  }
  // The GET forms: the query parameters' examples of one name make one
  // query, answered as the response examples of that name document, with
  // the caching headers on a 200.
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.get;
    const params = ((op && op.parameters) || []).filter((p) => p.in === 'query' && p.examples);
    const names = new Set(params.flatMap((p) => Object.keys(p.examples)));
    for (const name of names) {
      const query = params.filter((p) => p.examples[name])
        .map((p) => `${p.name}=${encodeURIComponent(p.examples[name].value)}`).join('&');
      await expectDocumented(op, name, `GET ${path}`, (accept) => fetch(
        `${base}${concrete(path, item)}?${query}`,
        { headers: { Accept: accept, 'X-Request-Id': 'example' } }), cachingHeaders);
    }
  }
  for (const [path, item] of Object.entries(spec.paths)) {
    const op = item.get;
    if (op && (op.parameters || []).some((p) => p.in === 'query' && p.examples)) continue;
    const ok = op && op.responses['200'] && op.responses['200'].content;
    const media = ok && op.responses['200'].content['application/json'];
    for (const [name, example] of Object.entries((media && media.examples) || {})) {
      const res = await fetch(base + concrete(path, item));
      verdict(res.status === 200 && isDeepStrictEqual(await res.json(), example.value),
        `GET ${path} example '${name}'`, `status ${res.status}`);
    }
  }
} finally {
  child.kill('SIGTERM');
  await new Promise((resolve) => child.on('exit', resolve));
  rmSync(storeDir, { recursive: true, force: true });
}
console.log(`spec-examples: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && passed > 0 ? 0 : 1);
