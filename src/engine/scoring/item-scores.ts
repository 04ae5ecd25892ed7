// One item's score as a ranking orders by it, and the likeness of two items, for explaining a page
// (services/reco/paging/explanations.ts): not on any ranking's path.
import { dotAt } from '../../../native-free-kernels/dot.js';
import type { ModelViews } from '../model/layout.js';
import type { RankSpec } from './rankings.js';

// The factors' dot product (user, session, fold-in, properties), its mean over a group, the cosine of
// the query item's factors and the item's, or the item's popularity.
export function itemScore(v: ModelViews, spec: RankSpec, row: number): number | null {
  const f = v.dims.factors;
  const at = row * f;
  switch (spec.kind) {
    case 'similar':
      return itemLikeness(v, spec.item, row);
    case 'popular':
      return v.popularity[row] ?? null;
    case 'group':
      return spec.vectors.reduce((s, vec) => s + dotAt(vec, 0, v.itemFactors, at, f), 0) / Math.max(1, spec.vectors.length);
    default:
      return dotAt(spec.vector, 0, v.itemFactors, at, f);
  }
}

// The cosine of two items' factors (0 when either has none).
export function itemLikeness(v: ModelViews, a: number, b: number): number {
  const f = v.dims.factors;
  const x = v.itemFactors;
  const norm = Math.sqrt(dotAt(x, a * f, x, a * f, f) * dotAt(x, b * f, x, b * f, f));
  return norm === 0 ? 0 : dotAt(x, a * f, x, b * f, f) / norm;
}
