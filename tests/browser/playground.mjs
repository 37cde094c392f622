#!/usr/bin/env node
// playground.mjs: the playground page (GET /) in a real browser.
//
// Starts the daemon on a free loopback port, drives Debian's Chromium
// through playwright-core, and for each game loads the page, solves the
// sample, compares what is drawn with the API's own answer (fetched here,
// from Node), checks that an error is shown beside the line it names, and
// plays one whole game of each in play mode, checking each "kept / threw
// away / already lost" message against /analyze.  Also: prime-chocolate's
// square-side control, links that restore a position and a game in
// progress (and one that cannot), keyboard use, phone width, a canvas-drawn
// large board, and that the page asks nothing of any other origin.
// Per game, against the real /move, /puzzle and /analyze "line" (the
// page's requests are watched, never answered by the test): the level
// picker (the engine plays /move's answer at the chosen level, and /move
// with the echoed seed answers it again), the perfect-play line (one
// request, the moves /analyze answers, matrix-game's cycle marked), and
// New puzzle (the band asked of /puzzle, found or missed as .../check says,
// and a link to it given again by its id; puzzle.mjs tests puzzles in
// depth); the staircase-chess
// stepper's one request.
//
// Run from the repository root after `make all`:
//   node tests/browser/playground.mjs
// GJ_BIN overrides the binary, GJ_SCREENSHOTS the screenshot folder
// (default build/screenshots).  Prints one line per check, then
// "browser: N passed, M failed"; exits 1 on any failure.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { startDaemon } from '../integration/daemon.mjs';
import { check, counts, expect, same } from './checks.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const BIN = process.env.GJ_BIN || 'build/gamejudge';
const SHOTS = process.env.GJ_SCREENSHOTS || 'build/screenshots';
const DEADLINE_MS = 200_000;
// The daemon's --generate-budget-ms and the budget_ms of the puzzles asked:
// far past what any search takes, so a search ends by its `tries` alone.
const PUZZLE_BUDGET_MS = 60_000;

/* ---------------------------------------------------------------- daemon */

let base = '';

/** POST to the daemon from Node: the API's own answer to compare with. */
async function api(path, body) {
  const isText = typeof body === 'string';
  const res = await fetch(base + path, {
    method: 'POST',
    headers: { 'Content-Type': isText ? 'text/plain' : 'application/json' },
    body: isText ? body : JSON.stringify(body),
  });
  return { status: res.status, data: await res.json() };
}
async function solve(game, text) {
  const { status, data } = await api(`/solve/${game}`, text);
  if (status !== 200) throw new Error(`/solve/${game} answered ${status}: ${JSON.stringify(data)}`);
  return data;
}
async function analyze(game, body) {
  const { status, data } = await api(`/analyze/${game}`, body);
  if (status !== 200) throw new Error(`/analyze/${game} answered ${status}: ${JSON.stringify(data)}`);
  return data;
}

/* ---------------------------------------------------------------- page helpers */

