// The models the quality bench compares, each giving a score per item for a user: recd's trainer
// (production, with its parameter search) and the references — popularity, item-KNN, EASE and an
// implicit ALS written here.
import type { Csr } from '../../native-free-kernels/csr.js';
import { popularityTo } from '../../native-free-kernels/popularity.js';
import { choleskySolveTo } from '../../native-free-kernels/linalg.js';
import { sweepInverseInPlace } from '../../native-free-kernels/ease.js';
import { topKTo } from '../../native-free-kernels/top-k.js';
import { rng } from './data.js';
import { modelViews, NO_ITEM, UNLISTED, userListOf } from '../../src/engine/model/layout.js';
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
  userList: (user: number) => Uint32Array; // the user's list (empty without one): what user-to-items serves first
  listLength: number;
  searched: Searched | undefined;
  seconds: number; // of the whole training (search included)
}

/**
 * The production model: `trainAls` of src/engine/training/trainer.ts on the service's TrainingPool, fed the
 * training matrix as a ratings snapshot (the CSR's triples, already sorted by (user, item) with each
 * pair once; timestamps 0) and an empty log. Factors and users' lists (`listLength` items each, every
 * user's: 0 for none) are read back through the model layout.
 */
export async function trainAls(
  pool: TrainingPool,
  train: Csr,
  p: AlsParams,
  search?: SearchOptions,
  progress: (text: string) => void = () => {},
  listLength = 0,
): Promise<AlsModel> {
  const n = train.indices.length;
  const users = new Uint32Array(n);
  for (let u = 0; u < train.rows; u++) users.fill(u, train.indptr[u]!, train.indptr[u + 1]!);
  const snapshot: Snapshot = {
    users,
    items: Uint32Array.from(train.indices),
    ratings: Float32Array.from(train.values),
    timestamps: new Float64Array(n),
  };
  const params: ProductionAlsParams = { ...p, listLength, userListsSeconds: 1e9, popularityHalfLifeSeconds: 1e9, indexMinItems: 2 ** 31 };
  const { model, searched, seconds } = await productionTrainAls(
    pool,
    { snapshot, log: [], users: train.rows, items: train.cols },
    params,
    progress,
    search && { ...search, due: () => true },
  );
  const v = modelViews(model);
  if (v.dims.users !== train.rows || v.dims.items !== train.cols || (!search && v.dims.factors !== p.factors)) {
    throw new Error(
      `production model is ${v.dims.users}×${v.dims.items}×${v.dims.factors}, expected ${train.rows}×${train.cols}×${p.factors}`,
    );
  }
  return {
    userFactors: v.userFactors,
    itemFactors: v.itemFactors,
    f: v.dims.factors,
    userList: (u) => userListOf(v, u),
    listLength: v.dims.userList,
    searched,
    seconds,
  };
}

/**
 * What user-to-items serves: the user's precomputed list first (EASE's when the search chose it),
 * then the rest by their factors (rankings.ts `listed`).
 */
