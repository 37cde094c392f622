// plot-difficulty.mjs - the difficulty distribution table that
// build/bench/puzzle_rate prints (its second table), drawn as one SVG of
// small multiples: a panel per game and depth, ten bars for the tenths of
// [0, 1], the bands' thresholds marked.
//
//   build/bench/puzzle_rate 0 2000 1000 | node bench/plot-difficulty.mjs > bench/plots/difficulty.svg
//
// Reads the Markdown rows "| game | depth | found | .0 | ... | .9 | ..." on
// stdin; writes the SVG on stdout.  Integers only in the coordinates, so
// the same table always draws the same bytes.
import { readFileSync } from 'node:fs';

const rows = [];
for (const line of readFileSync(0, 'utf8').split('\n')) {
  const cells = line.split('|').map((c) => c.trim()).filter((c) => c !== '');
  if (cells.length >= 13 && /^[0-9]+$/.test(cells[1]) && /^[0-9]+\/[0-9]+$/.test(cells[2])) {
    rows.push({ game: cells[0], depth: Number(cells[1]), tenths: cells.slice(3, 13).map(Number) });
  }
}
if (rows.length === 0) {
  process.stderr.write('plot-difficulty: no distribution rows on stdin\n');
  process.exit(1);
}

const W = 220, H = 120, PAD = 24, BAR = 18, COLS = 3;
const width = COLS * (W + PAD) + PAD;
const height = Math.ceil(rows.length / COLS) * (H + PAD + 20) + PAD + 30;
// The tallest share drawn: 0.25 of the puzzles in one tenth fills a panel.
const TOP = 0.25;
const out = [];
out.push(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" font-family="system-ui, sans-serif" font-size="11">`);
out.push('<title>Difficulty of the default puzzles per game and depth: share of the puzzles in each tenth</title>');
out.push(`<rect width="${width}" height="${height}" fill="#ffffff"/>`);
out.push(`<text x="${PAD}" y="20" font-size="13" font-weight="bold" fill="#1f2328">Difficulty per tenth (bar height: share of 1,000 puzzles; dashed: 0.1; lines at 0.35 and 0.65)</text>`);
rows.forEach((r, i) => {
  const x0 = PAD + (i % COLS) * (W + PAD);
  const y0 = 30 + PAD + Math.floor(i / COLS) * (H + PAD + 20);
  out.push(`<text x="${x0}" y="${y0 - 6}" fill="#1f2328">${r.game}, depth ${r.depth}</text>`);
  out.push(`<rect x="${x0}" y="${y0}" width="${W}" height="${H}" fill="#f6f8fa" stroke="#d0d7de"/>`);
  const ten = y0 + H - Math.round((0.1 / TOP) * H);
  out.push(`<line x1="${x0}" y1="${ten}" x2="${x0 + W}" y2="${ten}" stroke="#8c959f" stroke-dasharray="3 3"/>`);
  r.tenths.forEach((share, k) => {
    const h = Math.min(H, Math.round((share / TOP) * H));
    const colour = k < 3.5 ? '#2da44e' : k < 6.5 ? '#bf8700' : '#cf222e';
    out.push(`<rect x="${x0 + 2 + k * (BAR + 4)}" y="${y0 + H - h}" width="${BAR}" height="${h}" fill="${colour}"/>`);
  });
  for (const t of [35, 65]) {
    const x = x0 + 2 + Math.round((t / 10) * (BAR + 4));
    out.push(`<line x1="${x}" y1="${y0}" x2="${x}" y2="${y0 + H}" stroke="#1f2328"/>`);
  }
});
out.push('</svg>');
process.stdout.write(out.join('\n') + '\n');
