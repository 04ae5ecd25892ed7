// EASE (Steck 2019) as a candidate of the parameter search and, when it wins, the source of users'
// lists: B = I − P·diag(1/diag P), P = (XᵀWX + λI)⁻¹ over the most rated items, a user's scores Σ
// weight · B's rows of what they rated. The n³ inverse is the cost (ease-tasks.ts, the blocked sweep
// of native-free-kernels/ease.ts on every training thread): it sets how many items EASE covers.
import type { Csr } from '../../../native-free-kernels/csr.js';
import { addDiagonalTo, sweepScratchLength } from '../../../native-free-kernels/ease.js';
import type { TrainingPool } from './pool.js';
import { evenRanges } from './ranges.js';
import type { EaseColumns, EaseWeighting } from './ease-tasks.js';
import type { ValidationData } from './tasks.js';
import type { UserLister } from './lists.js';
import type { Quality } from '../../store/models-store.js';

// EASE as the search chose it: λ as a multiple of the weighted Gram diagonal's mean, so it carries
// from the validation sample to the whole data.
export interface EaseChoice {
  lambdaScale: number;
  cut: number;
  below: number;
  items: number; // at most
}

export interface EaseParams extends EaseWeighting {
  scale: number; // λ ÷ the mean of the weighted Gram matrix's diagonal (a kept item's Σ weight²)
}

// Pivots per sweep block: the update's inner products run over this many terms (32 measured
// fastest of 32, 64, 128 at 1,600 items).
const BLOCK = 32;

// Multiply-adds of the inverse per second and thread, measured: 2.3–2.6·10⁹ at 1,600 items on this
// machine's cores (bench/RESULTS.md); the estimate errs low.
export const SWEEP_RATE = 2e9;
export const inverseSeconds = (n: number, threads: number): number => n ** 3 / (SWEEP_RATE * threads);

// EASE's weights B (n × n float32, shared) from a ratings matrix, on every thread of the pool, and the λ used.
export async function easeFit(pool: TrainingPool, m: Csr, cols: EaseColumns, p: EaseParams): Promise<{ weights: SharedArrayBuffer; lambda: number }> {
  const { n } = cols;
  const a = new SharedArrayBuffer(n * n * 8);
  const rows = evenRanges(n, pool.threads);
  const weighting = { cut: p.cut, below: p.below };
  await Promise.all(rows.map(([rowStart, rowEnd]) => pool.easeGram({ m, cols, weighting, dst: a, rowStart, rowEnd })));
  const gram = new Float64Array(a);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += gram[i * n + i]!;
  const lambda = (p.scale * trace) / n;
  addDiagonalTo(gram, n, lambda, 0, n);
  const scratch = new SharedArrayBuffer(sweepScratchLength(n, BLOCK) * 8);
  for (let k = 0; k < n; k += BLOCK) {
    const b = Math.min(BLOCK, n - k);
    if (!(await pool.easePivot({ a, scratch, n, k, b }))) throw new Error(`EASE: the Gram matrix plus λ ${lambda} is not positive definite`);
    await Promise.all(rows.map(([rowStart, rowEnd]) => pool.easeUpdate({ a, scratch, n, k, b, rowStart, rowEnd })));
  }
  const weights = new SharedArrayBuffer(n * n * 4);
  await Promise.all(rows.map(([rowStart, rowEnd]) => pool.easeWeights({ p: a, dst: weights, n, rowStart, rowEnd })));
  return { weights, lambda };
}

// NDCG@10 and recall@10 of EASE fitted on a validation split's training part.
export async function easeFitAndEvaluate(pool: TrainingPool, data: ValidationData, cols: EaseColumns, p: EaseParams): Promise<Quality & { lambda: number }> {
  const { weights, lambda } = await easeFit(pool, data.byUser, cols, p);
  const weighting = { cut: p.cut, below: p.below };
  const parts = await Promise.all(evenRanges(data.held.users.length, pool.threads).map(([from, to]) => pool.easeValidate({ weights, cols, weighting, data, from, to, k: 10 })));
  const sums = parts.reduce((s, x) => s.map((v, k) => v + x[k]!), [0, 0, 0]);
  return { ndcg_at_10: sums[0]! / Math.max(1, sums[2]!), recall_at_10: sums[1]! / Math.max(1, sums[2]!), lambda };
}

// Users' lists by EASE fitted on all the data (when the search chose it): the lister computeLists runs.
export async function easeLister(pool: TrainingPool, model: SharedArrayBuffer, byUser: Csr, byItem: Csr, choice: EaseChoice): Promise<UserLister> {
  const cols = await pool.easeColumns({ byItem, maxItems: choice.items, minCount: 1 });
  const weighting = { cut: choice.cut, below: choice.below };
  const { weights } = await easeFit(pool, byUser, cols, { ...weighting, scale: choice.lambdaScale });
  return (users, from, to) => pool.easeUserLists({ model, byUser, weights, cols, weighting, users, from, to });
}
