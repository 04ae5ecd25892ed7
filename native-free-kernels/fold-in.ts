// Fold-in: exact implicit-ALS factors of one user from their ratings against fixed item factors.
import { checkFoldIn } from './checks.js';
import { choleskySolveTo, smallSolveInPlace } from './linalg.js';
import { rowRegularization, type Regularization } from './als.js';

/**
 * dst (f) = (YᵀY + Σ (c−1) y yᵀ + λI)⁻¹ Σ c·y over the user's items, c = 1 + alpha·value,
 * λ = rowRegularization(regularization, items.length) as in the users' half-step.
 * gram = YᵀY (f*f) is precomputed once for all users; exact because one user is cheap (O(nnz·f² + f³)).
 * scratch needs 2*f*f + 2*f entries. A user with no items gets zeros.
 */
export function foldInTo(
  dst: Float32Array,
  items: Uint32Array,
  values: Float32Array,
  itemFactors: Float32Array,
  gram: Float64Array,
  f: number,
  regularization: Regularization,
  alpha: number,
  scratch: Float64Array,
): void {
  checkFoldIn(dst, items, values, itemFactors, gram, f, scratch);
  if (items.length === 0) {
    dst.fill(0);
    return;
  }
  const cols = itemFactors.length / f;
  // Scratch layout: A (f*f) | Cholesky factor (f*f) | b (f) | x (f).
  const A = scratch.subarray(0, f * f);
  const L = scratch.subarray(f * f, 2 * f * f);
  const b = scratch.subarray(2 * f * f, 2 * f * f + f);
  const x = scratch.subarray(2 * f * f + f, 2 * f * f + 2 * f);
  A.set(gram);
  const lambda = rowRegularization(regularization, items.length);
  for (let a = 0; a < f; a++) A[a * f + a]! += lambda;
  b.fill(0);
  // Only A's lower triangle is summed: it is symmetric, and choleskySolveTo reads no more.
  for (let k = 0; k < items.length; k += 4) addItems4(A, b, items, values, k, itemFactors, cols, f, alpha);
  choleskySolveTo(x, A, b, f, L);
  for (let a = 0; a < f; a++) dst[a] = x[a]!;
}

/**
 * Adds items k … k+3 (those that exist) of a fold-in: b += Σ c·y and the lower triangle of
 * A += Σ (c−1) y yᵀ, as one rank-4 update two rows at a time: each entry of A is loaded and stored
 * once per four items, not once per item, and two rows share the loads of y: A's loads and stores,
 * not the arithmetic, set the cost of an item at a time over the full matrix (that fold-in was
 * 3.5–6× slower from 20 to 2,048 items, bench/kernels/fold-in-speed.ts). A short group repeats its
 * first item with weights 0, which add exact zeros.
 */
function addItems4(
  A: Float64Array,
  b: Float64Array,
  items: Uint32Array,
  values: Float32Array,
  k: number,
  itemFactors: Float32Array,
  cols: number,
  f: number,
  alpha: number,
): void {
  const m = Math.min(4, items.length - k);
  for (let j = 0; j < m; j++) if (items[k + j]! >= cols) throw new Error(`foldInTo: item ${items[k + j]} out of range (${cols} items)`);
  const y0 = items[k]! * f;
  const y1 = m > 1 ? items[k + 1]! * f : y0,
    y2 = m > 2 ? items[k + 2]! * f : y0,
    y3 = m > 3 ? items[k + 3]! * f : y0;
  const c0 = 1 + alpha * values[k]!;
  const c1 = m > 1 ? 1 + alpha * values[k + 1]! : 0,
    c2 = m > 2 ? 1 + alpha * values[k + 2]! : 0,
    c3 = m > 3 ? 1 + alpha * values[k + 3]! : 0;
  const v0 = c0 - 1,
    v1 = m > 1 ? c1 - 1 : 0,
    v2 = m > 2 ? c2 - 1 : 0,
    v3 = m > 3 ? c3 - 1 : 0;
  for (let a = 0; a < f; a++)
    b[a]! += c0 * itemFactors[y0 + a]! + c1 * itemFactors[y1 + a]! + c2 * itemFactors[y2 + a]! + c3 * itemFactors[y3 + a]!;
  // Rows a and a+1 share each column's four loads of y; a+1's diagonal entry is past row a's end.
  let a = 0;
  for (; a + 2 <= f; a += 2) {
    const p0 = v0 * itemFactors[y0 + a]!,
      p1 = v1 * itemFactors[y1 + a]!,
      p2 = v2 * itemFactors[y2 + a]!,
      p3 = v3 * itemFactors[y3 + a]!;
    const q0 = v0 * itemFactors[y0 + a + 1]!,
      q1 = v1 * itemFactors[y1 + a + 1]!,
      q2 = v2 * itemFactors[y2 + a + 1]!,
      q3 = v3 * itemFactors[y3 + a + 1]!;
    const r0 = a * f,
      r1 = r0 + f;
    for (let d = 0; d <= a; d++) {
      const x0 = itemFactors[y0 + d]!,
        x1 = itemFactors[y1 + d]!,
        x2 = itemFactors[y2 + d]!,
        x3 = itemFactors[y3 + d]!;
      A[r0 + d]! += p0 * x0 + p1 * x1 + p2 * x2 + p3 * x3;
      A[r1 + d]! += q0 * x0 + q1 * x1 + q2 * x2 + q3 * x3;
    }
    const d = a + 1;
    A[r1 + d]! += q0 * itemFactors[y0 + d]! + q1 * itemFactors[y1 + d]! + q2 * itemFactors[y2 + d]! + q3 * itemFactors[y3 + d]!;
  }
  if (a < f) {
    const p0 = v0 * itemFactors[y0 + a]!,
      p1 = v1 * itemFactors[y1 + a]!,
      p2 = v2 * itemFactors[y2 + a]!,
      p3 = v3 * itemFactors[y3 + a]!;
    const r0 = a * f;
    for (let d = 0; d <= a; d++)
      A[r0 + d]! += p0 * itemFactors[y0 + d]! + p1 * itemFactors[y1 + d]! + p2 * itemFactors[y2 + d]! + p3 * itemFactors[y3 + d]!;
  }
}

