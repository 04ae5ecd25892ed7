// Seconds per implicit-ALS iteration (user half-step + item half-step, Gram recomputed before each)
// with the kernels, single thread, 64 factors, CG steps 3. Median of 3 timed iterations after 1 warm-up.
// Run: npx tsc -p . && node dist/bench/kernels/als-speed.js
import { csrFromTriples, transpose, type Csr } from '../../native-free-kernels/csr.js';
import { alsHalfStepTo } from '../../native-free-kernels/als.js';
import { gramTo } from '../../native-free-kernels/linalg.js';
import { loadMl100kFile, loadMlLatestSmall, rng, toCsr } from '../quality/data.js';

const F = 64,
  CG = 3,
  REG = 0.5,
  ALPHA = 1;

function synthetic(users: number, items: number, ratings: number, seed: number): Csr {
  // Distinct (user, item) pairs; items skewed towards low ids (u² ⇒ a popularity-like long tail).
  const next = rng(seed);
  const seen = new Uint8Array(users * items);
  const r = new Uint32Array(ratings),
    c = new Uint32Array(ratings),
    v = new Float32Array(ratings);
  let n = 0;
  while (n < ratings) {
    const u = Math.floor(next() * users);
    const x = next();
    const i = Math.floor(x * x * items);
    const key = u * items + i;
    if (seen[key] === 1) continue;
    seen[key] = 1;
    r[n] = u;
    c[n] = i;
    v[n] = 1 + Math.floor(next() * 5);
    n++;
  }
  return csrFromTriples(users, items, r, c, v);
}

function timeIterations(m: Csr): number[] {
  const byItem = transpose(m);
  const next = rng(7);
  const U = Float32Array.from({ length: m.rows * F }, () => next() * 0.01);
  const V = Float32Array.from({ length: m.cols * F }, () => next() * 0.01);
  const gram = new Float64Array(F * F);
  const scratch = new Float64Array(4 * F);
  const times: number[] = [];
  for (let it = 0; it < 4; it++) {
    const t = performance.now();
    gramTo(gram, V, m.cols, F);
    alsHalfStepTo(U, m, V, gram, F, REG, ALPHA, CG, scratch);
    gramTo(gram, U, m.rows, F);
    alsHalfStepTo(V, byItem, U, gram, F, REG, ALPHA, CG, scratch);
    times.push((performance.now() - t) / 1000);
  }
  return times.slice(1);
}

const sets: [string, () => Csr][] = [
  ['ml-100k u.data (943 × 1,682)', () => toCsr(loadMl100kFile('u.data'))],
  ['ml-latest-small (610 × 9,724)', () => toCsr(loadMlLatestSmall())],
  ['synthetic 6,000 × 4,000, seed 1', () => synthetic(6000, 4000, 1_000_000, 1)],
];

const lines = [
  `Single thread, ${F} factors, CG steps ${CG}, reg ${REG}, alpha ${ALPHA}; Node ${process.version}. One iteration = Gram + user half-step + Gram + item half-step.`,
  '',
  '| data set | ratings (nnz) | s / iteration (median of 3) | timed iterations (s) | µs per rating per iteration |',
  '|---|---:|---:|---|---:|',
];
for (const [name, make] of sets) {
  const m = make();
  const times = timeIterations(m);
  const med = [...times].sort((a, b) => a - b)[1]!;
  const nnz = m.indices.length;
  lines.push(
    `| ${name} | ${nnz.toLocaleString('en-US')} | ${med.toFixed(3)} | ${times.map((t) => t.toFixed(3)).join(', ')} | ${((med / nnz) * 1e6).toFixed(2)} |`,
  );
  console.error(`${name}: ${med.toFixed(3)} s`);
}
console.log(lines.join('\n'));
