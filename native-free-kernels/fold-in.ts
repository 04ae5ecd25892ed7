// Fold-in: exact implicit-ALS factors of one user from their ratings against fixed item factors.
import { choleskySolveTo } from './linalg.js';

/**
 * dst (f) = (YᵀY + Σ (c−1) y yᵀ + λI)⁻¹ Σ c·y over the user's items, c = 1 + alpha·value.
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
  regularization: number,
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
  for (let a = 0; a < f; a++) A[a * f + a]! += regularization;
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
