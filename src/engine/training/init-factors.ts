// The factors a training run starts from.
import { mulberry32 } from '../../../native-free-kernels/random.js';
import type { ModelViews } from '../model/layout.js';

// Same scale as the `implicit` library's initialisation: uniform [0, 0.01), users then items from
// one seeded stream, so runs on the same data with the same seed give the same model.
export function initFactors(v: ModelViews, seed: number): void {
  const next = mulberry32(seed);
  for (let k = 0; k < v.userFactors.length; k++) v.userFactors[k] = next() * 0.01;
  for (let k = 0; k < v.itemFactors.length; k++) v.itemFactors[k] = next() * 0.01;
}

// A retrain between searches starts from the last model's factors (rows are the catalogue's dense
// indices, which never move): they are near the new optimum, so fewer iterations reach it. Rows the
// last model did not cover keep initFactors'. False (nothing copied) when the factor counts differ.
export function warmFactors(v: ModelViews, last: ModelViews): boolean {
  const f = v.dims.factors;
  if (last.dims.factors !== f) return false;
  v.userFactors.set(last.userFactors.subarray(0, Math.min(v.dims.users, last.dims.users) * f));
  v.itemFactors.set(last.itemFactors.subarray(0, Math.min(v.dims.items, last.dims.items) * f));
  return true;
}
