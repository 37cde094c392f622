// record.mjs - record the replay set: requests made from one fixed seed,
// sent to a daemon started here, written with their answers to
// tests/replay/answers.replay (format in tests/replay/README).
//
//   node tests/replay/record.mjs [BIN] [OUT] [FROM]     (make replay-record)
//
// FROM, when given, names the tree BIN was built from in the file's header
// (before_move.replay was recorded from an older tree's binary).
// Requests that follow from an earlier answer (an analysis' move played
// back, a puzzle's id, its solution) are made from that answer, so the set
// is the same on every run of the same code.
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

const BIN = process.argv[2] || 'build/gamejudge';
const OUT = process.argv[3] || 'tests/replay/answers.replay';
const FROM = process.argv[4] || '';
// The options test_replay.c starts the daemon with; keep the two alike.
export const FLAGS = ['--cache-bytes', '0', '--workers', '2', '--generate-budget-ms', '10000'];

// A small fixed-seed generator (xorshift32), so the set never drifts.
let state = 20261202;
function rnd(n) {
  state ^= state << 13; state >>>= 0;
  state ^= state >>> 17;
  state ^= state << 5; state >>>= 0;
  return state % n;
}
const pick = (a) => a[rnd(a.length)];

function perm(n) {
  const a = Array.from({ length: n }, (_, i) => i + 1);
  for (let i = n - 1; i > 0; i--) { const j = rnd(i + 1); [a[i], a[j]] = [a[j], a[i]]; }
  return a;
}

// One small position per game: its JSON twin and its judge text.
const GAMES = {
  'matrix-game'() {
    // n of 3 or 4 and 1 <= k <= n - 2 (one in eight out of range, a bad input)
    const n = 3 + rnd(2), k = rnd(8) ? 1 + rnd(n - 2) : n, p = perm(n * n);
    const m = Array.from({ length: n }, (_, r) => p.slice(r * n, r * n + n));
    return { json: { k, matrix: m }, text: `${n} ${k}\n${m.map((r) => r.join(' ')).join('\n')}\n`,
      play: { k, matrix: m, token: [1 + rnd(n), 1 + rnd(n)] } };
  },
  'grid-walk'() {
    const r = 1 + rnd(4), c = 1 + rnd(4);
    const g = Array.from({ length: r }, () => Array.from({ length: c }, () => (rnd(4) ? '.' : '#')).join(''));
    const free = [];
    g.forEach((row, i) => [...row].forEach((ch, j) => ch === '.' && free.push([i + 1, j + 1])));
    const play = { grid: g };
    if (free.length) play.path = [pick(free)];
    return { json: { grid: g }, text: `${r} ${c}\n${g.join('\n')}\n`, play };
  },
  'nim-shortcuts'() {
    const s = Array.from({ length: rnd(4) }, () => [rnd(6), rnd(6)]);
    const q = Array.from({ length: 1 + rnd(4) }, () => [rnd(8), rnd(8)]);
    const t = `${s.length} ${q.length}\n${[...s, ...q].map((x) => x.join(' ')).join('\n')}\n`;
    return { json: { shortcuts: s, queries: q }, text: t, play: { shortcuts: s, heaps: [rnd(8), rnd(8)] } };
  },
  'prime-chocolate'() {
    const n = 1 + rnd(4);
    const g = Array.from({ length: n }, () => Array.from({ length: n }, () => (rnd(5) ? '-' : 'X')).join(''));
    return { json: { grid: g }, text: `${n}\n${g.join('\n')}\n`, play: { grid: g } };
  },
  'staircase-chess'() {
    const n = 1 + rnd(3), m = 1 + rnd(3);
    const mk = () => Array.from({ length: n }, () => Array.from({ length: m }, () => rnd(10)));
    const a = mk(), b = mk();
    const t = `${n} ${m}\n${[...a, ...b].map((r) => r.join(' ')).join('\n')}\n`;
    const prof = Array.from({ length: n }, () => 0);
    return { json: { a, b }, text: t, play: { a, b, profile: prof } };
  },
};
const NAMES = Object.keys(GAMES);

