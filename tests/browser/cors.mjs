#!/usr/bin/env node
// cors.mjs: CORS (--cors-origins) in a real browser.
//
// Two tiny static servers on loopback stand for two sites: the page of
// origin A (listed in --cors-origins) and of origin C (not listed), each on
// its own port; the daemon listens on a third.  Debian's Chromium, driven
// by playwright-core, loads each page, and the page calls the daemon with
// fetch: a JSON POST (which the browser preflights) and a simple GET.
//  - From A: both answer, the body is the API's own answer, the exposed
//    X-Request-Id is readable and a header not exposed (Server-Timing) is not.
//  - From C: the browser refuses both (fetch rejects), although the daemon
//    did answer the preflight (its access log shows it): the refusal is the
//    browser's, on the daemon's missing Access-Control-Allow-Origin.
//
// Run from the repository root after `make all`:
//   node tests/browser/cors.mjs
// GJ_BIN overrides the binary.  Prints one line per check, then
// "browser-cors: N passed, M failed"; exits 1 on any failure.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';

import { finish, report, startDaemon } from '../integration/daemon.mjs';
import { CHROMIUM, CHROMIUM_ARGS } from './chromium.mjs';

const require = createRequire(join(process.cwd(), 'package.json'));
const { chromium } = require('playwright-core');

const POSITION = { grid: ['..', '..'] };

/** A static server on a free loopback port answering one empty page: { server, origin }. */
function site() {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><title>a puzzle site</title><p>calls the judge</p>');
    });
    server.listen(0, '127.0.0.1', () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

/** In the page: a preflighted JSON POST and a simple GET to the daemon; what the page could read. */
async function callFromPage(page, base) {
  return page.evaluate(
    async ({ base, position }) => {
      const out = {};
      try {
        const r = await fetch(`${base}/solve/grid-walk`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', 'X-Request-Id': 'from-the-page' },
          body: JSON.stringify(position),
        });
        out.post = { status: r.status, body: await r.json(), id: r.headers.get('X-Request-Id'), timing: r.headers.get('Server-Timing') };
      } catch (e) {
        out.post = { error: String(e) };
      }
      try {
        const r = await fetch(`${base}/games`);
        out.get = { status: r.status, games: (await r.json()).games?.length };
      } catch (e) {
        out.get = { error: String(e) };
      }
      return out;
    },
    { base, position: POSITION },
  );
}

const allowed = await site();
const other = await site();
const daemon = await startDaemon({ args: ['--cors-origins', allowed.origin] });
const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: CHROMIUM_ARGS });
try {
  // The API's own answer, from Node (no CORS there), to compare with.
  const want = await (
    await fetch(`${daemon.base}/solve/grid-walk`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(POSITION) })
  ).json();
  const context = await browser.newContext({ serviceWorkers: 'block' });

  const pageA = await context.newPage();
  await pageA.goto(`${allowed.origin}/`);
  const a = await callFromPage(pageA, daemon.base);
  report(a.post?.status === 200 && JSON.stringify(a.post.body) === JSON.stringify(want), `a listed origin (${allowed.origin}) reads a preflighted POST /solve`, JSON.stringify(a.post));
  report(a.post?.id === 'from-the-page', 'it reads the exposed X-Request-Id (its own, echoed)', JSON.stringify(a.post));
  report(a.post && a.post.timing === null, 'it cannot read Server-Timing, which is not exposed', JSON.stringify(a.post));
  report(a.get?.status === 200 && a.get.games > 0, 'it reads a simple GET /games', JSON.stringify(a.get));
  const preflights = ((await daemon.waitLog(/OPTIONS \/solve\/grid-walk 204/)).match(/OPTIONS \/solve\/grid-walk 204/g) || []).length;
  report(preflights >= 1, 'the browser sent a preflight, answered 204', daemon.log().split('\n').slice(-6).join('\n     '));

  const pageC = await context.newPage();
  await pageC.goto(`${other.origin}/`);
  const before = daemon.log().length;
  const c = await callFromPage(pageC, daemon.base);
  report(/TypeError/.test(c.post?.error ?? ''), `another origin (${other.origin}) is refused the POST by the browser`, JSON.stringify(c.post));
  report(/TypeError/.test(c.get?.error ?? ''), 'and the simple GET', JSON.stringify(c.get));
  const later = await daemon.waitLog(/OPTIONS \/solve\/grid-walk 204[\s\S]*GET \/games 200|GET \/games 200[\s\S]*OPTIONS \/solve\/grid-walk 204/, before);
  report(/OPTIONS \/solve\/grid-walk 204/.test(later) && /GET \/games 200/.test(later), 'the daemon did answer both: the browser withheld them', later.trim());
} catch (e) {
  report(false, 'the run', (e && e.stack) || String(e));
} finally {
  await browser.close();
  await daemon.stop();
  allowed.server.close();
  other.server.close();
}
finish('browser-cors');
