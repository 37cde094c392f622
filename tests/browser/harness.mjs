// harness.mjs: what boards.mjs and a11y.mjs share besides checks.mjs's named
// checks: a daemon per run (started with the arguments a test
// needs), Chromium kept off the network, pages that record script errors
// and requests to other origins, and a watchdog that ends a stuck run.
import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { startDaemon } from '../integration/daemon.mjs';
import { check, counts, expect, same } from './checks.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

export const SHOTS = process.env.GJ_SCREENSHOTS || 'build/screenshots';

export { check, expect, same };

const pageErrors = [];
const offsite = [];
const daemons = [];
let browser = null;

/** A daemon on a free loopback port with `args`: {base, origin}; stopped when run() ends. */
export async function daemon(args = []) {
  const started = await startDaemon({ args });
  daemons.push(started.child);
  return { base: started.base, origin: new URL(started.base).origin };
}

/** A browser context of `width` x `height` that records requests leaving `origin`. */
export async function context(origin, width = 1000, height = 800, extra = {}) {
  if (!browser) browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
  const ctx = await browser.newContext({ viewport: { width, height }, serviceWorkers: 'block', ...extra });
  ctx.on('request', (req) => {
    const url = req.url();
    if (!url.startsWith('data:') && new URL(url).origin !== origin) offsite.push(url);
  });
  return ctx;
}

/** A new page of `ctx` on `url`, ready (body[data-ready]); its script errors are recorded. */
export async function openPage(ctx, url) {
  const page = await ctx.newPage();
  page.on('pageerror', (e) => pageErrors.push(e.message));
  page.on('console', (m) => {
    // The browser logs each 4xx answer; the checks provoke some on purpose.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) pageErrors.push(m.text());
  });
  await page.goto(url);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 10_000 });
  return page;
}

/** Pick `game` in the page's game picker. */
export async function pickGame(page, game) {
  await page.selectOption('[data-testid=game-select]', game);
  await page.waitForFunction((g) => document.getElementById('game').value === g, game);
}

/** Save a screenshot of `target` (a page or a locator) as SHOTS/name.png. */
export async function shot(target, name) {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: join(SHOTS, `${name}.png`) });
}

async function cleanup() {
  if (browser) { try { await browser.close(); } catch (e) { /* already gone */ } browser = null; }
  while (daemons.length) daemons.pop().kill('SIGTERM');
}
process.on('exit', () => { for (const d of daemons) d.kill('SIGKILL'); });

/** Run `body` under a watchdog of `deadlineMs`, then check that no page erred
 *  or asked another origin, stop everything, print the tally and exit. */
export async function run(label, deadlineMs, body) {
  const t0 = Date.now();
  const watchdog = setTimeout(async () => {
    console.log(`FAIL ${label} took over ${deadlineMs / 1000} s`);
    counts.failed++;
    await cleanup();
    console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed`);
    process.exit(1);
  }, deadlineMs);
  try {
    await body();
    await check('the pages made no request outside the daemon and raised no script error', async () => {
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
  console.log(`${label}: ${counts.passed} passed, ${counts.failed} failed (${((Date.now() - t0) / 1000).toFixed(1)} s)`);
  process.exit(counts.failed ? 1 : 0);
}