export function servedScorer(m: AlsModel, items: number): Scorer {
  const byFactors = alsScorer(m, items);
  const L = m.listLength;
  return (u, scores) => {
    byFactors(u, scores);
    const list = m.userList(u);
    if (list.length === 0 || list[0] === UNLISTED) return;
    for (let r = 0; r < L; r++) {
      const i = list[r]!;
      if (i === NO_ITEM) break;
      scores[i] = 1e30 * (L - r);
    }
  };
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

/** EASE (Steck 2019): B = −P / diag(P), zero diagonal, P = (XᵀX + λI)⁻¹. Returns B (n×n, f32). */
export function easeWeights(gram: Float64Array, n: number, lambda: number): Float32Array {
  const p = Float64Array.from(gram);
  for (let i = 0; i < n; i++) p[i * n + i]! += lambda;
  if (!sweepInverseInPlace(p, n, 32)) throw new Error(`easeWeights: the Gram matrix plus λ ${lambda} is not positive definite`);
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

/**
 * The bench's own implicit ALS (Hu, Koren, Volinsky 2008), written the way a numpy script does it:
 * per row, the normal equations (YᵀY + Σ (c−1) y yᵀ + λI) x = Σ c y with c = 1 + alpha·r, built
 * and solved exactly (Cholesky), one thread. Independent of the service's CG kernels.
 */
export function referenceAls(
  train: Csr,
  trainT: Csr,
  factors: number,
  regularization: number,
  alpha: number,
  iterations: number,
  seed: number,
): AlsModel {
  const started = performance.now();
  const f = factors;
  const next = rng(seed);
  const U = Float32Array.from({ length: train.rows * f }, () => next() * 0.01);
  const V = Float32Array.from({ length: train.cols * f }, () => next() * 0.01);
  const gram = new Float64Array(f * f),
    A = new Float64Array(f * f),
    L = new Float64Array(f * f);
  const b = new Float64Array(f),
    x = new Float64Array(f);
  const half = (dst: Float32Array, m: Csr, other: Float32Array, otherRows: number) => {
    gram.fill(0);
    for (let r = 0; r < otherRows; r++) {
      for (let a = 0; a < f; a++) {
        const ya = other[r * f + a]!;
        for (let d = 0; d < f; d++) gram[a * f + d]! += ya * other[r * f + d]!;
      }
    }
    for (let row = 0; row < m.rows; row++) {
      const start = m.indptr[row]!,
        end = m.indptr[row + 1]!;
      if (start === end) {
        dst.fill(0, row * f, (row + 1) * f);
        continue;
      }
      A.set(gram);
      for (let a = 0; a < f; a++) A[a * f + a]! += regularization;
      b.fill(0);
      for (let e = start; e < end; e++) {
        const c = 1 + alpha * m.values[e]!;
        const y = m.indices[e]! * f;
        for (let a = 0; a < f; a++) {
          const ya = other[y + a]!;
          b[a]! += c * ya;
          for (let d = 0; d < f; d++) A[a * f + d]! += (c - 1) * ya * other[y + d]!;
        }
      }
      choleskySolveTo(x, A, b, f, L);
      for (let a = 0; a < f; a++) dst[row * f + a] = x[a]!;
    }
  };
  for (let it = 0; it < iterations; it++) {
    half(U, train, V, train.cols);
    half(V, trainT, U, train.rows);
  }
  return {
    userFactors: U,
    itemFactors: V,
    f,
    userList: () => new Uint32Array(0),
    listLength: 0,
    searched: undefined,
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * Item-KNN: cosine similarity of items' binary rating columns, each item keeping its `neighbours`
 * most similar; a user's score for i = Σ over their rated items j of sim(j, i) when i is among j's
 * neighbours.
 */
export function itemKnnScorer(train: Csr, trainT: Csr, neighbours: number): Scorer {
  const n = train.cols;
  const norms = Float64Array.from({ length: n }, (_, i) => Math.sqrt(trainT.indptr[i + 1]! - trainT.indptr[i]!));
  const co = new Float32Array(n);
  const idx = new Uint32Array(neighbours),
    sc = new Float32Array(neighbours);
  const rows: { items: Uint32Array; sims: Float32Array }[] = [];
  for (let i = 0; i < n; i++) {
    co.fill(0);
    for (let e = trainT.indptr[i]!; e < trainT.indptr[i + 1]!; e++) {
      const u = trainT.indices[e]!;
      for (let k = train.indptr[u]!; k < train.indptr[u + 1]!; k++) co[train.indices[k]!]! += 1;
    }
    co[i] = 0;
    for (let j = 0; j < n; j++) co[j] = norms[i]! > 0 && norms[j]! > 0 ? co[j]! / (norms[i]! * norms[j]!) : 0;
    const got = topKTo(idx, sc, co, n, neighbours);
    rows.push({ items: idx.slice(0, got), sims: sc.slice(0, got) });
  }
  return (u, scores) => {
    scores.fill(0);
    for (let k = train.indptr[u]!; k < train.indptr[u + 1]!; k++) {
      const { items, sims } = rows[train.indices[k]!]!;
      for (let r = 0; r < items.length; r++) scores[items[r]!]! += sims[r]!;
    }
  };
}
