#!/usr/bin/env node
// spec_assembly.mjs: the OpenAPI document built beside $GJ_BIN
// (build/openapi.yaml, or $GJ_SPEC) against its sources (api/README.md).
// Each per-game path item must be the template of api/game-paths.yaml with
// the game's name put in and only what the game's fragment gives laid
// over it (each `$game` slot filled, every value the template fixes kept);
// each `{$registry: KIND}` of the sources must hold, in the document, the
// example the solver library's registry holds or the answer the game's
// code gives it (as registry-examples prints them), as data, as text or as
// its one-line JSON; every game of games.def
// must have its path items, its schemas and its entry in each list of
// games.  Then scripts/build-spec.mjs must refuse broken sources (a game
// without its fragment, a fragment of no game, a slot left unfilled, a
// fixed value given again, a text or JSON answer written over the
// registry's, an unknown registry example), each naming it.
// Prints "ok"/"FAIL" per check and exits 1 on any failure.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { parseYaml, spacedJson } from '../../scripts/spec-yaml.mjs';

const bin = process.env.GJ_BIN || 'build/gamejudge';
const dir = bin.replace(/[^/]*$/, '');
const specFile = process.env.GJ_SPEC || `${dir}openapi.yaml`;
const examplesFile = `${dir}gen/registry-examples.json`;
const spec = parseYaml(readFileSync(specFile, 'utf8'));
const registry = JSON.parse(readFileSync(examplesFile, 'utf8')).games;
const games = [...readFileSync('solvers/registry/games.def', 'utf8')
  .matchAll(/^GAME\([a-z_]+, "([a-z-]+)"\)$/gm)].map((m) => m[1]);
const read = (f) => parseYaml(readFileSync(join('api', f), 'utf8'));
const common = read('common.yaml');
const templates = read('game-paths.yaml');

let passed = 0;
let failed = 0;
// Count one check; print its detail when it failed.
function check(ok, name, detail = '') {
  if (ok) passed++;
  else failed++;
  console.log(`${ok ? 'ok  ' : 'FAIL'} ${name}${ok ? '' : `\n     ${detail}`}`);
}

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const pascal = (g) => g.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');
// The first place where the built value b breaks template t (with game g's
// names) or the registry markers in it, or null.  Written apart from the
// builder's merge: it walks the built document, not the sources.
function breaks(t, b, g, r, where) {
  if (t === '$game') return b === undefined ? `${where}: missing` : null;
  if (isMap(t) && '$registry' in t) {
    const raw = r[t.$registry];
    const want = t.$registry.startsWith('text') ? raw : JSON.parse(raw);
    const ok = t.as === 'string' ? b === spacedJson(want) && isDeepStrictEqual(JSON.parse(b), want)
      : isDeepStrictEqual(b, want);
    return ok ? null : `${where}: not the registry's ${t.$registry} example`;
  }
  if (isMap(t)) {
    if (!isMap(b)) return `${where}: not a map`;
    for (const k of Object.keys(t)) {
      const name = k.replaceAll('${game}', g).replaceAll('${Game}', pascal(g));
      const found = breaks(t[k], b[name], g, r, `${where}/${name}`);
      if (found) return found;
    }
    return null;
  }
  if (Array.isArray(t)) {
    if (!Array.isArray(b) || b.length !== t.length) return `${where}: not a list of ${t.length}`;
    for (let i = 0; i < t.length; i++) {
      const found = breaks(t[i], b[i], g, r, `${where}/${i}`);
      if (found) return found;
    }
    return null;
  }
  const want = typeof t === 'string' ? t.replaceAll('${game}', g).replaceAll('${Game}', pascal(g)) : t;
  return isDeepStrictEqual(want, b) ? null : `${where}: ${JSON.stringify(b)}, the template has ${JSON.stringify(want)}`;
}

check(isDeepStrictEqual(registry.map((r) => r.name), games), 'the registry lists games.def\'s games',
  registry.map((r) => r.name).join(' '));
