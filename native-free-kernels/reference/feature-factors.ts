// Reference twin of ../feature-factors.ts: lists of trained items per feature, means written out as stated.
import { checkFeatureFactors } from '../checks.js';

/** Same contract as the fast twin; the scratch arrays are only length-checked, never used. */
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
  const featuresOf = (i: number): number[] => {
    const start = featIndptr[i]!;
    const end = featIndptr[i + 1]!;
    return Array.from(featIndices.subarray(start, end));
  };
  const itemFeatures: number[][] = [];
  for (let i = 0; i < nItems; i++) itemFeatures.push(featuresOf(i));

  const rowOf = (i: number): number[] => Array.from(factors.subarray(i * f, (i + 1) * f));
  const average = (rows: number[][]): number[] => {
    const out = new Array<number>(f).fill(0);
    if (rows.length === 0) return out;
    for (const r of rows) for (let d = 0; d < f; d++) out[d] = out[d]! + r[d]!;
    return out.map((x) => x / rows.length);
  };

  const trainedItems: number[] = [];
  for (let i = 0; i < nItems; i++) if (trained[i] === 1) trainedItems.push(i);
  const globalMean = average(trainedItems.map(rowOf));

  // A feature listed twice for one item puts that item's row in the feature's list twice.
  const rowsByFeature = new Map<number, number[][]>();
  for (const i of trainedItems) {
    for (const j of itemFeatures[i]!) {
      if (!rowsByFeature.has(j)) rowsByFeature.set(j, []);
      rowsByFeature.get(j)!.push(rowOf(i));
    }
  }
  const featureMean = new Map<number, number[]>();
  for (const [j, rows] of rowsByFeature) featureMean.set(j, average(rows));

  const results: { t: number; row: number[] }[] = [];
  let fromFeatures = 0;
  for (const t of targets) {
    const known = itemFeatures[t]!.filter((j) => featureMean.has(j)).map((j) => featureMean.get(j)!);
    if (known.length > 0) fromFeatures++;
    results.push({ t, row: known.length > 0 ? average(known) : globalMean });
  }
  for (const { t, row } of results) for (let d = 0; d < f; d++) factors[t * f + d] = row[d]!;
  return fromFeatures;
}
