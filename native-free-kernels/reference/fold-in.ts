// Reference twin of ../fold-in.ts: normal equations built from every item, c = 1 and p = 0 off the user's items.
import { checkFoldIn } from '../checks.js';
import { choleskySolveTo } from './linalg.js';
import type { Regularization } from '../als.js';

/** Same contract as the fast twin; gram is ignored because the sum over all items is done explicitly. */
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
  const confidence = new Array<number>(cols).fill(1);
  const preference = new Array<number>(cols).fill(0);
  items.forEach((item, k) => {
    if (item >= cols) throw new Error(`foldInTo: item ${item} out of range (${cols} items)`);
    confidence[item] = 1 + alpha * values[k]!;
    preference[item] = 1;
  });
  const A = new Float64Array(f * f);
  const b = new Float64Array(f);
  for (let i = 0; i < cols; i++) {
    for (let a = 0; a < f; a++) {
      b[a] = b[a]! + confidence[i]! * preference[i]! * itemFactors[i * f + a]!;
      for (let d = 0; d < f; d++) A[a * f + d] = A[a * f + d]! + confidence[i]! * itemFactors[i * f + a]! * itemFactors[i * f + d]!;
    }
  }
  const lambda =
    typeof regularization === 'number'
      ? regularization
      : regularization.scale * (items.length + regularization.offset) ** regularization.exponent;
  for (let a = 0; a < f; a++) A[a * f + a] = A[a * f + a]! + lambda;
  const x = new Float64Array(f);
  choleskySolveTo(x, A, b, f, new Float64Array(f * f));
  for (let a = 0; a < f; a++) dst[a] = x[a]!;
}