games.forEach((g, i) => {
  const fragment = read(`games/${g}.yaml`);
  for (const key of Object.keys(templates)) {
    const path = key.replace('${game}', g);
    const item = spec.paths[path];
    check(item !== undefined && !breaks(templates[key], item, g, registry[i], path),
      `${path}: the template, filled`, item ? breaks(templates[key], item, g, registry[i], path) : 'absent');
  }
  const schemas = Object.keys(fragment.schemas || {});
  check(schemas.length > 0 && schemas.every((s) => isDeepStrictEqual(spec.components.schemas[s], fragment.schemas[s])),
    `${g}: its ${schemas.length} schemas as its fragment gives them`);
  check(spec.components.schemas.GameName.enum[i] === g, `${g}: in GameName at its place`);
  check(spec.components.schemas.GameBatchItem.oneOf[i].$ref === `#/components/schemas/${pascal(g)}BatchItem`,
    `${g}: in GameBatchItem at its place`);
});
// The paths: the common ones as they are, and one per game per template.
const shared = Object.keys(common.paths).filter((k) => common.paths[k] !== '$per-game');
check(shared.every((k) => isDeepStrictEqual(spec.paths[k], common.paths[k])), 'the shared paths as api/common.yaml has them');
check(Object.keys(spec.paths).length === shared.length + games.length * Object.keys(templates).length,
  'no other path', `${Object.keys(spec.paths).length} paths`);

// Broken sources, each in a copy of the tree: the build must stop, naming it.
const tmp = mkdtempSync(join(tmpdir(), 'gj-assembly-'));
const damages = [
  { name: 'a game without its fragment', damage: (d) => rmSync(join(d, 'api/games', `${games[0]}.yaml`)), expect: 'has no fragment' },
  { name: 'a fragment of no game', damage: (d) => cpSync(join(d, 'api/games', `${games[0]}.yaml`), join(d, 'api/games/no-such-game.yaml')), expect: 'is the fragment of no game' },
  { name: 'a slot left unfilled', damage: (d) => edit(d, `games/${games[0]}.yaml`, (s) => s.replace(/^( {6})summary: .*\n/m, '')), expect: 'does not give this value' },
  { name: 'a fixed value given again', damage: (d) => edit(d, `games/${games[0]}.yaml`, (s) => s.replace(/^( {4}post:\n)/m, '$1      operationId: other\n')), expect: 'the template fixes this value' },
  { name: 'an answer written over the registry\'s', damage: (d) => edit(d, `games/${games[0]}.yaml`, (s) => s.replace(/^( {6}responses:\n)/m, `$1        '200':\n          content:\n            text/plain:\n              examples:\n                sample:\n                  value: "by hand"\n`)), expect: 'the template fixes this value' },
  { name: 'a JSON answer written over the registry\'s', damage: (d) => edit(d, `games/${games[0]}.yaml`, (s) => s.replace(/^( {6}responses:\n)/m, `$1        '200':\n          content:\n            application/json:\n              examples:\n                sample:\n                  value: {"by": "hand"}\n`)), expect: 'the template fixes this value' },
  { name: 'an unknown registry example', damage: (d) => edit(d, 'game-paths.yaml', (s) => s.replace('"$registry": "text"', '"$registry": "txt"')), expect: 'has no txt example' },
];
// Rewrite api/FILE of the copy d with f.
function edit(d, file, f) {
  const p = join(d, 'api', file);
  const before = readFileSync(p, 'utf8');
  const after = f(before);
  if (after === before) throw new Error(`the damage left api/${file} unchanged`);
  writeFileSync(p, after);
}
try {
  damages.forEach(({ name, damage, expect }, i) => {
    const d = join(tmp, String(i));
    for (const part of ['api', 'scripts', 'solvers/registry']) cpSync(part, join(d, part), { recursive: true });
    damage(d);
    let out = '';
    let status = 0;
    try {
      execFileSync(process.execPath, [join(d, 'scripts/build-spec.mjs'), join(d, 'solvers/registry/games.def'),
        examplesFile, join(d, 'openapi.yaml')], { encoding: 'utf8', stdio: 'pipe', env: { ...process.env, NODE_PATH: join(process.cwd(), 'node_modules') } });
    } catch (err) {
      status = err.status;
      out = String(err.stderr);
    }
    check(status === 1 && out.includes(expect), `the build refuses ${name}`, `status ${status}: ${out.trim()}`);
  });
} finally {
  rmSync(tmp, { recursive: true, force: true });
}
console.log(`spec-assembly: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
