// The kernels' argument checks, each written once and called by both the kernel and its twin in
// reference/, so the two cannot drift apart on what they refuse. Each throws naming the kernel
// before anything is written; a kernel calls them once per call, never inside its loops.
import type { Csr } from './csr.js';

/** Each value an integer ≥ 0. */
export function checkCounts(name: string, values: Record<string, number>): void {
  for (const [key, v] of Object.entries(values))
    if (!(Number.isInteger(v) && v >= 0)) throw new Error(`${name}: ${key} must be an integer ≥ 0, got ${v}`);
}

/** [rowStart, rowEnd) inside [0, count). */
export function checkRowRange(name: string, rowStart: number, rowEnd: number, count: number): void {
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= count))
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${count})`);
}

/** i an integer in [0, n), `what` naming it. */
export function checkIndex(name: string, what: string, i: number, n: number): void {
  if (!(Number.isInteger(i) && i >= 0 && i < n)) throw new Error(`${name}: ${what} ${i} outside [0, ${n})`);
}

// ---- csr.ts

export function checkDim(name: string, d: number): void {
  if (!Number.isInteger(d) || d < 0 || d > 0xffffffff) throw new Error(`${name} must be a non-negative integer, got ${d}`);
}

/** csrFromTriples: every triple inside rows × cols. */
export function checkTriples(rows: number, cols: number, r: Uint32Array, c: Uint32Array, v: Float32Array): void {
  checkDim('rows', rows);
  checkDim('cols', cols);
  const m = r.length;
  if (c.length !== m || v.length !== m) throw new Error(`triple arrays differ in length: ${m}, ${c.length}, ${v.length}`);
  for (let e = 0; e < m; e++) {
    if (r[e]! >= rows) throw new Error(`row ${r[e]} out of range at ${e} (rows ${rows})`);
    if (c[e]! >= cols) throw new Error(`column ${c[e]} out of range at ${e} (cols ${cols})`);
  }
}

/** transpose: a well-formed matrix, every column inside cols. */
export function checkCsr(m: Csr): void {
  checkDim('rows', m.rows);
  checkDim('cols', m.cols);
  if (m.indptr.length !== m.rows + 1) throw new Error(`indptr length ${m.indptr.length}, expected ${m.rows + 1}`);
  const nnz = m.indptr[m.rows]!;
  if (m.indices.length !== nnz || m.values.length !== nnz)
    throw new Error(`indices/values length ${m.indices.length}/${m.values.length}, expected ${nnz}`);
  for (let p = 0; p < nnz; p++)
    if (m.indices[p]! >= m.cols) throw new Error(`column ${m.indices[p]} out of range at ${p} (cols ${m.cols})`);
}

// ---- popularity.ts, top-k.ts

export function checkEvents(
  dst: Float32Array,
  items: Uint32Array,
  timestamps: Float64Array,
  weights: Float32Array,
  halfLifeSeconds: number,
): void {
  const m = items.length;
  if (timestamps.length !== m || weights.length !== m)
    throw new Error(`event arrays differ in length: ${m}, ${timestamps.length}, ${weights.length}`);
  if (!(halfLifeSeconds > 0) || !Number.isFinite(halfLifeSeconds))
    throw new Error(`halfLifeSeconds must be positive and finite, got ${halfLifeSeconds}`);
  for (let e = 0; e < m; e++)
    if (items[e]! >= dst.length) throw new Error(`item ${items[e]} out of range at ${e} (catalogue ${dst.length})`);
}

export function checkTopK(
  dstIdx: Uint32Array,
  dstScore: Float32Array,
  scores: Float32Array,
  n: number,
  k: number,
  mask?: Uint8Array,
): void {
  if (!Number.isInteger(n) || n < 0) throw new Error(`n must be a non-negative integer, got ${n}`);
  if (!Number.isInteger(k) || k < 0) throw new Error(`k must be a non-negative integer, got ${k}`);
  if (scores.length < n) throw new Error(`scores length ${scores.length} < n ${n}`);
  if (mask !== undefined && mask.length < n) throw new Error(`mask length ${mask.length} < n ${n}`);
  if (dstIdx.length < k || dstScore.length < k) throw new Error(`dst lengths ${dstIdx.length}/${dstScore.length} < k ${k}`);
}

// ---- rows.ts, scores.ts

/**
 * rows.ts: factors rows × f; norms (if given) one per row; dst of `dstLength` entries (`dstIs` says
 * what that is); each listed row an integer in [0, rows).
 */
export function checkRowArgs(
  name: string,
  factors: Float32Array,
  rows: number,
  f: number,
  dst: Float32Array | undefined,
  dstLength: number,
  dstIs: string,
  norms?: Float32Array,
  list: ArrayLike<number> = [],
): void {
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(f) || f < 0)
    throw new Error(`${name}: rows and f must be integers ≥ 0, got ${rows}, ${f}`);
  if (factors.length !== rows * f) throw new Error(`${name}: factors length ${factors.length}, expected rows*f = ${rows * f}`);
  if (norms && norms.length !== rows) throw new Error(`${name}: norms length ${norms.length}, expected rows = ${rows}`);
  if (dst && dst.length !== dstLength) throw new Error(`${name}: dst length ${dst.length}, expected ${dstIs} = ${dstLength}`);
  for (let k = 0; k < list.length; k++) {
    const r = list[k]!;
    if (!(Number.isInteger(r) && r >= 0 && r < rows)) throw new Error(`${name}: row ${r} (at ${k}) outside [0, ${rows})`);
  }
}

/** scores.ts: factors n × f, norms and dst one per row; each query (if any) f long. */
export function checkScoreArgs(
  name: string,
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  n: number,
  f: number,
  queries: readonly Float32Array[] = [],
): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(f) || f < 0)
    throw new Error(`${name}: n and f must be integers ≥ 0, got ${n}, ${f}`);
  if (factors.length !== n * f) throw new Error(`${name}: factors length ${factors.length}, expected n*f = ${n * f}`);
  if (norms.length !== n) throw new Error(`${name}: norms length ${norms.length}, expected n = ${n}`);
  if (dst.length !== n) throw new Error(`${name}: dst length ${dst.length}, expected n = ${n}`);
  for (let q = 0; q < queries.length; q++)
    if (queries[q]!.length !== f) throw new Error(`${name}: query ${q} length ${queries[q]!.length}, expected f = ${f}`);
}

export function checkPositionScores(
  dst: Float32Array,
  query: Float32Array,
  rows: Float32Array,
  count: number,
  f: number,
  members: Uint32Array,
  positions: Uint32Array,
): void {
  if (!Number.isInteger(count) || count < 0 || !Number.isInteger(f) || f < 0)
    throw new Error(`positionScoresTo: count and f must be integers ≥ 0, got ${count}, ${f}`);
  if (rows.length !== count * f) throw new Error(`positionScoresTo: rows length ${rows.length}, expected count*f = ${count * f}`);
  if (query.length !== f) throw new Error(`positionScoresTo: query length ${query.length}, expected f = ${f}`);
  if (members.length < count) throw new Error(`positionScoresTo: members length ${members.length} < count ${count}`);
  if (dst.length !== positions.length)
    throw new Error(`positionScoresTo: dst length ${dst.length}, expected positions length ${positions.length}`);
  for (let c = 0; c < positions.length; c++)
    if (!(positions[c]! < count)) throw new Error(`positionScoresTo: position ${positions[c]} (at ${c}) outside [0, ${count})`);
}

// ---- lists.ts

export function checkItemLists(
  name: string,
  dst: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  count: number,
  f: number,
  rowStart: number,
  rowEnd: number,
): void {
  checkCounts(name, { n, count, f });
  if (factors.length !== count * f) throw new Error(`${name}: factors length ${factors.length}, expected count*f = ${count * f}`);
  if (norms.length !== count) throw new Error(`${name}: norms length ${norms.length}, expected count = ${count}`);
  if (dst.length !== count * n) throw new Error(`${name}: dst length ${dst.length}, expected count*n = ${count * n}`);
  checkRowRange(name, rowStart, rowEnd, count);
}

/** userListsTo's rows in norm order (lists.ts NormOrder): `count` of `items` items, f factors each. */
export function checkNormOrder(
  name: string,
  byNorm: { items: number; count: number; order: Uint32Array; norms: Float32Array; rows: Float32Array },
  f: number,
): void {
  const { items, count, order, norms, rows } = byNorm;
  checkCounts(name, { items, count, f });
  if (count > items || order.length !== count || norms.length !== count)
    throw new Error(`${name}: byNorm holds ${order.length} items and ${norms.length} norms for count ${count} of ${items}`);
  if (rows.length !== count * f) throw new Error(`${name}: byNorm rows length ${rows.length}, expected count*f = ${count * f}`);
  for (let p = 0; p < count; p++)
    if (!(order[p]! < items)) throw new Error(`${name}: byNorm item ${order[p]} (at ${p}) outside [0, ${items})`);
}

/**
 * userListsTo's checks of its users' side, shared with its WebAssembly twin (wasm-user-lists.ts):
 * throws, naming `name`, unless the arguments fit `items` items of f factors.
 */
export function checkUserLists(
  name: string,
  dst: Uint32Array,
  n: number,
  users: Uint32Array,
  userFactors: Float32Array,
  userRows: number,
  items: number,
  f: number,
  ratedIndptr: Uint32Array,
  ratedIndices: Uint32Array,
  packed: boolean,
): void {
  checkCounts(name, { n, userRows, f });
  if (userFactors.length !== userRows * f)
    throw new Error(`${name}: userFactors length ${userFactors.length}, expected userRows*f = ${userRows * f}`);
  if (packed ? dst.length !== users.length * n : dst.length !== userRows * n)
    throw new Error(
      `${name}: dst length ${dst.length}, expected ${packed ? `users*n = ${users.length * n}` : `userRows*n = ${userRows * n}`}`,
    );
  for (let p = 0; p < users.length; p++) {
    const u = users[p]!;
    if (u >= userRows) throw new Error(`${name}: user ${u} (at ${p}) outside [0, ${userRows})`);
    if (u + 1 >= ratedIndptr.length) continue;
    const a = ratedIndptr[u]!,
      b = ratedIndptr[u + 1]!;
    if (!(a <= b && b <= ratedIndices.length))
      throw new Error(`${name}: user ${u}'s rated items [${a}, ${b}) outside ratedIndices (length ${ratedIndices.length})`);
    for (let c = a; c < b; c++)
      if (ratedIndices[c]! >= items) throw new Error(`${name}: user ${u} rated item ${ratedIndices[c]} outside [0, ${items})`);
  }
}

