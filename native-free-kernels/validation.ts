// Held-out ranking quality: how a model trained without some of each user's feedback ranks it back.
import type { Csr } from './csr.js';
import { topKTo } from './top-k.js';

/**
 * The validation slice: for each validation user (users[v]), the held-out items that count as
 * relevant, held.indices[held.indptr[v] .. held.indptr[v + 1]).
 */
export interface HeldOut {
  users: Uint32Array;
  indptr: Uint32Array; // users.length + 1
  indices: Uint32Array;
}

/** Scores every item (dst, length items) for the training matrix's row u. */
export type RowScorer = (u: number, dst: Float32Array) => void;

/**
 * Adds to sums [Σ NDCG@k, Σ recall@k, users] over validation users [from, to): each user's items
 * not in their training row are ranked by `score`, the top k compared with their relevant held-out
 * items (binary gains, ideal DCG over min(k, relevant); recall = hits / relevant). Users without
 * relevant items are skipped. scratch: items floats (scores) and items bytes (mask) — see
 * validationScratch.
 */
export function rankingMetricsTo(
  sums: Float64Array,
  train: Csr,
  held: HeldOut,
  score: RowScorer,
  k: number,
  from: number,
  to: number,
  scratch: { scores: Float32Array; mask: Uint8Array; relevant: Uint8Array },
): void {
  const items = train.cols;
  if (sums.length < 3) throw new Error(`rankingMetricsTo: sums length ${sums.length}, need 3`);
  if (!(0 <= from && from <= to && to <= held.users.length))
    throw new Error(`rankingMetricsTo: users [${from}, ${to}) outside [0, ${held.users.length})`);
  const { scores, mask, relevant } = scratch;
  if (scores.length < items || mask.length < items || relevant.length < items)
    throw new Error(`rankingMetricsTo: scratch for ${items} items needed`);
  const topIdx = new Uint32Array(k),
    topScore = new Float32Array(k);
  let idealPrefix = 0;
  const ideal = new Float64Array(k + 1);
  for (let r = 0; r < k; r++) ideal[r + 1] = idealPrefix += 1 / Math.log2(r + 2);
  for (let v = from; v < to; v++) {
    const start = held.indptr[v]!,
      end = held.indptr[v + 1]!;
    if (start === end) continue;
    const u = held.users[v]!;
    for (let e = start; e < end; e++) relevant[held.indices[e]!] = 1;
    mask.fill(1, 0, items);
    for (let e = train.indptr[u]!; e < train.indptr[u + 1]!; e++) mask[train.indices[e]!] = 0;
    score(u, scores);
    const got = topKTo(topIdx, topScore, scores, items, k, mask);
    let hits = 0,
      dcg = 0;
    for (let r = 0; r < got; r++) {
      if (relevant[topIdx[r]!] === 1) {
        hits++;
        dcg += 1 / Math.log2(r + 2);
      }
    }
    const n = end - start;
    sums[0]! += dcg / ideal[Math.min(k, n)]!;
    sums[1]! += hits / n;
    sums[2]! += 1;
    for (let e = start; e < end; e++) relevant[held.indices[e]!] = 0;
  }
}

export const validationScratch = (items: number) => ({
  scores: new Float32Array(items),
  mask: new Uint8Array(items),
  relevant: new Uint8Array(items),
});

export interface ValidationSplit {
  train: Csr; // byUser without the held-out entries (rows of users outside the sample emptied)
  held: HeldOut;
  threshold: number; // held-out entries of at least this value are relevant (likedFrom)
}

/**
 * A seeded validation split of byUser. Users are visited in a seeded random order; those visited
 * before the kept ratings would pass maxRatings form the sample (the others' rows are emptied, so
 * a search on a large database trains on a part of it). Of the first maxUsers sampled users with at
 * least 3 entries, a share `fraction` of entries (at least 1) is held out; held-out entries valued at
 * least likedFrom(values) are that user's relevant items (implicit data, all values equal: all are).
 */
