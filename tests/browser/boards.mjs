#!/usr/bin/env node
// boards.mjs: large boards and the small faults a visitor met, in a real
// browser against the real daemon (the playground page, GET /).
//
// Large boards: the limits in force (GET /games) beside the text and a
// position over them flagged before Solve; on a 300 x 300 grid (a daemon
// with the limit raised) zoom and pan, a click while zoomed playing the cell
// under it, a drag that pans without playing, the token drawn large enough
// to see at any zoom, and "Go to the token".  The faults: move numbers from
// 10 on fit beside the log, nim's "starting from" follows New puzzle, the
// side picker fits at 390 px, the focus lands on "Play again" when a game
// ends, "Perfect play from here" only with a game, play boards numbered as
// the log names cells, display names in the game picker, no "judge" words.
//
// Run from the repository root after `make all`:
//   node tests/browser/boards.mjs
// GJ_BIN overrides the binary, GJ_SCREENSHOTS the screenshot folder
// (default build/screenshots).  Prints one line per check, then
// "boards: N passed, M failed"; exits 1 on any failure.
import { check, context, daemon, expect, openPage, pickGame, run, same, shot } from './harness.mjs';

const GAMES = ['matrix-game', 'grid-walk', 'nim-shortcuts', 'prime-chocolate', 'staircase-chess'];

/** A rows x cols grid-walk text, about one cell in ten blocked (a fixed LCG). */
function gridText(rows, cols) {
  let seed = 20261202;
  const lines = [];
  for (let r = 0; r < rows; r++) {
    let line = '';
    for (let c = 0; c < cols; c++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      line += (seed >> 8) % 10 === 0 ? '#' : '.';
    }
    lines.push(line);
  }
  return { text: `${rows} ${cols}\n${lines.join('\n')}\n`, lines };
}

/** The play canvas's view {x, y, w, h} (cells, 0-based), zoom and token. */
function canvasState(page) {
  return page.$eval('[data-testid=play-board]', (c) => ({
    view: JSON.parse(c.dataset.view), zoom: +c.dataset.zoom, token: c.dataset.token ? JSON.parse(c.dataset.token) : null,
    tag: c.tagName,
  }));
}

/** The token's disc as drawn: the bounding box, in CSS pixels, of the token
 *  colour's pixels within 40 CSS pixels of the token cell's centre. */
function tokenDisc(page) {
  return page.$eval('[data-testid=play-board]', (c) => {
    const pal = JSON.parse(c.dataset.palette);
    const want = parseInt(pal.token.slice(1), 16);
    const view = JSON.parse(c.dataset.view);
    const tok = JSON.parse(c.dataset.token);
    const scale = c.width / c.clientWidth; // canvas pixels per CSS pixel
    const k = c.width / view.w;             // canvas pixels per cell
    const cx = (tok[1] - 0.5 - view.x) * k, cy = (tok[0] - 0.5 - view.y) * k;
    const reach = 40 * scale;
    const x0 = Math.max(0, Math.floor(cx - reach)), y0 = Math.max(0, Math.floor(cy - reach));
    const x1 = Math.min(c.width, Math.ceil(cx + reach)), y1 = Math.min(c.height, Math.ceil(cy + reach));
    if (x1 <= x0 || y1 <= y0) return { w: 0, h: 0, cx, cy, scale };
    const d = c.getContext('2d').getImageData(x0, y0, x1 - x0, y1 - y0).data;
    let minX = Infinity, maxX = -1, minY = Infinity, maxY = -1;
    for (let y = 0; y < y1 - y0; y++) {
      for (let x = 0; x < x1 - x0; x++) {
        const i = (y * (x1 - x0) + x) * 4;
        if (((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]) !== want) continue;
        minX = Math.min(minX, x); maxX = Math.max(maxX, x); minY = Math.min(minY, y); maxY = Math.max(maxY, y);
      }
    }
    if (maxX < 0) return { w: 0, h: 0, cx, cy, scale };
    return { w: (maxX - minX + 1) / scale, h: (maxY - minY + 1) / scale, midX: (x0 + (minX + maxX) / 2) / scale,
      midY: (y0 + (minY + maxY) / 2) / scale, cssW: c.clientWidth, cssH: c.clientHeight };
  });
}

