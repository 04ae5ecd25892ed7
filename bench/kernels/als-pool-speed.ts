// Seconds per ALS iteration when training runs the way the service runs it: trainAls on the Piscina
// TrainingPool (engine/training/trainer.ts), each half-step split into one row range per thread. Neighbours 0,
// so only prepare + ALS iterations + finish (Gram, loss) are timed.
//
// Two figures per run:
//   whole     = trainAls's own `seconds` (prepare + iterations + finish) / iterations, nothing subtracted;
//   iterations = time from progress('iteration 1/n') to progress('finishing') / n (prepare-free).
// One pool per (data set, threads) configuration, closed after it; median over BENCH_RUNS runs.
//
// Run: npx tsc -p . && node dist/bench/kernels/als-pool-speed.js
// Env: BENCH_THREADS (default "1,2"), BENCH_ITERATIONS (5), BENCH_RUNS (3),
//      BENCH_DATASETS (comma list of ml-100k, ml-latest-small, synthetic; default all).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import { TrainingPool } from '../../src/engine/training/pool.js';
import type { AlsParams } from '../../src/engine/training/tasks.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import type { Snapshot } from '../../src/engine/training/ratings-replay.js';
import { loadMl100kFile, loadMlLatestSmall, rng, type Ratings } from '../quality/data.js';

const THREADS = (process.env.BENCH_THREADS ?? '1,2')
  .split(',')
  .map((s) => Number(s.trim()))
  .filter((n) => n >= 1);
const ITERATIONS = Number(process.env.BENCH_ITERATIONS ?? 5);
const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const WANTED = (process.env.BENCH_DATASETS ?? 'ml-100k,ml-latest-small,synthetic').split(',').map((s) => s.trim());

const PARAMS: AlsParams = {
  factors: 64,
  iterations: ITERATIONS,
  regularization: 20,
  alpha: 0.25,
  unobserved: 1,
  regExponent: 0,
  ratingShift: 0,
  ratingFloor: 0,
  cgSteps: 3,
  listLength: 0,
  userListsSeconds: 0,
  indexMinItems: 2 ** 31, // the ALS iterations are what this measures
  popularityHalfLifeSeconds: 30 * 86400,
  seed: 42,
};

// Same generator (and seed) as bench/kernels/als-speed.ts, as triples rather than a CSR: distinct
// (user, item) pairs, items skewed towards low ids (x² ⇒ a popularity-like long tail), ratings 1–5.
function synthetic(users: number, items: number, ratings: number, seed: number): Ratings {
  const next = rng(seed);
  const seen = new Uint8Array(users * items);
  const u = new Uint32Array(ratings),
    i = new Uint32Array(ratings),
    r = new Float32Array(ratings);
  let n = 0;
  while (n < ratings) {
    const uu = Math.floor(next() * users);
    const x = next();
    const ii = Math.floor(x * x * items);
    const key = uu * items + ii;
    if (seen[key] === 1) continue;
    seen[key] = 1;
    u[n] = uu;
    i[n] = ii;
    r[n] = 1 + Math.floor(next() * 5);
    n++;
  }
  return { users, items, u, i, r };
}

function toSnapshot(d: Ratings): Snapshot {
  const now = Date.now() / 1000;
  return { users: d.u, items: d.i, ratings: d.r, timestamps: new Float64Array(d.u.length).fill(now) };
}

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 === 1 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

interface Run {
  whole: number; // s / iteration, trainAls seconds / n
  loop: number; // s / iteration, iterations only
  prepare: number; // s, call → 'iteration 1/n'
  finish: number; // s, 'finishing' → resolved
  loss: number;
}

async function runOnce(pool: TrainingPool, d: Ratings, snapshot: Snapshot): Promise<Run> {
  let firstIteration = NaN,
    finishing = NaN;
  const started = performance.now();
  const trained = await trainAls(pool, { snapshot, log: [], users: d.users, items: d.items }, PARAMS, (text) => {
    if (text === `iteration 1/${PARAMS.iterations}`) firstIteration = performance.now();
    else if (text === 'finishing') finishing = performance.now();
  });
  const ended = performance.now();
  if (Number.isNaN(firstIteration) || Number.isNaN(finishing)) throw new Error('progress callback did not report the iterations');
  return {
    whole: trained.seconds / PARAMS.iterations,
    loop: (finishing - firstIteration) / 1000 / PARAMS.iterations,
    prepare: (firstIteration - started) / 1000,
    finish: (ended - finishing) / 1000,
    loss: trained.loss,
  };
}

