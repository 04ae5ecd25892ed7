// Worker side of the item-weights models (item-weights.ts): the items they cover, the weighted Gram
// matrix, EASE's blocked sweep inverse (its two halves) and B, item-KNN's neighbours, held-out
// metrics and users' lists. Re-exported by worker.ts.
import type { Csr } from '../../../native-free-kernels/csr.js';
import {
  easeScoresTo,
  easeWeightsTo,
  ratingWeightsTo,
  sweepPivotTo,
  sweepUpdateTo,
  weightedGramTo,
} from '../../../native-free-kernels/ease.js';
import { wasmSweepPivot, wasmSweepUpdate, wasmSweptRows } from '../../../native-free-kernels/wasm-ease.js';
import { cosineNeighboursTo } from '../../../native-free-kernels/item-knn.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { dotAt } from '../../../native-free-kernels/dot.js';
import { rankingMetricsTo, validationScratch, type HeldOut } from '../../../native-free-kernels/validation.js';
import { modelViews, NO_ITEM, type ModelViews } from '../model/layout.js';
import { rowIsZero } from '../../../native-free-kernels/rows.js';

// How a rating weighs in the item-weights models' matrix and in a user's scores (ease.ts
// ratingWeightsTo): its quantile among all ratings, or 1 from `cut` on and `below` under it.
export interface EaseWeighting {
  cut: number;
  below: number;
  byQuantile: boolean;
}

// The same matrix with each rating's weight as its value (indptr and indices shared, new values):
// made once per matrix and weighting, then every item-weights task reads the weights as values.
export function weighRatings({ m, weighting }: { m: Csr; weighting: EaseWeighting }): Csr {
  const values = new Float32Array(new SharedArrayBuffer(m.values.byteLength));
  ratingWeightsTo(values, m.values, weighting);
  return { ...m, values };
}

// The items EASE covers (the most rated, ties to the lower row) and each item's place among them.
export interface EaseColumns {
  n: number;
  column: Int32Array; // items: place among the kept, or -1
  kept: Uint32Array; // n item rows
}

export function easeColumns({ byItem, maxItems, minCount }: { byItem: Csr; maxItems: number; minCount: number }): EaseColumns {
  const order: number[] = [];
  for (let i = 0; i < byItem.rows; i++) if (byItem.indptr[i + 1]! - byItem.indptr[i]! >= minCount) order.push(i);
  const count = (i: number) => byItem.indptr[i + 1]! - byItem.indptr[i]!;
  order.sort((a, b) => count(b) - count(a) || a - b);
  const kept = new Uint32Array(new SharedArrayBuffer(Math.min(maxItems, order.length) * 4));
  kept.set(order.slice(0, kept.length).sort((a, b) => a - b));
  const column = new Int32Array(new SharedArrayBuffer(byItem.rows * 4)).fill(-1);
  kept.forEach((i, c) => (column[i] = c));
  return { n: kept.length, column, kept };
}

// The n × n matrix the sweep works on: f32 rows in the WebAssembly kernel's memory, else f64.
export function sweptMatrix(a: SharedArrayBuffer | WebAssembly.Memory, n: number): { rows: Float32Array | Float64Array; stride: number } {
  return a instanceof WebAssembly.Memory ? wasmSweptRows(a, n) : { rows: new Float64Array(a), stride: n };
}

// Rows of XᵀWX over the kept items; m's values are the ratings' weights (weighRatings).
export function easeGram({
  m,
  cols,
  dst,
  rowStart,
  rowEnd,
}: {
  m: Csr;
  cols: EaseColumns;
  dst: SharedArrayBuffer | WebAssembly.Memory;
  rowStart: number;
  rowEnd: number;
}): void {
  const { rows, stride } = sweptMatrix(dst, cols.n);
  weightedGramTo(rows, m, cols.column, m.values, cols.n, rowStart, rowEnd, stride);
}