// A broken copy of a text: a byte changed, dropped or added, or cut short.
function spoil(s) {
  const i = rnd(s.length + 1);
  switch (rnd(4)) {
    case 0: return s.slice(0, i) + pick(['x', '-1', ' ', '\n', '99999999999999999999', '#', '.']) + s.slice(i + 1);
    case 1: return s.slice(0, i) + s.slice(i + 1);
    case 2: return s.slice(0, i) + pick(['0', '7', 'Q', '\t', '{']) + s.slice(i);
    default: return s.slice(0, i);
  }
}

const reqs = [];
let base = '';

// Send one request and keep the pair.
async function send(method, path, body, type) {
  const headers = {};
  if (type) headers['Content-Type'] = type;
  const r = await fetch(base + path, { method, headers, body: body === undefined ? undefined : body });
  const buf = Buffer.from(await r.arrayBuffer());
  const pair = { method, path, type, body, status: r.status,
    ctype: r.headers.get('content-type'), etag: r.headers.get('etag'), answer: buf.toString('latin1') };
  reqs.push(pair);
  let json = null;
  try { json = JSON.parse(buf.toString('utf8')); } catch { /* a text answer */ }
  return { status: r.status, json, text: buf.toString('utf8') };
}
const post = (path, obj) => send('POST', path, typeof obj === 'string' ? obj : JSON.stringify(obj), 'application/json');

async function solves(g) {
  for (let i = 0; i < 50; i++) {
    const p = GAMES[g]();
    const fmt = pick(['', '?format=text', '?format=json']);
    const t = await send('POST', `/solve/${g}${fmt}`, p.text, 'text/plain');
    await send('POST', `/solve/${g}${pick(['', '?format=text'])}`, JSON.stringify(p.json), 'application/json');
    if (i % 3 === 0) await send('GET', `/solve/${g}?input=${encodeURIComponent(p.text)}`);
    if (i % 5 === 0) await send('GET', `/solve/${g}?position=${encodeURIComponent(JSON.stringify(p.json))}&format=text`);
    await send('POST', `/solve/${g}`, spoil(p.text), 'text/plain');
    if (i % 2 === 0) await send('POST', `/solve/${g}`, spoil(JSON.stringify(p.json)), 'application/json');
    // judge: the right output, and a spoilt one
    const out = await send('POST', `/solve/${g}?format=text`, p.text, 'text/plain');
    if (out.status === 200) {
      await post(`/judge/${g}`, { input: p.text, output: out.text });
      await post(`/judge/${g}`, { input: p.text, output: spoil(out.text) });
      if (i % 4 === 0) await post(`/judge/${g}`, { input: p.text, output: out.text.replace(/\n/g, ' ') });
      if (i % 6 === 0) await post(`/judge/${g}`, { cases: [{ input: p.text, output: out.text },
        { input: spoil(p.text), output: out.text }, { input: p.text, output: spoil(out.text) }] });
    }
    void t;
  }
}

