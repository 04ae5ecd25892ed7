// Fold-in: exact implicit-ALS factors of one user from their ratings against fixed item factors.
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
  if (dst.length !== f) throw new Error(`foldInTo: dst length ${dst.length}, expected ${f}`);
  if (items.length !== values.length) throw new Error(`foldInTo: items length ${items.length} != values length ${values.length}`);
  if (itemFactors.length % f !== 0) throw new Error(`foldInTo: itemFactors length ${itemFactors.length} is not a multiple of ${f}`);
  if (gram.length !== f * f) throw new Error(`foldInTo: gram length ${gram.length}, expected ${f * f}`);
  if (scratch.length < 2 * f * f + 2 * f) throw new Error(`foldInTo: scratch length ${scratch.length}, need at least ${2 * f * f + 2 * f}`);
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
  for (let k = 0; k < items.length; k++) {
    const item = items[k]!;
    if (item >= cols) throw new Error(`foldInTo: item ${item} out of range (${cols} items)`);
    const c = 1 + alpha * values[k]!;
    const y = item * f;
    for (let a = 0; a < f; a++) {
      const ya = itemFactors[y + a]!;
      b[a]! += c * ya;
      const w = (c - 1) * ya;
      for (let d = 0; d < f; d++) A[a * f + d]! += w * itemFactors[y + d]!;
    }
  }
  choleskySolveTo(x, A, b, f, L);
  for (let a = 0; a < f; a++) dst[a] = x[a]!;
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
  if (scratch.length < k * f + 2 * k * k + 2 * k) throw new Error(`foldInFewTo: scratch length ${scratch.length}, need at least ${k * f + 2 * k * k + 2 * k}`);
  const cols = itemFactors.length / f;
  if (solved && (solved.rows.length !== cols * f || solved.known.length !== cols || solved.self.length !== cols)) throw new Error(`foldInFewTo: solved rows for ${solved.known.length} items, expected ${cols}`);
  if (k === 0) {
    dst.fill(0);
    return true;
  }
  // Scratch layout, as offsets (a subarray per part and call was most of what a fold-in allocated):
  // Z (k rows of f, unused with `solved`: its rows are read in place) | S (k*k) | B = I + W S (k*k) | c (k) | r (k).
  const S = k * f, B = S + k * k, C = B + k * k, R = C + k;
  const z = solved ? solved.rows : scratch;
  for (let j = 0; j < k; j++) {
    const item = items[j]!;
    if (item >= cols) throw new Error(`foldInFewTo: item ${item} out of range (${cols} items)`);
    scratch[C + j] = 1 + alpha * values[j]!;
    if (solved?.known[item] === 1) continue;
    const y = item * f, at = solved ? y : j * f;
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
function dots4To(dst: Float32Array | Float64Array, at: number, z: Float32Array | Float64Array, z0: number, z1: number, z2: number, z3: number, x: Float32Array, xAt: number, f: number): void {
  let s0 = 0, s1 = 0, s2 = 0, s3 = 0;
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