// ---- linalg.ts, als.ts, fold-in.ts

export function checkGram(dst: Float64Array, factors: Float32Array, n: number, f: number): void {
  if (dst.length !== f * f) throw new Error(`gramTo: dst length ${dst.length}, expected ${f * f}`);
  if (factors.length !== n * f) throw new Error(`gramTo: factors length ${factors.length}, expected ${n * f}`);
}

export function checkParts(dst: Float64Array, parts: readonly Float64Array[]): void {
  for (let k = 0; k < parts.length; k++)
    if (parts[k]!.length !== dst.length) throw new Error(`sumTo: part ${k} length ${parts[k]!.length}, expected dst length ${dst.length}`);
}

export function checkSolve(x: Float64Array, a: Float64Array, b: Float64Array, f: number, scratch: Float64Array): void {
  if (a.length !== f * f) throw new Error(`choleskySolveTo: a length ${a.length}, expected ${f * f}`);
  if (x.length !== f) throw new Error(`choleskySolveTo: x length ${x.length}, expected ${f}`);
  if (b.length !== f) throw new Error(`choleskySolveTo: b length ${b.length}, expected ${f}`);
  if (scratch.length < f * f) throw new Error(`choleskySolveTo: scratch length ${scratch.length}, need at least ${f * f}`);
}