// inverse · y of a model's items (rows: items × f), each made on first use (known[item] = 1), and
// y · inverse · y (self, one per item) from the kept row: the diagonal of every fold-in's S.
export interface SolvedRows {
  rows: Float32Array;
  known: Uint8Array;
  self: Float64Array;
}

// Up to this many items, foldInFewTo costs less than building and factorising the f×f system.
export const FOLD_IN_FEW = 16;

/**
 * foldInTo for a user of few items (k ≤ FOLD_IN_FEW), from inverse = (YᵀY + λI)⁻¹ with the λ of k items (shiftedInverseTo,
 * once per model) instead of a factorisation per user. With U the user's item rows (f × k),
 * c = 1 + alpha·value, W = diag(c − 1) and Z = inverse·U, S = UᵀZ (Woodbury):
 *   x = Z (c − r), where (I + W S) r = W S c
 * — the same x as foldInTo, for k·f² + k²·f multiply-adds instead of f³/6 + k·f². false (dst
 * untouched) when I + W S is singular (negative values can make it so): use foldInTo.
 * scratch needs k*f + 2*k*k + 2*k entries. `solved` (optional) keeps each item's inverse·y across
 * calls: its row of `rows` (items × f) is filled on the item's first use (known[item] = 1), so a
 * fold-in of items seen before costs k²·f/2, not k·f² (a session's items are mostly seen before).
 * Kept rows are read where they are, not copied: a session's items are random rows of the model,
 * and each copy was one more cache miss per item.
 */