// One block of EASE's sweep inverse: on the WebAssembly kernel's shared memory (wasm-ease.ts, made
// for blocks of at most `block` pivots) or, where that cannot run, on the f64 matrix `a` and the
// scratch (sweepScratchLength(n, b) f64) of its TypeScript twin.
export type SweepInput = { n: number; k: number; b: number } & (
  | { memory: WebAssembly.Memory; block: number }
  | { a: SharedArrayBuffer; scratch: SharedArrayBuffer }
);

export function easePivot(s: SweepInput): boolean {
  if ('memory' in s) return wasmSweepPivot(s.memory, s.n, s.block, s.k, s.b);
  return sweepPivotTo(new Float64Array(s.a), s.n, s.k, s.b, new Float64Array(s.scratch));
}

export function easeUpdate(s: SweepInput & { rowStart: number; rowEnd: number }): void {
  if ('memory' in s) wasmSweepUpdate(s.memory, s.n, s.block, s.k, s.b, s.rowStart, s.rowEnd);
  else sweepUpdateTo(new Float64Array(s.a), s.n, s.k, s.b, new Float64Array(s.scratch), s.rowStart, s.rowEnd, new Float64Array(4 * s.b));
}

// Rows of B from the swept matrix, in either kernel's memory.
export function easeWeights({
  p,
  dst,
  n,
  rowStart,
  rowEnd,
}: {
  p: SharedArrayBuffer | WebAssembly.Memory;
  dst: SharedArrayBuffer;
  n: number;
  rowStart: number;
  rowEnd: number;
}): void {
  const { rows, stride } = sweptMatrix(p, n);
  easeWeightsTo(new Float32Array(dst), rows, n, rowStart, rowEnd, stride);
}

export function knnWeights({
  gram,
  dst,
  n,
  k,
  rowStart,
  rowEnd,
}: {
  gram: SharedArrayBuffer;
  dst: SharedArrayBuffer;
  n: number;
  k: number;
  rowStart: number;
  rowEnd: number;
}): void {
  cosineNeighboursTo(new Float32Array(dst), new Float64Array(gram), n, k, rowStart, rowEnd);
}

// ALS's scores added to an item-weights model's: a model's factors (its users the rows of the
// ratings matrix) and the weight of their standardised scores against the item weights' own.
export interface Blend {
  model: SharedArrayBuffer;
  weight: number;
}

// A user's scores over every item by item weights (items they do not cover: −∞), m's values being the
// ratings' weights; with a blend, each score standardised over the covered items plus weight × the
// user's standardised ALS score.
function userScorer(weights: Float32Array, cols: EaseColumns, m: Csr, blend?: Blend) {
  const acc = new Float32Array(cols.n);
  const als = blend && modelViews(blend.model);
  const dots = new Float32Array(als ? cols.n : 0);
  const rows: number[] = [],
    values: number[] = [];
  return (u: number, dst: Float32Array) => {
    rows.length = 0;
    values.length = 0;
    for (let e = m.indptr[u]!; e < m.indptr[u + 1]!; e++) {
      const c = cols.column[m.indices[e]!]!;
      if (c < 0) continue;
      rows.push(c);
      values.push(m.values[e]!);
    }
    easeScoresTo(acc, weights, cols.n, rows, values);
    if (als) {
      const f = als.dims.factors;
      for (let c = 0; c < cols.n; c++) dots[c] = dotAt(als.userFactors, u * f, als.itemFactors, cols.kept[c]! * f, f);
      standardise(acc);
      standardise(dots);
      for (let c = 0; c < cols.n; c++) acc[c]! += blend!.weight * dots[c]!;
    }
    dst.fill(-Infinity);
    for (let c = 0; c < cols.n; c++) dst[cols.kept[c]!] = acc[c]!;
  };
}

// In place: (x − mean) / standard deviation (a constant row: zeros).
function standardise(x: Float32Array): void {
  let sum = 0,
    squares = 0;
  for (let k = 0; k < x.length; k++) {
    sum += x[k]!;
    squares += x[k]! * x[k]!;
  }
  const mean = sum / Math.max(1, x.length),
    sd = Math.sqrt(Math.max(0, squares / Math.max(1, x.length) - mean * mean));
  for (let k = 0; k < x.length; k++) x[k] = sd > 0 ? (x[k]! - mean) / sd : 0;
}

