#!/usr/bin/env node
// build-spec.mjs GAMES_DEF EXAMPLES_JSON OUT: make the OpenAPI document
// from its sources in api/ (api/README.md says how they fit together):
//
//   api/common.yaml      everything but the games: info, the shared paths,
//                        the shared components; `'/solve/${game}': $per-game`
//                        stands where each game's path items go, and
//                        `{$each-game: X}` for a list with one X per game
//   api/game-paths.yaml  ONE template of the per-game path items, with
//                        `$game` where each game's fragment gives the value
//   api/games/<game>.yaml  one fragment per game: `paths` (what its path
//                        items add to the template) and `schemas` (its own)
//
// The games are solvers/registry/games.def's, in its order, and each must
// have its fragment (and each fragment its game).  The registry's examples
// and the answers the games' own code gives them (EXAMPLES_JSON, printed by
// the registry-examples program built from the solver library) fill every
// `{$registry: KIND}` (text, json, analyze, diff, line, generate, each also
// as KIND-answer), as data, or with `as: string` as the one-line JSON of a
// query parameter, so the document shows the very requests the registry
// (and GET /games) holds and the answers the daemon gives them.
// In the template and in the `$each-game` lists `${game}` is the game's URL
// name and `${Game}` its schema prefix (grid-walk, GridWalk).
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseYaml, spacedJson, writeYaml } from './spec-yaml.mjs';

const api = join(dirname(fileURLToPath(import.meta.url)), '..', 'api');

// Stop the build with a message naming what is wrong.
function fail(message) {
  console.error(`build-spec: ${message}`);
  process.exit(1);
}

const isMap = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// The schema prefix of URL name g: grid-walk -> GridWalk.
const pascal = (g) => g.split('-').map((w) => w[0].toUpperCase() + w.slice(1)).join('');

// v with ${game} and ${Game} in every string and key replaced for game g.
function instantiate(v, g) {
  const s = (x) => x.replaceAll('${game}', g).replaceAll('${Game}', pascal(g));
  if (typeof v === 'string') return s(v);
  if (Array.isArray(v)) return v.map((x) => instantiate(x, g));
  if (!isMap(v)) return v;
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [s(k), instantiate(x, g)]));
}

// The template t with the fragment f laid over it, at `where`: a `$game`
// slot takes the fragment's value (which it must give); maps merge member
// by member (the template's members first, in its order, then the
// fragment's own); lists merge item by item, the fragment's list no longer
// than the template's; a value the template fixes (a registry example
// among them) may not be given again, but new members may be added beside.
function overlay(t, f, where) {
  if (t === '$game') {
    if (f === undefined) fail(`${where}: the game's fragment does not give this value`);
    return f;
  }
  if (f === undefined) return t;
  // A registry marker is a map too, but what the fragment writes there would
  // be dropped for the registry's example: refuse it as any fixed value.
  if (isMap(t) && isMap(f) && !('$registry' in t)) {
    const out = {};
    for (const k of Object.keys(t)) out[k] = overlay(t[k], f[k], `${where}/${k}`);
    for (const k of Object.keys(f)) if (!(k in t)) out[k] = f[k];
    return out;
  }
  if (Array.isArray(t) && Array.isArray(f) && f.length <= t.length) {
    return t.map((x, i) => overlay(x, i < f.length ? f[i] : undefined, `${where}/${i}`));
  }
  return fail(`${where}: the template fixes this value; the fragment may not give it again`);
}

// The examples registry-examples prints: each request KIND and its answer,
// KIND-answer; the judge text and its answer are text, the others JSON.
const registryKinds = ['text', 'json', 'analyze', 'diff', 'line', 'generate']
  .flatMap((k) => [k, `${k}-answer`]);

// v with each {$registry: KIND} replaced by game entry r's example.
function registry(v, r, where) {
  if (Array.isArray(v)) return v.map((x, i) => registry(x, r, `${where}/${i}`));
  if (!isMap(v)) return v;
  if ('$registry' in v) {
    const kind = v.$registry;
    if (!registryKinds.includes(kind) || typeof r[kind] !== 'string') {
      fail(`${where}: the registry has no ${kind} example for ${r.name}`);
    }
    const data = kind.startsWith('text') ? r[kind] : JSON.parse(r[kind]);
    return v.as === 'string' ? spacedJson(data) : data;
  }
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, registry(x, r, `${where}/${k}`)]));
}

