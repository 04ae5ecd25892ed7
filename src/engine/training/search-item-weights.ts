// The parameter search's item-weights trials (item-weights.ts): item-KNN over a few neighbour counts,
// then EASE from ratings weighing their quantile, one coordinate at a time from the best point.
import type { SearchCandidate } from '../../config/env.js';
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { EaseTrial, KnnTrial, Trial } from '../../store/models-store.js';
import type { EaseColumns, EaseWeighting } from './item-weights-tasks.js';
import { easeFit, evaluateWeights, fitItemWeights, knnFit, weighted, type ItemWeightsChoice } from './item-weights.js';
import type { TrainingPool } from './pool.js';
import type { ValidationData } from './tasks.js';
import { MIN_GAIN } from './search-space.js';

export interface ItemWeightsSearch {
  trials: number; // stop once the search holds this many trials
  until: number; // or when the next trial would end past this (search seconds)
  easeSeconds: number; // EASE's trials take at most this long from the first (item-KNN's come before)
  seconds: () => number; // since the search began
  held: () => number; // trials the search holds
  record: (x: Trial) => void;
  candidates: readonly SearchCandidate[];
  cuts: number[]; // rating values tried as the cut (the first: where relevance starts)
  graded: boolean; // rating values differ: weighing them can matter
  start: (ItemWeightsChoice & { model: 'ease' }) | undefined; // the last search's EASE choice: EASE starts from it
}

// Neighbour counts item-KNN tries (each trial costs a Gram matrix and a selection per item: well
// under a second at 2,000 items; the bench's item-KNN was best at 50–100 on MovieLens).
const NEIGHBOURS = [100, 30];
// λ of the first EASE trial, as a multiple of the weighted Gram diagonal's mean (about the best on
// ml-100k and ml-latest-small: 6–12).
const EASE_SCALE = 10;
// EASE's trials end after this many in a row without a gain (search.ts MIN_GAIN): each costs an inverse.
const EASE_PATIENCE = 4;

// A point of EASE's space: λ ÷ the weighted Gram diagonal's mean, and the weighting (by quantile,
// else cut and below).
interface EasePoint {
  scale: number;
  quantile: boolean;
  cut: number;
  below: number;
}

export async function searchItemWeights(pool: TrainingPool, data: ValidationData, cols: EaseColumns, s: ItemWeightsSearch): Promise<void> {
  // Graded ratings start weighing their quantile: on MovieLens that beat every cut-and-below weighting
  // tried (EASE at 10× the mean diagonal, ml-100k u1–u5 0.4187 against 0.4141 for ratings under 4
  // weighing 0.5; ml-latest-small 0.3322 against 0.3266).
  const weighting = (p: EasePoint): EaseWeighting =>
    p.quantile ? { cut: 0, below: 1, byQuantile: true } : { cut: p.below === 1 ? 0 : p.cut, below: p.below, byQuantile: false };
  const start = s.start
    ? { quantile: s.start.byQuantile, cut: s.start.cut, below: s.start.below, scale: s.start.lambdaScale }
    : { quantile: s.graded, cut: s.cuts[0]!, below: 0.5, scale: EASE_SCALE };
  const startWeighting = weighting(start);
  let last = 0;
  const fits = () => s.held() < s.trials && s.seconds() + last <= s.until;
  // A blend builds on the best of both.
  const blend = s.candidates.includes('blend');
  if (s.candidates.includes('item-knn') || blend) {
    for (const neighbours of NEIGHBOURS) {
      if (!fits()) break;
      const began = performance.now();
      const w = await weighted(pool, data.byUser, startWeighting);
      const q = await evaluateWeights(pool, w, data.held, cols, await knnFit(pool, w, cols, neighbours));
      last = (performance.now() - began) / 1000;
      s.record({ model: 'item-knn', items: cols.n, neighbours, ...recorded(startWeighting), seconds: last, ...q });
    }
  }
  if (!s.candidates.includes('ease') && !blend) return;
  const keyOf = (p: EasePoint) =>
    p.quantile ? `${p.scale.toPrecision(6)} q` : `${p.scale.toPrecision(6)} ${p.below === 1 ? 0 : p.cut} ${p.below}`;
  const tried = new Set<string>();
  let best: EasePoint = start;
  let bestNdcg = -1,
    step = 2.5,
    since = 0,
    cursor = 0,
    idle = 0;
  // The weighting first (quantiles or the cut), then λ: they move the score most.
  const moves: ((p: EasePoint) => EasePoint | undefined)[] = [
    (p) => (s.graded ? { ...p, quantile: !p.quantile } : undefined),
    (p) => (s.graded && !p.quantile && p.below < 1 ? s.cuts.filter((c) => c !== p.cut).map((cut) => ({ ...p, cut }))[0] : undefined),
    (p) => ({ ...p, scale: p.scale * step }),
    (p) => ({ ...p, scale: p.scale / step }),
    (p) => (s.graded && !p.quantile ? { ...p, below: p.below / 2 } : undefined),
    (p) => (s.graded && !p.quantile && p.below < 1 ? { ...p, below: Math.min(1, p.below * 2) } : undefined),
  ];
  let point: EasePoint | undefined = best;
  last = 0;
  const easeUntil = Math.min(s.until, s.seconds() + s.easeSeconds);
  while (point !== undefined && fits() && s.seconds() + last <= easeUntil && idle < EASE_PATIENCE) {
    tried.add(keyOf(point));
    const w = weighting(point);
    const began = performance.now();
    const train = await weighted(pool, data.byUser, w);
    const { weights, lambda } = await easeFit(pool, train, cols, point.scale);
    const q = await evaluateWeights(pool, train, data.held, cols, weights);
    last = (performance.now() - began) / 1000;
    s.record({ model: 'ease', items: cols.n, lambda, lambda_scale: point.scale, ...recorded(w), seconds: last, ...q });
    idle = q.ndcg_at_10 > bestNdcg * (1 + MIN_GAIN) ? 0 : idle + 1;
    if (q.ndcg_at_10 > bestNdcg) [best, bestNdcg, since] = [point, q.ndcg_at_10, 0];
    point = undefined;
    for (let tries = 0; tries < 4 * moves.length && point === undefined; tries++) {
      if (since >= moves.length) [step, since] = [Math.sqrt(step), 0];
      const next = moves[cursor++ % moves.length]!(best);
      since++;
      if (next !== undefined && !tried.has(keyOf(next))) point = next;
    }
  }
}

