// One user's fold-in (native-free-kernels/fold-in.ts foldInTo) against the kernel it replaced, in the
// same run: µs per call (median) for f = 32 and 64 at 20, 80, 500 and 2,048 rated items, and the ratio.
// The baseline (kept below) summed the full f×f matrix an item at a time and factorised it one dot
// product at a time; the kernel sums the lower triangle four items and two rows at a time, and its
// Cholesky factor makes four rows at a time. Then the solve alone (choleskySolveTo), old against new.
// 100,000 items; each call's items drawn at random from all of them, values 1–10, alpha 0.25, λ 20.
// Old and new alternate round by round on the same users; ~5 s in all.
// Run: npm run build && node dist/bench/kernels/fold-in-speed.js
import os from 'node:os';
import { foldInTo } from '../../native-free-kernels/fold-in.js';
import { choleskySolveTo, gramTo } from '../../native-free-kernels/linalg.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

const ITEMS = 100_000,
  FACTORS = [32, 64],
  COUNTS = [20, 80, 500, 2048];
const ROUNDS = 31,
  USERS = 32,
  LAMBDA = 20,
  ALPHA = 0.25;
// Multiply-adds per timed batch of the old kernel (~1 ms), so that short calls are timed in batches.
const BATCH_WORK = 40_000;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

// The kernel as it was (git 8744ba0): the full matrix, an item at a time.
function oldFoldInTo(
  dst: Float32Array,
  items: Uint32Array,
  values: Float32Array,
  itemFactors: Float32Array,
  gram: Float64Array,
  f: number,
  lambda: number,
  alpha: number,
  scratch: Float64Array,
): void {
  const A = scratch.subarray(0, f * f),
    L = scratch.subarray(f * f, 2 * f * f);
  const b = scratch.subarray(2 * f * f, 2 * f * f + f),
    x = scratch.subarray(2 * f * f + f, 2 * f * f + 2 * f);
  A.set(gram);
  for (let a = 0; a < f; a++) A[a * f + a]! += lambda;
  b.fill(0);
  for (let k = 0; k < items.length; k++) {
    const c = 1 + alpha * values[k]!;
    const y = items[k]! * f;
    for (let a = 0; a < f; a++) {
      const ya = itemFactors[y + a]!;
      b[a]! += c * ya;
      const w = (c - 1) * ya;
      for (let d = 0; d < f; d++) A[a * f + d]! += w * itemFactors[y + d]!;
    }
  }
  oldCholeskySolveTo(x, A, b, f, L);
  for (let a = 0; a < f; a++) dst[a] = x[a]!;
}

// linalg.ts choleskySolveTo as it was: one dot product at a time.
function oldCholeskySolveTo(x: Float64Array, a: Float64Array, b: Float64Array, f: number, l: Float64Array): void {
  for (let j = 0; j < f; j++) {
    let d = a[j * f + j]!;
    for (let k = 0; k < j; k++) d -= l[j * f + k]! * l[j * f + k]!;
    if (!(d > 0)) throw new Error('not positive definite');
    const ljj = Math.sqrt(d);
    l[j * f + j] = ljj;
    for (let i = j + 1; i < f; i++) {
      let s = a[i * f + j]!;
      for (let k = 0; k < j; k++) s -= l[i * f + k]! * l[j * f + k]!;
      l[i * f + j] = s / ljj;
    }
  }
  for (let i = 0; i < f; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * f + k]! * x[k]!;
    x[i] = s / l[i * f + i]!;
  }
  for (let i = f - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let k = i + 1; k < f; k++) s -= l[k * f + i]! * x[k]!;
    x[i] = s / l[i * f + i]!;
  }
}

// Median µs per call of each of `runs` (called with a user's index), alternating round by round.
function timeAlternating(runs: ((user: number) => void)[], calls: number): number[] {
  const times = runs.map(() => [] as number[]);
  for (let r = 0; r < ROUNDS + 1; r++) {
    runs.forEach((run, k) => {
      const t0 = performance.now();
      for (let q = 0; q < calls; q++) run((r * calls + q) % USERS);
      if (r > 0) times[k]!.push(((performance.now() - t0) * 1000) / calls); // round 0 warms up
    });
  }
  return times.map(median);
}

console.log(`Machine: ${os.cpus()[0]?.model}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString()}`);
const rand = mulberry32(42);
const solves: string[] = [];
console.log('| f | items | old µs (median) | new µs (median) | old ÷ new | largest relative difference |');
console.log('|---:|---:|---:|---:|---:|---:|');
for (const f of FACTORS) {
  const itemFactors = Float32Array.from({ length: ITEMS * f }, () => (rand() - 0.5) * 0.6);
  const gram = new Float64Array(f * f);
  gramTo(gram, itemFactors, ITEMS, f);
  const scratch = new Float64Array(2 * f * f + 2 * f);
  const oldOut = new Float32Array(f),
    newOut = new Float32Array(f);
  for (const n of COUNTS) {
    const users = Array.from({ length: USERS }, () => ({
      items: Uint32Array.from({ length: n }, () => Math.floor(rand() * ITEMS)),
      values: Float32Array.from({ length: n }, () => 1 + Math.floor(rand() * 10)),
    }));
    let worst = 0;
    for (const { items, values } of users) {
      oldFoldInTo(oldOut, items, values, itemFactors, gram, f, LAMBDA, ALPHA, scratch);
      foldInTo(newOut, items, values, itemFactors, gram, f, LAMBDA, ALPHA, scratch);
      let num = 0,
        den = 0;
      for (let a = 0; a < f; a++) {
        num += (newOut[a]! - oldOut[a]!) ** 2;
        den += oldOut[a]! ** 2;
      }
      worst = Math.max(worst, Math.sqrt(num / den));
    }
    const calls = Math.max(1, Math.round(BATCH_WORK / (n * f)));
    const [old, now] = timeAlternating(
      [
        (u) => oldFoldInTo(oldOut, users[u]!.items, users[u]!.values, itemFactors, gram, f, LAMBDA, ALPHA, scratch),
        (u) => foldInTo(newOut, users[u]!.items, users[u]!.values, itemFactors, gram, f, LAMBDA, ALPHA, scratch),
      ],
      calls,
    );
    console.log(
      `| ${f} | ${n.toLocaleString('en-US')} | ${old!.toFixed(1)} | ${now!.toFixed(1)} | ${(old! / now!).toFixed(2)}× | ${worst.toExponential(1)} |`,
    );
  }
  // The solve alone, on the Gram matrix plus λ: what a fold-in costs beyond its items.
  const a = Float64Array.from(gram, (g, k) => g + (k % (f + 1) === 0 ? LAMBDA : 0));
  const b = Float64Array.from({ length: f }, () => rand()),
    x = new Float64Array(f),
    l = new Float64Array(f * f);
  const [old, now] = timeAlternating([() => oldCholeskySolveTo(x, a, b, f, l), () => choleskySolveTo(x, a, b, f, l)], 64);
  solves.push(`- f = ${f}: choleskySolveTo alone, old ${old!.toFixed(1)} µs, new ${now!.toFixed(1)} µs (${(old! / now!).toFixed(2)}×)`);
}
for (const line of solves) console.log(line);
