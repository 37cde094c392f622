#!/usr/bin/env node
// comment-paths.mjs - every file a comment names exists.
//
//   node scripts/comment-paths.mjs [--root DIR] [--quiet]
//
// Reads the comments of the C sources (server/, solvers/, tests/, bench/),
// of the scripts, the Makefile and mk/*.mk, and the whole text of the
// Markdown under docs/ and every README.md, and takes each name that looks
// like a file: a path with slashes ending in .c, .h, .md, .sh, ..., or a
// bare name such as jobs.h,
// ending in one of the extensions below.  A name with a slash must be a
// path from the root, from the naming file's folder, or the tail of a path
// in the tree, folder by whole folder (games/grid_walk/grid_walk.c is
// one; server/ and the name of a file in server/http/ is none); a bare
// name must be some file's name in the tree, or a system header for a .h.  Fails (exit
// 1) naming FILE:LINE and the name for each that is none, so a comment
// cannot keep pointing at a file that moved or never was.
//
// Not names of the tree, so not checked: absolute paths, URLs, anything
// under build/ or node_modules/ (made by the build), names with a
// placeholder (<game>.c, *.c, {a,b}.h, $x.c), one-letter stems (x.c and
// x.h, a.c calling b.c: the examples of a rule), the file a usage line
// redirects into (`> out.c`) and the EXTERNAL programs below.
import { readdirSync, readFileSync, existsSync, statSync } from 'node:fs';
import { join, dirname, basename, normalize, extname } from 'node:path';

const args = process.argv.slice(2);
let root = '.';
let quiet = false;
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--root') root = args[++i];
  else if (args[i] === '--quiet') quiet = true;
  else {
    console.error('usage: comment-paths.mjs [--root DIR] [--quiet]');
    process.exit(2);
  }
}

// `js` is left out: Node.js is named far more often than a .js file.
const EXTENSIONS = 'c|h|md|mjs|mts|sh|mk|def|yaml|yml|json|html|supp';
// Programs named like files that are not ours: testssl.sh is a project.
const EXTERNAL = new Set(['testssl.sh']);
const SKIP_DIRS = new Set(['.git', 'node_modules', 'build']);

// Every file of the tree, as paths from the root.
function walk(dir, out) {
  for (const e of readdirSync(join(root, dir), { withFileTypes: true })) {
    if (SKIP_DIRS.has(e.name)) continue;
    const p = dir === '' ? e.name : join(dir, e.name);
    if (e.isDirectory()) walk(p, out);
    else out.push(p);
  }
  return out;
}
const files = walk('', []);
const paths = new Set(files);
const names = new Set(files.map((f) => basename(f)));

// The system's headers, by name and by their paths' tails under
// /usr/include (so that a name with its folder, as an include gives it, is
// one).
const systemHeaders = new Set();
function walkInclude(dir, rel, depth) {
  if (depth > 3 || !existsSync(dir)) return;
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const r = rel === '' ? e.name : `${rel}/${e.name}`;
    if (e.isDirectory()) walkInclude(join(dir, e.name), r, depth + 1);
    else if (e.name.endsWith('.h')) {
      const parts = r.split('/');
      for (let k = 0; k < parts.length; k++) systemHeaders.add(parts.slice(k).join('/'));
    }
  }
}
walkInclude('/usr/include', '', 0);

// The comments of a C or JavaScript source, as [line, text] pairs: /* */
// and // comments, string and character literals skipped.
function cComments(text) {
  const out = [];
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const c = text[i];
    if (c === '\n') {
      line++;
      i++;
    } else if (c === '/' && text[i + 1] === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? text.length : end;
      text
        .slice(i + 2, stop)
        .split('\n')
        .forEach((t, k) => out.push([line + k, t]));
      for (let k = i; k < stop; k++) if (text[k] === '\n') line++;
      i = stop + 2;
    } else if (c === '/' && text[i + 1] === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? text.length : end;
      out.push([line, text.slice(i + 2, stop)]);
      i = stop;
    } else if (c === '"' || c === "'" || c === '`') {
      i++;
      while (i < text.length && text[i] !== c) {
        if (text[i] === '\\') i++;
        else if (text[i] === '\n') {
          line++;
          if (c !== '`') break;
        }
        i++;
      }
      i++;
    } else {
      i++;
    }
  }
  return out;
}