const recorded = (w: EaseWeighting) => ({ weight_cut: w.cut, weight_below: w.below, weight_by_quantile: w.byQuantile });

// An item-weights trial's model fitted on a split: the split's training part weighted, and the weights.
async function fitTrialWeights(
  pool: TrainingPool,
  data: ValidationData,
  cols: EaseColumns,
  x: EaseTrial | KnnTrial,
): Promise<{ train: Csr; weights: SharedArrayBuffer }> {
  const train = await weighted(pool, data.byUser, { cut: x.weight_cut, below: x.weight_below, byQuantile: x.weight_by_quantile });
  return { train, weights: await fitItemWeights(pool, train, cols, x.model === 'ease' ? { model: 'ease', scale: x.lambda_scale } : x) };
}

// What an item-weights trial's weights depend on: blends of one trial share them.
export const weightsKey = (x: EaseTrial | KnnTrial): string =>
  JSON.stringify([x.model, x.model === 'ease' ? x.lambda_scale : x.neighbours, x.weight_cut, x.weight_below, x.weight_by_quantile]);

// Trials' NDCG@10 when fitted again on another split (the confirmation of the leaders), each distinct
// weights fitted once; a blend takes its ALS trial's model fitted on that split.
export function itemWeightsRefits(
  pool: TrainingPool,
  data: ValidationData,
  cols: EaseColumns,
): (x: EaseTrial | KnnTrial, als?: SharedArrayBuffer) => Promise<number> {
  const fitted = new Map<string, Promise<{ train: Csr; weights: SharedArrayBuffer }>>();
  return async (x, als) => {
    let fit = fitted.get(weightsKey(x));
    if (fit === undefined) fitted.set(weightsKey(x), (fit = fitTrialWeights(pool, data, cols, x)));
    const { train, weights } = await fit;
    return (
      await evaluateWeights(pool, train, data.held, cols, weights, als && x.als_weight ? { model: als, weight: x.als_weight } : undefined)
    ).ndcg_at_10;
  };
}

// Weights of ALS's standardised scores the blends try: on ml-100k folds 3 and 5 a blend of EASE with
// the bench's ALS gained 0.2–0.3 NDCG points at 0.5–1.
const ALS_WEIGHTS = [0.25, 0.5, 1];
export const BLEND_TRIALS = ALS_WEIGHTS.length;

// Blends of the best item-weights trial with the best ALS trial (its model fitted on this split,
// `als`), each recorded as a trial of the item-weights model with its ALS weight.
export async function searchBlends(
  pool: TrainingPool,
  data: ValidationData,
  cols: EaseColumns,
  best: EaseTrial | KnnTrial,
  als: { trial: number; model: SharedArrayBuffer },
  record: (x: Trial) => void,
  fits: () => boolean,
): Promise<void> {
  const began = performance.now();
  const { train, weights } = await fitTrialWeights(pool, data, cols, best);
  const { second_split_ndcg_at_10: _confirmed, ...base } = best;
  for (const weight of ALS_WEIGHTS) {
    if (!fits()) break;
    const q = await evaluateWeights(pool, train, data.held, cols, weights, { model: als.model, weight });
    record({ ...base, als_weight: weight, als_trial: als.trial, seconds: best.seconds + (performance.now() - began) / 1000, ...q });
  }
}

export function itemWeightsChoice(x: EaseTrial | KnnTrial): ItemWeightsChoice {
  const common = {
    cut: x.weight_cut,
    below: x.weight_below,
    byQuantile: x.weight_by_quantile,
    items: x.items,
    alsWeight: x.als_weight ?? 0,
  };
  return x.model === 'ease'
    ? { ...common, model: 'ease', lambdaScale: x.lambda_scale }
    : { ...common, model: 'item-knn', neighbours: x.neighbours };
}