export function foldInFewTo(
  dst: Float32Array,
  items: Uint32Array,
  values: Float32Array,
  itemFactors: Float32Array,
  inverse: Float64Array,
  f: number,
  alpha: number,
  scratch: Float64Array,
  solved?: SolvedRows,
): boolean {
  const k = items.length;
  if (dst.length !== f) throw new Error(`foldInFewTo: dst length ${dst.length}, expected ${f}`);
  if (k !== values.length) throw new Error(`foldInFewTo: items length ${k} != values length ${values.length}`);
  if (k > FOLD_IN_FEW) throw new Error(`foldInFewTo: ${k} items, at most ${FOLD_IN_FEW}`);
  if (inverse.length !== f * f) throw new Error(`foldInFewTo: inverse length ${inverse.length}, expected ${f * f}`);
  if (scratch.length < k * f + 2 * k * k + 2 * k)
    throw new Error(`foldInFewTo: scratch length ${scratch.length}, need at least ${k * f + 2 * k * k + 2 * k}`);
  const cols = itemFactors.length / f;
  if (solved && (solved.rows.length !== cols * f || solved.known.length !== cols || solved.self.length !== cols))
    throw new Error(`foldInFewTo: solved rows for ${solved.known.length} items, expected ${cols}`);
  if (k === 0) {
    dst.fill(0);
    return true;
  }
  // Scratch layout, as offsets (a subarray per part and call was most of what a fold-in allocated):
  // Z (k rows of f, unused with `solved`: its rows are read in place) | S (k*k) | B = I + W S (k*k) | c (k) | r (k).
  const S = k * f,
    B = S + k * k,
    C = B + k * k,
    R = C + k;
  const z = solved ? solved.rows : scratch;
  for (let j = 0; j < k; j++) {
    const item = items[j]!;
    if (item >= cols) throw new Error(`foldInFewTo: item ${item} out of range (${cols} items)`);
    scratch[C + j] = 1 + alpha * values[j]!;
    if (solved?.known[item] === 1) continue;
    const y = item * f,
      at = solved ? y : j * f;
    // Kept rounded to f32 and read back so: the same x whether the row was just made or kept.
    let a = 0;
    for (; a + 4 <= f; a += 4) dots4To(z, at + a, inverse, a * f, (a + 1) * f, (a + 2) * f, (a + 3) * f, itemFactors, y, f);
    for (; a < f; a++) z[at + a] = dotAt(itemFactors, y, inverse, a * f, f);
    if (solved) {
      solved.self[item] = dotAt(itemFactors, y, z, y, f);
      solved.known[item] = 1;
    }
  }
  // S = UᵀZ = Uᵀ·inverse·U is symmetric (the inverse is): its upper half, mirrored; its diagonal
  // kept. Row i against up to four rows of Z at once (dots4To); a short group repeats its first.
  for (let i = 0; i < k; i++) {
    const y = items[i]! * f;
    scratch[S + i * k + i] = solved ? solved.self[items[i]!]! : dotAt(itemFactors, y, z, i * f, f);
    for (let j = i + 1; j < k; j += 4) {
      const m = Math.min(4, k - j);
      const z0 = solved ? items[j]! * f : j * f;
      const z1 = m > 1 ? (solved ? items[j + 1]! * f : (j + 1) * f) : z0;
      const z2 = m > 2 ? (solved ? items[j + 2]! * f : (j + 2) * f) : z0;
      const z3 = m > 3 ? (solved ? items[j + 3]! * f : (j + 3) * f) : z0;
      // Into B's place first (free until B is made from S below), then mirrored into S.
      dots4To(scratch, B, z, z0, z1, z2, z3, itemFactors, y, f);
      for (let n = 0; n < m; n++) {
        scratch[S + i * k + j + n] = scratch[B + n]!;
        scratch[S + (j + n) * k + i] = scratch[B + n]!;
      }
    }
  }
  for (let i = 0; i < k; i++) {
    const w = scratch[C + i]! - 1;
    let t = 0;
    for (let j = 0; j < k; j++) {
      t += scratch[S + i * k + j]! * scratch[C + j]!;
      scratch[B + i * k + j] = (i === j ? 1 : 0) + w * scratch[S + i * k + j]!;
    }
    scratch[R + i] = w * t;
  }
  if (!smallSolveInPlace(scratch, scratch, k, B, R)) return false;
  for (let j = 0; j < k; j++) scratch[R + j] = scratch[C + j]! - scratch[R + j]!;
  for (let a = 0; a < f; a++) {
    let s = 0;
    for (let j = 0; j < k; j++) s += z[(solved ? items[j]! * f : j * f) + a]! * scratch[R + j]!;
    dst[a] = s;
  }
  return true;
}

// Σ x[xAt + a] · z[zAt + a] over a < f, in f64 and in order (kept diagonals must equal fresh ones).
function dotAt(x: Float32Array, xAt: number, z: Float32Array | Float64Array, zAt: number, f: number): number {
  let s = 0;
  for (let a = 0; a < f; a++) s += x[xAt + a]! * z[zAt + a]!;
  return s;
}

// dst[at + m] = dotAt(x, xAt, z, zm, f) for m < 4: four sums at once, each added in dotAt's order
// (the same bits), so that their additions overlap instead of each waiting on the one before
// (a dot product of 64 is a chain of 64 dependent additions: their latency, not the multiplies,
// set a fold-in's cost).
function dots4To(
  dst: Float32Array | Float64Array,
  at: number,
  z: Float32Array | Float64Array,
  z0: number,
  z1: number,
  z2: number,
  z3: number,
  x: Float32Array,
  xAt: number,
  f: number,
): void {
  let s0 = 0,
    s1 = 0,
    s2 = 0,
    s3 = 0;
  for (let a = 0; a < f; a++) {
    const xa = x[xAt + a]!;
    s0 += xa * z[z0 + a]!;
    s1 += xa * z[z1 + a]!;
    s2 += xa * z[z2 + a]!;
    s3 += xa * z[z3 + a]!;
  }
  dst[at] = s0;
  dst[at + 1] = s1;
  dst[at + 2] = s2;
  dst[at + 3] = s3;
}
