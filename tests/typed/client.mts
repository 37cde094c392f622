// client.ts: every HTTP example of README.md's "Using it", written as a
// puzzle site would write it: with openapi-fetch and the types that
// openapi-typescript generates from build/openapi.yaml (build/typed/api.d.ts,
// made by tests/typed/typed_client.sh, never committed).  It compiles with
// `tsc --noEmit --strict` with no casts, no `any` and no `unknown` to
// unwrap; run on Node's type stripping against a daemon it starts, it
// compares each answer with the line the README prints under the command.
//
// Each example names the README command it mirrors (a piece of its text);
// the commands are taken in the README's order and every curl or printf
// command that speaks HTTP must have its example here (the two that run
// the binary without HTTP have none).

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import createClient from 'openapi-fetch';
import type { paths } from '../../build/typed/api.js';
import { finish, report, startDaemon } from '../integration/daemon.mjs';

// The rated examples play on a store of their own, fresh, with the site's
// key the README names.
const store = mkdtempSync(join(tmpdir(), 'gj-typed-'));
const key = 'site-backend-key-0123456789';
writeFileSync(join(store, 'keys'), `${key} 1000000 1000000\n`);
const daemon = await startDaemon({
  args: ['--store', `sqlite:${join(store, 'store.db')}`, '--api-keys', join(store, 'keys')],
});
// However this process ends (a closed pipe included), the daemon goes too.
process.on('exit', () => {
  daemon.child.kill('SIGTERM');
  rmSync(store, { recursive: true, force: true });
});
const baseUrl = daemon.base;

// JSON answers, and judge text ones: the media type filters the types.
const api = createClient<paths, 'application/json'>({ baseUrl });
const text = createClient<paths, 'text/plain'>({ baseUrl });
const svg = createClient<paths, 'image/svg+xml'>({ baseUrl });
const ndjson = createClient<paths, 'application/x-ndjson'>({ baseUrl });

// Judge text goes out as it is: the default serializer would quote it.
const asText = {
  bodySerializer: (body: string | object) => (typeof body === 'string' ? body : JSON.stringify(body)),
  headers: { 'Content-Type': 'text/plain' },
};

type Example = { mirrors: string; run: () => Promise<string> };

// The daily puzzle of 2026-06-01, which the rated examples play.
const daily = '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a';

// The answer as the README prints it: compact JSON, or the text itself.
const json = (v: object | null | undefined) => JSON.stringify(v);

