// What the ALS kernels are given for one side of a model, from the parameters a model is trained and
// published with. The objective is Hu, Koren and Volinsky's with a weight α0 (`unobserved`) on every
// unobserved (user, item) pair and frequency-scaled regularization (Rendle, Krichene, Zhang, Koren
// 2022): Σ_observed (α0 + alpha·value)(1 − x·y)² + α0 Σ_unobserved (x·y)² + Σ_rows λ_row‖row‖², with
// λ_row = λ·(nonzeros + α0·rows of the other side)^ν. Divided by α0 it is the kernels' form
// (unobserved weight 1): confidence 1 + (alpha/α0)·value and λ_row/α0, the same minimiser.
import type { Regularization } from '../../../native-free-kernels/als.js';

export interface AlsWeights {
  regularization: number; // λ
  alpha: number; // confidence per unit of rating value
  unobserved: number; // α0; 1 with ν = 0 is the classic implicit ALS
  regExponent: number; // ν
  // Rating values become the values confidence is made of as max(value − ratingShift, 0) +
  // ratingFloor (confidenceValuesTo; 0, 0: the value): low ratings still mark an item as seen, with
  // less weight than liked ones.
  ratingShift: number;
  ratingFloor: number;
}

export function alsTerms(
  w: Omit<AlsWeights, 'ratingShift' | 'ratingFloor'>,
  otherRows: number,
): { regularization: Regularization; alpha: number } {
  const a0 = w.unobserved;
  const scale = w.regularization / a0;
  return { alpha: w.alpha / a0, regularization: w.regExponent === 0 ? scale : { scale, offset: a0 * otherRows, exponent: w.regExponent } };
}
