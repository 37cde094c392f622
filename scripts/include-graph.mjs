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
//     layer: it would make the two impossible to read or test apart.  A
//     module depends on another when it includes its header or when its .c
//     names a function the other's .c defines (not static), so two .c files
//     that call each other through a header neither owns (declared in a
//     third, .c-less header) close a cycle too;
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

// C source with its comments, string and character literals and
// preprocessor lines blanked (newlines kept, so offsets keep their lines).
function code(text) {
  let out = '';
  let i = 0;
  let lineStart = true;
  while (i < text.length) {
    const c = text[i];
    if (lineStart && /^[ \t]*#/.test(text.slice(i, i + 200))) {
      // A directive, with its continuation lines.
      while (i < text.length && text[i] !== '\n') {
        if (text[i] === '\\' && text[i + 1] === '\n') {
          out += ' \n';
          i += 2;
          continue;
        }
        out += ' ';
        i++;
      }
      continue;
    }
    if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end + 2;
      out += text.slice(i, stop).replace(/[^\n]/g, ' ');
      i = stop;
      lineStart = false;
      continue;
    }
    if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') {
        out += ' ';
        i++;
      }
      continue;
    }
    if (c === '"' || c === "'") {
      out += ' ';
      i++;
      while (i < text.length && text[i] !== c && text[i] !== '\n') {
        out += text[i] === '\n' ? '\n' : ' ';
        if (text[i] === '\\') {
          out += ' ';
          i++;
        }
        i++;
      }
      out += ' ';
      i++;
      lineStart = false;
      continue;
    }
    out += c;
    if (c === '\n') lineStart = true;
    else if (c !== ' ' && c !== '\t') lineStart = false;
    i++;
  }
  return out;
}

// The 1-based line of offset `at` in `text`.
function lineAt(text, at) {
  let n = 1;
  for (let i = 0; i < at; i++) if (text[i] === '\n') n++;
  return n;
}

// The functions a .c file defines at file scope: { exported, statics },
// each a Set of names.  A definition is `name (...) {` at brace depth 0;
// it is static when `static` stands in its declaration.
function definitions(src) {
  const exported = new Set();
  const statics = new Set();
  let depth = 0;
  let head = 0; // where the current file-scope declaration began
  for (let i = 0; i < src.length; i++) {
    const c = src[i];
    if (c === '{') {
      if (depth === 0) {
        const decl = src.slice(head, i);
        const m = /([A-Za-z_]\w*)\s*\(([^()]|\([^()]*\))*\)\s*$/.exec(decl);
        if (m && !/^(if|for|while|switch|return|sizeof)$/.test(m[1]))
          (/\bstatic\b/.test(decl) ? statics : exported).add(m[1]);
      }
      depth++;
    } else if (c === '}') {
      depth--;
      if (depth === 0) head = i + 1;
    } else if (c === ';' && depth === 0) {
      head = i + 1;
    }
  }
  return { exported, statics };
}

// The calls between .c files: for each module, each function of another
// module's .c that its own .c names (called or taken as a pointer).
const sources = new Map(); // module -> { file, src, statics }
const definedIn = new Map(); // function -> module
for (const layer of layers) {
  const dir = join(root, layer);
  if (!existsSync(dir)) continue;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.c')) continue;
    const file = join(layer, entry.name);
    const src = code(readFileSync(join(root, file), 'utf8'));
    const { exported, statics } = definitions(src);
    sources.set(moduleOf(file), { file, src, statics });
    for (const name of exported) definedIn.set(name, moduleOf(file));
  }
}
const callEdges = new Map(); // module -> Set(module)
const firstCall = new Map(); // "a|b" -> "file:line calls name"
for (const [a, { file, src, statics }] of sources) {
  const ident = /(->|\.)?\s*\b([A-Za-z_]\w*)\s*\(/g;
  let m;
  while ((m = ident.exec(src)) !== null) {
    if (m[1] !== undefined || statics.has(m[2])) continue;
    const b = definedIn.get(m[2]);
    if (b === undefined || b === a) continue;
    if (!callEdges.has(a)) callEdges.set(a, new Set());
    callEdges.get(a).add(b);
    if (!firstCall.has(`${a}|${b}`))
      firstCall.set(`${a}|${b}`, `${file}:${lineAt(src, m.index)} calls ${m[2]}`);
  }
}

// Depth-first search for a cycle in `edges` (module -> Set(module)): each
// one found is reported once, as `label`, by the edges (`first`: "a|b" ->
// where) that make it.
function cycles(edges, first, label) {
  const state = new Map(); // module -> 1 on the stack, 2 done
  const stack = [];
  function visit(m) {
    state.set(m, 1);
    stack.push(m);
    for (const n of edges.get(m) || []) {
      if (state.get(n) === 1) {
        const cycle = stack.slice(stack.indexOf(n)).concat(n);
        const how = [];
        for (let i = 0; i + 1 < cycle.length; i++)
          how.push(first.get(`${cycle[i]}|${cycle[i + 1]}`));
        problems.push(`${label}: ${cycle.join(' -> ')} (${how.join(', ')})`);
      } else if (!state.has(n)) {
        visit(n);
      }
    }
    stack.pop();
    state.set(m, 2);
  }
  for (const m of [...edges.keys()].sort()) if (!state.has(m)) visit(m);
}
cycles(moduleEdges, firstInclude, 'cycle');
cycles(callEdges, firstCall, 'call cycle');

if (!quiet) {
  console.log('include graph, layer -> layer (includes):');
  for (const [k, v] of [...layerEdges.entries()].sort()) console.log(`  ${k} (${v})`);
}
for (const p of problems) console.error(`include-graph: ${p}`);
if (problems.length > 0) process.exit(1);
if (!quiet)
  console.log(
    `include-graph: ${layers.length} layers, each includes only what it may see, ` +
      'no cycle of includes or calls',
  );
