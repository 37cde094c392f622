#!/usr/bin/env node
// puzzle.mjs: the playground's puzzle view, the solution kept back in play
// mode, the perfect-play line and links, in a real browser against the
// real daemon (issue 24, items 1 to 3).
//
// Per game: today's puzzle and a New puzzle by band come from /puzzle, are
// played move by move through .../check with the service's replies, one
// verdict per move, and no answer the page receives before the end or
// "Show solution" names a solving move still to find (every response is
// read).  Play mode keeps the Answer panel, outcome marks and starred
// cells back until Show solution or the end.  The line names its players,
// says "wins in N" from /analyze's remoteness and goes when a move is
// played; staircase-chess's line gives the final score with the points
// already on the board; matrix-game goes on past a repeated position and,
// ended there, says why its winner wins.  Links restore the level, who
// played each move and its verdict, and the puzzle; a position too long
// for an address is said so, and moves are never replayed without it.
// A game left while its request is out aborts it, and its answer draws
// nothing.  New puzzles are asked with `tries` and a fixed seed, so what
// comes depends on the parameters alone, never on the machine's load.
//
// Run from the repository root after `make all`:
//   node tests/browser/puzzle.mjs
// GJ_BIN overrides the binary.  Prints one line per check, then
// "puzzle: N passed, M failed"; exits 1 on any failure.
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { startDaemon } from '../integration/daemon.mjs';
import { check, counts, expect, Failure, same } from './checks.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const DEADLINE_MS = 240_000;
// The daemon's --generate-budget-ms and the budget_ms of the puzzles asked:
// far past what any search takes, so a search ends by its `tries` alone.
const PUZZLE_BUDGET_MS = 60_000;
const GAMES = ['grid-walk', 'nim-shortcuts', 'staircase-chess', 'matrix-game', 'prime-chocolate'];

/* ---------------------------------------------------------------- daemon */

let base = '';

