// Reference twin of ../lists.ts: one query at a time, every candidate scored with a plain loop, then
// a full sort. Same contracts, arguments checked by the kernel's own checks (../checks.ts), except that scratch is not used (the
// twin allocates per query) and there is no block size.
import { checkItemLists, checkNormOrder, checkUserLists } from '../checks.js';

const EMPTY = 0xffffffff;

interface Scored {
  item: number;
  score: number;
}

// One f64 sum in column order, as the fast kernel sums.
function dot(a: Float32Array, x: number, b: Float32Array, y: number, f: number): number {
  let s = 0;
  for (let k = 0; k < f; k++) s += a[x + k]! * b[y + k]!;
  return s;
}

// dst[row·n ..) = the best n candidates, score descending then item ascending, the rest EMPTY.
function writeBest(dst: Uint32Array, n: number, row: number, candidates: Scored[]): void {
  candidates.sort((a, b) => b.score - a.score || a.item - b.item);
  for (let p = 0; p < n; p++) dst[row * n + p] = p < candidates.length ? candidates[p]!.item : EMPTY;
}

export function itemListsTo(
  dst: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  count: number,
  f: number,
  rowStart: number,
  rowEnd: number,
  _scratch: Float32Array,
): void {
  const name = 'itemListsTo';
  checkItemLists(name, dst, n, factors, norms, count, f, rowStart, rowEnd);
  for (let i = rowStart; i < rowEnd; i++) {
    const candidates: Scored[] = [];
    for (let j = 0; j < count; j++) {
      if (j === i || norms[i] === 0 || norms[j] === 0) continue;
      const score = Math.fround(dot(factors, i * f, factors, j * f, f) / (norms[i]! * norms[j]!));
      if (!Number.isNaN(score)) candidates.push({ item: j, score });
    }
    writeBest(dst, n, i, candidates);
  }
}

export interface NormOrder {
  items: number;
  count: number;
  order: Uint32Array;
  norms: Float32Array;
  rows: Float32Array;
}

// Every item of norm > 0 scored (no early stop), from the same rows the fast kernel scans.
export function userListsTo(
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  byNorm: NormOrder,
  f: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  _scratch: Float32Array,
): void {
  const name = 'userListsTo';
  const { items, count, order, rows } = byNorm;
  checkNormOrder(name, byNorm, f);
  checkUserLists(name, dst, n, users, userFactors, userRows, items, f, ratedIndptr, ratedIndices, false);
  const rated = (u: number): number[] =>
    u + 1 < ratedIndptr.length ? Array.from(ratedIndices.subarray(ratedIndptr[u], ratedIndptr[u + 1])) : [];
  for (const u of users) {
    const skip = new Set(rated(u));
    const candidates: Scored[] = [];
    for (let p = 0; p < count; p++) {
      if (skip.has(order[p]!)) continue;
      candidates.push({ item: order[p]!, score: Math.fround(dot(userFactors, u * f, rows, p * f, f)) });
    }
    writeBest(dst, n, u, candidates);
  }
}
