#!/usr/bin/env node
// include-graph.mjs - the layers' include graph, checked.
//
//   node scripts/include-graph.mjs [--root DIR] [--quiet] LAYER[=SEES]...
//
// LAYERs are folders, bottom to top, as `make print-layers` lists them;
// SEES is the layer's include path as the build has it (folders, comma
// separated, the layer itself among them; absent: the layer and every one
// before it).  Every `#include "..."` of every .c and .h file directly in a
// layer folder is resolved the way the compiler would with the whole tree
// on the path (the including file's folder first, then its own include
// path, then the other layers in order), so an include the layered build
// refuses is still seen here and named.  Prints which layer includes which
// (with counts) and fails (exit 1) on:
//   - an include the layer may not see: a header of a layer above its own,
//     or of a sibling beside it (one game's folder including another's);
//   - a cycle between modules (a module is x.c with x.h), even inside one
//     layer: it would make the two impossible to read or test apart;
//   - an include that names no file of the tree (a header of a folder
//     outside the layers).
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, dirname, basename, relative, normalize } from 'node:path';

const args = process.argv.slice(2);
let root = '.';
let quiet = false;
const layers = [];
const sees = new Map(); // layer -> the folders on its include path
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--root') root = args[++i];
  else if (args[i] === '--quiet') quiet = true;
  else {
    const [name, path] = args[i].split('=');
    const layer = name.replace(/\/+$/, '');
    layers.push(layer);
    sees.set(
      layer,
      path === undefined ? [...layers] : path.split(',').map((d) => d.replace(/\/+$/, '')),
    );
  }
}
if (layers.length === 0) {
  console.error('usage: include-graph.mjs [--root DIR] [--quiet] LAYER...');
  process.exit(2);
}

// The layer index of a tree path, or -1 outside the layers.
function layerOf(path) {
  return layers.indexOf(dirname(path));
}

// The module of a file: its path without the extension (x.c and x.h are one).
function moduleOf(path) {
  return path.replace(/\.[ch]$/, '');
}

// The tree path a quoted include of `from` (in `layer`) names, or null when
// none does: the compiler's order first, then any layer, to name the fault.
function resolve(from, layer, name) {
  const candidates = [
    join(dirname(from), name),
    ...sees.get(layer).map((l) => join(l, name)),
    ...layers.map((l) => join(l, name)),
  ];
  for (const c of candidates) {
    const p = normalize(c);
    if (existsSync(join(root, p))) return p;
  }
  return null;
}

const problems = [];
const layerEdges = new Map(); // "from -> to" -> count
const moduleEdges = new Map(); // module -> Set(module)
const firstInclude = new Map(); // "a|b" -> "file:line"

for (const layer of layers) {
  const dir = join(root, layer);
  if (!existsSync(dir)) {
    problems.push(`${layer}: no such layer folder`);
    continue;
  }
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !/\.[ch]$/.test(entry.name)) continue;
    const file = join(layer, entry.name);
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const m = /^\s*#\s*include\s+"([^"]+)"/.exec(line);
      if (!m) return;
      const where = `${file}:${i + 1}`;
      const target = resolve(file, layer, m[1]);
      if (target === null) {
        problems.push(`${where}: includes "${m[1]}", which is no file of the layers`);
        return;
      }
      const from = layers.indexOf(layer);
      const to = layerOf(target);
      if (to < 0) {
        problems.push(`${where}: includes ${target}, outside every layer`);
        return;
      }
      if (!sees.get(layer).includes(layers[to]))
        problems.push(
          `${where}: includes ${target}: ${layer} may not include ${layers[to]}, ` +
            (to > from ? 'a layer above it' : 'a layer it may not see'),
        );
      const key = `${layer} -> ${layers[to]}`;
      layerEdges.set(key, (layerEdges.get(key) || 0) + 1);
      const a = moduleOf(file);
      const b = moduleOf(target);
      if (a === b || /\.def$/.test(target)) return;
      if (!moduleEdges.has(a)) moduleEdges.set(a, new Set());
      moduleEdges.get(a).add(b);
      if (!firstInclude.has(`${a}|${b}`)) firstInclude.set(`${a}|${b}`, where);
    });
  }
}

// Depth-first search for a cycle: each one found is reported once, by the
// includes that make it.
const state = new Map(); // module -> 1 on the stack, 2 done
const stack = [];
function visit(m) {
  state.set(m, 1);
  stack.push(m);
  for (const n of moduleEdges.get(m) || []) {
    if (state.get(n) === 1) {
      const cycle = stack.slice(stack.indexOf(n)).concat(n);
      const how = [];
      for (let i = 0; i + 1 < cycle.length; i++)
        how.push(firstInclude.get(`${cycle[i]}|${cycle[i + 1]}`));
      problems.push(`cycle: ${cycle.join(' -> ')} (${how.join(', ')})`);
    } else if (!state.has(n)) {
      visit(n);
    }
  }
  stack.pop();
  state.set(m, 2);
}
for (const m of [...moduleEdges.keys()].sort()) if (!state.has(m)) visit(m);

if (!quiet) {
  console.log('include graph, layer -> layer (includes):');
  for (const [k, v] of [...layerEdges.entries()].sort()) console.log(`  ${k} (${v})`);
}
for (const p of problems) console.error(`include-graph: ${p}`);
if (problems.length > 0) process.exit(1);
if (!quiet)
  console.log(`include-graph: ${layers.length} layers, each includes only what it may see, no cycle`);
