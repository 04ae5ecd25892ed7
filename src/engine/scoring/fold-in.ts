// A user's or a session's factors folded in from their ratings against a served model's item factors
// (rankings.ts ranks with them), with what each model keeps for it: its fold-in terms, inverses and
// the items' solved rows.
import { FOLD_IN_FEW, foldInFewTo, foldInTo, type SolvedRows } from '../../../native-free-kernels/fold-in.js';
import { shiftedInverseTo } from '../../../native-free-kernels/linalg.js';
import { confidenceValuesTo, rowRegularization, type Regularization } from '../../../native-free-kernels/als.js';
import { alsTerms } from '../model/als-terms.js';
import type { ModelViews } from '../model/layout.js';
import type { ModelMeta } from '../../store/models-store.js';
import type { Scorable } from './rankings.js';

// Factors for a user or session from their ratings (item rows, rating values), against the
// model's fixed item factors: what training would give them, without retraining.
// A session or a user of few items (most sessions) is folded in from the model's (YᵀY + λI)⁻¹, made
// once per model: 3× fewer multiply-adds than a factorisation per fold-in (bench/kernels/fold-in-speed.ts).
export function foldIn(m: Scorable & { meta: ModelMeta }, items: Uint32Array, values: Float32Array): Float32Array {
  const f = m.views.dims.factors;
  const out = new Float32Array(f);
  const t = foldTermsOf(m);
  if (t.shift !== 0 || t.floor !== 0) {
    // The values as training saw them.
    const shifted = new Float32Array(values.length);
    confidenceValuesTo(shifted, values, t.shift, t.floor);
    values = shifted;
  }
  const k = items.length;
  if (k <= FOLD_IN_FEW) {
    const { inverse, solved } = (t.fewOf[k] ??= inverseOf(m.views, t.byLambda, rowRegularization(t.regularization, k)));
    if (foldInFewTo(out, items, values, m.views.itemFactors, inverse, f, t.alpha, foldScratch(k * f + 2 * k * k + 2 * k), solved))
      return out;
  }
  foldInTo(out, items, values, m.views.itemFactors, m.views.gram, f, t.regularization, t.alpha, foldScratch(2 * f * f + 2 * f));
  return out;
}

// The fold-ins' scratch, one per thread, grown to the largest asked: a session's fold-in runs on
// every request, and a fresh typed array each time was a backing store the collector had to free.
let foldScratchHeld = new Float64Array(0);
function foldScratch(length: number): Float64Array {
  if (foldScratchHeld.length < length) foldScratchHeld = new Float64Array(length);
  return foldScratchHeld;
}

// Items × factors up to which a model keeps its items' solved rows for fold-ins (foldInFewTo): as
// many floats as its item factors, 64 MB at most.
const SOLVED_ROWS_MAX = 2 ** 24;

// Per model (its gram): its fold-in terms, worked out once rather than as objects on every fold-in,
// and (YᵀY + λI)⁻¹ per λ with the items' rows solved with it as fold-ins use them. λ is one value
// unless the regularization is frequency-scaled (one per count of items up to FOLD_IN_FEW); solved
// rows are kept for as many λ as SOLVED_ROWS_MAX holds. fewOf[k]: the inverse for k items.
interface FoldTerms {
  regularization: Regularization;
  alpha: number;
  shift: number;
  floor: number;
  byLambda: Map<number, Inverse>;
  fewOf: (Inverse | undefined)[];
}
interface Inverse {
  inverse: Float64Array;
  solved: SolvedRows | undefined;
}
const foldTerms = new WeakMap<Float64Array, FoldTerms>();
function foldTermsOf(m: Scorable & { meta: ModelMeta }): FoldTerms {
  let t = foldTerms.get(m.views.gram);
  if (t === undefined) {
    const p = m.meta.params;
    // Models published before the unobserved weight and ν were parameters had 1 and 0.
    const weights = {
      regularization: p.regularization ?? 20,
      alpha: p.alpha ?? 0.25,
      unobserved: p.unobserved ?? 1,
      regExponent: p.reg_exponent ?? 0,
    };
    const { regularization, alpha } = alsTerms(weights, m.views.dims.trainedItems);
    t = { regularization, alpha, shift: p.rating_shift ?? 0, floor: p.rating_floor ?? 0, byLambda: new Map(), fewOf: [] };
    foldTerms.set(m.views.gram, t);
  }
  return t;
}
function inverseOf(v: ModelViews, byLambda: Map<number, Inverse>, regularization: number): Inverse {
  const { items: n, factors: f } = v.dims;
  let held = byLambda.get(regularization);
  if (held === undefined) {
    const inverse = new Float64Array(f * f);
    shiftedInverseTo(inverse, v.gram, regularization, f, new Float64Array(f * f + f));
    const solved =
      (byLambda.size + 1) * n * f <= SOLVED_ROWS_MAX
        ? { rows: new Float32Array(n * f), known: new Uint8Array(n), self: new Float64Array(n) }
        : undefined;
    byLambda.set(regularization, (held = { inverse, solved }));
  }
  return held;
}