const sets: [string, string, () => Ratings][] = [
  ['ml-100k', 'ml-100k u.data (full, 943 × 1,682)', () => loadMl100kFile('u.data')],
  ['ml-latest-small', 'ml-latest-small (610 × 9,724)', () => loadMlLatestSmall()],
  ['synthetic', 'synthetic 6,000 × 4,000 × 1M, seed 1', () => synthetic(6000, 4000, 1_000_000, 1)],
];

// Busy CPU seconds of the whole machine (Linux /proc/stat, USER_HZ 100), or NaN elsewhere: with
// process.cpuUsage() (all of this process's threads) it tells how many cores this benchmark used and
// how much other processes took while it ran.
function machineBusySeconds(): number {
  try {
    const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
    const idle = (f[3] ?? 0) + (f[4] ?? 0);
    return (f.slice(0, 8).reduce((a, b) => a + b, 0) - idle) / 100;
  } catch {
    return NaN;
  }
}

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return 'unknown';
  }
}

const cpus = os.cpus();
const header = [
  `Machine: ${cpus[0]?.model ?? 'unknown CPU'}, ${cpus.length} cores, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM, ${os.type()} ${os.release()} ${os.arch()}`,
  `Node ${process.version}; git ${gitCommit()}; ${new Date().toISOString()}`,
  `trainAls on TrainingPool(threads): factors ${PARAMS.factors}, iterations ${PARAMS.iterations}, reg ${PARAMS.regularization}, alpha ${PARAMS.alpha}, CG steps ${PARAMS.cgSteps}, no lists, seed ${PARAMS.seed}; median of ${RUNS} runs per configuration, one pool per configuration.`,
  '',
  '| data set | users | items | ratings | threads | s / iteration, whole trainAls ÷ n (median) | s / iteration, iterations only (median) | speed-up vs 1 thread (iterations only) | speed-up vs 1 thread (whole) | runs, iterations only (s / iteration) | prepare s (median) | finish s (median) | cores used by the bench | cores used by other processes | loss |',
  '|---|---:|---:|---:|---:|---:|---:|---:|---:|---|---:|---:|---:|---:|---:|',
];
console.log(header.slice(0, 3).join('\n'));
const rows: string[] = [];
for (const [key, name, load] of sets) {
  if (!WANTED.includes(key)) continue;
  const d = load();
  const snapshot = toSnapshot(d);
  let base: { whole: number; loop: number } | undefined;
  for (const threads of THREADS) {
    const pool = new TrainingPool(threads);
    const runs: Run[] = [];
    const wall0 = performance.now(),
      busy0 = machineBusySeconds(),
      own0 = process.cpuUsage();
    try {
      for (let k = 0; k < RUNS; k++) {
        const r = await runOnce(pool, d, snapshot);
        runs.push(r);
        console.error(
          `${name}, ${threads} thread(s), run ${k + 1}: ${r.loop.toFixed(3)} s/it (iterations), ${r.whole.toFixed(3)} s/it (whole), prepare ${r.prepare.toFixed(3)} s, finish ${r.finish.toFixed(3)} s, loss ${r.loss.toPrecision(8)}`,
        );
      }
    } finally {
      await pool.close();
    }
    const wall = (performance.now() - wall0) / 1000;
    const ownUsage = process.cpuUsage(own0);
    const own = (ownUsage.user + ownUsage.system) / 1e6;
    const others = machineBusySeconds() - busy0 - own;
    const cores = (x: number) => (Number.isNaN(x) ? '—' : Math.max(0, x / wall).toFixed(2));
    console.error(`${name}, ${threads} thread(s): ${wall.toFixed(1)} s wall, bench ${cores(own)} cores, others ${cores(others)} cores`);
    const whole = median(runs.map((r) => r.whole));
    const loop = median(runs.map((r) => r.loop));
    if (threads === 1) base = { whole, loop };
    const speed = (b: number | undefined, x: number) => (b === undefined ? '—' : `${(b / x).toFixed(2)}×`);
    rows.push(
      `| ${name} | ${d.users.toLocaleString('en-US')} | ${d.items.toLocaleString('en-US')} | ${d.u.length.toLocaleString('en-US')} | ${threads} | ${whole.toFixed(3)} | ${loop.toFixed(3)} | ${speed(base?.loop, loop)} | ${speed(base?.whole, whole)} | ${runs.map((r) => r.loop.toFixed(3)).join(', ')} | ${median(runs.map((r) => r.prepare)).toFixed(3)} | ${median(runs.map((r) => r.finish)).toFixed(3)} | ${cores(own)} | ${cores(others)} | ${runs[0]!.loss.toPrecision(6)} |`,
    );
  }
}
console.log(['', ...header.slice(4), ...rows].join('\n'));
