// Cold-start item factors: untrained items get the mean factors of trained items sharing their property values.
import { checkFeatureFactors } from './checks.js';

/**
 * Items described by features (a feature = one (property, value) pair, numbered 0..nFeatures-1 by the caller),
 * as CSR: the features of item i are featIndices[featIndptr[i] .. featIndptr[i+1]).
 * factors: nItems*f, row i = item i's factors; trained[i] = 1 when row i holds trained factors (any other value
 * means untrained, as with the top-k mask).
 * For each item listed in `targets`, overwrites its row of `factors` with the mean, over its features that at
 * least one trained item has, of the mean trained factors of the items having that feature. A target with no
 * such feature gets the mean of all trained items' factors (zeros when no item is trained).
 * The caller guarantees every target has trained[t] !== 1, so no target's old row feeds any mean; a target
 * marked trained throws. A feature listed twice for one item counts twice; a target listed twice is written
 * twice with the same row and counted twice.
 * scratch: featureSums Float64Array(nFeatures*f), featureCounts Uint32Array(nFeatures), mean Float64Array(f).
 * Everything is validated before any write. Returns how many targets got a feature-based row (the rest got the
 * global mean).
 */
export function featureFactorsTo(
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
): number {
  checkFeatureFactors(factors, nItems, f, trained, featIndptr, featIndices, nFeatures, targets, featureSums, featureCounts, mean);
  featureSums.fill(0);
  featureCounts.fill(0);
  mean.fill(0);
  let nTrained = 0;
  for (let i = 0; i < nItems; i++) {
    if (trained[i] !== 1) continue;
    nTrained++;
    const row = i * f;
    for (let d = 0; d < f; d++) mean[d]! += factors[row + d]!;
    for (let p = featIndptr[i]!, end = featIndptr[i + 1]!; p < end; p++) {
      const j = featIndices[p]!;
      featureCounts[j]!++;
      const s = j * f;
      for (let d = 0; d < f; d++) featureSums[s + d]! += factors[row + d]!;
    }
  }
  if (nTrained > 0) for (let d = 0; d < f; d++) mean[d]! /= nTrained;
  // Sums become means in place so each target only adds up f values per feature.
  for (let j = 0; j < nFeatures; j++) {
    const c = featureCounts[j]!;
    if (c > 1) for (let d = 0, s = j * f; d < f; d++) featureSums[s + d]! /= c;
  }

  let fromFeatures = 0;
  for (let k = 0; k < targets.length; k++) {
    const t = targets[k]!;
    const start = featIndptr[t]!;
    const end = featIndptr[t + 1]!;
    let used = 0;
    for (let p = start; p < end; p++) if (featureCounts[featIndices[p]!]! > 0) used++;
    const row = t * f;
    if (used === 0) {
      for (let d = 0; d < f; d++) factors[row + d] = mean[d]!;
      continue;
    }
    fromFeatures++;
    // One dimension at a time keeps the float64 sum in a local instead of needing another f-sized scratch.
    for (let d = 0; d < f; d++) {
      let sum = 0;
      for (let p = start; p < end; p++) {
        const j = featIndices[p]!;
        if (featureCounts[j]! > 0) sum += featureSums[j * f + d]!;
      }
      factors[row + d] = sum / used;
    }
  }
  return fromFeatures;
}
