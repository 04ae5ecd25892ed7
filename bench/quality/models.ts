// The three models compared by the quality bench, all producing a per-user score vector.
import type { Csr } from '../../native-free-kernels/csr.js';
import { popularityTo } from '../../native-free-kernels/popularity.js';
import { modelViews } from '../../src/engine/model/layout.js';
import type { Snapshot } from '../../src/engine/training/ratings-replay.js';
import type { AlsParams as ProductionAlsParams } from '../../src/engine/training/tasks.js';
import { trainAls as productionTrainAls } from '../../src/engine/training/trainer.js';
import type { TrainingPool } from '../../src/engine/training/pool.js';
import type { Searched, SearchOptions } from '../../src/engine/training/search.js';

/** Fills scores (length items) for user u; `rated` is the user's row of the training matrix. */
export type Scorer = (u: number, scores: Float32Array) => void;

/** Plain rating counts per item (popularityTo with every weight 1 and no decay in practice). */
export function popularityScorer(train: Csr): Scorer {
  const n = train.indices.length;
  const pop = new Float32Array(train.cols);
  // Half-life far beyond any age in the data: 2^(-age/1e30) rounds to exactly 1 in float32.
  popularityTo(pop, train.indices, new Float64Array(n), new Float32Array(n).fill(1), 0, 1e30);
  return (_u, scores) => scores.set(pop);
}

/** The production trainer's parameters minus the two the bench fixes (no neighbour lists, no decay). */
export type AlsParams = Omit<ProductionAlsParams, 'listLength' | 'userListsSeconds' | 'popularityHalfLifeSeconds' | 'indexMinItems'>;

export interface AlsModel {
  userFactors: Float32Array;
  itemFactors: Float32Array;
  f: number;
  searched: Searched | undefined;
  seconds: number; // of the whole training (search included)
}

/**
 * The production model: `trainAls` of src/engine/training/trainer.ts on the service's TrainingPool, fed the
 * training matrix as a ratings snapshot (the CSR's triples, already sorted by (user, item) with each
 * pair once; timestamps 0) and an empty log. Factors are read back through the model layout.
 */
export async function trainAls(pool: TrainingPool, train: Csr, p: AlsParams, search?: SearchOptions, progress: (text: string) => void = () => {}): Promise<AlsModel> {
  const n = train.indices.length;
  const users = new Uint32Array(n);
  for (let u = 0; u < train.rows; u++) users.fill(u, train.indptr[u]!, train.indptr[u + 1]!);
  const snapshot: Snapshot = { users, items: Uint32Array.from(train.indices), ratings: Float32Array.from(train.values), timestamps: new Float64Array(n) };
  const params: ProductionAlsParams = { ...p, listLength: 0, userListsSeconds: 0, popularityHalfLifeSeconds: 1e9, indexMinItems: 2 ** 31 };
  const { model, searched, seconds } = await productionTrainAls(pool, { snapshot, log: [], users: train.rows, items: train.cols }, params, progress, search && { ...search, due: () => true });
  const v = modelViews(model);
  if (v.dims.users !== train.rows || v.dims.items !== train.cols || (!search && v.dims.factors !== p.factors)) {
    throw new Error(`production model is ${v.dims.users}×${v.dims.items}×${v.dims.factors}, expected ${train.rows}×${train.cols}×${p.factors}`);
  }
  return { userFactors: v.userFactors, itemFactors: v.itemFactors, f: v.dims.factors, searched, seconds };
}

export function alsScorer(m: AlsModel, items: number): Scorer {
  const { userFactors: U, itemFactors: V, f } = m;
  return (u, scores) => {
    const x = u * f;
    for (let i = 0; i < items; i++) {
      const y = i * f;
      let s = 0;
      for (let a = 0; a < f; a++) s += U[x + a]! * V[y + a]!;
      scores[i] = s;
    }
  };
}

/**
 * Item-item co-occurrence XᵀX of the binary matrix, restricted to `keep` items (keep[i] = column in
 * the restricted matrix, or -1). Returned row-major n×n in f64.
 */
export function cooccurrence(train: Csr, keep: Int32Array, n: number): Float64Array {
  const g = new Float64Array(n * n);
  const cols: number[] = [];
  for (let u = 0; u < train.rows; u++) {
    cols.length = 0;
    for (let k = train.indptr[u]!; k < train.indptr[u + 1]!; k++) {
      const c = keep[train.indices[k]!]!;
      if (c >= 0) cols.push(c);
    }
    for (const a of cols) {
      const row = a * n;
      for (const b of cols) g[row + b]! += 1;
    }
  }
  return g;
}

/** In-place Gauss-Jordan inverse of a symmetric positive definite matrix (no pivoting needed). */
export function invertSpdInPlace(a: Float64Array, n: number): void {
  for (let k = 0; k < n; k++) {
    const rk = k * n;
    const pivot = a[rk + k]!;
    if (!(pivot > 0)) throw new Error(`invertSpdInPlace: non-positive pivot ${pivot} at ${k}`);
    a[rk + k] = 1;
    const inv = 1 / pivot;
    for (let j = 0; j < n; j++) a[rk + j]! *= inv;
    for (let i = 0; i < n; i++) {
      if (i === k) continue;
      const ri = i * n;
      const fac = a[ri + k]!;
      if (fac === 0) continue;
      a[ri + k] = 0;
      for (let j = 0; j < n; j++) a[ri + j]! -= fac * a[rk + j]!;
    }
  }
}

/** EASE (Steck 2019): B = −P / diag(P), zero diagonal, P = (XᵀX + λI)⁻¹. Returns B (n×n, f32). */
export function easeWeights(gram: Float64Array, n: number, lambda: number): Float32Array {
  const p = Float64Array.from(gram);
  for (let i = 0; i < n; i++) p[i * n + i]! += lambda;
  invertSpdInPlace(p, n);
  const b = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) b[i * n + j] = i === j ? 0 : -p[i * n + j]! / p[j * n + j]!;
  }
  return b;
}

/** score_u = x_u·B over the kept items; items outside `keep` get −∞. */
export function easeScorer(train: Csr, b: Float32Array, keep: Int32Array, kept: Uint32Array): Scorer {
  const n = kept.length;
  const acc = new Float32Array(n);
  return (u, scores) => {
    acc.fill(0);
    for (let k = train.indptr[u]!; k < train.indptr[u + 1]!; k++) {
      const c = keep[train.indices[k]!]!;
      if (c < 0) continue;
      const row = c * n;
      for (let j = 0; j < n; j++) acc[j]! += b[row + j]!;
    }
    scores.fill(-Infinity);
    for (let j = 0; j < n; j++) scores[kept[j]!] = acc[j]!;
  };
}

/** Items with at least minCount training ratings (minCount 0 = every item). */
export function keptItems(train: Csr, minCount: number): { keep: Int32Array; kept: Uint32Array } {
  const count = new Uint32Array(train.cols);
  for (const i of train.indices) count[i]!++;
  const keep = new Int32Array(train.cols).fill(-1);
  const kept: number[] = [];
  for (let i = 0; i < train.cols; i++) {
    if (count[i]! >= minCount) {
      keep[i] = kept.length;
      kept.push(i);
    }
  }
  return { keep, kept: Uint32Array.from(kept) };
}