const examples: Example[] = [
  {
    mirrors: "printf '3 1\\n1 2 4\\n6 8 3\\n9 5 7\\n' | curl -s --data-binary @- http://127.0.0.1:8080/solve/matrix-game",
    run: async () => {
      const { data, error } = await api.POST('/solve/matrix-game', { body: '3 1\n1 2 4\n6 8 3\n9 5 7\n', ...asText });
      if (data) {
        // Typed: the rows of M and G.
        const rows: string[] = data.outcomes;
        report(rows.length === 3, 'matrix-game: three rows of outcomes');
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: "/solve/grid-walk?format=text'",
    run: async () => {
      const { data, error } = await text.POST('/solve/grid-walk', {
        body: '3 3\n.##\n...\n#.#\n',
        params: { query: { format: 'text' } },
        parseAs: 'text',
        ...asText,
      });
      report(/^(WIN\n([0-9]+ [0-9]+\n)+|LOSE\n)$/.test(data ?? ''), 'grid-walk ?format=text: the judge output', data);
      return data ?? json(error);
    },
  },
  {
    mirrors: "curl -s -H 'Accept: text/plain' --data-binary @- http://127.0.0.1:8080/solve/nim-shortcuts",
    run: async () => {
      const { data, error } = await text.POST('/solve/nim-shortcuts', {
        body: '3 5\n3 0\n0 1\n2 2\n0 0\n1 1\n2 2\n3 3\n5 4\n',
        params: { header: { Accept: 'text/plain' } },
        parseAs: 'text',
        ...asText,
      });
      report(typeof data === 'string' && data.split('\n').length === 6, 'nim-shortcuts Accept: text/plain: five answers', data);
      return data ?? json(error);
    },
  },
  {
    mirrors: `-d '{"grid": ["--X", "---", "---"]}' http://127.0.0.1:8080/solve/prime-chocolate`,
    run: async () => {
      const { data, error } = await api.POST('/solve/prime-chocolate', { body: { grid: ['--X', '---', '---'] } });
      if (data) report(data.winner === 'RUBY' || data.winner === 'DIA', 'prime-chocolate: a winner');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"a": [[2,7,3],[9,1,2]], "b": [[3,7,2],[2,3,1]]}' http://127.0.0.1:8080/solve/staircase-chess`,
    run: async () => {
      const { data, error } = await api.POST('/solve/staircase-chess', { body: { a: [[2, 7, 3], [9, 1, 2]], b: [[3, 7, 2], [2, 3, 1]] } });
      const score: number | undefined = data?.score_difference;
      report(typeof score === 'number', 'staircase-chess: a score difference');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"grid": ["..#", "...", ".#."], "path": [[2,2],[2,1]]}' http://127.0.0.1:8080/analyze/grid-walk`,
    run: async () => {
      const { data, error } = await api.POST('/analyze/grid-walk', { body: { grid: ['..#', '...', '.#.'], path: [[2, 2], [2, 1]] } });
      if (data) {
        // after is typed: the token's cell, a [row, column] pair.
        const [row, column] = data.moves[0].after.token;
        report(row >= 1 && column >= 1 && data.moves[0].after.visited === 3, 'grid-walk analysis: after.token and after.visited');
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"shortcuts": [[3,0],[0,1]], "heaps": [2,5], "max_moves": 1}' http://127.0.0.1:8080/analyze/nim-shortcuts`,
    run: async () => {
      const { data, error } = await api.POST('/analyze/nim-shortcuts', { body: { shortcuts: [[3, 0], [0, 1]], heaps: [2, 5], max_moves: 1 } });
      if (data) {
        const [x, y] = data.moves[0].after.heaps;
        report(x + y === 5 && data.moves[0].move.take === 2, 'nim-shortcuts analysis: after.heaps and move.take');
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"a": [[2,7,3],[9,1,2]], "b": [[3,7,2],[2,3,1]], "profile": [2,0]}' http://127.0.0.1:8080/analyze/staircase-chess`,
    run: async () => {
      const { data, error } = await api.POST('/analyze/staircase-chess', { body: { a: [[2, 7, 3], [9, 1, 2]], b: [[3, 7, 2], [2, 3, 1]], profile: [2, 0] } });
      if (data) report(data.value === data.moves[0].score && data.moves[0].after.profile.length === 2, 'staircase-chess analysis: value, score and after.profile');
      return json(data ?? error);
    },
  },
  {
    mirrors: `"heaps": [2,5], "max_moves": 1, "line": true, "max_line": 3}' http://127.0.0.1:8080/analyze/nim-shortcuts`,
    run: async () => {
      const { data, error } = await api.POST('/analyze/nim-shortcuts', {
        body: { shortcuts: [[3, 0], [0, 1]], heaps: [2, 5], max_moves: 1, line: true, max_line: 3 },
      });
      if (data) report((data.line ?? []).length === 3 && data.line_truncated === true, 'nim-shortcuts line: three moves, truncated');
      return json(data ?? error);
    },
  },
  {
    mirrors: `"token": [1,1], "max_moves": 1, "line": true}' http://127.0.0.1:8080/analyze/matrix-game`,
    run: async () => {
      const { data, error } = await api.POST('/analyze/matrix-game', {
        body: { k: 1, matrix: [[1, 2, 3], [4, 5, 6], [7, 8, 9]], token: [1, 1], max_moves: 1, line: true },
      });
      if (data) report(data.line_cycle === true && data.line_cycle_start === 1, 'matrix-game line: a cycle from move 1');
      return json(data ?? error);
    },
  },
  {
    mirrors: `"level": 5, "seed": 42}' http://127.0.0.1:8080/move/nim-shortcuts`,
    run: async () => {
      const { data, error } = await api.POST('/move/nim-shortcuts', {
        body: { shortcuts: [[3, 0], [0, 1]], heaps: [2, 5], level: 5, seed: 42 },
      });
      if (data) report(data.after.heaps[1] === 3 && data.move.heap === 2, 'move: nim-shortcuts move.heap and after.heaps');
      return json(data ?? error);
    },
  },
  {
    mirrors: `"level": 1, "seed": 7}' http://127.0.0.1:8080/move/nim-shortcuts`,
    run: async () => {
      const { data, error } = await api.POST('/move/nim-shortcuts', {
        body: { shortcuts: [[3, 0], [0, 1]], heaps: [2, 5], level: 1, seed: 7 },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: `"output": "WIN\\n1 2\\n2 1\\n2 3\\n"}' http://127.0.0.1:8080/judge/grid-walk`,
    run: async () => {
      const { data, error } = await api.POST('/judge/{game}', {
        params: { path: { game: 'grid-walk' } },
        body: { input: '2 3\n..#\n...\n', output: 'WIN\n1 2\n2 1\n2 3\n' },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: `"output": "WIN\\n1 2\\n2 1\\n2 2\\n"}' http://127.0.0.1:8080/judge/grid-walk`,
    run: async () => {
      const { data, error } = await api.POST('/judge/{game}', {
        params: { path: { game: 'grid-walk' } },
        body: { input: '2 3\n..#\n...\n', output: 'WIN\n1 2\n2 1\n2 2\n' },
      });
      if (data && 'first_difference' in data && data.first_difference) {
        report(data.first_difference.expected === '3', 'judge: first_difference.expected');
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: `{"input": "1 1\\n#\\n", "output": "LOSE\\n"}]}' http://127.0.0.1:8080/judge/grid-walk`,
    run: async () => {
      const { data, error } = await api.POST('/judge/{game}', {
        params: { path: { game: 'grid-walk' } },
        body: {
          cases: [
            { input: '2 3\n..#\n...\n', output: 'WIN\n1 2\n2 1\n2 3\n' },
            { input: '1 1\n.\n', output: 'LOSE\n' },
            { input: '1 1\n#\n', output: 'LOSE\n' },
          ],
        },
      });
      if (data && 'cases' in data) report(data.first_failed === 1 && data.counts.accepted === 2, 'judge test set: first_failed and counts');
      return json(data ?? error);
    },
  },
  {
    mirrors: `{"game": "go", "input": ""}]}' http://127.0.0.1:8080/batch`,
    run: async () => {
      const { data, error } = await api.POST('/batch', {
        body: {
          items: [
            { game: 'prime-chocolate', input: '2\n--\n--\n' },
            { game: 'nim-shortcuts', position: { shortcuts: [], queries: [[1, 1]] }, format: 'text' },
            { game: 'go', input: '' },
          ],
        },
      });
      const first = data?.items[0];
      if (first && 'result' in first && first.game === 'prime-chocolate' && first.result && 'winner' in first.result) {
        report(first.result.winner === 'RUBY', 'batch: result.winner of a prime-chocolate item');
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: `{"game": "nim-shortcuts", "judge": {"input": "0 1\\n1 1\\n", "output": "LOSE\\n"}}]}' http://127.0.0.1:8080/batch`,
    run: async () => {
      const { data, error } = await api.POST('/batch', {
        body: {
          items: [
            { game: 'grid-walk', judge: { input: '1 1\n.\n', output: 'WIN\n1 1\n' } },
            { game: 'nim-shortcuts', judge: { input: '0 1\n1 1\n', output: 'LOSE\n' } },
          ],
        },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"seed": 42, "rows": 2, "cols": 3, "outcome": "lose"}' http://127.0.0.1:8080/generate/grid-walk`,
    run: async () => {
      const { data, error } = await api.POST('/generate/grid-walk', { body: { seed: 42, rows: 2, cols: 3, outcome: 'lose' } });
      // The answer is optional in the type: "answer": false leaves it out.
      report(data?.answer !== undefined, 'generate: the answer is there unless asked without it');
      if (data?.answer && 'verdict' in data.answer) report(data.answer.verdict === 'LOSE', 'generate: answer.verdict of an opening');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"seed": 42, "shortcuts": 2, "range": 4, "winning_moves": 1}' http://127.0.0.1:8080/generate/nim-shortcuts`,
    run: async () => {
      const { data, error } = await api.POST('/generate/nim-shortcuts', { body: { seed: 42, shortcuts: 2, range: 4, winning_moves: 1 } });
      if (data?.answer && 'value' in data.answer) {
        // A position in play: its answer is the analysis, its position the /analyze body.
        report(data.answer.value === 'win' && data.answer.winning_moves === 1, 'generate: answer.value of a position in play');
        if ('heaps' in data.position) {
          const next = await api.POST('/analyze/nim-shortcuts', { body: data.position });
          report(json(next.data) === json(data.answer), 'generate -> analyze: the position analyses to the answer');
        }
      }
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"seed": 42, "rows": 2, "cols": 2, "score": [1, 5]}' http://127.0.0.1:8080/generate/staircase-chess`,
    run: async () => {
      const { data, error } = await api.POST('/generate/staircase-chess', { body: { seed: 42, rows: 2, cols: 2, score: [1, 5] } });
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"rows": 2, "cols": 2, "winning_moves": 3, "budget_ms": 100}' http://127.0.0.1:8080/generate/grid-walk`,
    run: async () => {
      const { data, error, response } = await api.POST('/generate/grid-walk', { body: { rows: 2, cols: 2, winning_moves: 3, budget_ms: 100 } });
      // An error is typed too: the Error body.
      report(response.status === 400 && error?.error.code === 'bad_input' && error?.error.field === 'winning_moves', 'generate: an impossible winning_moves is a 400 naming it', response.status);
      return json(data ?? error);
    },
  },
  {
    mirrors: "curl -s 'http://127.0.0.1:8080/puzzle/nim-shortcuts/daily?date=2026-06-01'",
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}/daily', { params: { path: { game: 'nim-shortcuts' }, query: { date: '2026-06-01' } } });
      // The puzzle is typed without a solution: no such member to read.
      report(data !== undefined && !('solution' in data) && data.depth >= 1, 'puzzle: the daily puzzle, no solution');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"moves": [{"heap": 1, "take": 1}]}' http://127.0.0.1:8080/puzzle/nim-shortcuts/2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', { params: { path: { game: 'nim-shortcuts', id: '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a' } }, body: { moves: [{ heap: 1, take: 1 }] } });
      report(data?.failed === true && data.solution !== undefined, 'puzzle: a wrong move fails and shows the solution');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"moves": [{"heap": 2, "take": 3}]}' http://127.0.0.1:8080/puzzle/nim-shortcuts/2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', { params: { path: { game: 'nim-shortcuts', id: '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a' } }, body: { moves: [{ heap: 2, take: 3 }] } });
      report(data?.results[0]?.correct === true && data.solution === undefined, 'puzzle: a right move, the solution kept back');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"moves": [{"heap": 2, "take": 3}, {"heap": 2, "take": 1}]}' http://127.0.0.1:8080/puzzle/nim-shortcuts/2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', { params: { path: { game: 'nim-shortcuts', id: '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a' } }, body: { moves: [{ heap: 2, take: 3 }, { heap: 2, take: 1 }] } });
      report(data?.solved === true, 'puzzle: solved');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-d '{"moves": [], "reveal": true}' http://127.0.0.1:8080/puzzle/nim-shortcuts/2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', { params: { path: { game: 'nim-shortcuts', id: '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a' } }, body: { moves: [], reveal: true } });
      return json(data ?? error);
    },
  },
  {
    mirrors: "curl -s 'http://127.0.0.1:8080/puzzle/grid-walk?seed=3&band=medium&depth=2&tries=50'",
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}', { params: { path: { game: 'grid-walk' }, query: { seed: 3, band: 'medium', depth: 2, tries: 50 } } });
      report(data?.band === 'medium', 'puzzle: the band asked for');
      return json(data ?? error);
    },
  },
  {
    mirrors: "curl -s 'http://127.0.0.1:8080/puzzle/nim-shortcuts?seed=5&band=hard&theme=equaliser-refuted&tries=100'",
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}', { params: { path: { game: 'nim-shortcuts' }, query: { seed: 5, band: 'hard', theme: 'equaliser-refuted', tries: 100 } } });
      report(data?.themes.includes('equaliser-refuted') === true, 'puzzle: the theme asked for');
      return json(data ?? error);
    },
  },
  {
    mirrors: "/puzzle/nim-shortcuts/2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a/image.svg'",
    run: async () => {
      const { data, error } = await svg.GET('/puzzle/{game}/{id}/image.svg', { params: { path: { game: 'nim-shortcuts', id: '2.eyJjIjowLCJkIjoyLCJnIjoibmltLXNob3J0Y3V0cyIsImsiOnt9LCJtIjo0LCJzIjo3ODA4NDI0MTYxMDI1MTMwfQ.0f697d3a' } }, parseAs: 'text' });
      report((data ?? '').startsWith('<svg xmlns="http://www.w3.org/2000/svg"'), 'puzzle: its picture, an SVG document');
      return data ?? json(error);
    },
  },
  {
    mirrors: "printf '1 2\\n..\\n' | curl -s -o /dev/null -D - --data-binary @- http://127.0.0.1:8080/solve/grid-walk",
    run: async () => {
      const { response } = await api.POST('/solve/grid-walk', { body: '1 2\n..\n', ...asText });
      return `X-Cache: ${response.headers.get('X-Cache')}`;
    },
  },
  {
    mirrors: `-d '{"grid": [".."]}' http://127.0.0.1:8080/solve/grid-walk | grep -i '^x-cache'`,
    run: async () => {
      const { response } = await api.POST('/solve/grid-walk', { body: { grid: ['..'] } });
      return `X-Cache: ${response.headers.get('X-Cache')}`;
    },
  },
  {
    mirrors: "curl -s -G --data-urlencode input@- http://127.0.0.1:8080/solve/matrix-game",
    run: async () => {
      const { data, error } = await api.GET('/solve/matrix-game', { params: { query: { input: '3 1\n1 2 4\n6 8 3\n9 5 7\n' } } });
      return json(data ?? error);
    },
  },
  {
    mirrors: `curl -s -G --data-urlencode 'position={"grid": ["--X", "---", "---"]}' -d format=text http://127.0.0.1:8080/solve/prime-chocolate`,
    run: async () => {
      const { data, error } = await text.GET('/solve/prime-chocolate', {
        params: { query: { position: JSON.stringify({ grid: ['--X', '---', '---'] }), format: 'text' } },
        parseAs: 'text',
      });
      return (data ?? json(error)).trimEnd();
    },
  },
  {
    mirrors: `curl -s -G --data-urlencode 'request={"grid": ["..#", "...", ".#."], "path": [[2,2],[2,1]]}' http://127.0.0.1:8080/analyze/grid-walk`,
    run: async () => {
      const request = { grid: ['..#', '...', '.#.'], path: [[2, 2], [2, 1]] };
      const { data, error } = await api.GET('/analyze/grid-walk', { params: { query: { request: JSON.stringify(request) } } });
      const post = await api.POST('/analyze/grid-walk', { body: { grid: request.grid, path: [[2, 2], [2, 1]] } });
      report(json(data) === json(post.data), 'GET /analyze: the POST answer');
      return json(data ?? error);
    },
  },
  {
    mirrors: "curl -s -D - -o /dev/null 'http://127.0.0.1:8080/solve/grid-walk?input=1+2%0A..%0A'",
    run: async () => {
      const { response } = await api.GET('/solve/grid-walk', { params: { query: { input: '1 2\n..\n' } } });
      const h = response.headers;
      return `ETag: ${h.get('ETag')} Cache-Control: ${h.get('Cache-Control')} Vary: ${h.get('Vary')} `;
    },
  },
  {
    mirrors: `curl -s -o /dev/null -w '%{http_code}\\n' -H "If-None-Match:`,
    run: async () => {
      const query = { input: '1 2\n..\n' };
      const first = await api.GET('/solve/grid-walk', { params: { query } });
      const tag = first.response.headers.get('ETag') ?? '';
      const again = await api.GET('/solve/grid-walk', { params: { query, header: { 'If-None-Match': tag } } });
      return String(again.response.status);
    },
  },
  {
    mirrors: "printf '3\\n---\\n--\\n---\\n' | curl -s --data-binary @- http://127.0.0.1:8080/solve/prime-chocolate",
    run: async () => {
      const { data, error } = await api.POST('/solve/prime-chocolate', { body: '3\n---\n--\n---\n', ...asText });
      if (error) report(error.error.line === 3 && error.error.column === 1, 'a 400 names the line and the column');
      return json(data ?? error);
    },
  },
  {
    mirrors: 'curl -s http://127.0.0.1:8080/games',
    run: async () => {
      const { data, error } = await api.GET('/games');
      if (data) report(data.games.some((g) => g.name === 'grid-walk' && g.move?.levels.length === 5), 'games: grid-walk with five levels');
      return json(data ?? error);
    },
  },
  {
    mirrors: 'curl -s http://127.0.0.1:8080/healthz',
    run: async () => json((await api.GET('/healthz')).data),
  },
  {
    mirrors: 'curl -s http://127.0.0.1:8080/readyz',
    run: async () => json((await api.GET('/readyz')).data),
  },
  {
    mirrors: 'curl -s http://127.0.0.1:8080/metrics',
    run: async () => (await text.GET('/metrics', { parseAs: 'text' })).data ?? '',
  },
  {
    mirrors: 'curl -s http://127.0.0.1:8080/openapi.yaml',
    run: async () => (await text.GET('/openapi.yaml', { parseAs: 'text' })).data ?? '',
  },
  {
    mirrors: "%{content_type}\\n' http://127.0.0.1:8080/docs",
    run: async () => {
      const { response } = await text.GET('/docs', { parseAs: 'text' });
      return `${response.status} ${response.headers.get('Content-Type')}`;
    },
  },  {
    mirrors: `-H 'X-Api-Key: site-backend-key-0123456789' -d '{"moves": [{"heap": 2, "take": 3}, {"heap": 2, "take": 1}], "player": "ada"}' http://127.0.0.1:8080/puzzle/nim-shortcuts/${daily}/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', {
        params: { path: { game: 'nim-shortcuts', id: daily }, header: { 'X-Api-Key': key } },
        body: { moves: [{ heap: 2, take: 3 }, { heap: 2, take: 1 }], player: 'ada' },
      });
      // Typed: the play's rating, present with a player.
      const change: number | undefined = data?.rating?.player.change;
      report(change !== undefined && change > 0, 'rated: a solve raises the player');
      return json(data ?? error);
    },
  },
  {
    mirrors: `-H 'X-Api-Key: site-backend-key-0123456789' -d '{"moves": [{"heap": 2, "take": 3}, {"heap": 2, "take": 1}], "player": "ada"}' http://127.0.0.1:8080/puzzle/nim-shortcuts/${daily}/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', {
        params: { path: { game: 'nim-shortcuts', id: daily }, header: { 'X-Api-Key': key } },
        body: { moves: [{ heap: 2, take: 3 }, { heap: 2, take: 1 }], player: 'ada' },
      });
      report(data?.rating?.repeated === true, 'rated: the retry is the same play');
      return json(data ?? error);
    },
  },
  {
    mirrors: `curl -s -d '{"moves": [], "reveal": true, "player": "bo"}' http://127.0.0.1:8080/puzzle/nim-shortcuts/${daily}/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', {
        params: { path: { game: 'nim-shortcuts', id: daily } },
        body: { moves: [], reveal: true, player: 'bo' },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: `"player": "bo", "rating": 1900, "rating_deviation": 60}' http://127.0.0.1:8080/puzzle/nim-shortcuts/${daily}/check`,
    run: async () => {
      const { data, error } = await api.POST('/puzzle/{game}/{id}/check', {
        params: { path: { game: 'nim-shortcuts', id: daily }, header: { 'X-Api-Key': key } },
        body: { moves: [{ heap: 1, take: 1 }], player: 'bo', rating: 1900, rating_deviation: 60 },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: `curl -s http://127.0.0.1:8080/puzzle/nim-shortcuts/${daily}/stats`,
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}/{id}/stats', {
        params: { path: { game: 'nim-shortcuts', id: daily } },
      });
      // Typed: null before any play.
      const rate: number | null | undefined = data?.success_rate;
      report(rate === 0.5, 'stats: one win in two plays');
      return json(data ?? error);
    },
  },
  {
    mirrors: "'http://127.0.0.1:8080/puzzle/nim-shortcuts/next?player=cy'",
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}/next', {
        params: { path: { game: 'nim-shortcuts' }, query: { player: 'cy' }, header: { 'X-Api-Key': key } },
      });
      report(data !== undefined && !('solution' in data) && data.stats?.plays === 2, 'next: the stored puzzle, its stats');
      return json(data ?? error);
    },
  },
  {
    mirrors: "'http://127.0.0.1:8080/puzzle/nim-shortcuts/next?player=cy'",
    run: async () => {
      const { data, error } = await api.GET('/puzzle/{game}/next', {
        params: { path: { game: 'nim-shortcuts' }, query: { player: 'cy' }, header: { 'X-Api-Key': key } },
      });
      return json(data ?? error);
    },
  },
  {
    mirrors: "http://127.0.0.1:8080/players/ada/activity",
    run: async () => {
      const { data, error } = await ndjson.GET('/players/{player}/activity', {
        params: { path: { player: 'ada' }, header: { 'X-Api-Key': key } },
        parseAs: 'text',
      });
      return data ?? json(error);
    },
  },
  {
    mirrors: "'http://127.0.0.1:8080/players/ada/dashboard?days=7'",
    run: async () => {
      const { data, error } = await api.GET('/players/{player}/dashboard', {
        params: { path: { player: 'ada' }, query: { days: 7 }, header: { 'X-Api-Key': key } },
      });
      report(data?.themes.every((t) => t.plays >= t.wins) === true, 'dashboard: wins within plays');
      return json(data ?? error);
    },
  },
];

