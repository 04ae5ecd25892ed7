// Reference twin of ../scores.ts: plain dot products over rows copied out as arrays. Same contracts,
// arguments checked by the kernel's own checks.
import { checkIndex, checkPositionScores, checkScoreArgs } from '../checks.js';

function row(factors: Float32Array, f: number, r: number): number[] {
  return Array.from(factors.subarray(r * f, (r + 1) * f));
}

const dot = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let s = 0;
  for (let k = 0; k < a.length; k++) s += a[k]! * b[k]!;
  return s;
};

export function cosineScoresTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, n: number, f: number, item: number): void {
  checkScoreArgs('cosineScoresTo', dst, factors, norms, n, f);
  checkIndex('cosineScoresTo', 'item', item, n);
  const x = row(factors, f, item);
  for (let i = 0; i < n; i++) {
    const rankable = i !== item && norms[i] !== 0 && norms[item] !== 0;
    dst[i] = rankable ? dot(x, row(factors, f, i)) / (norms[i]! * norms[item]!) : NaN;
  }
}

export function groupScoresTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  queries: readonly Float32Array[],
  consensus: number,
): void {
  checkScoreArgs('groupScoresTo', dst, factors, norms, n, f, queries);
  for (let i = 0; i < n; i++) {
    if (norms[i] === 0) {
      dst[i] = NaN;
      continue;
    }
    const dots = queries.map((q) => dot(q, row(factors, f, i)));
    const meanDot = dots.reduce((s, d) => s + d, 0) / dots.length;
    dst[i] = (1 - consensus) * meanDot + consensus * Math.min(...dots);
  }
}

export function positionScoresTo(
  dst: Float32Array,
  query: Float32Array,
  rows: Float32Array,
  count: number,
  f: number,
  members: Uint32Array,
  positions: Uint32Array,
  skip: number,
): void {
  checkPositionScores(dst, query, rows, count, f, members, positions);
  positions.forEach((p, c) => (dst[c] = members[p] === skip ? NaN : dot(query, row(rows, f, p))));
}
