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