async function analyses(g) {
  for (let i = 0; i < 50; i++) {
    const p = GAMES[g]();
    const body = { ...p.play };
    if (rnd(2)) body.max_moves = 1 + rnd(3);
    if (rnd(2)) { body.line = true; if (rnd(2)) body.max_line = 1 + rnd(5); }
    if (rnd(3) === 0) body.after = pick(['diff', 'full']);
    const a = await post(`/analyze/${g}`, body);
    if (a.status === 200 && a.json.moves && a.json.moves.length) {
      await post(`/analyze/${g}`, { ...p.play, moves: [a.json.moves[0].move], max_moves: 2 });
      if (a.json.moves.length > 1) await post(`/analyze/${g}`, { ...p.play, moves: [a.json.moves[a.json.moves.length - 1].move], after: 'diff' });
      await post(`/analyze/${g}`, { ...p.play, moves: [a.json.moves[0].move, a.json.moves[0].move, a.json.moves[0].move] });
    }
    if (i % 4 === 0) await send('GET', `/analyze/${g}?request=${encodeURIComponent(JSON.stringify(p.play))}`);
    await post(`/analyze/${g}`, spoil(JSON.stringify(body)));
    if (i % 5 === 0) await post(`/analyze/${g}`, { ...p.play, max_moves: pick([0, -1, 'x', 1e30]) });
    if (i % 5 === 1) await post(`/analyze/${g}`, { ...p.play, after: pick(['half', 3, null]) });
    if (i % 5 === 2) await post(`/analyze/${g}`, { ...p.play, line: true, max_line: pick([0, 10001, 'long']) });
    if (i % 5 === 3) await post(`/analyze/${g}`, { ...p.play, unknown: 1 });
    // an engine move at every level, and a bad level
    const lv = pick([1, 2, 3, 4, 5, 'beginner', 'casual', 'club', 'expert', 'perfect']);
    await post(`/move/${g}`, { ...p.play, level: lv, seed: rnd(1000) });
    if (i % 3 === 0) await post(`/move/${g}`, { ...p.play, level: pick([0, 6, 'master', null]), seed: 1 });
    if (i % 7 === 0) await post(`/move/${g}`, { ...p.play, level: 3, seed: -5 });
  }
}

const KNOBS = {
  'matrix-game': () => ({ n: 3 + rnd(2) }),
  'grid-walk': () => ({ rows: 2 + rnd(2), cols: 2 + rnd(2) }),
  'nim-shortcuts': () => ({ shortcuts: 1 + rnd(3), range: 4 + rnd(3) }),
  'prime-chocolate': () => ({ size: 2 + rnd(2) }),
  'staircase-chess': () => ({ rows: 1 + rnd(2), cols: 1 + rnd(3) }),
};

async function generates(g) {
  for (let i = 0; i < 30; i++) {
    const body = { seed: rnd(100000), tries: 1 + rnd(20), ...KNOBS[g]() };
    if (rnd(2)) body.outcome = pick(['win', 'lose']);
    if (rnd(3) === 0) body.winning_moves = 1 + rnd(2);
    const a = await post(`/generate/${g}`, body);
    if (a.status === 200 && a.json.skip !== undefined)
      await post(`/generate/${g}`, { ...body, skip: a.json.skip, tries: 1 });
    if (i % 4 === 0) await post(`/generate/${g}`, { ...body, tries: pick([0, 5001, 'x']) });
    if (i % 4 === 1) await post(`/generate/${g}`, { ...body, winning_moves: 50 });
    if (i % 4 === 2) await post(`/generate/${g}`, { ...body, bogus: true });
  }
}

async function puzzles(g) {
  for (let i = 0; i < 12; i++) {
    const q = `seed=${rnd(1000)}&tries=${20 + rnd(30)}` + pick(['', '&band=easy', '&band=medium', '&depth=2', '&min_moves=2']);
    const a = await send('GET', `/puzzle/${g}?${q}`);
    if (i % 4 === 0) await send('GET', `/puzzle/${g}?seed=1&tries=0`);
    if (a.status !== 200) continue;
    const id = a.json.id;
    await send('GET', `/puzzle/${g}/${id}`);
    await send('GET', `/puzzle/${g}/${id.slice(0, -1)}${id.endsWith('0') ? '1' : '0'}`);
    const rev = await post(`/puzzle/${g}/${id}/check`, { moves: [], reveal: true });
    if (rev.status !== 200 || !rev.json.solution) continue;
    const sol = rev.json.solution;
    await post(`/puzzle/${g}/${id}/check`, { moves: [sol[0].move] });
    const all = [];
    sol.forEach((s) => { all.push(s.move); });
    await post(`/puzzle/${g}/${id}/check`, { moves: all });
    // a wrong move: the worst move of the analysis of the puzzle's position
    const an = await post(`/analyze/${g}`, { ...a.json.position, to_move: a.json.to_move });
    if (an.status === 200 && an.json.moves && an.json.moves.length > 1)
      await post(`/puzzle/${g}/${id}/check`, { moves: [an.json.moves[an.json.moves.length - 1].move] });
    await post(`/puzzle/${g}/${id}/check`, { moves: ['nonsense'] });
  }
  await send('GET', `/puzzle/${g}/daily?date=2026-06-01`);
  await send('GET', `/puzzle/${g}/daily?date=1999-13-01`);
  await send('GET', `/puzzle/${g}/not-an-id`);
}