// Σ NDCG@10, Σ recall@10 and users counted over validation users [from, to), ranked by item weights
// (blended with a trial's ALS factors when given).
// `train` is the split's training part with the ratings' weights as values.
export function easeValidate({
  weights,
  cols,
  train,
  held,
  from,
  to,
  k,
  blend,
}: {
  weights: SharedArrayBuffer;
  cols: EaseColumns;
  train: Csr;
  held: HeldOut;
  from: number;
  to: number;
  k: number;
  blend?: Blend | undefined;
}): Float64Array {
  const sums = new Float64Array(3);
  rankingMetricsTo(
    sums,
    train,
    held,
    userScorer(new Float32Array(weights), cols, train, blend),
    k,
    from,
    to,
    validationScratch(train.cols),
  );
  return sums;
}

// The lists of users at [from, to) of `users` (uint32 rows): their best unrated items by EASE,
// written into `out` (users[from + k]'s at k · userList, NO_ITEM after the last).
// byUser's values are the ratings' weights (weighRatings).
export function easeUserLists({
  model,
  byUser,
  weights,
  cols,
  users,
  from,
  to,
  out,
  alsWeight,
}: {
  model: SharedArrayBuffer;
  byUser: Csr;
  weights: SharedArrayBuffer;
  cols: EaseColumns;
  users: SharedArrayBuffer;
  from: number;
  to: number;
  out: SharedArrayBuffer;
  alsWeight: number;
}): void {
  const v = modelViews(model);
  const { items, userList: len } = v.dims;
  const score = userScorer(new Float32Array(weights), cols, byUser, alsWeight > 0 ? { model, weight: alsWeight } : undefined);
  const scores = new Float32Array(items),
    mask = new Uint8Array(items);
  const top = new Uint32Array(len),
    best = new Float32Array(len);
  const rows = new Uint32Array(users, from * 4, to - from),
    lists = new Uint32Array(out);
  rows.forEach((u, k) => {
    score(u, scores);
    for (let c = 0; c < cols.n; c++) mask[cols.kept[c]!] = 1;
    for (let e = byUser.indptr[u]!; e < byUser.indptr[u + 1]!; e++) mask[byUser.indices[e]!] = 0;
    const got = fillFromFactors(v, byUser, u, top, topKTo(top, best, scores, items, len, mask));
    const list = lists.subarray(k * len, (k + 1) * len);
    list.fill(NO_ITEM);
    list.set(top.subarray(0, got));
    mask.fill(0);
  });
}

/**
 * A list shorter than its length reads as holding every item there is (rankings.ts `listed`): one
 * that ran out of the items its model covers (a user who rated most of them) is filled up with the
 * user's best other unrated items by their factors, as the ranking after the list would give them.
 * Returns the items now in top.
 */
export function fillFromFactors(v: ModelViews, byUser: Csr, u: number, top: Uint32Array, got: number): number {
  const { items, factors: f, userList: len } = v.dims;
  if (got >= len || rowIsZero(v.userFactors, v.dims.users, f, u)) return got;
  const mask = new Uint8Array(items);
  for (let i = 0; i < items; i++) if (!rowIsZero(v.itemFactors, items, f, i)) mask[i] = 1;
  for (let e = byUser.indptr[u]!; e < byUser.indptr[u + 1]!; e++) mask[byUser.indices[e]!] = 0;
  for (let k = 0; k < got; k++) mask[top[k]!] = 0;
  const scores = new Float32Array(items);
  for (let i = 0; i < items; i++) if (mask[i] === 1) scores[i] = dotAt(v.userFactors, u * f, v.itemFactors, i * f, f);
  const more = new Uint32Array(len - got),
    best = new Float32Array(len - got);
  const added = topKTo(more, best, scores, items, len - got, mask);
  top.set(more.subarray(0, added), got);
  return got + added;
}