function checkRatings(name: string, m: Csr): void {
  if (m.indptr.length !== m.rows + 1) throw new Error(`${name}: indptr length ${m.indptr.length}, expected ${m.rows + 1}`);
  if (m.indices.length !== m.values.length)
    throw new Error(`${name}: indices length ${m.indices.length} != values length ${m.values.length}`);
  if (m.indptr[m.rows] !== m.indices.length) throw new Error(`${name}: indptr[rows] ${m.indptr[m.rows]}, expected ${m.indices.length}`);
}

export function checkHalfStep(
  dst: Float32Array,
  m: Csr,
  other: Float32Array,
  gram: Float64Array,
  f: number,
  scratch: Float64Array,
  rowStart: number,
  rowEnd: number,
): void {
  checkRatings('alsHalfStepTo', m);
  checkRowRange('alsHalfStepTo', rowStart, rowEnd, m.rows);
  if (dst.length !== m.rows * f) throw new Error(`alsHalfStepTo: dst length ${dst.length}, expected ${m.rows * f}`);
  if (other.length !== m.cols * f) throw new Error(`alsHalfStepTo: other length ${other.length}, expected ${m.cols * f}`);
  if (gram.length !== f * f) throw new Error(`alsHalfStepTo: gram length ${gram.length}, expected ${f * f}`);
  if (scratch.length < 4 * f) throw new Error(`alsHalfStepTo: scratch length ${scratch.length}, need at least ${4 * f}`);
}