/** A request to the daemon from Node (the API's own answer to compare with). */
async function api(path, body) {
  const res = body === undefined ? await fetch(base + path)
    : await fetch(base + path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const data = await res.json();
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${JSON.stringify(data)}`);
  return data;
}

/* ---------------------------------------------------------------- page helpers */

const pageErrors = [];

/** A new page on `path` in `context`, every daemon answer it receives kept in page.seen. */
async function openPage(context, path) {
  const page = await context.newPage();
  page.seen = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  page.on('response', async (res) => {
    const u = new URL(res.url());
    if (!u.origin.startsWith('http')) return;
    // Kept in the order the answers came, not the order their bodies were read.
    const seen = { path: u.pathname + u.search, method: res.request().method(), body: '', at: Date.now() };
    page.seen.push(seen);
    try { seen.body = await res.text(); } catch (e) { seen.body = ''; }
  });
  await page.goto(base + (path || '/'));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page;
}

async function pickGame(page, game) {
  await page.selectOption('[data-testid=game-select]', game);
  await page.waitForFunction((g) => document.getElementById('game').value === g, game);
}

const phaseIs = (page, ...phases) => page.waitForSelector(phases.map((p) => `[data-testid=play][data-phase=${p}]`).join(', '));

/** Play `move` on the play board (nim through its form). */
async function playMove(page, game, move) {
  if (game === 'nim-shortcuts') {
    await page.selectOption('[data-testid=nim-heap]', String(move.heap));
    await page.fill('[data-testid=nim-take]', String(move.take));
    await page.click('[data-testid=nim-take-button]');
    return;
  }
  let cell = move;
  if (game === 'prime-chocolate') {
    await page.selectOption('[data-testid=choc-size]', String(move.size));
    await page.waitForFunction((size) => {
      const b = document.querySelector('[data-testid=play-board]');
      return b && b.dataset.size === String(size);
    }, move.size);
    cell = [move.row, move.col];
  }
  await page.click(`[data-testid=play-board] [data-r="${cell[0]}"][data-c="${cell[1]}"]`);
}

/** Press New puzzle until one comes (a band the generator finds none of in its budget is a 422, said on the page). */
async function newPuzzle(page) {
  for (let tries = 0; tries < 4; tries++) {
    await page.click('[data-testid=puzzle-new]');
    await page.waitForFunction(() => document.querySelector('[data-testid=play]').dataset.phase === 'your-turn' ||
      document.querySelector('[data-testid=puzzle-status]').textContent.startsWith('Could not get a puzzle'));
    if (await page.getAttribute('[data-testid=play]', 'data-phase') === 'your-turn') return;
  }
  throw new Failure(`no puzzle in 4 tries: ${await page.textContent('[data-testid=puzzle-status]')}`);
}

/** The page's log lines. */
const logOf = (page) => page.$$eval('[data-testid=play-log] li', (l) => l.map((x) => ({ text: x.textContent, verdict: x.dataset.verdict || '' })));

/** The /analyze body of a /puzzle answer's position. */
function startBody(game, data) {
  const p = data.position;
  return game === 'staircase-chess'
    ? { a: p.a, b: p.b, stones: p.profile.flatMap((n, r) => Array.from({ length: n }, (_, c) => [r + 1, c + 1])) }
    : game === 'grid-walk' ? { ...p } : { ...p, to_move: data.to_move };
}

/** A legal move of the puzzle that is not `right` (the service's analysis of the position, asked from Node). */
async function wrongMove(game, data, right) {
  const an = await api(`/analyze/${game}`, { ...startBody(game, data), max_moves: 50 });
  return an.moves.map((m) => m.move).find((m) => !sameMove(m, right));
}

/** A JSON value with every object's keys sorted: moves compare whatever order the service wrote them in. */
function canon(v) {
  if (Array.isArray(v)) return v.map(canon);
  if (v && typeof v === 'object') return Object.fromEntries(Object.keys(v).sort().map((k) => [k, canon(v[k])]));
  return v;
}
const sameMove = (a, b) => same(canon(a), canon(b));

/** Whether one answer gives away any of the moves `ahead` (canonical JSON) or judges moves not played. */
function givesAway(body, ahead) {
  let obj;
  try { obj = JSON.parse(body); } catch (e) { return false; }
  if (obj && Array.isArray(obj.results)) {
    // .../check: the moves judged so far, the defender's replies and positions, nothing more.
    const extra = obj.results.flatMap((x) => Object.keys(x)).filter((k) => !['move', 'correct', 'reply', 'position'].includes(k));
    if (extra.length) return true;
    obj = { ...obj, results: [] };
  }
  const text = JSON.stringify(canon(obj));
  return ['"solution"', '"outcome"', '"outcomes"', '"winning_cells"', '"answers"', '"remoteness"'].some((k) => text.includes(k)) ||
    ahead.some((m) => text.includes(m));
}

/** Every answer the page received since `from` that gives away a solving move still to find. */
function leaks(page, from, solution, found) {
  const ahead = solution.slice(found).map((s) => JSON.stringify(canon(s.move)));
  return page.seen.slice(from).filter((r) => givesAway(r.body, ahead)).map((r) => `${r.method} ${r.path}: ${r.body.slice(0, 160)}`);
}

/* ---------------------------------------------------------------- the run */

let daemon = null;
let browser = null;

async function cleanup() {
  if (browser) { try { await browser.close(); } catch (e) { /* already gone */ } browser = null; }
  if (daemon) { daemon.kill('SIGTERM'); daemon = null; }
}
process.on('exit', () => { if (daemon) daemon.kill('SIGKILL'); });
const watchdog = setTimeout(async () => {
  console.log(`FAIL the puzzle tests took over ${DEADLINE_MS / 1000} s`);
  counts.failed++;
  await cleanup();
  console.log(`puzzle: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(1);
}, DEADLINE_MS);

