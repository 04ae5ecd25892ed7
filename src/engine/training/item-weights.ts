// Item-weights models, candidates of the parameter search and, when one wins, the source of users'
// lists: a dense n × n matrix B over the most rated items, a user's scores the weighted sum of B's
// rows of what they rated. EASE (Steck 2019): B = I − P·diag(1/diag P), P = (XᵀWX + λI)⁻¹, whose n³
// inverse (a blocked sweep on every training thread: native-free-kernels/wasm-ease.ts in WebAssembly
// SIMD, its twin ease.ts where that cannot run) sets how many items they cover; item-KNN: each
// item's k most cosine-similar items by the same Gram matrix.
import type { Csr } from '../../../native-free-kernels/csr.js';
import { addDiagonalTo, sweepScratchLength } from '../../../native-free-kernels/ease.js';
import { wasmSweepMemory, wasmSweepRuns } from '../../../native-free-kernels/wasm-ease.js';
import type { TrainingPool } from './pool.js';
import { evenRanges } from './ranges.js';
import { sweptMatrix, type Blend, type EaseColumns, type EaseWeighting } from './item-weights-tasks.js';
import type { UserLister } from './tasks.js';
import type { HeldOut } from '../../../native-free-kernels/validation.js';
import type { Quality } from '../../store/models-store.js';

// An item-weights model as the search chose it. EASE's λ is a multiple of the weighted Gram
// diagonal's mean, so it carries from the validation sample to the whole data.
// byQuantile: ratings weigh their quantile among all ratings (EaseWeighting.shares) instead of cut and below.
// alsWeight: users' lists blend in the model's ALS scores with this weight (0: none).
export type ItemWeightsChoice = { cut: number; below: number; byQuantile: boolean; items: number; alsWeight: number } & (
  | { model: 'ease'; lambdaScale: number }
  | { model: 'item-knn'; neighbours: number }
);

// Pivots per sweep block: the update's inner products run over this many terms. TypeScript: 32
// measured fastest of 32, 64, 128 at 1,600 items. WebAssembly: 32, 64 and 128 measured alike
// within noise at 2,189 items on 2 threads (pivot plus update ~0.5 s); 64 halves 32's round trips
// while its one-thread pivot (b·n² of the n³ multiply-adds) stays ~40 ms of them.
const BLOCK = 32;
const WASM_BLOCK = 64;

// Multiply-adds of the inverse (n³) per second and thread, as easeFit (Gram matrix, inverse, B)
// reaches them through the pool: bench/kernels/ease-speed.ts (bench/RESULTS.md, "Kernels: scoring,
// fold-in, EASE and lists") measured 8.2·10⁹ at 1,648 items and 12.5·10⁹ at 2,189 on 2 threads with the
// WebAssembly kernel; the TypeScript sweep, where that cannot run, 2.3–2.6·10⁹. Each figure is
// the low end of its measurements, so the estimate errs low. Read when a search sizes EASE, not at
// import: knowing whether the kernel runs compiles its module, which `recd plan` and threads that
// never search should not pay for.
export const sweepRate = (): number => (wasmSweepRuns() ? 8e9 : 2e9);
export const inverseSeconds = (n: number, threads: number): number => n ** 3 / (sweepRate() * threads);

// A matrix with its ratings' weights as values, made once per matrix and weighting (trials moving λ
// or neighbours reuse it).
const weightedOf = new WeakMap<Csr, Map<string, Promise<Csr>>>();
export function weighted(pool: TrainingPool, m: Csr, w: EaseWeighting): Promise<Csr> {
  let byWeighting = weightedOf.get(m);
  if (byWeighting === undefined) weightedOf.set(m, (byWeighting = new Map()));
  const key = w.byQuantile ? 'q' : `${w.cut} ${w.below}`;
  let made = byWeighting.get(key);
  if (made === undefined) byWeighting.set(key, (made = pool.weighRatings({ m, weighting: w })));
  return made;
}

// The weighted Gram matrix XᵀWX over the kept items, on every thread: into `dst` (the WebAssembly
// sweep's memory), else n × n float64, shared. w's values are the ratings' weights (weighted).
async function gramOf<T extends SharedArrayBuffer | WebAssembly.Memory>(pool: TrainingPool, w: Csr, cols: EaseColumns, dst: T): Promise<T> {
  await Promise.all(evenRanges(cols.n, pool.threads).map(([rowStart, rowEnd]) => pool.easeGram({ m: w, cols, dst, rowStart, rowEnd })));
  return dst;
}
const float64Matrix = (n: number) => new SharedArrayBuffer(n * n * 8);

