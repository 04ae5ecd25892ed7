// `recd import ratings FILE` of a generated CSV (1M rows by default) against a recd child process on
// a private redis-server: the whole command as an operator runs it (parse, batches of 10,000 over
// HTTP, the bulk endpoint's checks and writes), timed from start to exit. Training is held off
// (RECD_TRAINING_POLL_MS) unless set, so that what is measured is the import alone. Prints a
// markdown line for bench/RESULTS.md.
// Usage: npx tsc -p . && node dist/bench/cli/import.js   (BENCH_RATINGS)
import { spawn } from 'node:child_process';
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startBenchStack } from '../lib/recd-stack.js';

const RATINGS = Number(process.env.BENCH_RATINGS ?? 1_000_000);
const USERS = 50_000;
const ITEMS = 20_000;
const CLI = resolve(dirname(fileURLToPath(import.meta.url)), '../../src/cli.js');

// Ratings of users in order, ~20 per user, as exports from an application's database come.
async function writeCsv(file: string): Promise<void> {
  const out = createWriteStream(file);
  out.write('user_id,item_id,rating,timestamp\n');
  let chunk = '';
  for (let k = 0; k < RATINGS; k++) {
    chunk += `${(Math.floor(k / 20) % USERS) + 1},${((k * 7919) % ITEMS) + 1},${1 + (k % 10)},${1_700_000_000 + k}\n`;
    if (chunk.length > 1 << 20) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  out.end(chunk);
  await new Promise<void>((r) => out.once('finish', () => r()));
}

process.env.RECD_TRAINING_POLL_MS ??= '3600000';
const dir = mkdtempSync(join(os.tmpdir(), 'recd-bench-import-'));
const stack = await startBenchStack();
try {
  const file = join(dir, 'ratings.csv');
  await writeCsv(file);
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [CLI, 'import', 'ratings', file, '--url', stack.base], {
    env: { PATH: process.env.PATH ?? '', RECD_TOKEN: stack.token },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  const code = await new Promise<number | null>((r) => child.on('exit', r));
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  process.stderr.write(out);
  if (code !== 0) throw new Error(`recd import exited ${code}`);
  const written = Number(/(\d+) rows written/.exec(out)?.[1]);
  if (written !== RATINGS) throw new Error(`${written} rows written of ${RATINGS}`);
  const mb = statSync(file).size / 1e6;
  console.log(
    `| recd import ratings, CSV (${mb.toFixed(0)} MB) | ${RATINGS.toLocaleString('en')} rows | ${seconds.toFixed(1)} s | ${Math.round(RATINGS / seconds).toLocaleString('en')} rows/s | ${os.availableParallelism()} cores, Node ${process.versions.node} |`,
  );
} finally {
  await stack.stop();
  rmSync(dir, { recursive: true, force: true });
}
