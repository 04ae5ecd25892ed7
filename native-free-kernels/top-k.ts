// Top-k selection over a score vector with a bounded min-heap, optionally restricted by a mask.
import { checkTopK } from './checks.js';

// "a ranks below b": lower score, or equal score and larger index.
function below(sa: number, ia: number, sb: number, ib: number): boolean {
  return sa < sb || (sa === sb && ia > ib);
}

// The heap lives in dst[0..size): root holds the weakest kept entry, so one comparison rejects most candidates.
function siftDown(idx: Uint32Array, score: Float32Array, size: number, at: number): void {
  const s = score[at]!;
  const i = idx[at]!;
  let hole = at;
  for (;;) {
    let child = 2 * hole + 1;
    if (child >= size) break;
    const right = child + 1;
    if (right < size && below(score[right]!, idx[right]!, score[child]!, idx[child]!)) child = right;
    if (!below(score[child]!, idx[child]!, s, i)) break;
    score[hole] = score[child]!;
    idx[hole] = idx[child]!;
    hole = child;
  }
  score[hole] = s;
  idx[hole] = i;
}

function siftUp(idx: Uint32Array, score: Float32Array, at: number): void {
  const s = score[at]!;
  const i = idx[at]!;
  let hole = at;
  while (hole > 0) {
    const parent = (hole - 1) >> 1;
    if (!below(s, i, score[parent]!, idx[parent]!)) break;
    score[hole] = score[parent]!;
    idx[hole] = idx[parent]!;
    hole = parent;
  }
  score[hole] = s;
  idx[hole] = i;
}

// dstIdx/dstScore need length >= k; returns how many entries (<= k) were written, best first.
export function topKTo(dstIdx: Uint32Array, dstScore: Float32Array, scores: Float32Array, n: number, k: number, mask?: Uint8Array): number {
  checkTopK(dstIdx, dstScore, scores, n, k, mask);
  if (k === 0) return 0;

  // Until the heap is full every score enters; after, indices only grow, so a candidate enters only
  // with a score above the weakest kept (an equal one ranks below it by index), and one comparison
  // with that floor, kept in a local, rejects most candidates (NaN fails it too).
  let size = 0,
    i = 0;
  for (; i < n && size < k; i++) {
    if (mask !== undefined && mask[i] !== 1) continue;
    const s = scores[i]!;
    // biome-ignore lint/suspicious/noSelfCompare: the NaN test (NaN scores are skipped) without a call in the hot loop
    if (s === s) size = heapOffer(dstIdx, dstScore, size, k, s, i);
  }
  let floor = dstScore[0]!;
  for (; i < n; i++) {
    const s = scores[i]!;
    if (!(s > floor) || (mask !== undefined && mask[i] !== 1)) continue;
    heapOffer(dstIdx, dstScore, size, k, s, i);
    floor = dstScore[0]!;
  }
  heapSortTo(dstIdx, dstScore, size);
  return size;
}

/**
 * Offers (score s, index i) to a heap of the best k kept in idx/score[0 .. size) (k ≥ 1): the
 * weakest at the root, so one comparison rejects most candidates. Returns the new size. Once
 * full, score[0] is the lowest score kept, what a candidate must beat.
 */
export function heapOffer(idx: Uint32Array, score: Float32Array, size: number, k: number, s: number, i: number): number {
  if (size < k) {
    score[size] = s;
    idx[size] = i;
    siftUp(idx, score, size);
    return size + 1;
  }
  if (below(score[0]!, idx[0]!, s, i)) {
    score[0] = s;
    idx[0] = i;
    siftDown(idx, score, size, 0);
  }
  return size;
}

// A heap of heapOffer's into best first (score descending, then index ascending), in place.
export function heapSortTo(idx: Uint32Array, score: Float32Array, size: number): void {
  // Repeatedly moving the weakest to the back leaves the best at the front.
  for (let end = size - 1; end > 0; end--) {
    const s = score[0]!;
    const i = idx[0]!;
    score[0] = score[end]!;
    idx[0] = idx[end]!;
    score[end] = s;
    idx[end] = i;
    siftDown(idx, score, end, 0);
  }
}