// v with each {$each-game: X} replaced by the list of X for every game.
function eachGame(v, games) {
  if (Array.isArray(v)) return v.map((x) => eachGame(x, games));
  if (!isMap(v)) return v;
  if ('$each-game' in v) return games.map((g) => instantiate(v['$each-game'], g));
  return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, eachGame(x, games)]));
}

// The first string or key of v still holding a placeholder, or null.
function leftover(v, where) {
  if (typeof v === 'string') return /\$\{Game\}|\$\{game\}|^\$game$|^\$per-game$/.test(v) ? where : null;
  if (v === null || typeof v !== 'object') return null;
  for (const [k, x] of Object.entries(v)) {
    if (/^\$(registry|each-game)$|\$\{game\}|\$\{Game\}/.test(k)) return `${where}/${k}`;
    const found = leftover(x, `${where}/${k}`);
    if (found) return found;
  }
  return null;
}

const [gamesDef, examplesJson, out] = process.argv.slice(2);
if (!out) fail('usage: build-spec.mjs GAMES_DEF EXAMPLES_JSON OUT');
const games = [...readFileSync(gamesDef, 'utf8').matchAll(/^GAME\([a-z_]+, "([a-z-]+)"\)$/gm)]
  .map((m) => m[1]);
const examples = JSON.parse(readFileSync(examplesJson, 'utf8')).games;
if (games.length === 0) fail(`${gamesDef} names no game`);
if (examples.map((r) => r.name).join(' ') !== games.join(' ')) {
  fail(`the registry's games (${examples.map((r) => r.name).join(' ')}) are not ${gamesDef}'s`);
}
const fragmentFiles = readdirSync(join(api, 'games')).filter((f) => f.endsWith('.yaml'));
for (const f of fragmentFiles) {
  if (!games.includes(f.slice(0, -5))) fail(`api/games/${f} is the fragment of no game in ${gamesDef}`);
}
const read = (file) => parseYaml(readFileSync(join(api, file), 'utf8'));
const common = read('common.yaml');
const templates = read('game-paths.yaml');
const fragments = games.map((g) => {
  if (!fragmentFiles.includes(`${g}.yaml`)) fail(`${g} has no fragment api/games/${g}.yaml`);
  return read(`games/${g}.yaml`);
});

const paths = {};
const used = new Set();
for (const [key, item] of Object.entries(common.paths)) {
  if (item !== '$per-game') {
    paths[key] = item;
    continue;
  }
  if (!isMap(templates[key])) fail(`api/game-paths.yaml has no template for ${key}`);
  used.add(key);
  games.forEach((g, i) => {
    const path = instantiate(key, g);
    const mine = (fragments[i].paths || {})[path];
    const merged = overlay(instantiate(templates[key], g), mine, `${path} (api/games/${g}.yaml)`);
    paths[path] = registry(merged, examples[i], path);
  });
}
for (const key of Object.keys(templates)) {
  if (!used.has(key)) fail(`api/game-paths.yaml: ${key} is placed nowhere in api/common.yaml`);
}
games.forEach((g, i) => {
  for (const path of Object.keys(fragments[i].paths || {})) {
    if (!(path in paths) || !Object.keys(templates).some((k) => instantiate(k, g) === path)) {
      fail(`api/games/${g}.yaml: ${path} is no per-game path of the template`);
    }
  }
});

const schemas = { ...common.components.schemas };
games.forEach((g, i) => {
  for (const [name, schema] of Object.entries(fragments[i].schemas || {})) {
    if (name in schemas) fail(`api/games/${g}.yaml: the schema ${name} is defined twice`);
    schemas[name] = schema;
  }
});

const doc = eachGame({ ...common, paths, components: { ...common.components, schemas } }, games);
const left = leftover(doc, '');
if (left) fail(`${left}: a placeholder is left in the document`);
writeFileSync(out, writeYaml(doc, [
  'Generated by scripts/build-spec.mjs from api/common.yaml, api/game-paths.yaml,',
  "api/games/*.yaml and the registry's examples; edit those, not this file.",
]));
