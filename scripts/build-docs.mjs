#!/usr/bin/env node
// build-docs.mjs SPEC OUT: render the OpenAPI document to one HTML page with
// redocly, then inline the Redoc bundle that redocly links from a CDN, so
// GET /docs works on a machine with no network (the page makes no request).
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const [spec, out] = process.argv.slice(2);
if (!spec || !out) {
  console.error('usage: build-docs.mjs SPEC OUT');
  process.exit(2);
}
const dir = mkdtempSync(join(tmpdir(), 'gj-docs-'));
const page = join(dir, 'docs.html');
execFileSync(process.execPath, ['node_modules/@redocly/cli/bin/cli.js',
  'build-docs', spec, '--disableGoogleFont', '--output', page],
  { stdio: ['ignore', 'ignore', 'inherit'] });
const html = readFileSync(page, 'utf8');
rmSync(dir, { recursive: true });

const link = /<script src="https:\/\/cdn\.redocly\.com\/redoc\/v[0-9.]+\/bundles\/redoc\.standalone\.js"><\/script>/g;
const found = html.match(link) || [];
if (found.length !== 1) {
  console.error(`build-docs: expected one Redoc script link, found ${found.length}`);
  process.exit(1);
}
const bundle = readFileSync('node_modules/redoc/bundles/redoc.standalone.js', 'utf8');
if (bundle.includes('</script')) {
  console.error('build-docs: the Redoc bundle cannot be inlined (it holds </script)');
  process.exit(1);
}
const inlined = html.replace(link, () => `<script>${bundle}</script>`);
if (/src="https?:|<link[^>]+href="https?:/.test(inlined)) { // plain links are fine
  console.error('build-docs: the page still loads something from the network');
  process.exit(1);
}
writeFileSync(out, inlined);
