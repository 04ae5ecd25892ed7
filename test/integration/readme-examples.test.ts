// The README's shell examples run as written: every ```sh block, in document order, in one bash
// session (`bash -euo pipefail`, so a block sees the variables of the blocks before it, as a reader
// pasting them in order), against a fresh `recd serve` on a private redis-server.
//
// The session's environment is what a reader who started recd would have: RECD_URL (the API's
// http://127.0.0.1:PORT/v1), RECD_ROOT_EMAIL and RECD_ROOT_PASSWORD (the root account recd was
// started with), RECD_METRICS_PORT (recd serves metrics there), a `recd` command on PATH (as
// `npm install -g` gives), and an empty working directory. The server is started with
// RECD_CORS_ORIGINS=http://localhost:3000, as the README's CORS example says.
// A block that cannot run here (it installs, starts a server on a fixed port, needs docker…) is
// preceded by `<!-- not run by the README test: reason -->`; a marker without a reason fails.
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import t from 'tap';
import { freePort } from '../../src/store/redis-server.js';
import { CLI, run, until } from '../helpers/cli.js';
import { shellBlocks, type ShellBlock } from '../helpers/readme-blocks.js';
import { ROOT_EMAIL, ROOT_PASSWORD, startRedis } from '../helpers/stack.js';

const README = resolve(dirname(fileURLToPath(import.meta.url)), '../../../README.md');
const CORS_ORIGIN = 'http://localhost:3000';
// The examples upload ratings and wait for a training run (10 s in all here, 30 s beside the whole
// suite); with the start, below tap's 120 s per file, so a hung example is reported by its README line.
const SESSION_MS = 80_000;