export function checkLoss(m: Csr, userFactors: Float32Array, itemFactors: Float32Array, rows: number, cols: number, f: number): void {
  checkRatings('alsLoss', m);
  if (m.rows !== rows || m.cols !== cols) throw new Error(`alsLoss: matrix is ${m.rows}×${m.cols}, expected ${rows}×${cols}`);
  if (userFactors.length !== rows * f) throw new Error(`alsLoss: userFactors length ${userFactors.length}, expected ${rows * f}`);
  if (itemFactors.length !== cols * f) throw new Error(`alsLoss: itemFactors length ${itemFactors.length}, expected ${cols * f}`);
}

/** foldInTo's lengths (each item is checked where the kernel reads it, in its one pass over them). */
export function checkFoldIn(
  dst: Float32Array,
  items: Uint32Array,
  values: Float32Array,
  itemFactors: Float32Array,
  gram: Float64Array,
  f: number,
  scratch: Float64Array,
): void {
  if (dst.length !== f) throw new Error(`foldInTo: dst length ${dst.length}, expected ${f}`);
  if (items.length !== values.length) throw new Error(`foldInTo: items length ${items.length} != values length ${values.length}`);
  if (itemFactors.length % f !== 0) throw new Error(`foldInTo: itemFactors length ${itemFactors.length} is not a multiple of ${f}`);
  if (gram.length !== f * f) throw new Error(`foldInTo: gram length ${gram.length}, expected ${f * f}`);
  if (scratch.length < 2 * f * f + 2 * f) throw new Error(`foldInTo: scratch length ${scratch.length}, need at least ${2 * f * f + 2 * f}`);
}

// ---- feature-factors.ts

/** Every length problem named at once; then the features' CSR and the targets. */
export function checkFeatureFactors(
  factors: Float32Array,
  nItems: number,
  f: number,
  trained: Uint8Array,
  featIndptr: Uint32Array,
  featIndices: Uint32Array,
  nFeatures: number,
  targets: Uint32Array,
  featureSums: Float64Array,
  featureCounts: Uint32Array,
  mean: Float64Array,
): void {
  const name = 'featureFactorsTo';
  for (const [label, v] of [
    ['nItems', nItems],
    ['f', f],
    ['nFeatures', nFeatures],
  ] as const) {
    if (!Number.isInteger(v) || v < 0) throw new Error(`${name}: ${label} must be a non-negative integer, got ${v}`);
  }
  const problems: string[] = [];
  if (factors.length !== nItems * f) problems.push(`factors length ${factors.length}, expected nItems*f = ${nItems * f}`);
  if (trained.length !== nItems) problems.push(`trained length ${trained.length}, expected nItems = ${nItems}`);
  if (featIndptr.length !== nItems + 1) problems.push(`featIndptr length ${featIndptr.length}, expected nItems+1 = ${nItems + 1}`);
  if (featureSums.length !== nFeatures * f)
    problems.push(`featureSums length ${featureSums.length}, expected nFeatures*f = ${nFeatures * f}`);
  if (featureCounts.length !== nFeatures) problems.push(`featureCounts length ${featureCounts.length}, expected nFeatures = ${nFeatures}`);
  if (mean.length !== f) problems.push(`mean length ${mean.length}, expected f = ${f}`);
  if (problems.length > 0) throw new Error(`${name}: ${problems.join('; ')}`);

  if (featIndptr[0] !== 0) throw new Error(`${name}: featIndptr[0] is ${featIndptr[0]}, expected 0`);
  for (let i = 0; i < nItems; i++) if (featIndptr[i + 1]! < featIndptr[i]!) throw new Error(`${name}: featIndptr decreases at item ${i}`);
  if (featIndptr[nItems] !== featIndices.length)
    throw new Error(`${name}: featIndptr[nItems] is ${featIndptr[nItems]}, expected featIndices length ${featIndices.length}`);
  for (let p = 0; p < featIndices.length; p++) {
    if (featIndices[p]! >= nFeatures)
      throw new Error(`${name}: feature ${featIndices[p]} at featIndices[${p}] out of range (${nFeatures} features)`);
  }
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    if (t >= nItems) throw new Error(`${name}: target ${t} at targets[${k}] out of range (${nItems} items)`);
    if (trained[t] === 1) throw new Error(`${name}: target ${t} is marked trained; targets must have trained[t] !== 1`);
  }
}
