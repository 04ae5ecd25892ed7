// The parameter search's item-weights trials (item-weights.ts): item-KNN over a few neighbour counts,
// then EASE from the cut where relevance starts, one coordinate at a time from the best point.
import type { SearchCandidate } from '../../config/env.js';
import type { EaseTrial, KnnTrial, Trial } from '../../store/models-store.js';
import type { EaseColumns, EaseWeighting } from './item-weights-tasks.js';
import { easeFit, evaluateWeights, knnFit, type ItemWeightsChoice } from './item-weights.js';
import type { TrainingPool } from './pool.js';
import type { ValidationData } from './tasks.js';

export interface ItemWeightsSearch {
  trials: number; // stop once the search holds this many trials
  until: number; // or when the next trial would end past this (search seconds)
  seconds: () => number; // since the search began
  held: () => number; // trials the search holds
  record: (x: Trial) => void;
  candidates: readonly SearchCandidate[];
  cuts: number[]; // rating values tried as the cut (the first: where relevance starts)
  graded: boolean; // rating values differ: weighing them can matter
}

// Neighbour counts item-KNN tries (each trial costs a Gram matrix and a selection per item: well
// under a second at 2,000 items; the bench's item-KNN was best at 50–100 on MovieLens).
const NEIGHBOURS = [100, 30];
// λ of the first EASE trial, as a multiple of the weighted Gram diagonal's mean (about the best on
// ml-100k and ml-latest-small: 7–10).
const EASE_SCALE = 8;

interface EasePoint extends EaseWeighting {
  scale: number; // λ ÷ the weighted Gram diagonal's mean
}

export async function searchItemWeights(pool: TrainingPool, data: ValidationData, cols: EaseColumns, s: ItemWeightsSearch): Promise<void> {
  const start: EaseWeighting = { cut: s.graded ? s.cuts[0]! : 0, below: s.graded ? 0.5 : 1 };
  let last = 0;
  const fits = () => s.held() < s.trials && s.seconds() + last <= s.until;
  if (s.candidates.includes('item-knn')) {
    for (const neighbours of NEIGHBOURS) {
      if (!fits()) break;
      const began = performance.now();
      const q = await evaluateWeights(pool, data, cols, start, await knnFit(pool, data.byUser, cols, { ...start, neighbours }));
      last = (performance.now() - began) / 1000;
      s.record({ model: 'item-knn', items: cols.n, neighbours, weight_cut: start.cut, weight_below: start.below, seconds: last, ...q });
    }
  }
  if (!s.candidates.includes('ease')) return;
  const keyOf = (p: EasePoint) => `${p.scale.toPrecision(6)} ${p.below === 1 ? 0 : p.cut} ${p.below}`;
  const tried = new Set<string>();
  let best: EasePoint = { ...start, scale: EASE_SCALE };
  let bestNdcg = -1, step = 2.5, since = 0, cursor = 0;
  // The cut first: which ratings count fully moves the score most (ml-latest-small: 0.30 at the
  // median, 3.5, against 0.33 at 4 on the bench's test split).
  const moves: ((p: EasePoint) => EasePoint | undefined)[] = [
    (p) => (s.graded && p.below < 1 ? s.cuts.filter((c) => c !== p.cut).map((cut) => ({ ...p, cut }))[0] : undefined),
    (p) => ({ ...p, scale: p.scale * step }),
    (p) => ({ ...p, scale: p.scale / step }),
    (p) => (s.graded ? { ...p, below: p.below / 2 } : undefined),
    (p) => (s.graded && p.below < 1 ? { ...p, below: Math.min(1, p.below * 2) } : undefined),
  ];
  let point: EasePoint | undefined = best;
  last = 0;
  while (point !== undefined && fits()) {
    tried.add(keyOf(point));
    const weighting = { cut: point.below === 1 ? 0 : point.cut, below: point.below };
    const began = performance.now();
    const { weights, lambda } = await easeFit(pool, data.byUser, cols, { ...weighting, scale: point.scale });
    const q = await evaluateWeights(pool, data, cols, weighting, weights);
    last = (performance.now() - began) / 1000;
    s.record({ model: 'ease', items: cols.n, lambda, lambda_scale: point.scale, weight_cut: weighting.cut, weight_below: weighting.below, seconds: last, ...q });
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

// A trial's NDCG@10 when fitted again on another split (the confirmation of the leaders).
export async function refitItemWeights(pool: TrainingPool, data: ValidationData, cols: EaseColumns, x: EaseTrial | KnnTrial): Promise<number> {
  const weighting = { cut: x.weight_cut, below: x.weight_below };
  const weights = x.model === 'ease' ? (await easeFit(pool, data.byUser, cols, { ...weighting, scale: x.lambda_scale })).weights : await knnFit(pool, data.byUser, cols, { ...weighting, neighbours: x.neighbours });
  return (await evaluateWeights(pool, data, cols, weighting, weights)).ndcg_at_10;
}

export function itemWeightsChoice(x: EaseTrial | KnnTrial): ItemWeightsChoice {
  const common = { cut: x.weight_cut, below: x.weight_below, items: x.items };
  return x.model === 'ease' ? { ...common, model: 'ease', lambdaScale: x.lambda_scale } : { ...common, model: 'item-knn', neighbours: x.neighbours };
}
