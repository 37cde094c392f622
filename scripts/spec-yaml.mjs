// spec-yaml.mjs: read and write the YAML of the OpenAPI sources (api/) and
// of the document made from them (scripts/build-spec.mjs).
//
// Reading is redocly's own parser (@redocly/openapi-core, pinned in
// package.json among the tools a plain `make` installs), so the document is
// read here exactly as the linter and the page renderer read it.  Writing
// is ours, for a document a person can read as the hand-written one read:
// block mappings, one-line JSON for example values (what a request or an
// answer looks like on the wire), `|` for multi-line prose, plain scalars
// where YAML reads them back unchanged.  Every scalar written is parsed back
// and compared, so the writer never changes a value silently.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { parseYaml } = require('@redocly/openapi-core');

export { parseYaml };

// Members whose value is data (an example, a default, a list of values)
// rather than structure: written as one line of JSON, which is YAML.
const DATA_KEYS = new Set(['value', 'x-request-body', 'example', 'default', 'enum', 'const']);

// v as one line of JSON with a space after each comma and colon, the form
// the examples are written in.
export function spacedJson(v) {
  if (Array.isArray(v)) return `[${v.map(spacedJson).join(', ')}]`;
  if (v !== null && typeof v === 'object') {
    return `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}: ${spacedJson(x)}`).join(', ')}}`;
  }
  return JSON.stringify(v);
}

// True when the YAML `k: text` reads back as key k with the value `want`.
function readsBack(text, want) {
  try {
    const got = parseYaml(`k: ${text}\n`);
    return got !== null && typeof got === 'object' && got.k === want;
  } catch {
    return false;
  }
}

// A string scalar: plain when that reads back as the same string, in
// single quotes when it has no character that needs an escape, else in
// JSON's double quotes (a YAML double-quoted scalar).
function str(s) {
  // Not plain either: what YAML 1.1 readers take for a date, a number or a
  // boolean (a leading digit; yes, no, on, off), whatever this reader says.
  if (s !== '' && !/^[\s'"!&*%@`|>{}[\],#?:0-9-]/.test(s) && !/[\n\t]|: | #|:$|\s$/.test(s) &&
      !/^(y|n|yes|no|on|off|true|false|null)$/i.test(s) && readsBack(s, s)) {
    return s;
  }
  const single = `'${s.replaceAll("'", "''")}'`;
  return /^[\x20-\x7e]*$/.test(s) && !/['"]/.test(s) && readsBack(single, s) ? single : JSON.stringify(s);
}

// A scalar of any type.
function scalar(v) {
  if (typeof v === 'string') return str(v);
  return JSON.stringify(v);
}

// A mapping key: plain when YAML reads it back as the same string key.
function key(k) {
  if (/^[A-Za-z$/_][A-Za-z0-9$/_.{}~-]*$/.test(k)) {
    try {
      const got = parseYaml(`${k}: 1\n`);
      if (Object.keys(got).length === 1 && Object.keys(got)[0] === k) return k;
    } catch {
      // quoted below
    }
  }
  return `'${k.replaceAll("'", "''")}'`;
}

// Prose of several lines, as a `|` block at `pad`, when that keeps it byte
// for byte; null when it cannot.
function block(s, pad) {
  if (!s.includes('\n') || !s.endsWith('\n') || s.endsWith('\n\n') || /[ \t]\n|\t|\r/.test(s) ||
      /^ /.test(s)) {
    return null;
  }
  const lines = s.slice(0, -1).split('\n').map((l) => (l === '' ? '' : pad + l));
  return `|\n${lines.join('\n')}`;
}

// The lines of mapping `m` at indentation `pad`; `named` when its keys are
// names (a schema's properties), never members such as `example`.
function mapping(m, pad, out, named = false) {
  for (const [k, v] of Object.entries(m)) {
    const head = `${pad}${key(k)}:`;
    if (DATA_KEYS.has(k) && !named) {
      out.push(`${head} ${typeof v === 'string' ? str(v) : spacedJson(v)}`);
    } else {
      node(v, head, pad, out, k === 'properties' && !named);
    }
  }
}

// Value v under the line `head` (a key, or a list item's dash) at `pad`;
// `named` as for mapping().
function node(v, head, pad, out, named = false) {
  if (Array.isArray(v)) {
    if (v.length === 0 || v.every((x) => x === null || typeof x !== 'object')) {
      out.push(`${head} [${v.map(scalar).join(', ')}]`);
      return;
    }
    out.push(head);
    for (const x of v) {
      if (x !== null && typeof x === 'object' && !Array.isArray(x) && Object.keys(x).length > 0) {
        const inner = [];
        mapping(x, `${pad}    `, inner);
        inner[0] = `${pad}  - ${inner[0].slice(pad.length + 4)}`;
        out.push(...inner);
      } else {
        node(x, `${pad}  -`, `${pad}  `, out);
      }
    }
  } else if (v !== null && typeof v === 'object') {
    if (Object.keys(v).length === 0) {
      out.push(`${head} {}`);
      return;
    }
    out.push(head);
    mapping(v, `${pad}  `, out, named);
  } else if (typeof v === 'string') {
    const text = block(v, `${pad}  `);
    out.push(`${head} ${text ?? str(v)}`);
  } else {
    out.push(`${head} ${scalar(v)}`);
  }
}

// The document `doc` (a mapping) as YAML text, `comment` (lines without
// their `# `) above it.
export function writeYaml(doc, comment = []) {
  const out = comment.map((l) => (l ? `# ${l}` : '#'));
  mapping(doc, '', out);
  return `${out.join('\n')}\n`;
}
