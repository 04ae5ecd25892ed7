// The three models compared by the quality bench, all producing a per-user score vector.
import { transpose, type Csr } from '../../native-free-kernels/csr.js';
import { alsHalfStepTo } from '../../native-free-kernels/als.js';
import { gramTo } from '../../native-free-kernels/linalg.js';
import { popularityTo } from '../../native-free-kernels/popularity.js';
import { rng } from './data.js';

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

export interface AlsParams {
  factors: number;
  regularization: number;
  alpha: number;
  iterations: number;
  cgSteps: number;
  seed: number;
}

export interface AlsModel {
  userFactors: Float32Array;
  itemFactors: Float32Array;
  f: number;
}

/** Implicit ALS with the kernels: confidence 1 + alpha·r, Gram recomputed before each half-step. */
export function trainAls(train: Csr, p: AlsParams, itemsByUser?: Csr): AlsModel {
  const f = p.factors;
  const byItem = itemsByUser ?? transpose(train);
  const next = rng(p.seed);
  const userFactors = new Float32Array(train.rows * f);
  const itemFactors = new Float32Array(train.cols * f);
  // Same scale as the `implicit` library's init: uniform [0, 0.01).
  for (let k = 0; k < userFactors.length; k++) userFactors[k] = next() * 0.01;
  for (let k = 0; k < itemFactors.length; k++) itemFactors[k] = next() * 0.01;
  const gram = new Float64Array(f * f);
  const scratch = new Float64Array(4 * f);
  for (let it = 0; it < p.iterations; it++) {
    gramTo(gram, itemFactors, train.cols, f);
    alsHalfStepTo(userFactors, train, itemFactors, gram, f, p.regularization, p.alpha, p.cgSteps, scratch);
    gramTo(gram, userFactors, train.rows, f);
    alsHalfStepTo(itemFactors, byItem, userFactors, gram, f, p.regularization, p.alpha, p.cgSteps, scratch);
  }
  return { userFactors, itemFactors, f };
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
