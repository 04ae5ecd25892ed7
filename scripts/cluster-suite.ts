// `npm run test:cluster`: the integration tests whose source carries the line `// @tag cluster`, run
// again (compiled) against a Redis Cluster (RECD_TEST_REDIS=cluster; test/helpers/stack.ts starts
// one), one file at a time. A test joins the suite by its tag, so no list of files is kept elsewhere.
// The tag is read from the TypeScript: the compiler drops a comment above an import it elides.
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const TAG = /^\/\/ @tag cluster\b/m;
// The compiled file lives in dist/scripts/; tap and the compiled tests are found from the repository.
const root = fileURLToPath(new URL('../../', import.meta.url));
const dir = 'test/integration';
const files = readdirSync(`${root}${dir}`)
  .filter((f) => f.endsWith('.test.ts') && TAG.test(readFileSync(`${root}${dir}/${f}`, 'utf8')))
  .sort()
  .map((f) => `dist/${dir}/${f.replace(/\.ts$/, '.js')}`);
if (files.length === 0) {
  process.stderr.write(`no test in ${dir} is tagged "// @tag cluster"\n`);
  process.exit(1);
}
const tap = spawn(`${root}node_modules/.bin/tap`, ['--jobs=1', '--timeout=300', ...files], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, RECD_TEST_REDIS: 'cluster' },
});
// Stopped, the suite stops its tap (which stops its tests' servers) rather than leaving it running.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => tap.kill(signal));
tap.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