// The comments of a shell script or makefile: what follows a # that
// starts the line or follows a blank (not $#, not ${#x}).
function hashComments(text) {
  const out = [];
  text.split('\n').forEach((l, k) => {
    const m = /(^|\s)#(?!!)(.*)$/.exec(l);
    if (m) out.push([k + 1, m[2]]);
  });
  return out;
}

// The whole of a Markdown file, line by line.
function allLines(text) {
  return text.split('\n').map((l, k) => [k + 1, l]);
}

// Which reader a file gets, or null when its comments are not checked.
function readerOf(f) {
  const ext = extname(f);
  const top = f.split('/')[0];
  if (ext === '.md') return top === 'docs' || basename(f) === 'README.md' ? allLines : null;
  if (f === 'Makefile' || (top === 'mk' && ext === '.mk')) return hashComments;
  if (!['server', 'solvers', 'tests', 'bench', 'scripts', 'mk'].includes(top)) return null;
  if (ext === '.c' || ext === '.h' || ext === '.mjs' || ext === '.mts' || ext === '.js')
    return cComments;
  if (ext === '.sh') return hashComments;
  if (top === 'scripts' && ext === '') {
    const head = readFileSync(join(root, f), 'utf8').slice(0, 100);
    if (head.startsWith('#!') && /node/.test(head.split('\n')[0])) return cComments;
    if (head.startsWith('#!')) return hashComments;
  }
  return null;
}

// A name: folders and a file name with one of the extensions, standing
// alone (not the tail of a longer word, path or URL).  Placeholder
// characters are taken in, so that exists() can pass the name whole.
const PART = '[A-Za-z0-9_.<>{}*$-]';
const NAME = new RegExp(
  `(^|[^A-Za-z0-9_./$@<>{}*-])((?:${PART}+/)*[A-Za-z0-9_<>{}*$-]${PART}*\\.(?:${EXTENSIONS}))` +
    '(?![A-Za-z0-9_/])',
  'g',
);

// Whether `name`, named in file `from`, is a file of the tree (see above).
function exists(name, from) {
  if (/[<>{}*$]/.test(name) || EXTERNAL.has(name)) return true;
  const clean = name.replace(/^\.\//, '');
  if (/^(build|node_modules)\//.test(clean)) return true;
  const stem = basename(clean).replace(/\.[^.]*$/, '');
  if (stem.length === 1) return true;
  if (!clean.includes('/'))
    return names.has(clean) || (clean.endsWith('.h') && systemHeaders.has(clean));
  if (paths.has(normalize(clean)) || paths.has(normalize(join(dirname(from), clean)))) return true;
  if (existsSync(join(root, clean)) && statSync(join(root, clean)).isDirectory()) return true;
  if (clean.endsWith('.h') && systemHeaders.has(clean)) return true;
  const tail = `/${normalize(clean)}`;
  return files.some((f) => f.endsWith(tail));
}

const problems = [];
let checked = 0;
for (const f of files) {
  const read = readerOf(f);
  if (read === null) continue;
  const text = readFileSync(join(root, f), 'utf8');
  for (const [line, comment] of read(text)) {
    NAME.lastIndex = 0;
    let m;
    while ((m = NAME.exec(comment)) !== null) {
      const name = m[2];
      const before = comment.slice(0, m.index + m[1].length);
      // A URL, an absolute path, a redirect's target.
      const url = /[a-z]+:\/\/\S*$/.test(before);
      if (url || /(^|\s)\/\S*$/.test(before) || /(^|[\s`])>\s*$/.test(before)) continue;
      checked++;
      if (!exists(name, f)) problems.push(`${f}:${line}: names ${name}, which is no file`);
    }
  }
}
for (const p of problems) console.error(`comment-paths: ${p}`);
if (problems.length > 0) process.exit(1);
if (!quiet) console.log(`comment-paths: ${checked} names of files in comments, each a file`);