// The README's commands and the lines it prints under them.
const section = readFileSync('README.md', 'utf8').split('\n## Using it')[1].split('\n## Configuration')[0];
const commands: { command: string; expected: string | null }[] = [];
let inBlock = false;
for (const line of section.split('\n')) {
  if (line.startsWith('```')) {
    inBlock = line.startsWith('```sh');
  } else if (inBlock && /^(printf|curl) /.test(line) && line.includes('http://')) {
    commands.push({ command: line, expected: null });
  } else if (inBlock && line.startsWith('# ') && commands.length > 0) {
    commands[commands.length - 1].expected = line.slice(2);
  }
}

// "..." in the README matches anything, as in readme_examples.sh.
function matches(got: string, expected: string): boolean {
  const pattern = expected.split('...').map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s\\S]*');
  return new RegExp(`^${pattern}$`).test(got);
}

try {
  report(commands.length === examples.length, `every README command has its example (${commands.length} commands, ${examples.length} examples)`);
  for (let i = 0; i < Math.min(commands.length, examples.length); i++) {
    const { command, expected } = commands[i];
    const example = examples[i];
    if (!command.includes(example.mirrors)) {
      report(false, `example ${i + 1} mirrors the README's command ${i + 1}`, `${command}\n     does not hold ${example.mirrors}`);
      continue;
    }
    const got = await example.run();
    if (expected === null) report(got.length > 0, `README ${i + 1}: ${command.slice(0, 90)}`, 'no answer');
    else report(matches(got.trimEnd(), expected), `README ${i + 1}: ${command.slice(0, 90)}`, `expected ${expected}\n     got      ${got}`);
  }
} finally {
  await daemon.stop();
}
finish('typed-client');