// EASE's weights B (n × n float32, shared) from a weighted ratings matrix, on every thread of the
// pool, and the λ used: `scale` times the Gram diagonal's mean. The inverse runs in the WebAssembly
// kernel where it can (kernel 'typescript': its twin, which the benchmark compares).
export async function easeFit(
  pool: TrainingPool,
  w: Csr,
  cols: EaseColumns,
  scale: number,
  kernel: 'wasm' | 'typescript' = 'wasm',
): Promise<{ weights: SharedArrayBuffer; lambda: number }> {
  const { n } = cols;
  const memory = kernel === 'wasm' ? wasmSweepMemory(n, WASM_BLOCK) : undefined;
  const a = await gramOf(pool, w, cols, memory ?? float64Matrix(n));
  const rows = evenRanges(n, pool.threads);
  const gram = sweptMatrix(a, n);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += gram.rows[i * gram.stride + i]!;
  const lambda = (scale * trace) / n;
  addDiagonalTo(gram.rows, n, lambda, 0, n, gram.stride);
  const on =
    a instanceof WebAssembly.Memory
      ? { memory: a, block: WASM_BLOCK }
      : { a, scratch: new SharedArrayBuffer(sweepScratchLength(n, BLOCK) * 8) };
  const block = 'memory' in on ? WASM_BLOCK : BLOCK;
  for (let k = 0; k < n; k += block) {
    const b = Math.min(block, n - k);
    if (!(await pool.easePivot({ ...on, n, k, b }))) throw new Error(`EASE: the Gram matrix plus λ ${lambda} is not positive definite`);
    await Promise.all(rows.map(([rowStart, rowEnd]) => pool.easeUpdate({ ...on, n, k, b, rowStart, rowEnd })));
  }
  const weights = new SharedArrayBuffer(n * n * 4);
  await Promise.all(rows.map(([rowStart, rowEnd]) => pool.easeWeights({ p: a, dst: weights, n, rowStart, rowEnd })));
  return { weights, lambda };
}

// Item-KNN's weights: each kept item's `neighbours` most similar kept items by cosine of the
// weighted Gram matrix.
export async function knnFit(pool: TrainingPool, w: Csr, cols: EaseColumns, neighbours: number): Promise<SharedArrayBuffer> {
  const gram = await gramOf(pool, w, cols, float64Matrix(cols.n));
  const weights = new SharedArrayBuffer(cols.n * cols.n * 4);
  await Promise.all(
    evenRanges(cols.n, pool.threads).map(([rowStart, rowEnd]) =>
      pool.knnWeights({ gram, dst: weights, n: cols.n, k: neighbours, rowStart, rowEnd }),
    ),
  );
  return weights;
}

// A choice's (or trial's) item weights fitted on a weighted matrix.
export async function fitItemWeights(
  pool: TrainingPool,
  w: Csr,
  cols: EaseColumns,
  x: { model: 'ease'; scale: number } | { model: 'item-knn'; neighbours: number },
): Promise<SharedArrayBuffer> {
  return x.model === 'ease' ? (await easeFit(pool, w, cols, x.scale)).weights : knnFit(pool, w, cols, x.neighbours);
}

// NDCG@10 and recall@10 of users' scores by item weights on a validation split's held-out items
// (`train`: the split's training part, weighted).
export async function evaluateWeights(
  pool: TrainingPool,
  train: Csr,
  held: HeldOut,
  cols: EaseColumns,
  weights: SharedArrayBuffer,
  blend?: Blend,
): Promise<Quality> {
  const parts = await Promise.all(
    evenRanges(held.users.length, pool.threads).map(([from, to]) =>
      pool.easeValidate({ weights, cols, train, held, from, to, k: 10, blend }),
    ),
  );
  const sums = parts.reduce((s, x) => s.map((v, k) => v + x[k]!), [0, 0, 0]);
  return { ndcg_at_10: sums[0]! / Math.max(1, sums[2]!), recall_at_10: sums[1]! / Math.max(1, sums[2]!) };
}

// Users' lists by the chosen item-weights model fitted on all the data: the lister computeLists runs.
export async function weightsLister(
  pool: TrainingPool,
  model: SharedArrayBuffer,
  byUser: Csr,
  byItem: Csr,
  choice: ItemWeightsChoice,
): Promise<UserLister> {
  const cols = await pool.easeColumns({ byItem, maxItems: choice.items, minCount: 1 });
  const w = await weighted(pool, byUser, choice);
  const weights = await fitItemWeights(pool, w, cols, choice.model === 'ease' ? { model: 'ease', scale: choice.lambdaScale } : choice);
  return (users, from, to, out) =>
    pool.easeUserLists({ model, byUser: w, weights, cols, users, from, to, out, alsWeight: choice.alsWeight });
}
