// Seconds of EASE's fit (easeFit: Gram matrix, inverse, B) through a real TrainingPool of 1 and 2
// threads, the TypeScript sweep against the WebAssembly SIMD kernel in the same run, and how far the
// kernel's f32 B is from the f64 sweep's on a realistic Gram matrix.
//
// Run: npx tsc -p . && asc --config native-free-kernels/wasm/asconfig-ease.json (or npm run build);
//      node dist/bench/kernels/ease-speed.js
// Env: BENCH_SIZES (default "1000,1648,2189,4000"), BENCH_THREADS ("1,2"), BENCH_RUNS (2; 1 at 4,000
//      and above, where the TypeScript sweep alone takes ~40 s).
//
// Data: users each rating ~40 items drawn with a power-law popularity (item ⌊x³·items⌋, x uniform),
// values 1–5, weighted by quantile (the search's usual weighting); the fit keeps the n most rated.
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { csrFromTriples, sharedCsr, transpose, type Csr } from '../../native-free-kernels/csr.js';
import { easeScoresTo } from '../../native-free-kernels/ease.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { easeFit } from '../../src/engine/training/item-weights.js';
import { easeColumns, weighRatings, type EaseColumns } from '../../src/engine/training/item-weights-tasks.js';
import { TrainingPool } from '../../src/engine/training/pool.js';

const SIZES = (process.env.BENCH_SIZES ?? '1000,1648,2189,4000').split(',').map(Number);
const THREADS = (process.env.BENCH_THREADS ?? '1,2').split(',').map(Number);
const RUNS = Number(process.env.BENCH_RUNS ?? 2);
const KERNELS = ['typescript', 'wasm'] as const;

function ratings(users: number, items: number, perUser: number, seed: number): Csr {
  const next = mulberry32(seed);
  const u: number[] = [],
    i: number[] = [],
    v: number[] = [];
  for (let user = 0; user < users; user++) {
    const seen = new Set<number>();
    const count = 1 + Math.floor(next() * 2 * perUser);
    for (let tries = 0; seen.size < count && tries < 4 * count; tries++) seen.add(Math.floor(next() ** 3 * items));
    for (const item of seen) {
      u.push(user);
      i.push(item);
      v.push(1 + Math.floor(next() * 5));
    }
  }
  return sharedCsr(csrFromTriples(users, items, Uint32Array.from(u), Uint32Array.from(i), Float32Array.from(v)));
}

// The weighted matrix and the n most rated of its items, as the search fits them.
function fitInput(users: number, items: number, n: number, seed: number): { w: Csr; cols: EaseColumns } {
  const m = ratings(users, items, 40, seed);
  return {
    w: weighRatings({ m, weighting: { cut: 0, below: 1, byQuantile: true } }),
    cols: easeColumns({ byItem: transpose(m), maxItems: n, minCount: 1 }),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[(xs.length - 1) >> 1]!;

async function seconds(
  pool: TrainingPool,
  x: { w: Csr; cols: EaseColumns },
  kernel: (typeof KERNELS)[number],
  runs: number,
): Promise<number> {
  const times: number[] = [];
  for (let r = 0; r < runs; r++) {
    const started = performance.now();
    await easeFit(pool, x.w, x.cols, 10, kernel);
    times.push((performance.now() - started) / 1000);
  }
  return median(times);
}

async function speed(): Promise<void> {
  const inputs = SIZES.map((n) => fitInput(4 * n, Math.round(1.5 * n), n, n));
  const table = new Map<string, number>();
  for (const threads of THREADS) {
    const pool = new TrainingPool(threads);
    const warm = fitInput(600, 400, 300, 1);
    for (const kernel of KERNELS) await seconds(pool, warm, kernel, 2); // threads started, code compiled
    for (const x of inputs)
      for (const kernel of KERNELS)
        table.set(`${x.cols.n} ${threads} ${kernel}`, await seconds(pool, x, kernel, x.cols.n >= 4000 ? 1 : RUNS));
    await pool.close();
  }
  console.log('| n | threads | TypeScript s | WebAssembly s | speed-up | WebAssembly n³/(s·threads) |');
  console.log('|---:|---:|---:|---:|---:|---:|');
  for (const x of inputs) {
    for (const threads of THREADS) {
      const ts = table.get(`${x.cols.n} ${threads} typescript`)!,
        wasm = table.get(`${x.cols.n} ${threads} wasm`)!;
      console.log(
        `| ${x.cols.n} | ${threads} | ${ts.toFixed(2)} | ${wasm.toFixed(2)} | ${(ts / wasm).toFixed(1)}× | ${(x.cols.n ** 3 / wasm / threads / 1e9).toFixed(1)}·10⁹ |`,
      );
    }
  }
}

// B from both kernels on 1,000 users (fewer users than items, so λ alone makes the Gram matrix
// invertible): the largest difference relative to B's largest entry, and how the top 10 of 200
// users' scores (their rated items left out) agree.
async function accuracy(): Promise<void> {
  const pool = new TrainingPool(2);
  const x = fitInput(1000, 2000, 1648, 7);
  const { w, cols } = x,
    n = cols.n;
  console.log(`\n| λ / Gram diagonal's mean | n | max \\|ΔB\\| / max \\|B\\| | top-10 overlap | top-10 same order |`);
  console.log('|---:|---:|---:|---:|---:|');
  for (const scale of [10, 1]) {
    const ref = new Float32Array((await easeFit(pool, w, cols, scale, 'typescript')).weights);
    const got = new Float32Array((await easeFit(pool, w, cols, scale, 'wasm')).weights);
    let diff = 0,
      big = 0;
    for (let k = 0; k < n * n; k++) {
      diff = Math.max(diff, Math.abs(got[k]! - ref[k]!));
      big = Math.max(big, Math.abs(ref[k]!));
    }
    let overlap = 0,
      same = 0;
    const users = 200;
    for (let q = 0; q < users; q++) {
      const u = Math.floor((q * w.rows) / users),
        rows: number[] = [],
        values: number[] = [];
      for (let e = w.indptr[u]!; e < w.indptr[u + 1]!; e++) {
        const c = cols.column[w.indices[e]!]!;
        if (c >= 0) rows.push(c), values.push(w.values[e]!);
      }
      const a = top10(ref, n, rows, values),
        b = top10(got, n, rows, values);
      overlap += a.filter((c) => b.includes(c)).length / 10;
      if (a.every((c, k) => b[k] === c)) same++;
    }
    console.log(
      `| ${scale} | ${n} | ${(diff / big).toExponential(1)} | ${((100 * overlap) / users).toFixed(1)} % | ${((100 * same) / users).toFixed(0)} % |`,
    );
  }
  await pool.close();
}

function top10(weights: Float32Array, n: number, rows: number[], values: number[]): number[] {
  const scores = new Float32Array(n);
  easeScoresTo(scores, weights, n, rows, values);
  for (const r of rows) scores[r] = -Infinity;
  return Array.from(scores.keys())
    .sort((a, b) => scores[b]! - scores[a]! || a - b)
    .slice(0, 10);
}

const git = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).trim();
console.log(
  `EASE fit (Gram, inverse, B) seconds, median of ${RUNS}; ${os.cpus()[0]?.model}, ${os.cpus().length} cores, node ${process.version}, git ${git}, ${new Date().toISOString()}, load average ${os.loadavg()[0]!.toFixed(1)}\n`,
);
await speed();
await accuracy();
console.log(`\nload average at the end ${os.loadavg()[0]!.toFixed(1)}`);
