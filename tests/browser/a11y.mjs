#!/usr/bin/env node
// a11y.mjs: axe-core (pinned in package.json) over every state of the
// playground page in Chromium, against the real daemon: no serious or
// critical violation in any.  Each state is one entry of STATES: a name,
// the window's width, and what to do on a freshly opened page to reach it;
// a new mode of the page is one more entry.
//
// Run from the repository root after `make all`:
//   node tests/browser/a11y.mjs
// GJ_BIN overrides the binary.  Prints one line per state (with the minor
// and moderate findings counted), then "a11y: N passed, M failed"; exits 1
// on any failure.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { check, context, daemon, expect, openPage, run } from './harness.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PHONE = 390;

/** Wait until the play panel is at one of `phases`. */
const phase = (page, ...phases) => page.waitForSelector(phases.map((p) => `[data-testid=play][data-phase=${p}]`).join(', '), { timeout: 20_000 });

/** Solve what the editor holds and wait for the answer. */
async function solved(page) {
  await page.click('[data-testid=solve]');
  await page.waitForSelector('[data-testid=result][data-state=done]', { timeout: 20_000 });
}

/** Start a game and wait for the visitor's turn. */
async function playing(page) {
  await page.click('[data-testid=play-start]');
  await phase(page, 'your-turn');
}

const STATES = [
  ...['matrix-game', 'grid-walk', 'nim-shortcuts', 'prime-chocolate', 'staircase-chess'].map((game) => ({
    name: `solve: ${game}'s sample solved`, path: `/#${game}`, setup: solved,
  })),
  { name: 'solve: an error shown beside its line', path: '/#grid-walk', async setup(page) {
    await page.fill('[data-testid=position]', '2 3\n..#\n..\n');
    await page.click('[data-testid=solve]');
    await page.waitForSelector('[data-testid=result][data-state=error]');
  } },
  { name: 'solve: a 60 x 60 canvas board, zoomed in', path: '/#matrix-game', async setup(page) {
    const values = Array.from({ length: 3600 }, (_, i) => ((i * 2801) % 3600) + 1);
    const rows = Array.from({ length: 60 }, (_, r) => values.slice(r * 60, (r + 1) * 60).join(' '));
    await page.fill('[data-testid=position]', `60 7\n${rows.join('\n')}\n`);
    await solved(page);
    await page.click('[data-testid=board-area] [data-testid=zoom-in]');
  } },
  { name: 'play: grid-walk, a game in progress', path: '/#grid-walk', setup: playing },
  { name: 'play: staircase-chess, stones on the board', path: '/#staircase-chess', async setup(page) {
    await playing(page);
    await page.click('[data-testid=play-board] button:not([aria-disabled=true])');
    await phase(page, 'your-turn', 'over');
  } },
  { name: 'play: nim-shortcuts, a game in progress', path: '/#nim-shortcuts', setup: playing },
  { name: 'play: prime-chocolate, a game in progress', path: '/#prime-chocolate', setup: playing },
  { name: 'play: a game over, with Play again', path: '/#grid-walk', async setup(page) {
    await page.fill('[data-testid=position]', '1 2\n..\n');
    await playing(page);
    await page.click('[data-testid=play-board] [data-r="1"][data-c="1"]');
    await phase(page, 'over');
  } },
  { name: 'play: a large canvas board in play, zoomed in on the token', path: '/#grid-walk', async setup(page) {
    await page.fill('[data-testid=position]', `60 60\n${Array.from({ length: 60 }, () => '.'.repeat(60)).join('\n')}\n`);
    await playing(page);
    await page.click('[data-testid=play-board]');
    await phase(page, 'your-turn', 'over');
    await page.click('[data-testid=play-board-area] [data-testid=zoom-token]');
  } },
  { name: 'puzzle: New puzzle (grid-walk)', path: '/#grid-walk', async setup(page) {
    await page.click('[data-testid=puzzle-new]');
    await phase(page, 'your-turn');
  } },
  { name: 'puzzle: New puzzle (matrix-game), a move made', path: '/#matrix-game', async setup(page) {
    await page.click('[data-testid=puzzle-new]');
    await phase(page, 'your-turn');
    await page.click('[data-testid=play-board] button:not([aria-disabled=true])');
    await phase(page, 'your-turn', 'over');
  } },
  { name: 'line: the perfect-play line (matrix-game)', path: '/#matrix-game', async setup(page) {
    await playing(page);
    await page.click('[data-testid=line-show]');
    await page.waitForFunction(() => document.querySelectorAll('[data-testid=line] li').length > 0, null, { timeout: 10_000 });
  } },
  { name: `phone (${PHONE} px): grid-walk solved`, width: PHONE, path: '/#grid-walk', setup: solved },
  { name: `phone (${PHONE} px): staircase-chess in play`, width: PHONE, path: '/#staircase-chess', setup: playing },
  { name: `phone (${PHONE} px): a puzzle (prime-chocolate)`, width: PHONE, path: '/#prime-chocolate', async setup(page) {
    await page.click('[data-testid=puzzle-new]');
    await phase(page, 'your-turn');
  } },
];

/** axe-core's violations on the page as it stands. */
async function axe(page) {
  // Evaluated (not a <script>), so the page's Content-Security-Policy is untouched.
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(AXE);
  return page.evaluate(async () => {
    const res = await window.axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

await run('a11y', 240_000, async () => {
  const { base, origin } = await daemon();
  const contexts = {};
  for (const state of STATES) {
    const width = state.width || 1000;
    if (!contexts[width]) contexts[width] = await context(origin, width, 800, width < 700 ? { isMobile: true, hasTouch: true } : {});
    await check(`axe-core: ${state.name}`, async () => {
      const page = await openPage(contexts[width], base + state.path);
      try {
        await state.setup(page);
        const found = await axe(page);
        const grave = found.filter((v) => v.impact === 'serious' || v.impact === 'critical');
        const rest = found.filter((v) => !grave.includes(v));
        if (rest.length) console.log(`     (${rest.map((v) => `${v.impact} ${v.id} x${v.nodes.length}`).join(', ')})`);
        expect(grave.length === 0, grave.map((v) => `${v.impact} ${v.id}: ${v.help} at ${v.nodes.slice(0, 3).join(', ')}`).join('\n'));
      } finally {
        await page.close();
      }
    });
  }
});
