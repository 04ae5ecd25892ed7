// ALS's trials of a parameter search (search.ts): each fitted and scored on the validation split,
// the moves from the best point so far (a random point of the whole space every few trials of a
// first search) until validation stops improving or the time is spent; and the trials' helpers the
// search shares.
import type { AlsTrial, SearchSummary, Trial } from '../../store/models-store.js';
import { fitAndEvaluate } from './search-trials.js';
import { type AlsSpace, MIN_GAIN, type Point } from './search-space.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams, ValidationData } from './tasks.js';

// Every EXPLORE_EVERY-th trial of a first search is a random point of the whole space; the others
// move one coordinate of the best point so far (the configured defaults are a good start on most
// data: a random point of the space mostly is not). A warm search (from the last choice) only moves.
const EXPLORE_EVERY = 4;
// ALS's trials end after this many in a row without a gain (search-space.ts MIN_GAIN): validation
// has stopped improving.
const ALS_PATIENCE = 8;
// A point too costly for the time left is skipped (a cheaper move may fit); SKIPS_MAX in a row end them.
const SKIPS_MAX = 16;

// The index of the best trial that `keep` keeps, by `score` (validation NDCG@10 unless given; the
// first on a tie); -1 when it keeps none.
export function bestTrial(trials: Trial[], keep: (x: Trial) => boolean, score = (k: number) => trials[k]!.ndcg_at_10): number {
  let best = -1;
  for (let k = 0; k < trials.length; k++) if (keep(trials[k]!) && (best < 0 || score(k) > score(best))) best = k;
  return best;
}
export const isAls = (x: Trial) => x.model === 'als';
// The index of an ALS trial's point among the ALS trials' points.
const alsIndex = (trials: Trial[], k: number) => trials.slice(0, k).filter((x) => x.model === 'als').length;

// The ALS parameters of a trial.
export const paramsOf = (base: AlsParams, x: AlsTrial): AlsParams => ({
  ...base,
  factors: x.factors,
  regularization: x.regularization,
  alpha: x.alpha,
  unobserved: x.unobserved,
  regExponent: x.reg_exponent,
  ratingShift: x.rating_shift,
  ratingFloor: x.rating_floor,
});

export interface AlsMoves {
  until: number; // trials in all (the search's other trials count)
  exploring: number; // seconds since the start the moves must end by
  seconds: () => number; // since the start
  reserved: () => number; // seconds kept for what follows (the blends)
  factorsAllowed: readonly number[];
  warm: boolean;
}

export class AlsTrials {
  private readonly points: (Point | undefined)[] = [];
  private readonly cost = new Map<number, number>(); // seconds of a trial by factors, as measured
  private idle = 0;

  constructor(
    private readonly pool: TrainingPool,
    private readonly data: ValidationData,
    private readonly space: AlsSpace,
    private readonly base: AlsParams,
    private readonly iterations: number,
    private readonly trials: Trial[], // every trial of the search, which `record` adds to
    private readonly record: (x: Trial) => void,
  ) {}

  // Fits and scores one point (undefined: the run's own parameters).
  async trial(point: Point | undefined): Promise<void> {
    const p = point === undefined ? { ...this.base, iterations: this.iterations } : this.space.weights(point);
    const trialStart = performance.now();
    const q = await fitAndEvaluate(this.pool, this.data, p);
    const took = (performance.now() - trialStart) / 1000;
    this.cost.set(p.factors, took);
    this.points.push(point);
    // ALS's moves shrink their step after a cycle without a gain of ALS's own; its trials end after
    // ALS_PATIENCE in a row without one.
    const bestSoFar = bestTrial(this.trials, isAls);
    if (bestSoFar < 0 || q.ndcg_at_10 > this.trials[bestSoFar]!.ndcg_at_10) this.space.gained();
    this.idle = bestSoFar >= 0 && q.ndcg_at_10 <= this.trials[bestSoFar]!.ndcg_at_10 * (1 + MIN_GAIN) ? this.idle + 1 : 0;
    this.record({
      model: 'als',
      factors: p.factors,
      regularization: p.regularization,
      alpha: p.alpha,
      unobserved: p.unobserved,
      reg_exponent: p.regExponent,
      rating_shift: p.ratingShift,
      rating_floor: p.ratingFloor,
      seconds: took,
      ...q,
    });
  }

  // Trials of moved (or random) points until the trials, the time or the gains run out: which did.
  async moves(m: AlsMoves): Promise<SearchSummary['ended']> {
    let drawn = 0,
      skipped = 0;
    while (this.trials.length < m.until) {
      if (this.idle >= ALS_PATIENCE) return 'no gain';
      if (skipped >= SKIPS_MAX || m.seconds() + this.estimate(m.factorsAllowed[0]!) + m.reserved() > m.exploring) return 'budget';
      const point =
        ++drawn % EXPLORE_EVERY === 0 && !m.warm
          ? this.space.randomPoint()
          : this.space.moved(this.points[alsIndex(this.trials, bestTrial(this.trials, isAls))] ?? this.space.pointOf(this.base));
      if (m.seconds() + this.estimate(point.factors) + m.reserved() > m.exploring) {
        skipped++;
        continue;
      }
      skipped = 0;
      await this.trial(point);
    }
    return 'trials';
  }

  // A trial's seconds at these factors: as measured, else scaled from the factors measured.
  private estimate(f: number): number {
    const known = this.cost.get(f);
    if (known !== undefined) return known;
    let guess = 0;
    for (const [g, s] of this.cost) guess = Math.max(guess, s * (f / g) ** 1.5);
    return guess;
  }
}
