// Bundles the web dashboard (dashboard/, Preact, uPlot, and @recd/client from its sources in
// packages/client/src) into dist/dashboard/ with esbuild; run by `npm run build` after tsc. Everything
// the page loads is in that folder: nothing comes from a CDN.
import { copyFileSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

// This file runs as dist/scripts/build-dashboard.js.
const repo = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const source = join(repo, 'dashboard');
const out = join(repo, 'dist/dashboard');

mkdirSync(out, { recursive: true });
await build({
  entryPoints: [join(source, 'src/main.tsx')],
  outfile: join(out, 'app.js'),
  bundle: true,
  format: 'esm',
  minify: true,
  sourcemap: false,
  target: ['chrome110', 'firefox110', 'safari16'],
  jsx: 'automatic',
  jsxImportSource: 'preact',
  logLevel: 'warning',
});
copyFileSync(join(source, 'index.html'), join(out, 'index.html'));
copyFileSync(join(source, 'app.css'), join(out, 'app.css'));
const uplot = dirname(createRequire(import.meta.url).resolve('uplot/package.json'));
copyFileSync(join(uplot, 'dist/uPlot.min.css'), join(out, 'uPlot.min.css'));
