// The choice at the end of a parameter search (search.ts): the best of many noisy validation scores
// is partly luck (on ml-latest-small a choice 0.01 ahead on validation came out 0.01 behind on the
// test split), so the leaders — the best CONFIRM trials and trial 0 — are fitted again on a second
// split (another seed) and chosen by their mean over both, when the time allows.
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { SearchCandidate } from '../../config/env.js';
import type { AlsTrial, Trial } from '../../store/models-store.js';
import type { EaseColumns } from './item-weights-tasks.js';
import type { TrainingPool } from './pool.js';
import { bestTrial, isAls, paramsOf } from './search-als.js';
import { itemWeightsRefits, weightsKey } from './search-item-weights.js';
import { evaluate, fitTrial } from './search-trials.js';
import type { AlsParams } from './tasks.js';

export const CONFIRM = 3;

// What a trial is among the candidates: its model, or a blend.
const kindOf = (x: Trial): SearchCandidate =>
  x.model !== 'als' && x.model !== 'popularity' && x.als_weight !== undefined ? 'blend' : x.model;

export interface Leaders {
  pool: TrainingPool;
  byUser: Csr;
  base: AlsParams;
  trials: Trial[];
  candidates: readonly SearchCandidate[];
  cols: EaseColumns | undefined; // the item-weights models' columns, when they had trials
  split: { maxRatings: number; maxUsers: number; fraction: number }; // as the first split's
  iterations: number; // of each fit
  timeLeft: () => number; // seconds
  progress: (text: string) => void;
}

// The chosen trial and each trial's score as the choice counted it.
export async function chooseTrial(l: Leaders): Promise<{ chosen: number; scoreOf: (k: number) => number }> {
  const { trials } = l;
  // Only the configured candidates may win (ALS trial 0 is fitted for the factors in any case).
  const eligible = (k: number) => l.candidates.includes(kindOf(trials[k]!));
  const byScore = [...trials.keys()].filter(eligible).sort((a, b) => trials[b]!.ndcg_at_10 - trials[a]!.ndcg_at_10);
  // With no eligible trial (EASE alone configured but not run), ALS's trial 0.
  const first = byScore[0] ?? 0;
  // The leaders, trial 0 and the best ALS (the model's factors come from ALS whatever wins).
  const leaders = [...new Set([...byScore.slice(0, CONFIRM), 0, bestTrial(trials, isAls)])];
  if (trials.length <= CONFIRM || confirmingSeconds(trials, leaders) > l.timeLeft())
    return { chosen: first, scoreOf: (k) => trials[k]!.ndcg_at_10 };
  l.progress('search: confirming the leaders on a second split');
  const second = await l.pool.validationSplit({ byUser: l.byUser, seed: l.base.seed + 1, quantiles: [], ...l.split });
  const alsFits = new Map<number, Promise<SharedArrayBuffer>>();
  const alsOn = (k: number) =>
    alsFits.get(k)
    ?? alsFits.set(k, fitTrial(l.pool, second, { ...paramsOf(l.base, trials[k] as AlsTrial), iterations: l.iterations })).get(k)!;
  const weightsOn = l.cols && itemWeightsRefits(l.pool, second, l.cols);
  const refit = async (x: Trial, k: number): Promise<number> => {
    if (x.model === 'popularity') return (await evaluate(l.pool, second, undefined)).ndcg_at_10;
    if (x.model === 'als') return (await evaluate(l.pool, second, await alsOn(k))).ndcg_at_10;
    return weightsOn!(x, x.als_trial === undefined ? undefined : await alsOn(x.als_trial));
  };
  for (const k of leaders) trials[k]!.second_split_ndcg_at_10 = await refit(trials[k]!, k);
  const scoreOf = (k: number) => (leaders.includes(k) ? (trials[k]!.ndcg_at_10 + trials[k]!.second_split_ndcg_at_10!) / 2 : -1);
  return { chosen: leaders.filter(eligible).reduce((b, k) => (scoreOf(k) > scoreOf(b) ? k : b), first), scoreOf };
}

// Each distinct fit of the leaders once: the ALS trials among them and their blends', and the
// item-weights they use (at the seconds of the trial that first fitted them).
function confirmingSeconds(trials: Trial[], leaders: number[]): number {
  const alsFitted = new Set<number>();
  const weightsFitted = new Set<string>();
  for (const k of leaders) {
    const x = trials[k]!;
    if (x.model === 'als') alsFitted.add(k);
    else if (x.model !== 'popularity') {
      weightsFitted.add(weightsKey(x));
      if (x.als_trial !== undefined) alsFitted.add(x.als_trial);
    }
  }
  const weightsSeconds = (key: string) =>
    Math.min(...trials.map((x) => (x.model !== 'als' && x.model !== 'popularity' && weightsKey(x) === key ? x.seconds : Infinity)));
  return (
    [...alsFitted].reduce((sum, k) => sum + trials[k]!.seconds, 0) + [...weightsFitted].reduce((sum, key) => sum + weightsSeconds(key), 0)
  );
}
