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

// inverse · y of a model's items (rows: items × f), each made on first use (known[item] = 1).
export interface SolvedRows {
  rows: Float32Array;
  known: Uint8Array;
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
 * fold-in of items seen before costs k²·f, not k·f² (a session's items are mostly seen before).
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
  if (solved && (solved.rows.length !== cols * f || solved.known.length !== cols)) throw new Error(`foldInFewTo: solved rows for ${solved.known.length} items, expected ${cols}`);
  if (k === 0) {
    dst.fill(0);
    return true;
  }
  // Scratch layout: Z (k rows of f) | S (k*k) | B = I + W S (k*k) | c (k) | r (k).
  const Z = scratch.subarray(0, k * f);
  const S = scratch.subarray(k * f, k * f + k * k);
  const B = scratch.subarray(k * f + k * k, k * f + 2 * k * k);
  const c = scratch.subarray(k * f + 2 * k * k, k * f + 2 * k * k + k);
  const r = scratch.subarray(k * f + 2 * k * k + k, k * f + 2 * k * k + 2 * k);
  for (let j = 0; j < k; j++) {
    const item = items[j]!;
    if (item >= cols) throw new Error(`foldInFewTo: item ${item} out of range (${cols} items)`);
    c[j] = 1 + alpha * values[j]!;
    const y = item * f, z = j * f;
    if (solved?.known[item] === 1) {
      for (let a = 0; a < f; a++) Z[z + a] = solved.rows[y + a]!;
      continue;
    }
    for (let a = 0; a < f; a++) {
      let s = 0;
      const row = a * f;
      for (let b = 0; b < f; b++) s += inverse[row + b]! * itemFactors[y + b]!;
      Z[z + a] = s;
    }
    if (solved) {
      // Kept rounded to f32, and read back so: the same x whether the row was just made or kept.
      for (let a = 0; a < f; a++) {
        solved.rows[y + a] = Z[z + a]!;
        Z[z + a] = solved.rows[y + a]!;
      }
      solved.known[item] = 1;
    }
  }
  // S = UᵀZ = Uᵀ·inverse·U is symmetric (the inverse is): its upper half, mirrored.
  for (let i = 0; i < k; i++) {
    const y = items[i]! * f;
    for (let j = i; j < k; j++) {
      let s = 0;
      const z = j * f;
      for (let a = 0; a < f; a++) s += itemFactors[y + a]! * Z[z + a]!;
      S[i * k + j] = s;
      S[j * k + i] = s;
    }
  }
  for (let i = 0; i < k; i++) {
    const w = c[i]! - 1;
    let t = 0;
    for (let j = 0; j < k; j++) {
      t += S[i * k + j]! * c[j]!;
      B[i * k + j] = (i === j ? 1 : 0) + w * S[i * k + j]!;
    }
    r[i] = w * t;
  }
  if (!smallSolveInPlace(B, r, k)) return false;
  for (let a = 0; a < f; a++) {
    let s = 0;
    for (let j = 0; j < k; j++) s += Z[j * f + a]! * (c[j]! - r[j]!);
    dst[a] = s;
  }
  return true;
}