const t0 = Date.now();
try {
  const started = await startDaemon({ args: ['--generate-budget-ms', String(PUZZLE_BUDGET_MS)] });
  daemon = started.child;
  base = started.base;
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, serviceWorkers: 'block' });
  // A step answers within a second or two on an idle machine and many more on a
  // loaded one; a missing control still fails its check, not the whole run.
  context.setDefaultTimeout(60_000);
  // Every new puzzle the page asks for is asked with `tries` and a fixed
  // seed, within a budget no load reaches: what comes is the parameters'
  // alone, never the machine's speed.
  let seeds = 0;
  await context.route(/\/puzzle\/[a-z-]+\?/, (route) => {
    const u = new URL(route.request().url());
    u.searchParams.set('seed', String(1000 + seeds++));
    u.searchParams.set('tries', '200');
    u.searchParams.set('budget_ms', String(PUZZLE_BUDGET_MS));
    return route.continue({ url: u.toString() });
  });
  const page = await openPage(context);

  /* ---- item 1: play mode keeps the solution back ---- */
  for (const game of GAMES) {
    await check(`${game}: Start a game shows no answer, outcome mark or star until Show solution`, async () => {
      await pickGame(page, game);
      await page.click('[data-testid=reset]');
      if (game === 'nim-shortcuts') {
        await page.fill('[data-testid=position]', '3 1\n3 0\n0 1\n2 4\n5 7\n');
        await page.waitForFunction(() => document.querySelectorAll('#nim-start option').length === 1);
      }
      await page.click('[data-testid=play-start]');
      await phaseIs(page, 'your-turn');
      const shown = () => page.evaluate(() => ({
        marks: [...document.querySelectorAll('#board [data-state], #play-board [data-state]')]
          .map((e) => e.dataset.state).filter((s) => ['M', 'G', 'win', 'lose'].includes(s)).length,
        stars: (document.getElementById('board').textContent.match(/\u2605/g) || []).length,
        stepper: !!document.querySelector('[data-testid=stair-range]'),
        table: !!document.querySelector('[data-testid=nim-answers]'),
        answer: document.getElementById('answer').textContent,
      }));
      const before = await shown();
      expect(before.marks === 0 && before.stars === 0 && !before.stepper && !before.table,
        `while playing the page shows ${JSON.stringify(before)}`);
      expect(await page.isVisible('[data-testid=show-solution]'), 'a Show solution button is offered');
      await page.click('[data-testid=show-solution]');
      // Drawn once the answer is no longer hidden and no longer being worked out (staircase-chess asks for its line).
      await page.waitForFunction(() => !document.querySelector('[data-testid=answer-hidden]') &&
        !document.getElementById('answer').textContent.includes('\u2026'));
      const after = await shown();
      expect(after.marks > 0 || after.stars > 0 || after.stepper || after.table || /wins|loses/.test(after.answer),
        `Show solution brings the answer back: ${JSON.stringify(after)}`);
    });
  }

  /* ---- item 2: the puzzle view ---- */
  // Every game: today's puzzle solved, and a New puzzle by band missed (its solution then listed).
  for (const [game, daily] of GAMES.flatMap((g) => [[g, true], [g, false]])) {
    const solveIt = daily;
    await check(`${game}: ${daily ? 'today\'s puzzle' : 'a New puzzle by band'} from /puzzle, ${solveIt ? 'solved' : 'missed'} ` +
      'move by move, nothing given away before the end', async () => {
      await pickGame(page, game);
      const from = page.seen.length;
      if (daily) {
        await page.click('[data-testid=puzzle-daily]');
      } else {
        // A band every game finds at depth 1 within the default budget.
        await page.selectOption('[data-testid=puzzle-band]', game === 'grid-walk' ? 'medium' : 'easy');
        await page.selectOption('[data-testid=puzzle-depth]', '1');
        await newPuzzle(page);
      }
      await phaseIs(page, 'your-turn', 'idle');
      const got = page.seen.slice(from).filter((r) => r.path.startsWith(`/puzzle/${game}`) && r.body.includes('"id"')).pop();
      expect(got, `the page asked /puzzle/${game}: ${page.seen.slice(from).map((r) => r.path).join(', ')}`);
      expect(daily ? got.path.startsWith(`/puzzle/${game}/daily`) : /[?&]band=(easy|medium)/.test(got.path), `asked ${got.path}`);
      const data = JSON.parse(got.body);
      expect(data.id, `a puzzle: ${got.body.slice(0, 200)}`);
      const info = await page.$eval('[data-testid=puzzle-info]', (e) => ({ ...e.dataset, text: e.textContent }));
      expect(info.id === data.id && info.band === data.band && +info.depth === data.depth, `the page shows the puzzle's band and depth: ${JSON.stringify(info)}`);
      // How far from the end is said once the puzzle is over, never the last puzzle's meanwhile.
      expect(info.remoteness === undefined, `before the end the page says a remoteness: ${JSON.stringify(info)}`);
      expect(info.text.includes(data.band) && info.text.includes(data.difficulty.toFixed(2)) && info.text.includes(`${data.depth} solving move`),
        `the band, difficulty and depth are said: '${info.text}'`);
      // The solution, asked from Node, to play and to look for in what the page received.
      const truth = await api(`/puzzle/${game}/${data.id}/check`, { moves: [], reveal: true });
      const solution = truth.solution;
      let found = 0;
      if (solveIt) {
        for (const step of solution) {
          const leaked = leaks(page, from, solution, found);
          expect(leaked.length === 0, `before move ${found + 1} the page received ${leaked.join(' | ')}`);
          await phaseIs(page, 'your-turn');
          const n = (await logOf(page)).length;
          await playMove(page, game, step.move);
          await page.waitForFunction((k) => document.querySelectorAll('[data-testid=play-log] li').length > k, n);
          found++;
          await phaseIs(page, 'your-turn', 'over');
        }
        await page.waitForSelector('[data-testid=puzzle-status][data-verdict=solved]');
      } else {
        const wrong = await wrongMove(game, data, solution[0].move);
        const leaked = leaks(page, from, solution, 0);
        expect(leaked.length === 0, `before the move the page received ${leaked.join(' | ')}`);
        await playMove(page, game, wrong);
        await page.waitForSelector('[data-testid=puzzle-status][data-verdict=missed]');
        const sol = await page.$$eval('[data-testid=puzzle-solution] li[data-move]', (l) => l.map((x) => JSON.parse(x.dataset.move)));
        expect(same(sol, solution.map((s) => s.move)), `the solution shown ${JSON.stringify(sol)} is the service's`);
      }
      // Over: "wins in N" from the position's remoteness (matrix-game has none).
      const start = await api(`/analyze/${game}`, { ...startBody(game, data), max_moves: 1 });
      if (Number.isInteger(start.remoteness)) {
        await page.waitForSelector('[data-testid=puzzle-info][data-remoteness]');
        const said = await page.textContent('[data-testid=puzzle-info]');
        const want = game === 'staircase-chess' ? `${start.remoteness} move` : `wins in ${start.remoteness} move`;
        expect(said.includes(want), `the end says '${want}': '${said}'`);
      } else {
        expect(game === 'matrix-game', `/analyze answered no remoteness for ${game}`);
      }
      // One verdict per move of the visitor, none contradicting another.
      const log = await logOf(page);
      const judged = log.filter((x) => x.verdict);
      expect(judged.length === (solveIt ? solution.length : 1), `one verdict per move: ${JSON.stringify(log)}`);
      const all = await page.textContent('[data-testid=play]');
      expect(!/kept the win|threw away the win/.test(all), `no second verdict beside the puzzle's: '${all.slice(0, 300)}'`);
      const replies = log.filter((x) => x.text.startsWith('Reply'));
      expect(replies.length === solution.filter((s, j) => s.reply && (solveIt || j < 0)).length, `the service's replies are logged: ${JSON.stringify(log)}`);
    });
  }

  await check('staircase-chess: a depth-2 puzzle is played move by move with the service\'s reply, and Show solution ends it', async () => {
    await pickGame(page, 'staircase-chess');
    await page.selectOption('[data-testid=puzzle-band]', 'easy');
    await page.selectOption('[data-testid=puzzle-depth]', '2');
    const from = page.seen.length;
    await newPuzzle(page);
    await phaseIs(page, 'your-turn');
    const data = JSON.parse(page.seen.slice(from).filter((r) => r.path.startsWith('/puzzle/staircase-chess?') && r.body.includes('"id"')).pop().body);
    expect(data.depth === 2, `depth 2 asked: ${data.depth}`);
    const truth = await api(`/puzzle/staircase-chess/${data.id}/check`, { moves: [], reveal: true });
    await playMove(page, 'staircase-chess', truth.solution[0].move);
    await page.waitForSelector('[data-testid=puzzle-status][data-verdict=correct]');
    await phaseIs(page, 'your-turn');
    const log = await logOf(page);
    expect(log.length === 2 && log[1].text.includes(`(${truth.solution[0].reply[0]}, ${truth.solution[0].reply[1]})`),
      `the defender's reply is played and logged: ${JSON.stringify(log)}`);
    expect(leaks(page, from, truth.solution, 1).length === 0, 'nothing about the second move was received');
    // A link now restores the puzzle and the move found.
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    expect(hash.get('puzzle') === data.id && same(JSON.parse(hash.get('moves')), [truth.solution[0].move]), `the address: ${hash}`);
    const again = await openPage(context, `/#${hash}`);
    try {
      await phaseIs(again, 'your-turn');
      expect(same(await logOf(again), log), `the link restores the log ${JSON.stringify(await logOf(again))}`);
      expect(await again.getAttribute('[data-testid=puzzle-info]', 'data-id') === data.id, 'and the puzzle id');
    } finally {
      await again.close();
    }
    const before = page.seen.length;
    await page.click('[data-testid=show-solution]');
    await page.waitForSelector('[data-testid=puzzle-status][data-verdict=revealed]');
    const asked = page.seen.slice(before).filter((r) => r.path.endsWith('/check'));
    expect(asked.length === 1 && asked[0].body.includes('"solution"'), 'Show solution asks .../check once, which answers the solution');
    const sol = await page.$$eval('[data-testid=puzzle-solution] li[data-move]', (l) => l.map((x) => JSON.parse(x.dataset.move)));
    expect(same(sol, truth.solution.map((s) => s.move)), `the solution is listed: ${JSON.stringify(sol)}`);
  });

  await check('grid-walk: Solve pressed during a puzzle is Show solution: it ends revealed, and nothing is solved before', async () => {
    // The old page answered /solve for the puzzle's own position and drew the starred answer.
    await pickGame(page, 'grid-walk');
    await page.selectOption('[data-testid=puzzle-band]', 'medium');
    await page.selectOption('[data-testid=puzzle-depth]', '1');
    await newPuzzle(page);
    const from = page.seen.length;
    await page.click('[data-testid=solve]');
    await page.waitForSelector('[data-testid=puzzle-status][data-verdict=revealed]');
    // The revealed puzzle's Answer panel may then ask /solve: only not before the reveal.
    const asked = page.seen.slice(from).map((r) => r.path);
    const reveal = asked.findIndex((p) => p.endsWith('/check'));
    expect(reveal >= 0 && !asked.slice(0, reveal).some((p) => p.startsWith('/solve/')), `.../check first, no /solve before it: ${asked.join(', ')}`);
    expect(asked.filter((p) => p.endsWith('/check')).length === 1, 'one .../check, which reveals');
  });

  await check('staircase-chess: a move that keeps the win but misses the puzzle gets one verdict, "missed", and nothing green', async () => {
    // The fault seen on the old page: a wrong move whose final margin stays positive was called both
    // "Not the winning move" and "kept the win".  Find such a puzzle from Node, then open it by its link.
    let found = null;
    for (let seed = 1; seed <= 60 && !found; seed++) {
      // Bounded by a count: the same seeds give the same puzzles on a loaded machine.
      const data = await api(`/puzzle/staircase-chess?band=easy&depth=1&tries=100&seed=${seed}`);
      const stones = data.position.profile.flatMap((n, r) => Array.from({ length: n }, (_, c) => [r + 1, c + 1]));
      const an = await api('/analyze/staircase-chess', { a: data.position.a, b: data.position.b, stones, max_moves: 50 });
      const sign = an.to_move === 'black' ? 1 : -1;
      const { solution } = await api(`/puzzle/staircase-chess/${data.id}/check`, { moves: [], reveal: true });
      const keeps = an.moves.find((m) => !sameMove(m.move, solution[0].move) && sign * an.score_so_far + m.score > 0);
      if (keeps) found = { data, move: keeps.move };
    }
    expect(found, 'no easy staircase-chess puzzle among seeds 1-60 has a wrong move that keeps the win');
    const q = new URLSearchParams({ game: 'staircase-chess', puzzle: found.data.id, moves: '[]' });
    const other = await openPage(context, `/#${q}`);
    try {
      await phaseIs(other, 'your-turn');
      await playMove(other, 'staircase-chess', found.move);
      await other.waitForSelector('[data-testid=puzzle-status][data-verdict=missed]');
      const text = await other.textContent('[data-testid=play]');
      expect(!/kept the win|threw away/.test(text), `one verdict only: '${text.slice(0, 300)}'`);
      expect(await other.$eval('[data-testid=play-verdict]', (e) => e.textContent) === '', 'the play verdict is empty in a puzzle');
      const log = await logOf(other);
      expect(log.length === 1 && log[0].verdict === 'missed', `the log holds one judged move: ${JSON.stringify(log)}`);
    } finally {
      await other.close();
    }
  });

  await check('phone width (390 px): a puzzle in play fits, no horizontal scroll', async () => {
    const phone = await browser.newContext({ viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
    try {
      const p = await openPage(phone);
      await pickGame(p, 'staircase-chess');
      await p.click('[data-testid=puzzle-daily]');
      await phaseIs(p, 'your-turn');
      const m = await p.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
        row: document.querySelector('[data-testid=puzzle-field]').getBoundingClientRect().right }));
      expect(m.scroll <= m.width && m.row <= m.width, `the page is ${m.scroll} px wide, the puzzle controls end at ${m.row}, in ${m.width} px`);
    } finally {
      await phone.close();
    }
  });

  /* ---- the perfect-play line ---- */
  await check('grid-walk: the line names who plays each move and who wins in how many, and goes when a move is played', async () => {
    await pickGame(page, 'grid-walk');
    await page.click('[data-testid=reset]');
    await page.selectOption('[data-testid=play-side]', 'A');
    await page.click('[data-testid=play-start]');
    await phaseIs(page, 'your-turn');
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    await page.click('[data-testid=line-show]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=line] li').length > 0);
    const truth = await api('/analyze/grid-walk', { ...request, line: true });
    const items = await page.$$eval('[data-testid=line] li', (l) => l.map((x) => x.textContent));
    items.forEach((t, j) => {
      const e = truth.line[j];
      const mover = j % 2 === 0 ? 'A' : 'B';
      const winner = e.outcome === 'win' ? mover : (mover === 'A' ? 'B' : 'A');
      expect(t.startsWith(`${mover}:`) && t.includes(`${winner} wins in ${e.remoteness + 1} move`) && !t.includes('for the mover'),
        `line move ${j + 1} reads '${t}' (${JSON.stringify(e)})`);
    });
    const n = (await logOf(page)).length;
    await playMove(page, 'grid-walk', truth.line[0].move);
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid=play-log] li').length > k, n);
    expect(await page.locator('[data-testid=line] li').count() === 0, 'the line of the earlier position is gone');
    // The verdict on that move says when the game ends, from /analyze's remoteness.
    const said = await page.textContent('[data-testid=play-verdict]');
    expect(said.includes(`you win in ${truth.line[0].remoteness + 1} move`), `the verdict says "win in N": '${said}'`);
  });

  await check('staircase-chess: the line gives the final score from black\'s side, the points already scored included', async () => {
    await pickGame(page, 'staircase-chess');
    await page.click('[data-testid=reset]');
    await page.selectOption('[data-testid=play-side]', 'black');
    await page.click('[data-testid=play-start]');
    await phaseIs(page, 'your-turn');
    // One move first, so that points are on the board when the line is asked.
    let request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    const first = await api('/analyze/staircase-chess', request);
    const n = (await logOf(page)).length;
    await playMove(page, 'staircase-chess', first.moves[first.moves.length - 1].move);
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid=play-log] li').length > k + 1, n);
    await phaseIs(page, 'your-turn');
    request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    await page.click('[data-testid=line-show]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=line] li').length > 0);
    const truth = await api('/analyze/staircase-chess', { ...request, line: true });
    const d = truth.final_difference;
    const want = d === 0 ? 'ends in a draw' : `${d > 0 ? 'black' : 'white'} ends ${Math.abs(d)} points ahead`;
    const items = await page.$$eval('[data-testid=line] li', (l) => l.map((x) => x.textContent));
    expect(items.length === truth.line.length && items.every((t) => t.includes(want) && /^(black|white):/.test(t) && !t.includes('margin')),
      `every move says '${want}' (final difference ${d}): ${JSON.stringify(items)}`);
  });

  /* ---- matrix-game past a repeated position ---- */
  await check('matrix-game: play goes on past a repeated position; ended there, the page says why the winner wins', async () => {
    await pickGame(page, 'matrix-game');
    await page.click('[data-testid=reset]');
    await page.selectOption('[data-testid=play-side]', 'M');
    await page.click('[data-testid=play-start]');
    let repeated = false;
    for (let turn = 0; turn < 40 && !repeated; turn++) {
      await phaseIs(page, 'your-turn', 'over');
      expect(await page.getAttribute('[data-testid=play]', 'data-phase') === 'your-turn', `the game stopped by itself: ${await page.textContent('[data-testid=play-status]')}`);
      repeated = await page.isVisible('[data-testid=repeat-note]');
      if (repeated) break;
      const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
      const an = await api('/analyze/matrix-game', { ...request, max_moves: 1 });
      const n = (await logOf(page)).length;
      await playMove(page, 'matrix-game', an.moves[0].move);
      await page.waitForFunction((k) => document.querySelectorAll('[data-testid=play-log] li').length > k, n);
    }
    expect(repeated, 'a position came back and the page said so, still on the visitor\'s turn');
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    await page.click('[data-testid=play-stop]');
    await phaseIs(page, 'over');
    const said = await page.textContent('[data-testid=play-status]');
    const an = await api('/analyze/matrix-game', { ...request, max_moves: 1, line: true, max_line: 200 });
    const winner = an.value === 'win' ? an.to_move : (an.to_move === 'M' ? 'G' : 'M');
    const sums = { M: 0, G: 0 };
    let mover = an.to_move;
    const matrix = request.matrix;
    an.line.forEach((e, j) => {
      if (j >= an.line_cycle_start) sums[mover] += matrix[e.move[0] - 1][e.move[1] - 1];
      mover = mover === 'M' ? 'G' : 'M';
    });
    expect(said.includes(`each round M scores ${sums.M} and G ${sums.G}, so ${winner} ends ahead`) && said.includes('cannot decide'),
      `the end says why ${winner} wins (cycle M ${sums.M}, G ${sums.G}): '${said}'`);
    expect(sums[winner] > sums[winner === 'M' ? 'G' : 'M'], 'the cycle\'s sums agree with the winner');
  });

  /* ---- item 3: links ---- */
  await check('a link restores the level and who played each move with its verdict', async () => {
    await pickGame(page, 'grid-walk');
    await page.click('[data-testid=reset]');
    await page.selectOption('[data-testid=play-level]', '2');
    await page.selectOption('[data-testid=play-side]', 'B');
    await page.click('[data-testid=play-start]');
    await phaseIs(page, 'your-turn');
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    const an = await api('/analyze/grid-walk', request);
    const n = (await logOf(page)).length;
    await playMove(page, 'grid-walk', an.moves[0].move);
    await page.waitForFunction((k) => document.querySelectorAll('[data-testid=play-log] li').length > k, n);
    await phaseIs(page, 'your-turn', 'over');
    const log = (await logOf(page)).map((x) => x.text);
    expect(log.some((t) => t.startsWith('Engine (level 2)')) && log.some((t) => /^You: .* \u2014 (your move (kept|threw)|you were already lost)/.test(t)), `the log: ${JSON.stringify(log)}`);
    const hash = await page.evaluate(() => location.hash);
    const other = await openPage(context, `/${hash}`);
    try {
      await phaseIs(other, 'your-turn', 'over');
      expect(await other.$eval('[data-testid=play-level]', (s) => s.value) === '2', 'the level is restored');
      const again = (await logOf(other)).map((x) => x.text);
      expect(same(again, log), `the log is restored as played: ${JSON.stringify(again)}, was ${JSON.stringify(log)}`);
    } finally {
      await other.close();
    }
  });

  await check('a position too long for an address is said so; its link replays no moves on another position', async () => {
    // A 70 x 70 matrix-game (values 1..4900) is some 24,000 characters; M places the token on the canvas.
    await pickGame(page, 'matrix-game');
    const n = 70;
    const text = `${n} 1\n${Array.from({ length: n }, (_, r) => Array.from({ length: n }, (_, c) => r * n + c + 1).join(' ')).join('\n')}\n`;
    expect(text.length > 20000, `the text is ${text.length} characters`);
    await page.fill('[data-testid=position]', text);
    await page.selectOption('[data-testid=play-side]', 'M');
    await page.click('[data-testid=play-start]');
    await phaseIs(page, 'your-turn');
    await page.click('[data-testid=play-board]', { position: { x: 5, y: 5 } });
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=play-log] li').length > 0);
    const note = await page.textContent('[data-testid=share-note]');
    expect(/too long/.test(note), `the page says the position is too long for an address: '${note}'`);
    const hash = new URLSearchParams((await page.evaluate(() => location.hash)).slice(1));
    expect(!hash.has('moves') && !hash.has('pos'), `the address holds no moves without their position: ${[...hash.keys()]}`);
    const other = await openPage(context, `/#${hash}`);
    try {
      const status = await other.textContent('[data-testid=status]');
      expect(/too long/.test(status), `the link's page says so: '${status}'`);
      expect(await other.locator('[data-testid=play-log] li').count() === 0, 'no moves replayed on the sample');
    } finally {
      await other.close();
    }
    // An older link with moves and no position: the moves are not replayed either.
    const q = new URLSearchParams({ game: 'grid-walk', side: 'A', moves: '[[1,1]]' });
    const old = await openPage(context, `/#${q}`);
    try {
      const status = await old.textContent('[data-testid=status]');
      expect(/not replayed/.test(status), `the page says the moves are not replayed: '${status}'`);
      expect(await old.locator('[data-testid=play-log] li').count() === 0, 'no moves replayed');
    } finally {
      await old.close();
    }
  });

  // A puzzle link's page names the puzzle's picture for link previews, and
  // the picture is an SVG document a browser parses (once the games draw).
  await check('a puzzle link carries its picture as og:image and twitter:image, a valid SVG document', async () => {
    const daily = await api('/puzzle/nim-shortcuts/daily');
    const link = `/?game=nim-shortcuts&puzzle=${encodeURIComponent(daily.id)}`;
    const p = await openPage(context, link);
    try {
      await phaseIs(p, 'your-turn');
      const picture = `${base}/puzzle/nim-shortcuts/${daily.id}/image.svg`;
      const meta = await p.evaluate(() => Object.fromEntries([...document.querySelectorAll('meta[property], meta[name]')]
        .map((m) => [m.getAttribute('property') || m.getAttribute('name'), m.getAttribute('content')])));
      expect(meta['og:image'] === picture && meta['twitter:image'] === picture, `the preview names the picture: ${JSON.stringify(meta)}`);
      expect(meta['og:image:type'] === 'image/svg+xml' && meta['twitter:card'] === 'summary_large_image', `its type and card: ${JSON.stringify(meta)}`);
      // The link opened the puzzle, and the page keeps its link query for the next share.
      expect(await p.getAttribute('[data-testid=puzzle-info]', 'data-id') === daily.id, 'the link opens its puzzle');
      const share = await p.getAttribute('[data-testid=share-link]', 'href');
      expect(new URL(share, base).searchParams.get('puzzle') === daily.id, `the share link carries the puzzle for its preview: ${share}`);
      const svg = await p.evaluate(async (url) => {
        const res = await fetch(url);
        const text = await res.text();
        const doc = new DOMParser().parseFromString(text, 'image/svg+xml');
        const root = doc.documentElement;
        return {
          status: res.status, type: res.headers.get('content-type'), tag: res.headers.get('etag'),
          broken: doc.getElementsByTagName('parsererror').length, root: root.localName, ns: root.namespaceURI,
          first: root.firstElementChild && root.firstElementChild.localName,
          title: root.firstElementChild && root.firstElementChild.textContent, text: text.slice(0, 200),
        };
      }, picture);
      expect(svg.status === 200 && svg.type === 'image/svg+xml' && /^"[^"]+"$/.test(svg.tag || ''), `the picture answers: ${JSON.stringify(svg)}`);
      expect(svg.broken === 0 && svg.root === 'svg' && svg.ns === 'http://www.w3.org/2000/svg', `it parses as SVG: ${JSON.stringify(svg)}`);
      expect(svg.first === 'title' && /^Nim with shortcuts: .* to move; find the /.test(svg.title), `its title says the game, the side and the task: ${svg.title}`);
    } finally {
      await p.close();
    }
  });

  // A held answer: the engine's first move of a game the visitor leaves
  // while it is asked.  The request must be aborted, and nothing of it may
  // reach the next game's panel even if the daemon answers after all.
  await check('a game left while the engine is thinking: its request is aborted and its late answer draws nothing', async () => {
    const p = await openPage(context);
    try {
      await pickGame(p, 'staircase-chess');
      await p.click('[data-testid=reset]');
      await p.selectOption('[data-testid=play-side]', 'white'); // the engine moves first
      let hold;
      const held = new Promise((r) => { hold = r; });
      await p.route('**/move/staircase-chess', (route) => hold(route));
      const ended = new Promise((r) => {
        const mine = (req) => new URL(req.url()).pathname === '/move/staircase-chess';
        p.on('requestfailed', (req) => { if (mine(req)) r(`failed (${req.failure() && req.failure().errorText})`); });
        p.on('requestfinished', (req) => { if (mine(req)) r('answered'); });
      });
      await p.click('[data-testid=play-start]');
      const route = await held;
      // From the switch on, every status the panel says and every engine move it records.
      await p.evaluate(() => {
        const play = document.querySelector('[data-testid=play]');
        const status = document.querySelector('[data-testid=play-status]');
        window.said = [];
        new MutationObserver(() => window.said.push(`status: ${status.textContent}`)).observe(status, { childList: true, characterData: true, subtree: true });
        new MutationObserver(() => window.said.push(`engine: ${play.dataset.engine}`)).observe(play, { attributeFilter: ['data-engine'] });
      });
      await pickGame(p, 'grid-walk');
      await route.continue().catch(() => { /* the page let it go: nothing to release */ });
      const how = await ended;
      // The next game, started after: the panel said nothing of the left one before it, nor since.
      await p.click('[data-testid=play-start]');
      await phaseIs(p, 'your-turn');
      const panel = await p.evaluate(() => ({
        said: window.said,
        log: document.querySelectorAll('[data-testid=play-log] li').length,
        status: document.querySelector('[data-testid=play-status]').textContent,
      }));
      const stale = panel.said.filter((x) => x.startsWith('engine') || /could not|engine/i.test(x));
      expect(stale.length === 0, `the left game reached the page: ${stale.join(' | ')}`);
      expect(panel.log === 0 && /^Your move/.test(panel.status), `the grid-walk panel is its own: ${JSON.stringify(panel)}`);
      expect(how.startsWith('failed'), `the left game's /move was ${how}, not aborted`);
    } finally {
      await p.close();
    }
  });

  await check('the pages raised no script error', async () => {
    expect(pageErrors.length === 0, `script errors: ${pageErrors.slice(0, 5).join(' | ')}`);
  });
} catch (e) {
  counts.failed++;
  console.log(`FAIL the run stopped: ${(e && e.stack) || e}`);
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
console.log(`puzzle: ${counts.passed} passed, ${counts.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(counts.failed ? 1 : 0);