async function batches() {
  for (let i = 0; i < 60; i++) {
    const items = [];
    for (let j = 0; j < 1 + rnd(5); j++) {
      const g = pick(NAMES), p = GAMES[g]();
      switch (rnd(5)) {
        case 0: items.push({ game: g, input: p.text }); break;
        case 1: items.push({ game: g, position: p.json, format: pick(['text', 'json']) }); break;
        case 2: items.push({ game: g, input: spoil(p.text) }); break;
        case 3: items.push({ game: pick([g, 'go']), judge: { input: p.text, output: 'WIN\n' } }); break;
        default: items.push({ game: g }); break;
      }
    }
    await post('/batch', { items });
  }
  await post('/batch', '{"items": 3}');
  await post('/batch', 'not json');
  await post('/batch', { items: [] });
}

async function main() {
  const d = spawn(BIN, ['serve', '--host', '127.0.0.1', '--port', '0', ...FLAGS], { stdio: ['ignore', 'pipe', 'ignore'] });
  const line = await new Promise((res) => createInterface({ input: d.stdout }).once('line', res));
  base = line.replace(/^listening on /, '');
  try {
    for (const g of NAMES) { await solves(g); await analyses(g); await generates(g); await puzzles(g); }
    await batches();
    for (const g of [...NAMES, 'go']) await send('POST', `/solve/${g}`, '', 'text/plain');
    await send('POST', '/solve/grid-walk', '1 1\n.\n', 'image/png');
  } finally { d.kill('SIGTERM'); }
  writeFileSync(OUT, render(reqs));
  console.log(`${reqs.length} pairs written to ${OUT}`);
}

// A value on one line: \n \r \t \\ and \xHH for other control bytes and
// bytes past ASCII.
function esc(s) {
  let o = '';
  for (const ch of Buffer.from(s, 'latin1')) {
    if (ch === 0x5c) o += '\\\\';
    else if (ch === 0x0a) o += '\\n';
    else if (ch === 0x0d) o += '\\r';
    else if (ch === 0x09) o += '\\t';
    else if (ch < 0x20 || ch > 0x7e) o += '\\x' + ch.toString(16).padStart(2, '0');
    else o += String.fromCharCode(ch);
  }
  return o;
}

// request_id is new on every run: written as "-" (test_replay.c does the same to the answers it gets).
function norm(s) { return s.replace(/"request_id":"[^"]*"/g, '"request_id":"-"'); }

function render(list) {
  let o = '# Recorded by tests/replay/record.mjs (make replay-record); do not edit by hand.\n' +
    (FROM ? `# Recorded from: ${FROM}\n` : '') +
    `# Daemon options: ${FLAGS.join(' ')}\n` +
    '# Normalised: every "request_id":"..." in an answer is written "request_id":"-".\n\n';
  for (const p of list) {
    o += `send: ${p.method} ${esc(p.path)}\n`;
    if (p.type) o += `type: ${p.type}\n`;
    if (p.body !== undefined) o += `body: ${esc(Buffer.from(p.body, 'utf8').toString('latin1'))}\n`;
    o += `status: ${p.status}\n`;
    o += `content-type: ${p.ctype ?? '-'}\n`;
    o += `etag: ${p.etag ?? '-'}\n`;
    o += `answer: ${esc(norm(p.answer))}\n\n`;
  }
  return o;
}

await main();