/** A new page on `path`; `init` (optional) runs in it before the page's own script. */
async function openPage(context, path, init) {
  const page = await context.newPage();
  if (init) await page.addInitScript(init);
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // The browser logs each 4xx answer as an error; those the checks provoke on purpose.
  page.on('console', (m) => {
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  await page.goto(base + (path || '/'));
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page;
}

async function pickGame(page, game) {
  await page.selectOption('[data-testid=game-select]', game);
  await page.waitForFunction((g) => document.getElementById('game').value === g, game);
}

/** Click Solve (or let `press` do it) and wait for the answer or the error. */
async function solveInPage(page, press) {
  await page.evaluate(() => { document.getElementById('result').dataset.state = 'waiting'; });
  if (press) await press();
  else await page.click('[data-testid=solve]');
  await page.waitForSelector('[data-testid=result][data-state=done], [data-testid=result][data-state=error]', { timeout: 20_000 });
  return page.getAttribute('[data-testid=result]', 'data-state');
}

/** Every cell of a DOM board: {r, c, state, text}. */
function cellsOf(page, testid) {
  return page.$$eval(`[data-testid=${testid}] [data-r]`, (els) => els.map((e) => ({
    r: +e.dataset.r, c: +e.dataset.c, state: e.dataset.state, text: e.textContent,
  })));
}

async function shot(page, name) {
  await page.screenshot({ path: join(SHOTS, `${name}.png`) });
}

/* ---------------------------------------------------------------- per game: the drawn answer */

const drawn = {
  async 'matrix-game'(page, sample, ans) {
    const cells = await cellsOf(page, 'board');
    const n = ans.outcomes.length;
    expect(cells.length === n * n, `${cells.length} cells drawn, expected ${n * n}`);
    const pos = sample.json;
    for (const { r, c, state, text } of cells) {
      const want = ans.outcomes[r - 1][c - 1];
      expect(state === want, `cell (${r}, ${c}) drawn ${state}, the API says ${want}`);
      // The letter and the value are on the cell, not only its colour.
      expect(text === `${pos.matrix[r - 1][c - 1]}${want}`, `cell (${r}, ${c}) reads '${text}'`);
    }
    const m = ans.outcomes.join('').split('').filter((x) => x === 'M').length;
    expect(await page.textContent('[data-testid=m-count]') === String(m), 'the M count in the answer text');
    expect(same(JSON.parse(await page.getAttribute('[data-testid=board]', 'data-summary')), { M: m, G: n * n - m }), 'data-summary');
  },
  async 'grid-walk'(page, sample, ans) {
    const cells = await cellsOf(page, 'board');
    const marked = cells.filter((x) => x.state === 'win').map((x) => [x.r, x.c]);
    expect(same(marked, ans.winning_cells), `winning cells drawn ${JSON.stringify(marked)}, the API says ${JSON.stringify(ans.winning_cells)}`);
    for (const x of cells) {
      const ch = sample.json.grid[x.r - 1][x.c - 1];
      expect((x.state === 'blocked') === (ch === '#'), `cell (${x.r}, ${x.c}) drawn ${x.state} for '${ch}'`);
      if (x.state === 'win') expect(x.text === '\u2605', 'a winning cell carries a star');
    }
    expect(await page.textContent('[data-testid=verdict]') === ans.verdict, 'the WIN/LOSE verdict');
  },
  async 'nim-shortcuts'(page, sample, ans) {
    const rows = await page.$$eval('[data-testid=nim-answers] tbody tr', (trs) => trs.map((t) => t.dataset.answer));
    expect(same(rows, ans.answers), `answers listed ${JSON.stringify(rows)}, the API says ${JSON.stringify(ans.answers)}`);
    // The plane: ask the API about every point of the drawn window.
    const win = await page.$eval('[data-testid=board]', (b) => ({ x0: +b.dataset.x0, y0: +b.dataset.y0, w: +b.dataset.w, h: +b.dataset.h }));
    for (const q of sample.json.queries) {
      expect(q[0] >= win.x0 && q[0] < win.x0 + win.w && q[1] >= win.y0 && q[1] < win.y0 + win.h, `query ${q} is in the window`);
    }
    const points = [];
    for (let y = win.y0; y < win.y0 + win.h; y++) for (let x = win.x0; x < win.x0 + win.w; x++) points.push([x, y]);
    const truth = await solve('nim-shortcuts', { shortcuts: sample.json.shortcuts, queries: points });
    const sc = new Set(sample.json.shortcuts.map((p) => p.join(',')));
    const cells = await cellsOf(page, 'board');
    expect(cells.length === points.length, `${cells.length} points drawn, expected ${points.length}`);
    let losing = 0;
    for (const cell of cells) {
      const x = win.x0 + cell.c - 1;
      const y = win.y0 + win.h - cell.r; // row 1 is the top, y grows upwards
      const i = (y - win.y0) * win.w + (x - win.x0);
      const want = sc.has(`${x},${y}`) ? 'shortcut' : truth.answers[i] === 'LOSE' ? 'lose' : 'free';
      if (want === 'lose') losing++;
      expect(cell.state === want, `(${x}, ${y}) drawn ${cell.state}, expected ${want}`);
    }
    expect(losing > 0, 'some losing positions are drawn');
  },
  async 'prime-chocolate'(page, sample, ans) {
    expect(await page.getAttribute('[data-testid=winner]', 'data-winner') === ans.winner, 'the winner attribute');
    expect((await page.textContent('[data-testid=winner]')).includes(ans.winner), 'the winner is written');
    const cells = await cellsOf(page, 'board');
    for (const x of cells) {
      const ch = sample.json.grid[x.r - 1][x.c - 1];
      expect((x.state === 'eaten') === (ch === 'X'), `square (${x.r}, ${x.c}) drawn ${x.state} for '${ch}'`);
    }
  },
  async 'staircase-chess'(page, sample, ans) {
    const { a, b } = sample.json;
    const n = a.length, m = a[0].length;
    expect(await page.textContent('[data-testid=score-difference]') === String(ans.score_difference), 'the score difference');
    // The perfect-play line, from the API: the first listed move each time.
    const line = [];
    for (;;) {
      const an = await analyze('staircase-chess', { a, b, stones: line });
      if (!an.moves.length) break;
      line.push(an.moves[0].move);
    }
    const score = () => page.$eval('[data-testid=stair-score]', (e) => ({ ...e.dataset }));
    let s = await score();
    expect(+s.step === n * m && +s.difference === ans.score_difference, `the last step shows ${JSON.stringify(s)}`);
    const cells = await cellsOf(page, 'board');
    for (const [i, [r, c]] of line.entries()) {
      const cell = cells.find((x) => x.r === r && x.c === c);
      expect(cell.state === (i % 2 ? 'white' : 'black'), `move ${i + 1} at (${r}, ${c}) drawn ${cell.state}`);
      expect(cell.text.includes(` ${i + 1}+`), `move ${i + 1} numbered on its cell ('${cell.text}')`);
    }
    await page.click('[data-testid=stair-first]');
    s = await score();
    expect(+s.step === 0 && (await cellsOf(page, 'board')).every((x) => x.state === 'empty'), 'Start shows the empty board');
    await page.click('[data-testid=stair-next]');
    const one = (await cellsOf(page, 'board')).filter((x) => x.state !== 'empty');
    expect(one.length === 1 && same([one[0].r, one[0].c], line[0]) && one[0].state === 'black', 'Next places black\'s first stone');
    await page.click('[data-testid=stair-last]');
    s = await score();
    expect(+s.difference === ans.score_difference, 'End shows the final difference again');
  },
};

/* ---------------------------------------------------------------- per game: a malformed position */

const malformed = {
  'matrix-game': '3 1\n1 2 3\n4 5 6\n7 8\n',
  'grid-walk': '2 3\n..#\n..\n',
  'nim-shortcuts': '2 1\n3 0\n3 0\n0 0\n',
  'prime-chocolate': '3\n--X\n--\n---\n',
  'staircase-chess': '2 3\n2 7 3\n9 1 x\n3 7 2\n2 3 1\n',
};

/** Put `text` in the editor, solve, and check the API's error is shown beside its line. */
async function errorBesideLine(page, game, text) {
  const { status, data } = await api(`/solve/${game}`, text);
  expect(status === 400 && data.error.line, `the API answers ${status} with a line for this text`);
  const want = data.error;
  await page.fill('[data-testid=position]', text);
  const state = await solveInPage(page);
  expect(state === 'error', `the result state is ${state}`);
  const msg = page.locator('[data-testid=error]');
  expect(await msg.isVisible(), 'the message is visible');
  expect(await msg.getAttribute('role') === 'alert', 'the message has role=alert');
  expect(await msg.textContent() === want.message, `the message reads '${await msg.textContent()}'`);
  expect(await msg.getAttribute('data-line') === String(want.line), 'the message names the line');
  // Where line N is drawn in the text area, and that band and message sit by it.
  const geo = await page.evaluate((line) => {
    const ta = document.getElementById('position');
    const cs = getComputedStyle(ta);
    const lh = parseFloat(cs.lineHeight);
    const top = ta.getBoundingClientRect().top + parseFloat(cs.paddingTop) + (line - 1) * lh - ta.scrollTop;
    const band = document.getElementById('err-band').getBoundingClientRect();
    const mark = document.getElementById('err-mark');
    const msgBox = document.getElementById('err-msg').getBoundingClientRect();
    const gutter = document.getElementById('gutter');
    const taBox = ta.getBoundingClientRect();
    return { lh, top, band: band.top, bandHidden: document.getElementById('err-band').hidden, markHidden: mark.hidden,
      msgTop: msgBox.top, msgBottom: msgBox.bottom, inView: top >= taBox.top && top + lh <= taBox.bottom,
      gutterSync: gutter.scrollTop === ta.scrollTop, invalid: ta.getAttribute('aria-invalid') };
  }, want.line);
  expect(!geo.bandHidden && !geo.markHidden, 'line marks shown');
  expect(geo.inView, 'the named line is scrolled into view');
  expect(Math.abs(geo.band - geo.top) < 1.5, `the band is at line ${want.line} (y ${geo.band}, line at ${geo.top})`);
  expect(geo.gutterSync, 'the line numbers scroll with the text');
  const below = Math.abs(geo.msgTop - (geo.top + geo.lh)) < 4;
  const above = Math.abs(geo.msgBottom - geo.top) < 4;
  expect(below || above, `the message is right by line ${want.line} (message ${geo.msgTop}..${geo.msgBottom}, line at ${geo.top})`);
  expect(geo.invalid === 'true', 'the text area is aria-invalid');
}

/* ---------------------------------------------------------------- per game: play mode */

/** The verdict the page should give, from the API's analysis before the move. */
function expectedVerdict(game, before, move) {
  if (game === 'staircase-chess') {
    const sign = before.to_move === 'black' ? 1 : -1;
    const best = sign * before.score_so_far + before.value;
    const mine = sign * before.score_so_far + before.moves.find((x) => same(x.move, move)).score;
    return best <= 0 ? 'lost' : mine > 0 ? 'kept' : 'threw';
  }
  if (before.value === 'lose') return 'lost';
  return before.moves.find((x) => same(x.move, move)).outcome === 'win' ? 'kept' : 'threw';
}

/** Make `move` on the play board, by click or (keyboard) focus and Enter. */
async function makeMove(page, game, move, how) {
  if (game === 'nim-shortcuts') {
    if (how === 'form') {
      await page.selectOption('[data-testid=nim-heap]', String(move.heap));
      await page.fill('[data-testid=nim-take]', String(move.take));
      await page.press('[data-testid=nim-take]', 'Enter'); // submits the form
      return;
    }
    const b = await page.$eval('[data-testid=play-board]', (e) => ({ x0: +e.dataset.x0, y0: +e.dataset.y0, h: +e.dataset.h }));
    const heaps = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request')).heaps;
    const x = move.heap === 1 ? heaps[0] - move.take : heaps[0];
    const y = move.heap === 2 ? heaps[1] - move.take : heaps[1];
    const sel = `[data-testid=play-board] [data-r="${b.y0 + b.h - y}"][data-c="${x - b.x0 + 1}"]`;
    if (!(await page.$(sel))) return makeMove(page, game, move, 'form');
    await page.click(sel);
    return;
  }
  let cell = move;
  if (game === 'prime-chocolate') {
    // The square's side first, then its top-left corner.
    await page.selectOption('[data-testid=choc-size]', String(move.size));
    await page.waitForFunction((size) => {
      const b = document.querySelector('[data-testid=play-board]');
      return b && b.dataset.size === String(size);
    }, move.size);
    cell = [move.row, move.col];
  }
  const sel = `[data-testid=play-board] [data-r="${cell[0]}"][data-c="${cell[1]}"]`;
  if (how === 'keyboard') {
    await page.focus(sel);
    await page.keyboard.press('Enter');
  } else {
    await page.click(sel);
  }
}

async function playOneGame(page, game, start) {
  const ways = game === 'nim-shortcuts' ? ['form', 'click'] : ['click', 'keyboard'];
  if (start) await start();
  else await page.click('[data-testid=play-start]');
  let moves = 0;
  const seen = new Set();
  for (let turn = 0; turn < 200; turn++) {
    await page.waitForSelector('[data-testid=play][data-phase=your-turn], [data-testid=play][data-phase=over], [data-testid=play][data-phase=error]', { timeout: 15_000 });
    const phase = await page.getAttribute('[data-testid=play]', 'data-phase');
    expect(phase !== 'error', `play failed: ${await page.textContent('[data-testid=play-status]')}`);
    if (phase === 'over') break;
    // matrix-game never ends: once a position came back, end it there.
    if (await page.isVisible('[data-testid=play-stop]')) {
      await page.click('[data-testid=play-stop]');
      continue;
    }
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    const before = await analyze(game, request);
    expect(before.moves.length > 0, 'the API lists a move for the person');
    // The first move the last listed one (often a losing one), then the best.
    const pick = turn === 0 ? before.moves[before.moves.length - 1] : before.moves[0];
    const want = expectedVerdict(game, before, pick.move);
    const logBefore = await page.locator('[data-testid=play-log] li').count();
    await makeMove(page, game, pick.move, ways[turn % 2]);
    await page.waitForFunction((n) => document.querySelectorAll('[data-testid=play-log] li').length > n, logBefore, { timeout: 10_000 });
    const got = await page.getAttribute('[data-testid=play-verdict]', 'data-verdict');
    const text = await page.textContent('[data-testid=play-verdict]');
    expect(got === want, `move ${moves + 1} ${JSON.stringify(pick.move)}: the page says '${got}' (${text}), /analyze says '${want}'`);
    const phrase = { kept: 'kept the win', threw: 'threw away the win', lost: 'already lost' }[want];
    expect(text.includes(phrase), `the message says '${phrase}': '${text}'`);
    seen.add(want);
    moves++;
  }
  const phase = await page.getAttribute('[data-testid=play]', 'data-phase');
  expect(phase === 'over', `the game ended (phase ${phase})`);
  expect(moves > 0, 'the person made at least one move');
  // Who won, from the API's view of the final position.
  const last = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
  const end = await analyze(game, last);
  const person = await page.$eval('[data-testid=play-side]', (s) => s.value);
  let loser;
  if (game === 'staircase-chess') loser = end.score_so_far === 0 ? 'draw' : end.score_so_far > 0 ? 'white' : 'black';
  // matrix-game stops when a position comes back: the loser is who loses it.
  else if (game === 'matrix-game') loser = end.value === 'win' ? (end.to_move === 'M' ? 'G' : 'M') : end.to_move;
  else loser = end.to_move;
  const winner = loser === 'draw' ? 'draw' : loser === person ? 'engine' : 'you';
  expect(await page.getAttribute('[data-testid=play]', 'data-winner') === winner, `the page names the winner (${winner})`);
  return { moves, seen: [...seen] };
}

/* ---------------------------------------------------------------- the run */

const pageErrors = [];
const offsite = [];
let daemon = null;
let browser = null;

async function cleanup() {
  if (browser) { try { await browser.close(); } catch (e) { /* already gone */ } browser = null; }
  if (daemon) { daemon.kill('SIGTERM'); daemon = null; }
}
process.on('exit', () => { if (daemon) daemon.kill('SIGKILL'); });
const watchdog = setTimeout(async () => {
  console.log(`FAIL the browser tests took over ${DEADLINE_MS / 1000} s`);
  counts.failed++;
  await cleanup();
  console.log(`browser: ${counts.passed} passed, ${counts.failed} failed`);
  process.exit(1);
}, DEADLINE_MS);

const t0 = Date.now();
try {
  mkdirSync(SHOTS, { recursive: true });
  const started = await startDaemon({ args: ['--generate-budget-ms', String(PUZZLE_BUDGET_MS)] });
  daemon = started.child;
  base = started.base;
  const origin = new URL(base).origin;
  const catalogue = await (await fetch(base + '/games')).json();
  const samples = Object.fromEntries(catalogue.games.map((g) => [g.name, g.example]));

  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const context = await browser.newContext({ viewport: { width: 1000, height: 800 }, serviceWorkers: 'block' });
  // Any request leaving the daemon's origin fails the run (data: URLs are inline).
  context.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) offsite.push(url);
  });

  // Every new puzzle the page asks for is asked with `tries` under a budget no
  // load reaches: with the page's seed fixed, what comes is the parameters' alone.
  await context.route(/\/puzzle\/[a-z-]+\?/, (route) => {
    const u = new URL(route.request().url());
    u.searchParams.set('tries', '200');
    u.searchParams.set('budget_ms', String(PUZZLE_BUDGET_MS));
    return route.continue({ url: u.toString() });
  });

  const page = await openPage(context);
  await check('GET / serves the page with a game picker, a labelled text area and a Solve button', async () => {
    const labels = await page.evaluate(() => ['game', 'position', 'side'].map((id) => !!document.querySelector(`label[for=${id}]`)));
    expect(labels.every(Boolean), `labels: ${labels}`);
    const options = await page.$$eval('[data-testid=game-select] option', (o) => o.map((x) => x.value));
    expect(same(options, catalogue.games.map((g) => g.name)), `games offered: ${options}`);
  });

  for (const game of Object.keys(drawn)) {
    const sample = samples[game];
    await check(`${game}: the sample is prefilled, solved and drawn as the API answers`, async () => {
      await page.goto(base + '/');
      await page.waitForSelector('body[data-ready="true"]');
      await pickGame(page, game);
      expect(await page.inputValue('[data-testid=position]') === sample.text, 'the text area holds the sample');
      let state;
      if (game === 'matrix-game') {
        // Keyboard: from the game picker, Tab to Solve and press Enter.
        state = await solveInPage(page, async () => {
          await page.focus('[data-testid=game-select]');
          for (let i = 0; i < 8; i++) {
            await page.keyboard.press('Tab');
            if (await page.evaluate(() => document.activeElement.id === 'solve')) break;
          }
          expect(await page.evaluate(() => document.activeElement.id === 'solve'), 'Tab reaches the Solve button');
          await page.keyboard.press('Enter');
        });
      } else {
        state = await solveInPage(page);
      }
      expect(state === 'done', `the result state is ${state}: ${await page.textContent('[data-testid=status]')}`);
      const ans = await solve(game, sample.text);
      await drawn[game](page, sample, ans);
      await shot(page, game);
    });
    await check(`${game}: an error is shown beside the line it names`, async () => {
      await errorBesideLine(page, game, malformed[game]);
    });
  }

  await check('grid-walk: an error far down a long text scrolls to its line', async () => {
    await pickGame(page, 'grid-walk');
    const rows = Array.from({ length: 30 }, (_, i) => (i === 23 ? '....' : '.....'));
    await errorBesideLine(page, 'grid-walk', `30 5\n${rows.join('\n')}\n`);
  });

  await check('grid-walk: the board edits the position from the keyboard (arrows, Enter, Space)', async () => {
    await page.click('[data-testid=reset]');
    const cell = '[data-testid=board] button[tabindex="0"]';
    await page.focus(cell);
    await page.keyboard.press('ArrowRight');
    const at = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
    expect(same(at, ['1', '2']), `ArrowRight moves to (1, 2), not ${at}`);
    await page.keyboard.press('Enter');
    expect(await page.inputValue('[data-testid=position]') === '2 3\n.##\n...\n', 'Enter blocks the cell in the text');
    const still = await page.evaluate(() => [document.activeElement.dataset.r, document.activeElement.dataset.c]);
    expect(same(still, ['1', '2']), 'the focus stays on the cell');
    await page.keyboard.press(' ');
    expect(await page.inputValue('[data-testid=position]') === '2 3\n..#\n...\n', 'Space frees it again');
  });

  await check('prime-chocolate: a click on the bar eats a square and the answer follows', async () => {
    await pickGame(page, 'prime-chocolate');
    await page.click('[data-testid=reset]');
    await page.click('[data-testid=board] [data-r="2"][data-c="2"]');
    const text = await page.inputValue('[data-testid=position]');
    expect(text === '3\n--X\n-X-\n---\n', `the text became ${JSON.stringify(text)}`);
    expect(await solveInPage(page) === 'done', 'solved');
    const ans = await solve('prime-chocolate', text);
    expect(await page.getAttribute('[data-testid=winner]', 'data-winner') === ans.winner, `the winner drawn is the API's ${ans.winner}`);
  });

  for (const game of ['grid-walk', 'nim-shortcuts', 'staircase-chess', 'matrix-game', 'prime-chocolate']) {
    await check(`${game}: one whole game in play mode, each verdict as /analyze says`, async () => {
      await page.goto(`${base}/#${game}`);
      await page.waitForSelector('body[data-ready="true"]');
      expect(await page.$eval('[data-testid=game-select]', (s) => s.value) === game, 'the page opens on the game in the address');
      await page.click('[data-testid=reset]'); // the text left by the error check is not a position
      let start;
      if (game === 'nim-shortcuts') {
        // A richer position than the sample's queries: heaps (5, 7).
        await page.fill('[data-testid=position]', '3 1\n3 0\n0 1\n2 4\n5 7\n');
        await page.waitForFunction(() => document.querySelectorAll('#nim-start option').length === 1);
      }
      if (game === 'staircase-chess') {
        // Start from the keyboard: Tab to the button and press Enter.
        start = async () => {
          await page.focus('[data-testid=play-side]');
          for (let i = 0; i < 4 && !(await page.evaluate(() => document.activeElement.id === 'play-start')); i++) await page.keyboard.press('Tab');
          expect(await page.evaluate(() => document.activeElement.id === 'play-start'), 'Tab reaches Start');
          await page.keyboard.press('Enter');
        };
      }
      const { moves, seen } = await playOneGame(page, game, start);
      if (game === 'matrix-game') {
        const said = await page.textContent('[data-testid=play-status]');
        expect(said.includes('cannot decide'), `the end says why the points so far do not decide: '${said}'`);
      }
      await page.locator('[data-testid=play]').scrollIntoViewIfNeeded();
      await shot(page, `${game}-play`);
      console.log(`     (${moves} moves by the person; verdicts seen: ${seen.join(', ')})`);
    });
  }

  await check('staircase-chess: play as white, the engine opens', async () => {
    await page.goto(`${base}/#staircase-chess`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.selectOption('[data-testid=play-side]', 'white');
    await page.click('[data-testid=play-start]');
    await page.waitForSelector('[data-testid=play][data-phase=your-turn]');
    const log = await page.$$eval('[data-testid=play-log] li', (l) => l.map((x) => x.textContent));
    expect(log.length === 1 && log[0].startsWith('Engine'), `the engine moved first: ${log}`);
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    const opening = await analyze('staircase-chess', { ...request, stones: [] });
    expect(same(request.stones, [opening.moves[0].move]), 'the engine played the first listed move');
  });

  await check('prime-chocolate: the square-side control offers 1 and the unused primes, and a prime square is eaten whole', async () => {
    await page.goto(`${base}/#prime-chocolate`);
    await page.waitForSelector('body[data-ready="true"]');
    await page.fill('[data-testid=position]', '3\n---\n---\n---\n');
    await page.selectOption('[data-testid=play-side]', 'RUBY');
    await page.click('[data-testid=play-start]');
    await page.waitForSelector('[data-testid=play][data-phase=your-turn]');
    expect(await page.isVisible('[data-testid=choc-size]'), 'the control is shown');
    const sizes = await page.$$eval('[data-testid=choc-size] option', (o) => o.map((x) => +x.value));
    expect(same(sizes, [1, 2, 3]), `sides offered: ${sizes}`);
    await page.selectOption('[data-testid=choc-size]', '3');
    await page.waitForSelector('[data-testid=play-board][data-size="3"]');
    const corners = await page.$$eval('[data-testid=play-board] button:not([aria-disabled=true])', (b) => b.map((x) => [+x.dataset.r, +x.dataset.c]));
    expect(same(corners, [[1, 1]]), `only (1, 1) starts a whole 3 x 3 square: ${JSON.stringify(corners)}`);
    const before = await analyze('prime-chocolate', JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request')));
    await page.click('[data-testid=play-board] [data-r="1"][data-c="1"]');
    await page.waitForSelector('[data-testid=play][data-phase=over]');
    const want = expectedVerdict('prime-chocolate', before, { row: 1, col: 1, size: 3 });
    expect(await page.getAttribute('[data-testid=play-verdict]', 'data-verdict') === want, `the verdict is /analyze's '${want}'`);
    expect(await page.getAttribute('[data-testid=play]', 'data-winner') === 'you', 'eating the whole bar wins');
    const log = await page.$$eval('[data-testid=play-log] li', (l) => l.map((x) => x.textContent));
    expect(log.length === 1 && log[0].includes('3 x 3 square from (1, 1) (prime 3)'), `the log says so: ${log}`);
  });

  await check('prime-chocolate: a prime once used is no longer offered', async () => {
    await page.click('[data-testid=play-start]');
    await page.waitForSelector('[data-testid=play][data-phase=your-turn]');
    await page.selectOption('[data-testid=choc-size]', '2');
    await page.click('[data-testid=play-board] [data-r="2"][data-c="2"]');
    await page.waitForSelector('[data-testid=play][data-phase=your-turn], [data-testid=play][data-phase=over]');
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    expect(request.primes_used.includes(2), `prime 2 is used: ${JSON.stringify(request)}`);
    const log = await page.$$eval('[data-testid=play-log] li', (l) => l.map((x) => x.textContent));
    expect(log[0].startsWith('You: ate the 2 x 2 square from (2, 2) (prime 2)'), `the log says so: ${log}`);
    expect(request.grid[1].slice(1) === 'XX' && request.grid[2].slice(1) === 'XX', `the 2 x 2 square is eaten: ${request.grid}`);
    if (await page.getAttribute('[data-testid=play]', 'data-phase') === 'your-turn') {
      const sizes = await page.$$eval('[data-testid=choc-size] option', (o) => o.map((x) => +x.value));
      expect(!sizes.includes(2), `2 is not offered again: ${sizes}`);
    }
  });

  await check('the address holds the game and the position; a link to it restores them', async () => {
    await page.goto(`${base}/#prime-chocolate`);
    await page.waitForSelector('body[data-ready="true"]');
    const text = '4\n--X-\n----\n----\n-X--\n';
    await page.fill('[data-testid=position]', text);
    await page.waitForFunction((t) => new URLSearchParams(location.hash.slice(1)).get('pos') === t, text, { timeout: 5000 });
    const hash = await page.evaluate(() => location.hash);
    expect(new URLSearchParams(hash.slice(1)).get('game') === 'prime-chocolate', `the address names the game: ${hash}`);
    expect(await page.getAttribute('[data-testid=share-link]', 'href') === hash, 'the share link is the address');
    const other = await openPage(context, `/${hash}`);
    try {
      expect(await other.$eval('[data-testid=game-select]', (e) => e.value) === 'prime-chocolate', 'the link opens on the game');
      expect(await other.inputValue('[data-testid=position]') === text, 'the link restores the text');
    } finally {
      await other.close();
    }
  });

  await check('a link made during a game restores the side and the moves played, and play goes on', async () => {
    await pickGame(page, 'grid-walk');
    await page.click('[data-testid=reset]');
    await page.selectOption('[data-testid=play-side]', 'B');
    await page.click('[data-testid=play-start]');
    await page.waitForSelector('[data-testid=play][data-phase=your-turn]');
    const request = JSON.parse(await page.getAttribute('[data-testid=play]', 'data-request'));
    const hash = await page.evaluate(() => location.hash);
    const q = new URLSearchParams(hash.slice(1));
    expect(q.get('side') === 'B' && same(JSON.parse(q.get('moves')), request.path), `the address holds side B and the path ${JSON.stringify(request.path)}: ${hash}`);
    const other = await openPage(context, `/${hash}`);
    try {
      await other.waitForSelector('[data-testid=play][data-phase=your-turn]', { timeout: 10_000 });
      expect(await other.$eval('[data-testid=play-side]', (e) => e.value) === 'B', 'the side is restored');
      const again = JSON.parse(await other.getAttribute('[data-testid=play]', 'data-request'));
      expect(same(again, request), `the position in play is restored: ${JSON.stringify(again)}`);
      const log = await other.$$eval('[data-testid=play-log] li', (l) => l.map((x) => x.textContent));
      expect(log.length === request.path.length && log.every((x) => /^(Engine \(level \d\)|You): /.test(x)), `the moves are listed with who played them: ${log}`);
      // Play goes on from there: the person's move is judged as /analyze says.
      const before = await analyze('grid-walk', again);
      const pick = before.moves[0];
      await makeMove(other, 'grid-walk', pick.move, 'click');
      await other.waitForFunction((n) => document.querySelectorAll('[data-testid=play-log] li').length > n, log.length);
      const got = await other.getAttribute('[data-testid=play-verdict]', 'data-verdict');
      expect(got === expectedVerdict('grid-walk', before, pick.move), `the move after the restore is judged (${got})`);
      const moved = new URLSearchParams((await other.evaluate(() => location.hash)).slice(1));
      expect(JSON.parse(moved.get('moves')).length > request.path.length, 'the address follows the new moves');
    } finally {
      await other.close();
    }
  });

  await check('a link with unreadable moves shows its position and says what is wrong', async () => {
    const q = new URLSearchParams({ game: 'grid-walk', pos: '1 2\n..\n', side: 'A', moves: '[[1,' });
    const other = await openPage(context, `/#${q}`);
    try {
      expect(await other.inputValue('[data-testid=position]') === '1 2\n..\n', 'the position is shown');
      const status = await other.textContent('[data-testid=status]');
      expect(status.includes('not JSON'), `the page says the moves are not JSON: '${status}'`);
      expect(await other.locator('[data-testid=play-log] li').count() === 0, 'no game was started');
    } finally {
      await other.close();
    }
  });

  await check('matrix-game: a 60 x 60 board is drawn on a canvas, each cell as the API answers', async () => {
    // A fixed pseudo-random permutation of 1..3600.
    const n = 60;
    const values = Array.from({ length: n * n }, (_, i) => i + 1);
    let seed = 12345;
    for (let i = values.length - 1; i > 0; i--) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const j = seed % (i + 1);
      [values[i], values[j]] = [values[j], values[i]];
    }
    const text = `${n} 7\n` + Array.from({ length: n }, (_, r) => values.slice(r * n, (r + 1) * n).join(' ')).join('\n') + '\n';
    await pickGame(page, 'matrix-game');
    await page.fill('[data-testid=position]', text);
    const t = Date.now();
    expect(await solveInPage(page) === 'done', 'solved');
    const took = Date.now() - t;
    expect(took < 5000, `solved and drawn in ${took} ms`);
    const ans = await solve('matrix-game', text);
    const m = ans.outcomes.join('').split('').filter((x) => x === 'M').length;
    const board = await page.$eval('[data-testid=board]', (c) => ({ tag: c.tagName, summary: c.dataset.summary, label: c.getAttribute('aria-label') }));
    expect(board.tag === 'CANVAS', `drawn on a ${board.tag}`);
    expect(same(JSON.parse(board.summary), { M: m, G: n * n - m }), `data-summary ${board.summary}, the API has ${m} M`);
    expect(board.label.includes(`M wins from ${m} cells`), `a text alternative: ${board.label}`);
    // Read every cell's colour back from the canvas.
    const colours = await page.$eval('[data-testid=board]', (c) => {
      const px = +c.dataset.cellPx, probe = +c.dataset.probe;
      const pal = JSON.parse(c.dataset.palette);
      const hex = (d, i) => '#' + [d[i], d[i + 1], d[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('');
      const data = c.getContext('2d').getImageData(0, 0, c.width, c.height).data;
      const out = [];
      const rows = +c.dataset.rows, cols = +c.dataset.cols;
      for (let r = 0; r < rows; r++) {
        let line = '';
        for (let k = 0; k < cols; k++) {
          const h = hex(data, ((r * px + probe) * c.width + k * px + probe) * 4);
          line += h === pal.M ? 'M' : h === pal.G ? 'G' : '?';
        }
        out.push(line);
      }
      return out;
    });
    expect(same(colours, ans.outcomes), `canvas colours differ from the API's outcomes, first at row ${colours.findIndex((l, i) => l !== ans.outcomes[i]) + 1}`);
    await shot(page, 'matrix-game-canvas');
  });

  await check('grid-walk: a 50 x 50 canvas board edits by click and by keyboard', async () => {
    await pickGame(page, 'grid-walk');
    const rows = Array.from({ length: 50 }, () => '.'.repeat(50));
    await page.fill('[data-testid=position]', `50 50\n${rows.join('\n')}\n`);
    await page.waitForSelector('canvas[data-testid=board]');
    // Earlier checks may leave the page scrolled (a hash-only goto keeps the scroll).
    await page.evaluate(() => document.querySelector('canvas[data-testid=board]').scrollIntoView({ block: 'start' }));
    const box = await page.locator('canvas[data-testid=board]').boundingBox();
    // Click the middle of row 10, column 20.
    await page.mouse.click(box.x + (19.5 / 50) * box.width, box.y + (9.5 / 50) * box.height);
    let grid = (await page.inputValue('[data-testid=position]')).split('\n');
    expect(grid[10][19] === '#', 'the click blocked (10, 20)');
    // The redrawn canvas keeps the focus and its cursor on that cell.
    expect(await page.evaluate(() => document.activeElement.tagName === 'CANVAS'), 'the canvas has the focus');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Enter');
    grid = (await page.inputValue('[data-testid=position]')).split('\n');
    expect(grid[10][20] === '#', 'ArrowRight and Enter blocked (10, 21)');
    expect(await solveInPage(page) === 'done', 'solved');
    const ans = await solve('grid-walk', await page.inputValue('[data-testid=position]'));
    const summary = JSON.parse(await page.getAttribute('[data-testid=board]', 'data-summary'));
    expect(summary.winning === ans.winning_cells.length && summary.blocked === 2, `data-summary ${JSON.stringify(summary)}`);
  });

  // The engine, the line and puzzles, against the real /move, /analyze "line" and /puzzle:
  // the page's requests are watched (never answered here) and their answers re-asked from Node.
  const GAMES = ['grid-walk', 'nim-shortcuts', 'staircase-chess', 'matrix-game', 'prime-chocolate'];
  const sent = [];
  // Math.random fixed (mulberry32, seed 20261201): the puzzles' seeds and the engine's are the same every run.
  const rp = await openPage(context, '/', () => {
    let a = 20261201;
    Math.random = () => {
      a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  });
  rp.on('request', (req) => {
    const u = new URL(req.url());
    if (req.method() === 'POST' && u.origin === origin) {
      let body = null;
      try { body = req.postDataJSON(); } catch (e) { body = req.postData(); }
      sent.push({ path: u.pathname, body });
    }
  });
  const since = (n, prefix) => sent.slice(n).filter((x) => x.path.startsWith(prefix));
  async function openGame(game) {
    await rp.goto(`${base}/#${game}`);
    await rp.waitForSelector('body[data-ready="true"]');
    await rp.click('[data-testid=reset]');
  }
  /** The position a move's `after` describes, checked against the page's next /analyze body. */
  function afterMatches(game, request, entry) {
    if (game === 'grid-walk') return same(request.path[request.path.length - 1], entry.move);
    if (game === 'staircase-chess') return same(request.stones[request.stones.length - 1], entry.move);
    if (game === 'nim-shortcuts') return same(request.heaps, entry.after.heaps) && request.to_move === entry.after.to_move;
    if (game === 'matrix-game') return same(request.token, entry.after.token) && request.to_move === entry.after.to_move;
    const left = request.grid.join('').split('').filter((ch) => ch === '-').length;
    return left === entry.after.chocolate_left && same(request.primes_used, entry.after.primes_used) && request.to_move === entry.after.to_move;
  }

  for (const [i, game] of GAMES.entries()) {
    const level = [1, 2, 3, 4, 5][i];
    await check(`${game}: the level picker lists /games' levels, and the engine plays /move's answer at level ${level}`, async () => {
      await openGame(game);
      const info = catalogue.games.find((g) => g.name === game);
      const options = await rp.$$eval('[data-testid=play-level] option', (o) => o.map((x) => ({ level: +x.value, name: x.textContent.replace(/^\d+: /, ''), doc: x.title })));
      const listed = info.move.levels.map((l) => ({ level: l.level, name: l.name, doc: l.doc }));
      expect(same(options, listed), `levels offered ${JSON.stringify(options)}, /games lists ${JSON.stringify(listed)}`);
      expect(await rp.$eval('[data-testid=play-level]', (s) => s.value) === '5', 'perfect play is the default');
      await rp.selectOption('[data-testid=play-level]', String(level));
      expect(await rp.textContent('[data-testid=level-doc]') === info.move.levels[level - 1].doc, 'the chosen level\'s description is shown');
      // The engine moves first: the person takes the second side.
      const second = await rp.$$eval('[data-testid=play-side] option', (o) => o[1].value);
      await rp.selectOption('[data-testid=play-side]', second);
      const n = sent.length;
      const moved = rp.waitForResponse((r) => new URL(r.url()).pathname === `/move/${game}`, { timeout: 15_000 });
      await rp.click('[data-testid=play-start]');
      const res = await moved;
      const got = { status: res.status(), data: await res.json() };
      await rp.waitForSelector('[data-testid=play][data-phase=your-turn], [data-testid=play][data-phase=over]', { timeout: 15_000 });
      const asked = since(n, `/move/${game}`);
      expect(asked.length >= 1, 'the page asked /move');
      expect(asked.every((x) => x.body.level === level && Number.isInteger(x.body.seed) && !('max_moves' in x.body) && !('line' in x.body)),
        `/move was asked at level ${level}, with a seed: ${JSON.stringify(asked.map((x) => [x.body.level, x.body.seed]))}`);
      expect(got.status === 200 && got.data.level === level && got.data.seed === asked[0].body.seed, `/move answered ${got.status}: ${JSON.stringify(got.data)}`);
      expect(same(JSON.parse(await rp.getAttribute('[data-testid=play]', 'data-engine')), got.data) || asked.length > 1, 'the page kept /move\'s answer');
      if (asked.length === 1) {
        const request = JSON.parse(await rp.getAttribute('[data-testid=play]', 'data-request'));
        expect(afterMatches(game, request, got.data), `the engine played /move's ${JSON.stringify(got.data.move)}: the page is at ${JSON.stringify(request)}`);
      }
      // The same body and seed give the same move (the seed makes the engine reproducible).
      const again = await api(`/move/${game}`, asked[0].body);
      expect(again.status === 200 && same(again.data.move, got.data.move), `/move with seed ${got.data.seed} answers ${JSON.stringify(again.data.move)} again`);
      const log = await rp.$$eval('[data-testid=play-log] li', (l) => l.map((x) => x.textContent));
      expect(log[0].startsWith(`Engine (level ${level})`), `the log names the level: ${log[0]}`);
    });

    await check(`${game}: "Perfect play from here" shows /analyze's line, from one request`, async () => {
      // A fresh game with the visitor to move (the engine's game above may be over already).
      const first = await rp.$$eval('[data-testid=play-side] option', (o) => o[0].value);
      await rp.selectOption('[data-testid=play-side]', first);
      await rp.click('[data-testid=play-start]');
      await rp.waitForSelector('[data-testid=play][data-phase=your-turn]', { timeout: 15_000 });
      const request = JSON.parse(await rp.getAttribute('[data-testid=play]', 'data-request'));
      const n = sent.length;
      await rp.click('[data-testid=line-show]');
      await rp.waitForFunction(() => document.querySelectorAll('[data-testid=line] li').length > 0 || document.querySelector('[data-testid=line-note]').textContent);
      const asked = since(n, '/');
      expect(asked.length === 1 && asked[0].path === `/analyze/${game}` && asked[0].body.line === true, `one /analyze with line: ${JSON.stringify(asked.map((x) => x.path))}`);
      const truth = await analyze(game, { ...request, line: true });
      const shown = await rp.$$eval('[data-testid=line] li', (l) => l.map((x) => JSON.parse(x.dataset.move)));
      expect(shown.length > 0, 'a line is shown');
      expect(same(shown, truth.line.map((e) => e.move)), `the line shown ${JSON.stringify(shown)} is /analyze's ${JSON.stringify(truth.line.map((e) => e.move))}`);
      const d = await rp.$eval('[data-testid=line]', (e) => ({ ...e.dataset }));
      expect(d.truncated === String(truth.line_truncated) && d.cycle === String(truth.line_cycle), `the marks ${JSON.stringify(d)}`);
      const note = await rp.textContent('[data-testid=line-note]');
      if (game === 'matrix-game') {
        expect(truth.line_cycle && +d.cycleStart === truth.line_cycle_start, `the cycle starts at ${d.cycleStart}, /analyze says ${truth.line_cycle_start}`);
        expect(note.includes(`From move ${truth.line_cycle_start + 1} on, the same moves repeat`), `the note: '${note}'`);
        const marked = await rp.$$eval('[data-testid=line] li', (l) => l.map((x) => x.dataset.cycle === 'true'));
        expect(same(marked, marked.map((_, j) => j >= truth.line_cycle_start)), `the repeating moves are marked: ${marked}`);
      } else {
        expect(!truth.line_cycle && d.cycleStart === '-1', 'no cycle outside matrix-game');
      }
      if (truth.line_truncated) expect(note.includes('goes on past'), `the truncation is said: '${note}'`);
      if (game === 'matrix-game') {
        await rp.locator('[data-testid=line]').scrollIntoViewIfNeeded();
        await shot(rp, 'perfect-line');
      }
    });

    const findIt = i % 2 === 0; // play the solving move in some games, a wrong one in the others
    await check(`${game}: New puzzle asks /puzzle for the band chosen, .../check says the move ${findIt ? 'found' : 'missed'} it, and a link gives it again`, async () => {
      await openGame(game);
      await rp.selectOption('[data-testid=puzzle-band]', game === 'grid-walk' ? 'medium' : 'easy');
      await rp.selectOption('[data-testid=puzzle-depth]', '1');
      let puzzle = null;
      // A band the generator finds nothing of within its budget is a 422: the visitor asks again.
      for (let tries = 0; tries < 4 && !(puzzle && puzzle.status === 200); tries++) {
        const made = rp.waitForResponse((r) => new URL(r.url()).pathname === `/puzzle/${game}`, { timeout: 60_000 });
        await rp.click('[data-testid=puzzle-new]');
        const res = await made;
        puzzle = { status: res.status(), data: await res.json(), url: new URL(res.url()) };
      }
      expect(puzzle.status === 200, `/puzzle answered ${puzzle.status}: ${JSON.stringify(puzzle.data)}`);
      expect(puzzle.url.searchParams.get('band') === (game === 'grid-walk' ? 'medium' : 'easy'), `asked ${puzzle.url.search}`);
      await rp.waitForSelector('[data-testid=play][data-phase=your-turn]', { timeout: 60_000 });
      const { id } = puzzle.data;
      expect(await rp.$eval('[data-testid=play-side]', (s) => s.value) === puzzle.data.to_move, 'the visitor plays the side to move');
      const hash = new URLSearchParams((await rp.evaluate(() => location.hash)).slice(1));
      expect(hash.get('puzzle') === id, `the address holds the id: ${hash.get('puzzle')}`);
      const { data: truth } = await api(`/puzzle/${game}/${id}/check`, { moves: [], reveal: true });
      const right = truth.solution[0].move;
      let pick = right;
      if (!findIt) {
        const p = puzzle.data.position;
        const body = game === 'staircase-chess'
          ? { a: p.a, b: p.b, stones: p.profile.flatMap((n, r) => Array.from({ length: n }, (_, c) => [r + 1, c + 1])) }
          : { ...p, to_move: puzzle.data.to_move };
        // Fields compared whatever order each answer writes them in.
        const key = (mv) => JSON.stringify(Object.entries(mv).sort());
        pick = (await analyze(game, { ...body, max_moves: 50 })).moves.map((m) => m.move).find((m) => key(m) !== key(right));
      }
      await makeMove(rp, game, pick, game === 'nim-shortcuts' ? 'form' : 'click');
      const want = findIt && puzzle.data.depth === 1 ? 'solved' : findIt ? 'correct' : 'missed';
      await rp.waitForSelector(`[data-testid=puzzle-status][data-verdict=${want}]`, { timeout: 15_000 });
      const checked = await api(`/puzzle/${game}/${id}/check`, { moves: [pick] });
      expect(checked.data.results[0].correct === findIt && checked.data.failed === !findIt, `.../check agrees: ${JSON.stringify(checked.data)}`);
      if (game === 'grid-walk') {
        await rp.locator('[data-testid=play]').scrollIntoViewIfNeeded();
        await shot(rp, 'puzzle');
      }
      const link = await rp.evaluate(() => location.hash);
      const again = await openPage(context, `/${link}`);
      try {
        await again.waitForSelector(`[data-testid=puzzle-status][data-verdict=${want}]`, { timeout: 15_000 });
        expect(await again.getAttribute('[data-testid=puzzle-info]', 'data-id') === id, 'the link gives the same puzzle');
        const moves = JSON.parse(new URLSearchParams(link.slice(1)).get('moves'));
        expect(same(moves, [pick]), `the link holds the move: ${JSON.stringify(moves)}`);
      } finally {
        await again.close();
      }
    });
  }

  await check('staircase-chess: the stepper takes the whole perfect game from one /analyze', async () => {
    await openGame('staircase-chess');
    const n = sent.length;
    expect(await solveInPage(rp) === 'done', 'solved');
    const asked = since(n, '/analyze/');
    expect(asked.length === 1 && asked[0].body.line === true, `one /analyze, with line (${asked.length})`);
    const sample = samples['staircase-chess'];
    const truth = await analyze('staircase-chess', { a: sample.json.a, b: sample.json.b, stones: [], line: true, max_line: 100 });
    const ans = await solve('staircase-chess', sample.text);
    const s = await rp.$eval('[data-testid=stair-score]', (e) => ({ ...e.dataset }));
    expect(+s.step === truth.line.length && +s.difference === ans.score_difference, `the stepper ends on the perfect score ${ans.score_difference}: ${JSON.stringify(s)}`);
  });
  await rp.close();

  await check('phone width (375 px): no horizontal scroll for any game, boards fit', async () => {
    const phone = await browser.newContext({ viewport: { width: 375, height: 800 }, isMobile: true, hasTouch: true });
    phone.on('request', (req) => {
      const url = req.url();
      if (!url.startsWith('data:') && new URL(url).origin !== origin) offsite.push(url);
    });
    try {
      const p = await openPage(phone);
      for (const game of Object.keys(drawn)) {
        await pickGame(p, game);
        expect(await solveInPage(p) === 'done', `${game} solved`);
        const m = await p.evaluate(() => {
          const b = document.querySelector('[data-testid=board]');
          return { scroll: document.documentElement.scrollWidth, width: document.documentElement.clientWidth,
            board: b ? b.getBoundingClientRect().right : 0 };
        });
        expect(m.scroll <= m.width, `${game}: the page is ${m.scroll} px wide in a ${m.width} px window`);
        expect(m.board <= m.width, `${game}: the board ends at ${m.board} px`);
        if (game === 'grid-walk') await shot(p, 'phone');
      }
      // The play board too.
      await pickGame(p, 'staircase-chess');
      await p.click('[data-testid=play-start]');
      await p.waitForSelector('[data-testid=play][data-phase=your-turn]');
      const w = await p.evaluate(() => document.documentElement.scrollWidth);
      expect(w <= 375, `with the play board the page is ${w} px wide`);
    } finally {
      await phone.close();
    }
  });

  await check('the page made no request outside the daemon and raised no script error', async () => {
    expect(offsite.length === 0, `requests elsewhere: ${offsite.slice(0, 5).join(', ')}`);
    expect(pageErrors.length === 0, `script errors: ${pageErrors.slice(0, 5).join(' | ')}`);
  });
} catch (e) {
  counts.failed++;
  console.log(`FAIL the run stopped: ${(e && e.stack) || e}`);
} finally {
  clearTimeout(watchdog);
  await cleanup();
}
console.log(`browser: ${counts.passed} passed, ${counts.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
process.exit(counts.failed ? 1 : 0);
