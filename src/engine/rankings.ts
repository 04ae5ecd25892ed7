// Rankings of a served model: items most similar to an item, items best for a user's factor vector,
// popular items. Each returns the best `depth` items (partial selection, not a sort); callers ask
// again with a larger depth when filters or pages consume them. Items without factors (never rated
// and not given any by ml_new_items) are left out of factor rankings.
import { foldInTo } from '../../native-free-kernels/fold-in.js';
import { topKTo } from '../../native-free-kernels/top-k.js';
import type { LoadedModel } from './registry.js';

// What scoring reads of a model (a worker has no more than this).
export type Scorable = Pick<LoadedModel, 'views' | 'itemNorms'>;

export interface Ranking {
  items: Uint32Array; // best first
  scores: Float32Array;
  complete: boolean; // every rankable item is listed: a deeper ranking would add nothing
}

// a[i .. i+f) · b[j .. j+f), four partial sums at a time (V8 keeps them in registers: about
// 1.5–2× a plain loop on this machine's rankings).
function dotAt(a: Float32Array, i: number, b: Float32Array, j: number, f: number): number {
  let d0 = 0, d1 = 0, d2 = 0, d3 = 0;
  let k = 0;
  for (; k + 4 <= f; k += 4) {
    d0 += a[i + k]! * b[j + k]!;
    d1 += a[i + k + 1]! * b[j + k + 1]!;
    d2 += a[i + k + 2]! * b[j + k + 2]!;
    d3 += a[i + k + 3]! * b[j + k + 3]!;
  }
  for (; k < f; k++) d0 += a[i + k]! * b[j + k]!;
  return d0 + d1 + d2 + d3;
}

function select(scores: Float32Array, n: number, depth: number): Ranking {
  const k = Math.min(depth, n);
  const items = new Uint32Array(k), best = new Float32Array(k);
  const got = topKTo(items, best, scores, n, k);
  return { items: items.subarray(0, got), scores: best.subarray(0, got), complete: got < k || k === n };
}

// Cosine similarity of factor rows; the item itself is never listed.
export function similarItems(m: Scorable, item: number, depth: number): Ranking {
  const { items: n, factors: f } = m.views.dims;
  const V = m.views.itemFactors, norms = m.itemNorms;
  const scores = new Float32Array(n);
  const x = item * f, nx = norms[item]!;
  for (let i = 0; i < n; i++) {
    const ni = norms[i]!;
    if (ni === 0 || nx === 0 || i === item) {
      scores[i] = NaN; // topKTo skips NaN
      continue;
    }
    const y = i * f;
    scores[i] = dotAt(V, x, V, y, f) / (ni * nx);
  }
  return select(scores, n, depth);
}

// Items by x · item factors (a group of one).
export function itemsForVector(m: Scorable, x: Float32Array, depth: number): Ranking {
  return itemsForGroup(m, [x], 0, depth);
}

export function popularItems(m: Scorable, depth: number): Ranking {
  const scores = Float32Array.from(m.views.popularity, (p, i) => (m.views.itemCounts[i] === 0 ? NaN : p));
  return select(scores, m.views.dims.items, depth);
}

// Factors for a user or session from their ratings (item rows, rating values), against the
// model's fixed item factors: what training would give them, without retraining.
export function foldIn(m: LoadedModel, items: Uint32Array, values: Float32Array): Float32Array {
  const f = m.views.dims.factors;
  const out = new Float32Array(f);
  const p = m.meta.params;
  foldInTo(out, items, values, m.views.itemFactors, m.views.gram, f, p.regularization ?? 20, p.alpha ?? 0.25, new Float64Array(2 * f * f + 2 * f));
  return out;
}

// Items for a group: per item, (1 − consensus) · the mean of the members' scores + consensus · the
// lowest one, so a consensus of 1 ranks what nobody in the group dislikes first.
export function itemsForGroup(m: Scorable, vectors: Float32Array[], consensus: number, depth: number): Ranking {
  const { items: n, factors: f } = m.views.dims;
  const V = m.views.itemFactors, norms = m.itemNorms;
  const scores = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    if (norms[i] === 0) {
      scores[i] = NaN;
      continue;
    }
    const y = i * f;
    let sum = 0, low = Infinity;
    for (const x of vectors) {
      const dot = dotAt(x, 0, V, y, f);
      sum += dot;
      if (dot < low) low = dot;
    }
    scores[i] = (1 - consensus) * (sum / vectors.length) + consensus * low;
  }
  return select(scores, n, depth);
}

// The mean unit factor row of the given items (zeros when none has factors).
export function meanDirection(m: Scorable, items: number[]): Float32Array {
  const f = m.views.dims.factors;
  const out = new Float32Array(f);
  let used = 0;
  for (const i of items) {
    const n = m.itemNorms[i]!;
    if (n === 0) continue;
    used++;
    for (let a = 0; a < f; a++) out[a]! += m.views.itemFactors[i * f + a]! / n;
  }
  if (used > 0) for (let a = 0; a < f; a++) out[a]! /= used;
  return out;
}

// What to rank, in a form that can travel to a scoring worker.
export type RankSpec = { kind: 'similar'; item: number } | { kind: 'vector'; vector: Float32Array } | { kind: 'group'; vectors: Float32Array[]; consensus: number } | { kind: 'popular' };

export function rank(m: Scorable, spec: RankSpec, depth: number): Ranking {
  switch (spec.kind) {
    case 'similar':
      return similarItems(m, spec.item, depth);
    case 'vector':
      return itemsForVector(m, spec.vector, depth);
    case 'group':
      return itemsForGroup(m, spec.vectors, spec.consensus, depth);
    case 'popular':
      return popularItems(m, depth);
  }
}

// Item norms of a factor matrix (0 for a row without factors).
export function rowNorms(factors: Float32Array, rows: number, f: number): Float32Array {
  const out = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let ss = 0;
    for (let a = 0; a < f; a++) ss += factors[r * f + a]! * factors[r * f + a]!;
    out[r] = Math.sqrt(ss);
  }
  return out;
}