t.test('the marker parser', async (t) => {
  const md = [
    '```sh',
    'echo one',
    '```',
    '<!-- not run by the README test: starts the service -->',
    '```sh',
    'npm start',
    '```',
    '<!-- not run by the README test -->',
    '```sh',
    'npm test',
    '```',
    '<!-- not run: typo -->',
    '```sh',
    'x',
    '```',
    '```yaml',
    'a: 1',
    '```',
    '```bash',
    'y',
    '```',
    '- a list item:',
    '',
    '  ```sh',
    '  if true; then',
    '    echo indented',
    '  fi',
    '  ```',
  ].join('\n');
  const { blocks, errors } = shellBlocks(md);
  t.same(
    blocks.map((b) => [b.line, b.code, b.skip]),
    [
      [1, 'echo one', undefined],
      [5, 'npm start', 'starts the service'],
      [9, 'npm test', undefined],
      [13, 'x', undefined],
      [19, 'y', undefined],
      [24, 'if true; then\n  echo indented\nfi', undefined],
    ],
  );
  t.equal(errors.length, 3, errors.join('; '));
  t.match(errors[0], /line 8: .*without a reason/);
  t.match(errors[1], /line 12: .*is not the form/);
  t.match(errors[2], /line 19: .*```sh/);
});

const SEP = '@@recd-readme-block';

// One script: each block preceded by a marker on stdout and stderr, so what a block printed, and the
// block that failed (the last one begun), can be told apart.
function script(blocks: ShellBlock[]): string {
  const mark = (what: string) => `printf '\\n${SEP} %s@@\\n' '${what}'; printf '\\n${SEP} %s@@\\n' '${what}' >&2\n`;
  return blocks.map((b) => `${mark(String(b.line)) + b.code}\n`).join('') + mark('end');
}

// Output split by marker: line number (or 'end') → what was printed after it.
function byBlock(out: string): Map<string, string> {
  const parts = new Map<string, string>();
  const re = new RegExp(`\\n?${SEP} (\\w+)@@\\n`, 'g');
  let last: string | undefined;
  let from = 0;
  for (const m of out.matchAll(re)) {
    if (last !== undefined) parts.set(last, out.slice(from, m.index));
    last = m[1]!;
    from = m.index! + m[0].length;
  }
  if (last !== undefined) parts.set(last, out.slice(from));
  return parts;
}

t.test('every shell example of the README runs as written', async (t) => {
  const jq = spawnSync('sh', ['-c', 'command -v jq && command -v curl'], { encoding: 'utf8' });
  if (jq.status !== 0) {
    t.fail('the README examples need jq and curl on PATH (Debian/Ubuntu: apt-get install jq curl; .ci/run installs them)');
    return;
  }
  const { blocks, errors } = shellBlocks(readFileSync(README, 'utf8'));
  t.same(errors, [], 'every block fence and skip marker is well formed');
  const runnable = blocks.filter((b) => b.skip === undefined);
  for (const b of blocks) if (b.skip !== undefined) t.comment(`not run: README line ${b.line} (${b.skip}): ${b.code.split('\n')[0]}`);
  t.ok(runnable.length >= 5, `${runnable.length} blocks to run`);

  const { server, dir } = await startRedis();
  const home = mkdtempSync(join(tmpdir(), 'recd-readme-'));
  const [port, metricsPort] = [await freePort(), await freePort()];
  const proc = run(['serve', '--workers', '1'], {
    PORT: String(port),
    REDIS_URL: server.url,
    RECD_ROOT_EMAIL: ROOT_EMAIL,
    RECD_ROOT_PASSWORD: ROOT_PASSWORD,
    RECD_METRICS_PORT: String(metricsPort),
    RECD_CORS_ORIGINS: CORS_ORIGIN,
    RECD_TRAINING_THREADS: '1', // a 2-core machine shared with other tests
    LOG_LEVEL: 'warn',
  });
  t.teardown(async () => {
    proc.child.kill('SIGTERM');
    await proc.exited;
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  });
  // 30 s: a start on a loaded machine (the whole suite runs beside it) takes more than the usual 15.
  await until(
    'recd listening',
    async () =>
      (await fetch(`http://127.0.0.1:${port}/healthz`)
        .then((r) => r.ok)
        .catch(() => false)) || proc.child.exitCode !== null,
    30_000,
  );
  t.equal(proc.child.exitCode, null, `recd serves: ${proc.out()}`);

  // `recd` as an installed package puts it on PATH.
  const bin = join(home, 'bin');
  const work = join(home, 'work');
  mkdirSync(bin);
  mkdirSync(work);
  writeFileSync(join(bin, 'recd'), `#!/bin/sh\nexec '${process.execPath}' '${CLI}' "$@"\n`);
  chmodSync(join(bin, 'recd'), 0o755);
  writeFileSync(join(home, 'session.sh'), script(runnable));

  // -x: bash traces each command to stderr, so a failure shows the command that failed (a `jq -e`
  // or `test` line fails silently otherwise).
  const bash = spawn('bash', ['-x', '-euo', 'pipefail', join(home, 'session.sh')], {
    cwd: work,
    detached: true, // its own process group, so a hung example is stopped with everything it started
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      PATH: `${bin}:${process.env.PATH ?? '/usr/bin:/bin'}`,
      HOME: home,
      LANG: 'C.UTF-8',
      RECD_URL: `http://127.0.0.1:${port}/v1`,
      RECD_ROOT_EMAIL: ROOT_EMAIL,
      RECD_ROOT_PASSWORD: ROOT_PASSWORD,
      RECD_METRICS_PORT: String(metricsPort),
    },
  });
  let stdout = '';
  let stderr = '';
  // When each block began (as its marker arrived), for the comment on where the time goes.
  const began: [string, number][] = [];
  bash.stdout.on('data', (d) => {
    stdout += d;
    for (const m of stdout
      .slice(Math.max(0, stdout.length - String(d).length - SEP.length - 16))
      .matchAll(new RegExp(`${SEP} (\\w+)@@`, 'g')))
      if (!began.some(([line]) => line === m[1])) began.push([m[1]!, Date.now()]);
  });
  bash.stderr.on('data', (d) => (stderr += d));
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    process.kill(-bash.pid!, 'SIGKILL');
  }, SESSION_MS);
  const code = await new Promise<number | null>((res) => bash.on('close', (c) => res(c)));
  clearTimeout(timer);

  t.comment(
    `seconds per block, by README line: ${began
      .slice(0, -1)
      .map(([line, at], i) => `${line}: ${((began[i + 1]![1] - at) / 1000).toFixed(1)}`)
      .join(', ')}`,
  );
  const outs = byBlock(stdout);
  const errs = byBlock(stderr);
  const begun = [...outs.keys()];
  const last = begun[begun.length - 1];
  if (code === 0 && last === 'end') {
    t.pass(`${runnable.length} blocks ran`);
  } else {
    const where = last === undefined ? 'before the first block' : `README line ${last}`;
    t.fail(`the example at ${where} ${timedOut ? `did not finish within ${SESSION_MS / 1000} s` : `failed (bash exit ${code})`}`, {
      stderr: (errs.get(last ?? '') ?? stderr).slice(-3000), // bash's trace included: the failing command is last
      stdout: (outs.get(last ?? '') ?? stdout).slice(-2000),
    });
  }
  t.same(begun, [...runnable.map((b) => String(b.line)), 'end'].slice(0, begun.length), 'blocks ran in document order');
});