/** Where cell (r, c) (1-based) of the play canvas is on the screen. */
async function cellPoint(page, r, c) {
  const box = await page.locator('[data-testid=play-board]').boundingBox();
  const { view } = await canvasState(page);
  return { x: box.x + ((c - 0.5 - view.x) / view.w) * box.width, y: box.y + ((r - 0.5 - view.y) / view.h) * box.height };
}

const viewHolds = (view, r, c) => c - 1 >= view.x - 1e-6 && c <= view.x + view.w + 1e-6 && r - 1 >= view.y - 1e-6 && r <= view.y + view.h + 1e-6;

async function waitTurn(page) {
  await page.waitForSelector('[data-testid=play][data-phase=your-turn], [data-testid=play][data-phase=over], [data-testid=play][data-phase=error]', { timeout: 20_000 });
  return page.getAttribute('[data-testid=play]', 'data-phase');
}

await run('boards', 240_000, async () => {
  const { base, origin } = await daemon();
  const catalogue = (await (await fetch(base + '/games')).json()).games;
  const desk = await context(origin);
  const page = await openPage(desk, base + '/');

  await check('the game picker names each game as /games\' display_name, not its slug', async () => {
    const shown = await page.$$eval('[data-testid=game-select] option', (o) => o.map((x) => [x.value, x.textContent]));
    const want = catalogue.map((g) => [g.name, g.display_name]);
    expect(want.every(([, d]) => typeof d === 'string' && d.length > 0), `/games lists display names: ${JSON.stringify(want)}`);
    expect(same(shown, want), `the picker shows ${JSON.stringify(shown)}, /games names ${JSON.stringify(want)}`);
    expect(shown.every(([v, t]) => t !== v), 'no slug is shown as a name');
  });

  await check('the page speaks to a visitor: no "judge" in what it shows, for any game', async () => {
    for (const game of GAMES) {
      await pickGame(page, game);
      const text = await page.evaluate(() => document.body.innerText.replace(/gamejudge/g, ''));
      const hit = text.match(/.{0,30}judge.{0,30}/i);
      expect(!hit, `${game}: the page says '${hit && hit[0]}'`);
    }
  });

  await check('the limits in force (GET /games) are shown beside the text, for every game', async () => {
    for (const game of GAMES) {
      await pickGame(page, game);
      const info = catalogue.find((g) => g.name === game);
      const said = await page.textContent('[data-testid=limits]');
      for (const l of Object.values(info.limits)) {
        expect(said.includes(`${l.description} up to ${l.value}`), `${game}: '${said}' does not give '${l.description}' ${l.value}`);
      }
      // Only words: no stray "null" or "undefined" where a part was left out.
      expect(!/\bnull\b|\bundefined\b/.test(said), `${game}: '${said}' has a stray word`);
      const geo = await page.evaluate(() => {
        const ed = document.getElementById('editor').getBoundingClientRect();
        const lim = document.querySelector('[data-testid=limits]').getBoundingClientRect();
        return { gap: lim.top - ed.bottom, left: lim.left - ed.left, shown: lim.height > 0 };
      });
      expect(geo.shown && geo.gap >= 0 && geo.gap < 120 && Math.abs(geo.left) < 2, `${game}: the limits sit under the text box (${JSON.stringify(geo)})`);
    }
  });

  await check('a pasted 300 x 300 grid is flagged over the limits before Solve; Solve then names the limit', async () => {
    await pickGame(page, 'grid-walk');
    const info = catalogue.find((g) => g.name === 'grid-walk');
    await page.fill('[data-testid=position]', gridText(300, 300).text);
    await page.waitForFunction(() => document.querySelector('[data-testid=limits]').dataset.over === 'rows,cols', null, { timeout: 5000 });
    const said = await page.textContent('[data-testid=limits]');
    expect(said.includes(`${info.limits.rows.description} 300 (at most ${info.limits.rows.value})`), `the warning: '${said}'`);
    await page.click('[data-testid=solve]');
    await page.waitForSelector('[data-testid=result][data-state=error]');
    const msg = await page.textContent('[data-testid=error]');
    expect(msg.includes(String(info.limits.rows.value)), `the server's refusal is shown: '${msg}'`);
    await page.click('[data-testid=reset]');
    expect(await page.getAttribute('[data-testid=limits]', 'data-over') === '', 'the sample is within the limits');
  });

  await check('move numbers from 10 on fit beside the log ("24." is not clipped to "4.")', async () => {
    const moves = Array.from({ length: 24 }, (_, i) => [1, i + 1]);
    const q = new URLSearchParams({ game: 'grid-walk', pos: `1 30\n${'.'.repeat(30)}\n`, side: 'A', moves: JSON.stringify(moves) });
    const p = await openPage(desk, `${base}/#${q}`);
    try {
      await p.waitForFunction(() => document.querySelectorAll('[data-testid=play-log] li').length >= 24, null, { timeout: 15_000 });
      const fits = await p.evaluate(() => {
        const ol = document.querySelector('[data-testid=play-log]');
        const inner = ol.getBoundingClientRect().left + ol.clientLeft;
        const ctx = document.createElement('canvas').getContext('2d');
        return Array.from(ol.children).map((li, i) => {
          ctx.font = getComputedStyle(li).font;
          return { n: i + 1, need: ctx.measureText(`${i + 1}. `).width, room: li.getBoundingClientRect().left - inner };
        });
      });
      const bad = fits.filter((f) => f.need > f.room + 0.5);
      expect(fits.length >= 24, `${fits.length} entries`);
      expect(bad.length === 0, `numbers wider than the room beside the log: ${bad.slice(0, 3).map((f) => `${f.n}. needs ${f.need.toFixed(1)} px, has ${f.room.toFixed(1)}`).join('; ')}`);
    } finally {
      await p.close();
    }
  });

  await check('nim-shortcuts: "starting from" shows the heaps New puzzle put on the board', async () => {
    await page.goto(`${base}/#nim-shortcuts`);
    await page.waitForSelector('body[data-ready="true"]');
    for (let i = 0; i < 3; i++) {
      await page.click('[data-testid=puzzle-new]');
      await page.waitForFunction(() => document.querySelector('[data-testid=play]').dataset.phase === 'your-turn' &&
        /^Find/.test(document.querySelector('[data-testid=puzzle-status]').textContent), null, { timeout: 15_000 });
      // The heaps in play: the token's cell on the plane (x to the right, y upwards).
      const heaps = await page.$eval('[data-testid=play-board]', (b) => {
        const t = b.querySelector('[data-state=token]');
        return [+b.dataset.x0 + +t.dataset.c - 1, +b.dataset.y0 + +b.dataset.h - +t.dataset.r];
      });
      const shown = await page.$eval('[data-testid=play-start-position]', (s) => s.selectedOptions[0] && s.selectedOptions[0].textContent);
      expect(shown === `(${heaps[0]}, ${heaps[1]})`, `puzzle ${i + 1}: the heaps are (${heaps[0]}, ${heaps[1]}), "starting from" shows ${shown}`);
    }
  });

  await check('"Perfect play from here" is offered only with a game on the board, and then answers', async () => {
    for (const game of ['grid-walk', 'matrix-game']) {
      await page.goto(`${base}/#${game}`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.click('[data-testid=reset]');
      expect(!(await page.isVisible('[data-testid=line-show]')), `${game}: the button shows before a game starts`);
      await page.click('[data-testid=play-start]');
      expect(await waitTurn(page) === 'your-turn', 'the game started');
      expect(await page.isVisible('[data-testid=line-show]'), `${game}: the button is there once a game is on`);
      await page.click('[data-testid=line-show]');
      await page.waitForFunction(() => document.querySelectorAll('[data-testid=line] li').length > 0, null, { timeout: 10_000 });
    }
  });

  await check('a game ended from the keyboard leaves the focus on "Play again", which starts a new game', async () => {
    await page.goto(`${base}/#grid-walk`);
    await page.waitForSelector('body[data-ready="true"]');
    // 1 x 2: A places the token, B moves to the other cell, A cannot move.
    await page.fill('[data-testid=position]', '1 2\n..\n');
    await page.selectOption('[data-testid=play-side]', 'A');
    await page.click('[data-testid=play-start]');
    expect(await waitTurn(page) === 'your-turn', 'the game started');
    await page.focus('[data-testid=play-board] [data-r="1"][data-c="1"]');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid=play][data-phase=over]', { timeout: 15_000 });
    const focus = await page.evaluate(() => ({ tag: document.activeElement.tagName, id: document.activeElement.id }));
    expect(focus.id === 'play-again', `the focus is on ${focus.tag}#${focus.id}`);
    expect(await page.isVisible('[data-testid=play-again]'), '"Play again" is shown');
    const status = await page.textContent('[data-testid=play-status]');
    expect(status.startsWith('Game over'), `the end is said: '${status}'`);
    await page.keyboard.press('Enter');
    expect(await waitTurn(page) === 'your-turn', 'Enter on "Play again" starts a game');
    expect(await page.locator('[data-testid=play-log] li').count() === 0, 'the new game\'s log is empty');
    expect(!(await page.isVisible('[data-testid=play-again]')), '"Play again" goes away during the game');
  });

  await check('a nim game ended from the take form hides the form and leaves the focus on "Play again"', async () => {
    await page.goto(`${base}/#nim-shortcuts`);
    await page.waitForSelector('body[data-ready="true"]');
    // One shortcut far away, heaps (0, 2): taking both stones of heap 2 leaves (0, 0), a loss for the engine.
    await page.fill('[data-testid=position]', '1 1\n9 9\n0 2\n');
    await page.waitForFunction(() => document.querySelectorAll('#nim-start option').length === 1);
    await page.selectOption('[data-testid=play-side]', 'first');
    await page.click('[data-testid=play-start]');
    expect(await waitTurn(page) === 'your-turn', 'the game started');
    await page.selectOption('[data-testid=nim-heap]', '2');
    await page.fill('[data-testid=nim-take]', '2');
    await page.press('[data-testid=nim-take]', 'Enter');
    await page.waitForSelector('[data-testid=play][data-phase=over]', { timeout: 15_000 });
    expect(!(await page.isVisible('[data-testid=nim-move]')), 'the take form is gone once the game is over');
    const focus = await page.evaluate(() => document.activeElement.id);
    expect(focus === 'play-again', `the focus is on #${focus}`);
  });

  await check('play boards are numbered by row and column, as the log names cells', async () => {
    for (const game of ['grid-walk', 'matrix-game', 'staircase-chess', 'prime-chocolate']) {
      await page.goto(`${base}/#${game}`);
      await page.waitForSelector('body[data-ready="true"]');
      await page.click('[data-testid=reset]');
      await page.selectOption('[data-testid=play-side]', await page.$$eval('[data-testid=play-side] option', (o) => o[0].value));
      await page.click('[data-testid=play-start]');
      expect(await waitTurn(page) === 'your-turn', `${game}: the game started`);
      const b = await page.evaluate(() => {
        const board = document.querySelector('[data-testid=play-board]');
        const rows = +board.dataset.rows, cols = +board.dataset.cols;
        const heads = (k) => Array.from(board.querySelectorAll(`[data-head=${k}]`));
        const mid = (e) => { const r = e.getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; };
        const cell = (r, c) => board.querySelector(`[data-r="${r}"][data-c="${c}"]`);
        return {
          rows, cols,
          rowText: heads('row').map((e) => e.textContent), colText: heads('col').map((e) => e.textContent),
          // Each number in line with its row's (column's) cells.
          rowAligned: heads('row').every((e, i) => Math.abs(mid(e)[1] - mid(cell(i + 1, 1))[1]) < 2),
          colAligned: heads('col').every((e, i) => Math.abs(mid(e)[0] - mid(cell(1, i + 1))[0]) < 2),
        };
      });
      const count = (n) => Array.from({ length: n }, (_, i) => String(i + 1));
      expect(same(b.rowText, count(b.rows)), `${game}: row numbers ${JSON.stringify(b.rowText)}`);
      expect(same(b.colText, count(b.cols)), `${game}: column numbers ${JSON.stringify(b.colText)}`);
      expect(b.rowAligned && b.colAligned, `${game}: the numbers line up with the cells`);
    }
  });

  const phone = await context(origin, 390, 800, { isMobile: true, hasTouch: true });
  await check('phone width (390 px): the side picker shows each side\'s whole name, inside the panel', async () => {
    const p = await openPage(phone, base + '/');
    try {
      for (const game of GAMES) {
        await pickGame(p, game);
        const m = await p.evaluate(() => {
          const s = document.getElementById('side');
          // The picker's own width for its longest name: a hidden copy free to grow.
          const free = s.cloneNode(true);
          free.removeAttribute('id');
          free.style.cssText = 'position: absolute; visibility: hidden; width: max-content; max-width: none';
          document.body.append(free);
          const need = free.getBoundingClientRect().width;
          free.remove();
          const panel = document.getElementById('play').getBoundingClientRect();
          const box = s.getBoundingClientRect();
          return { need, has: box.width,
            inside: box.left >= panel.left && box.right <= panel.right, page: document.documentElement.scrollWidth };
        });
        expect(m.need <= m.has + 0.5, `${game}: its longest name needs ${m.need.toFixed(0)} px, the picker has ${m.has.toFixed(0)}`);
        expect(m.inside && m.page <= 390, `${game}: the picker is inside the panel, the page ${m.page} px wide`);
      }
    } finally {
      await p.close();
    }
  });

  // A daemon that takes 300 x 300 grids.
  const big = await daemon(['--limit', 'grid-walk.rows=300', '--limit', 'grid-walk.cols=300']);
  const bigCtx = await context(big.origin);
  await check('a 300 x 300 grid in play: zoom, a click while zoomed, pan by drag, the token seen at any zoom, "Go to the token"', async () => {
    const p = await openPage(bigCtx, `${big.base}/#grid-walk`);
    try {
      const { text, lines } = gridText(300, 300);
      await p.fill('[data-testid=position]', text);
      await p.selectOption('[data-testid=play-side]', 'A');
      await p.click('[data-testid=play-start]');
      expect(await waitTurn(p) === 'your-turn', 'the game started');
      await p.evaluate(() => document.querySelector('[data-testid=play-board]').scrollIntoView({ block: 'center' }));
      let s = await canvasState(p);
      expect(s.tag === 'CANVAS' && s.zoom === 1, `a canvas at zoom 1 (${s.tag}, ${s.zoom})`);
      // Zoom in three times: an eighth of the board in view.
      for (let i = 0; i < 3; i++) await p.click('[data-testid=play-board-area] [data-testid=zoom-in]');
      s = await canvasState(p);
      expect(s.zoom === 8 && Math.abs(s.view.w - 300 / 8) < 1e-6, `zoom 8, 37.5 cells across: ${JSON.stringify(s)}`);
      // A free cell near the middle of the view: a click there places the token on it.
      const r = Math.floor(s.view.y + s.view.h / 2) + 1;
      let c = Math.floor(s.view.x + s.view.w / 2) + 1;
      while (lines[r - 1][c - 1] === '#') c++;
      const at = await cellPoint(p, r, c);
      await p.mouse.click(at.x, at.y);
      await p.waitForFunction(() => document.querySelectorAll('[data-testid=play-log] li').length >= 1);
      const first = await p.textContent('[data-testid=play-log] li');
      expect(first.includes(`placed on (${r}, ${c})`), `the click at zoom 8 played (${r}, ${c}): '${first}'`);
      expect(await waitTurn(p) === 'your-turn', 'the engine answered');
      const path = JSON.parse(await p.getAttribute('[data-testid=play]', 'data-request')).path;
      const tok = path[path.length - 1];
      s = await canvasState(p);
      expect(same(s.token, tok), `the canvas knows the token at ${JSON.stringify(tok)}: ${JSON.stringify(s.token)}`);
      expect(s.zoom === 8 && viewHolds(s.view, tok[0], tok[1]), `the zoom is kept and the token in view: ${JSON.stringify(s)}`);
      let disc = await tokenDisc(p);
      expect(disc.w >= 12 && disc.h >= 12, `at zoom 8 the token is drawn ${disc.w} x ${disc.h} CSS px`);
      await p.locator('[data-testid=play]').scrollIntoViewIfNeeded();
      await shot(p.locator('[data-testid=play-board-area]'), 'large-board-zoomed');
      // The whole board: the cells are about 3 px, the token's disc is not.
      await p.click('[data-testid=play-board-area] [data-testid=zoom-fit]');
      s = await canvasState(p);
      expect(s.zoom === 1, `back to the whole board (${s.zoom})`);
      disc = await tokenDisc(p);
      expect(disc.w >= 12 && disc.h >= 12, `at zoom 1 the token is drawn ${disc.w} x ${disc.h} CSS px`);
      // Zoom in again and drag far away: the view pans, nothing is played.
      for (let i = 0; i < 2; i++) await p.click('[data-testid=play-board-area] [data-testid=zoom-in]');
      const before = (await canvasState(p)).view;
      const logBefore = await p.locator('[data-testid=play-log] li').count();
      const box = await p.locator('[data-testid=play-board]').boundingBox();
      const dir = tok[1] > 150 ? 1 : -1; // drag towards the token's side: it leaves the view
      for (let i = 0; i < 3 && viewHolds((await canvasState(p)).view, tok[0], tok[1]); i++) {
        await p.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        await p.mouse.down();
        await p.mouse.move(box.x + box.width / 2 + dir * box.width * 0.45, box.y + box.height / 2 + dir * box.height * 0.45, { steps: 8 });
        await p.mouse.up();
      }
      s = await canvasState(p);
      expect(Math.abs(s.view.x - before.x) > 10 && Math.abs(s.view.y - before.y) > 10, `the drag panned: ${JSON.stringify(before)} -> ${JSON.stringify(s.view)}`);
      expect(!viewHolds(s.view, tok[0], tok[1]), `the token is out of view: ${JSON.stringify(s)}`);
      expect(await p.locator('[data-testid=play-log] li').count() === logBefore, 'the drag played no move');
      expect(await p.getAttribute('[data-testid=play]', 'data-phase') === 'your-turn', 'still the visitor\'s turn');
      await p.click('[data-testid=play-board-area] [data-testid=zoom-token]');
      s = await canvasState(p);
      expect(viewHolds(s.view, tok[0], tok[1]) && s.zoom >= 4, `"Go to the token" brings it into view: ${JSON.stringify(s)}`);
      disc = await tokenDisc(p);
      expect(disc.w >= 12, `and it is drawn (${disc.w} CSS px)`);
      // The keyboard: + and - on the focused board.
      const z0 = s.zoom;
      await p.focus('[data-testid=play-board]');
      await p.keyboard.press('+');
      expect((await canvasState(p)).zoom === Math.min(z0 * 2, 50), 'the + key zooms in');
      await p.keyboard.press('-');
      expect((await canvasState(p)).zoom === z0, 'the - key zooms out');
    } finally {
      await p.close();
    }
  });
});