export function splitForValidation(
  byUser: Csr,
  fraction: number,
  maxRatings: number,
  maxUsers: number,
  next: () => number,
): ValidationSplit {
  const { rows, indptr, indices, values } = byUser;
  const threshold = likedFrom(values);
  const order = Uint32Array.from({ length: rows }, (_, u) => u);
  for (let k = rows - 1; k > 0; k--) {
    const j = Math.floor(next() * (k + 1));
    const t = order[k]!;
    order[k] = order[j]!;
    order[j] = t;
  }
  const keep = new Uint8Array(indices.length); // 1: train, 2: held out
  const heldUsers: number[] = [];
  let kept = 0;
  const pick: number[] = [];
  for (const u of order) {
    const start = indptr[u]!,
      end = indptr[u + 1]!,
      n = end - start;
    if (n === 0) continue;
    if (kept + n > maxRatings) continue;
    kept += n;
    keep.fill(1, start, end);
    if (n < 3 || heldUsers.length >= maxUsers) continue;
    pick.length = 0;
    for (let e = start; e < end; e++) pick.push(e);
    const out = Math.max(1, Math.round(fraction * n));
    for (let k = 0; k < out; k++) {
      const j = k + Math.floor(next() * (n - k));
      const t = pick[k]!;
      pick[k] = pick[j]!;
      pick[j] = t;
      keep[pick[k]!] = 2;
    }
    heldUsers.push(u);
  }
  heldUsers.sort((a, b) => a - b);
  const trainIndptr = new Uint32Array(rows + 1);
  for (let u = 0; u < rows; u++) {
    let c = 0;
    for (let e = indptr[u]!; e < indptr[u + 1]!; e++) if (keep[e] === 1) c++;
    trainIndptr[u + 1] = trainIndptr[u]! + c;
  }
  const trainIndices = new Uint32Array(trainIndptr[rows]!),
    trainValues = new Float32Array(trainIndptr[rows]!);
  for (let u = 0, w = 0; u < rows; u++) {
    for (let e = indptr[u]!; e < indptr[u + 1]!; e++) {
      if (keep[e] !== 1) continue;
      trainIndices[w] = indices[e]!;
      trainValues[w++] = values[e]!;
    }
  }
  const heldIndptr = new Uint32Array(heldUsers.length + 1);
  const relevant: number[] = [];
  heldUsers.forEach((u, v) => {
    for (let e = indptr[u]!; e < indptr[u + 1]!; e++) if (keep[e] === 2 && values[e]! >= threshold) relevant.push(indices[e]!);
    heldIndptr[v + 1] = relevant.length;
  });
  return {
    train: { rows, cols: byUser.cols, indptr: trainIndptr, indices: trainIndices, values: trainValues },
    held: { users: Uint32Array.from(heldUsers), indptr: heldIndptr, indices: Uint32Array.from(relevant) },
    threshold,
  };
}

/** The values at quantiles qs (each 0..1, nearest rank), from one sorted copy. */
export function quantiles(values: Float32Array, qs: readonly number[]): number[] {
  if (values.length === 0) return qs.map(() => 0);
  const sorted = Float32Array.from(values).sort();
  return qs.map((q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!);
}

/**
 * The value from which ratings count as liked: of the values v present, the one whose share of
 * ratings valued at least v is nearest one half (the higher on a tie). A median for discrete scales:
 * on ml-latest-small's half stars the plain median, 3.5, counts 61 % as liked, this gives 4 (48 %).
 */
export function likedFrom(values: Float32Array): number {
  const t = valueShares(values);
  let best = 0,
    bestGap = Infinity;
  // The share valued at least values[k] is 1 − the share at most the value before it.
  for (let k = t.values.length - 1; k >= 0; k--) {
    const gap = Math.abs(1 - (k > 0 ? t.shares[k - 1]! : 0) - 0.5);
    if (gap < bestGap) [best, bestGap] = [t.values[k]!, gap];
  }
  return best;
}

// The distinct values, ascending, and the share of all values at most each.
export interface ValueShares {
  values: Float32Array;
  shares: Float32Array;
}

export function valueShares(values: Float32Array): ValueShares {
  const sorted = Float32Array.from(values).sort();
  const out: number[] = [],
    shares: number[] = [];
  for (let k = 0; k < sorted.length; k++) {
    if (k + 1 < sorted.length && sorted[k + 1] === sorted[k]) continue; // k: the last of its value
    out.push(sorted[k]!);
    shares.push((k + 1) / sorted.length);
  }
  return { values: Float32Array.from(out), shares: Float32Array.from(shares) };
}

// The share of t's values at most v (0 below the smallest).
export function shareAtMost(t: ValueShares, v: number): number {
  let lo = 0,
    hi = t.values.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (t.values[mid]! <= v) lo = mid + 1;
    else hi = mid;
  }
  return lo === 0 ? 0 : t.shares[lo - 1]!;
}
