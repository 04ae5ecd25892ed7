// An inverted-file index over factor rows for cosine similarity: rows grouped by the nearest of
// `lists` unit centroids (spherical k-means on a sample), so a query scores the rows of the lists
// nearest to it instead of every row. Rows of norm 0 belong to no list.

import { dotAt } from './dot.js';

export const NO_LIST = 0xffffffff;

// The list whose centroid has the largest dot product with row r (ties: the lower list).
function nearestList(factors: Float32Array, r: number, f: number, centroids: Float32Array, lists: number): number {
  let best = 0,
    bestDot = -Infinity;
  for (let c = 0; c < lists; c++) {
    const d = dotAt(factors, r * f, centroids, c * f, f);
    if (d > bestDot) {
      bestDot = d;
      best = c;
    }
  }
  return best;
}

function checkDims(factors: Float32Array, norms: Float32Array, n: number, f: number, centroids: Float32Array, lists: number): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(f) || f < 1 || !Number.isInteger(lists) || lists < 1)
    throw new Error(`n, f, lists must be integers (n ≥ 0, f, lists ≥ 1), got ${n}, ${f}, ${lists}`);
  if (factors.length < n * f) throw new Error(`factors length ${factors.length} < n*f ${n * f}`);
  if (norms.length < n) throw new Error(`norms length ${norms.length} < n ${n}`);
  if (centroids.length !== lists * f) throw new Error(`centroids length ${centroids.length}, expected lists*f = ${lists * f}`);
}

// The list of each row of [rowStart, rowEnd): the centroid of largest dot product (for unit centroids,
// the row's norm does not change which one), NO_LIST for rows of norm 0. Ranges let a pool split the
// rows among workers writing disjoint parts of `assign`.
export function assignTo(
  assign: Uint32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  centroids: Float32Array,
  lists: number,
  rowStart = 0,
  rowEnd = n,
): void {
  checkDims(factors, norms, n, f, centroids, lists);
  if (assign.length < n) throw new Error(`assign length ${assign.length} < n ${n}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= n))
    throw new Error(`row range [${rowStart}, ${rowEnd}) outside [0, ${n})`);
  for (let r = rowStart; r < rowEnd; r++) {
    assign[r] = norms[r] === 0 ? NO_LIST : nearestList(factors, r, f, centroids, lists);
  }
}

// Spherical k-means over the rows `sample` (each of nonzero norm; at least `lists` of them, in random
// order: the first `lists` seed the centroids). Writes `lists` unit centroids. A centroid left
// without rows is re-seeded from a sample row, so every list has a direction.
// Scratch: sums ≥ lists·f, counts ≥ lists, assign ≥ sample.length.
export function sphericalKMeansTo(
  centroids: Float32Array,
  lists: number,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  sample: Uint32Array,
  iterations: number,
  sums: Float64Array,
  counts: Uint32Array,
  assign: Uint32Array,
): void {
  checkDims(factors, norms, n, f, centroids, lists);
  const m = sample.length;
  if (m < lists) throw new Error(`sample of ${m} rows < lists ${lists}`);
  if (sums.length < lists * f || counts.length < lists || assign.length < m) throw new Error('scratch too short');
  for (let s = 0; s < m; s++)
    if (!(sample[s]! < n) || norms[sample[s]!] === 0) throw new Error(`sample row ${sample[s]} is outside [0, ${n}) or has norm 0`);
  const unitRowInto = (c: number, r: number) => {
    const nr = norms[r]!;
    for (let a = 0; a < f; a++) centroids[c * f + a] = factors[r * f + a]! / nr;
  };
  for (let c = 0; c < lists; c++) unitRowInto(c, sample[c]!);
  let reseed = lists;
  for (let it = 0; it < iterations; it++) {
    sums.fill(0, 0, lists * f);
    counts.fill(0, 0, lists);
    for (let s = 0; s < m; s++) {
      const r = sample[s]!;
      const best = nearestList(factors, r, f, centroids, lists);
      assign[s] = best;
      counts[best]!++;
      const nr = norms[r]!;
      for (let a = 0; a < f; a++) sums[best * f + a]! += factors[r * f + a]! / nr;
    }
    for (let c = 0; c < lists; c++) {
      if (counts[c] === 0) {
        unitRowInto(c, sample[reseed++ % m]!);
        continue;
      }
      let ss = 0;
      for (let a = 0; a < f; a++) ss += sums[c * f + a]! * sums[c * f + a]!;
      const len = Math.sqrt(ss);
      if (len === 0) {
        unitRowInto(c, sample[reseed++ % m]!);
        continue;
      }
      for (let a = 0; a < f; a++) centroids[c * f + a] = sums[c * f + a]! / len;
    }
  }
}

// Lists as CSR from the rows' assignments: members[offsets[c] .. offsets[c+1]) are the rows of list
// c in ascending order. Returns how many rows are listed (rows of NO_LIST are not); members beyond
// that are NO_LIST.
export function listsFromAssignmentTo(offsets: Uint32Array, members: Uint32Array, assign: Uint32Array, n: number, lists: number): number {
  if (offsets.length !== lists + 1 || members.length < n || assign.length < n)
    throw new Error(
      `offsets length ${offsets.length} (lists + 1 = ${lists + 1}), members ${members.length}, assign ${assign.length} (n = ${n})`,
    );
  offsets.fill(0);
  for (let r = 0; r < n; r++) {
    const c = assign[r]!;
    if (c === NO_LIST) continue;
    if (c >= lists) throw new Error(`row ${r} assigned to list ${c} of ${lists}`);
    offsets[c + 1]!++;
  }
  for (let c = 0; c < lists; c++) offsets[c + 1]! += offsets[c]!;
  const listed = offsets[lists]!;
  const fill = offsets.slice(0, lists);
  for (let r = 0; r < n; r++) {
    const c = assign[r]!;
    if (c !== NO_LIST) members[fill[c]!++] = r;
  }
  members.fill(NO_LIST, listed, n);
  return listed;
}

// Each list's centroid score (dot product) for row `query`, into dst (length ≥ lists).
export function listScoresTo(
  dst: Float64Array,
  factors: Float32Array,
  f: number,
  centroids: Float32Array,
  lists: number,
  query: number,
): void {
  if (dst.length < lists) throw new Error(`dst length ${dst.length} < lists ${lists}`);
  for (let c = 0; c < lists; c++) dst[c] = dotAt(factors, query * f, centroids, c * f, f);
}

// The member positions (into members, or a copy of the rows laid out in list order: one sequential
// pass per list) of the best-scoring lists not yet taken, list by list, until at least
// `minCandidates` are gathered or the lists run out; marks them taken. Best first by repeated
// selection: a probe takes a few lists of hundreds, so a full sort would cost more than it.
export function gatherPositions(
  scores: Float64Array,
  taken: Uint8Array,
  lists: number,
  offsets: Uint32Array,
  minCandidates: number,
): Uint32Array {
  const picked: number[] = [];
  let count = 0;
  while (count < minCandidates) {
    let best = -1;
    for (let c = 0; c < lists; c++) if (taken[c] === 0 && (best < 0 || scores[c]! > scores[best]!)) best = c;
    if (best < 0) break;
    taken[best] = 1;
    picked.push(best);
    count += offsets[best + 1]! - offsets[best]!;
  }
  const positions = new Uint32Array(count);
  let at = 0;
  for (const c of picked) for (let p = offsets[c]!; p < offsets[c + 1]!; p++) positions[at++] = p;
  return positions;
}
