// Per-database parameter search: trials of implicit ALS on a seeded validation split of the
// training data, ranked by NDCG@10 of each validation user's held-out liked items among every item
// they did not rate, within a time budget that grows with the data (searchBudget) on the training
// pool. Trial 0 is the parameters the run was given (the previous choice or the configured
// defaults), so a search never picks worse than them on its own validation data; then moves of one
// parameter at a time from the best point so far, with a random point of the whole space every few
// trials of a first search, until validation stops improving; the leaders are confirmed on a second
// split. Popularity is measured on the same split as the floor to beat.
import type { Csr } from '../../../native-free-kernels/csr.js';
import type { SearchCandidate } from '../../config/env.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams, ValidationData } from './tasks.js';
import { evaluate, fitTrial } from './search-trials.js';
import { AlsTrials, bestTrial, isAls, paramsOf } from './search-als.js';
import { chooseTrial } from './search-leaders.js';
import type { AlsTrial, SearchSummary, Trial } from '../../store/models-store.js';
import { inverseSeconds, sweepRate } from './item-weights.js';
import { BLEND_TRIALS, itemWeightsChoice, searchBlends, searchItemWeights } from './search-item-weights.js';
import type { ListsChoice } from './lists-choice.js';
import { AlsSpace, FACTORS, SHIFT_QUANTILES } from './search-space.js';
import type { EaseColumns } from './item-weights-tasks.js';

export interface SearchOptions {
  seconds: number; // the longest a search takes (its trials; the final fit comes after): smaller data get less (searchBudget)
  maxTrials: number;
  iterations: number; // of each trial's fit
  maxRatings: number; // trials train on a seeded sample of users holding at most this many ratings
  easeMaxItems: number; // EASE covers at most this many items (0: no EASE candidate)
  candidates: readonly SearchCandidate[]; // what may serve users' lists (ALS is fitted for the factors either way)
  // The last search's choice, when there is one: its ALS parameters are the run's `base`, its users'
  // lists came from `lists` (undefined: ALS). The search starts from it and explores less.
  warm?: { lists: ListsChoice | undefined } | undefined;
}

export interface Searched {
  params: AlsParams; // the best ALS: the model's factors
  lists: ListsChoice | undefined; // when another model than ALS won: users' lists come from it
  summary: SearchSummary;
}

const HELD_OUT = 0.2;
// Validation users at most: each trial's evaluation scores every item for each of them, so large
// catalogues get fewer, down to VALIDATION_USERS_MIN (about 2 s of scoring a trial on 2 threads).
const VALIDATION_USERS = 2000;
const VALIDATION_USERS_MIN = 100;
const VALIDATION_WORK = 4e9; // multiply-adds
// With fewer validation users than this (a young database) the scores say little: trial 0 alone.
const VALIDATION_USERS_FLOOR = 20;
// Factor matrices of a candidate ((users + items) · factors · 4 bytes) at most.
const FACTOR_BYTES_MAX = 256 * 2 ** 20;
// EASE weighs ratings from a cut on 1 and the others less: cuts at the median (what validation counts
// as liked) and at these quantiles of the rating values.
const CUT_QUANTILES = [0.65];
// EASE's share of the search's time (its trials come after ALS's trial 0), and the fewest trials it
// must afford: they set how many items it covers (inverseSeconds).
const EASE_SHARE = 0.35;
const EASE_INVERSES = 6;
// Item-KNN's and EASE's trials: this share of the trials (at least ITEM_WEIGHTS_TRIALS_MIN), so ALS keeps some.
const ITEM_WEIGHTS_TRIALS_SHARE = 0.4;
const ITEM_WEIGHTS_TRIALS_MIN = 4;
const EASE_MIN_ITEMS = 2;
// The leaders are confirmed on a second split (search-leaders.ts): the search keeps this share of
// its time for it.
const CONFIRM_SHARE = 0.25;
// A search's time grows with the ratings its trials train on, up to SearchOptions.seconds: on 2 cores
// 0.1M (MovieLens) get 13.5 s, 0.5M 19.5 s, 2.2M and more the whole 45 s of the default.
const BUDGET_BASE_SECONDS = 12;
const BUDGET_SECONDS_PER_MILLION = 15;
export const searchBudget = (sampledRatings: number, most: number): number =>
  Math.min(most, BUDGET_BASE_SECONDS + (BUDGET_SECONDS_PER_MILLION * sampledRatings) / 1e6);

// The validation split the trials are scored on, what it allows and the space of ALS's points.
async function validationOf(pool: TrainingPool, byUser: Csr, base: AlsParams, o: SearchOptions) {
  const users = byUser.rows,
    items = byUser.cols;
  const factorsAllowed = FACTORS.filter((f) => (users + items) * f * 4 <= FACTOR_BYTES_MAX);
  if (factorsAllowed.length === 0) factorsAllowed.push(FACTORS[0]!);
  const maxUsers = Math.max(
    VALIDATION_USERS_MIN,
    Math.min(VALIDATION_USERS, Math.floor(VALIDATION_WORK / (items * Math.max(...factorsAllowed, base.factors)))),
  );
  const split = { fraction: HELD_OUT, maxRatings: o.maxRatings, maxUsers };
  const data = await pool.validationSplit({ byUser, seed: base.seed, quantiles: [...SHIFT_QUANTILES, ...CUT_QUANTILES], ...split });
  const space = new AlsSpace(base, {
    factorsAllowed,
    shifts: data.shifts.slice(0, SHIFT_QUANTILES.length),
    meanRow: data.ratings / Math.max(1, data.rated),
    items,
    iterations: o.iterations,
  });
  return { factorsAllowed, split, data, space };
}

export async function searchParams(
  pool: TrainingPool,
  byUser: Csr,
  base: AlsParams,
  o: SearchOptions,
  progress: (text: string, done?: number) => void,
): Promise<Searched> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  progress('search: validation split', 0);
  const { factorsAllowed, split, data, space } = await validationOf(pool, byUser, base, o);
  const budget = searchBudget(data.ratings, o.seconds);

  const popularityStart = performance.now();
  const popularity = await evaluate(pool, data, undefined);
  const popularitySeconds = (performance.now() - popularityStart) / 1000;
  const trials: Trial[] = [];
  const exploring = budget * (1 - CONFIRM_SHARE);
  const maxTrials = popularity.users < VALIDATION_USERS_FLOOR ? 1 : o.maxTrials;
  const record = (x: Trial) => {
    trials.push(x);
    const best = trials[bestTrial(trials, () => true)]!;
    progress(
      `search trial ${trials.length}: ${x.model === 'ease' ? 'EASE' : x.model === 'als' ? 'ALS' : x.model} NDCG@10 ${x.ndcg_at_10.toFixed(4)} (best ${best.ndcg_at_10.toFixed(4)}, popularity ${popularity.ndcg_at_10.toFixed(4)})`,
      Math.max(seconds() / budget, trials.length / maxTrials),
    );
  };
  const als = new AlsTrials(pool, data, space, base, o.iterations, trials, record);
  await als.trial(undefined);

  // Popularity, a candidate in its own right (a database whose users all want the same few items).
  if (maxTrials > 1)
    record({ model: 'popularity', seconds: popularitySeconds, ndcg_at_10: popularity.ndcg_at_10, recall_at_10: popularity.recall_at_10 });
  // The item-weights models over the most rated items, in their share of the time and trials.
  const cols = maxTrials > 1 ? await itemWeightsColumns(pool, data, o, base, budget) : undefined;
  if (cols !== undefined) await itemWeightsTrials(pool, data, cols, o, { maxTrials, budget, exploring, seconds, trials, record });

  // The blends come after ALS's trials: their trials are kept free, and their time (refitting the
  // best item-weights trial and the best ALS trial) is kept from ALS's.
  const blending = cols !== undefined && o.candidates.includes('blend');
  const lead = () => trials[bestTrial(trials, (x) => x.model === 'ease' || x.model === 'item-knn')];
  const blendSeconds = () => (blending ? (lead()?.seconds ?? 0) + trials[bestTrial(trials, isAls)]!.seconds : 0);
  const ended = o.candidates.includes('als')
    ? await als.moves({
        until: maxTrials - (blending ? BLEND_TRIALS : 0),
        exploring,
        seconds,
        reserved: blendSeconds,
        factorsAllowed,
        warm: o.warm !== undefined,
      })
    : 'trials';
  // Blends of the best item-weights trial with the best ALS trial.
  const leading = lead();
  const bestAls = bestTrial(trials, isAls);
  if (blending && (leading?.model === 'ease' || leading?.model === 'item-knn') && seconds() + blendSeconds() <= exploring) {
    const model = await fitTrial(pool, data, { ...paramsOf(base, trials[bestAls] as AlsTrial), iterations: o.iterations });
    await searchBlends(pool, data, cols!, leading, { trial: bestAls, model }, record, () => seconds() <= exploring);
  }
  const { chosen, scoreOf } = await chooseTrial({
    pool,
    byUser,
    base,
    trials,
    candidates: o.candidates,
    cols,
    split,
    iterations: o.iterations,
    timeLeft: () => budget - seconds(),
    progress: (text) => progress(text, 1 - CONFIRM_SHARE),
  });
  const win = trials[chosen]!;
  // A blend's lists add the scores of its ALS trial's parameters: the model's factors must be those.
  const chosenAls =
    win.model !== 'als' && win.model !== 'popularity' && win.als_trial !== undefined ? win.als_trial : bestTrial(trials, isAls, scoreOf);
  const summary: SearchSummary = {
    at: Date.now() / 1000,
    ratings: byUser.indices.length,
    sampled_ratings: data.ratings,
    validation_users: popularity.users,
    relevant_from: data.threshold,
    seconds: seconds(),
    budget_seconds: budget,
    ended,
    trials,
    chosen,
    chosen_als: chosenAls,
    popularity: { ndcg_at_10: popularity.ndcg_at_10, recall_at_10: popularity.recall_at_10 },
  };
  const lists: ListsChoice | undefined =
    win.model === 'als' ? undefined : win.model === 'popularity' ? { model: 'popularity' } : itemWeightsChoice(win);
  return { params: paramsOf(base, trials[chosenAls] as AlsTrial), lists, summary };
}

// The item-weights models' trials (EASE, item-KNN) over their columns.
async function itemWeightsTrials(
  pool: TrainingPool,
  data: ValidationData,
  cols: EaseColumns,
  o: SearchOptions,
  t: { maxTrials: number; budget: number; exploring: number; seconds: () => number; trials: Trial[]; record: (x: Trial) => void },
): Promise<void> {
  const alsToo = o.candidates.includes('als');
  await searchItemWeights(pool, data, cols, {
    trials: Math.min(
      t.maxTrials - (o.candidates.includes('blend') ? BLEND_TRIALS : 0),
      t.trials.length + (alsToo ? Math.max(ITEM_WEIGHTS_TRIALS_MIN, Math.floor(t.maxTrials * ITEM_WEIGHTS_TRIALS_SHARE)) : t.maxTrials),
    ),
    until: t.exploring,
    easeSeconds: alsToo ? t.budget * EASE_SHARE : t.exploring,
    seconds: t.seconds,
    held: () => t.trials.length,
    record: t.record,
    candidates: o.candidates,
    cuts: [...new Set([data.threshold, ...data.shifts.slice(SHIFT_QUANTILES.length)])],
    graded: data.shifts[0] !== data.shifts[SHIFT_QUANTILES.length - 1],
    start: o.warm?.lists?.model === 'ease' ? o.warm.lists : undefined,
  });
}

// The items the item-weights models cover: as many of the most rated as EASE_INVERSES inverses
// allow in their share of the time, up to the configured most; none when users get no lists (they
// serve through them) or too few would be covered.
async function itemWeightsColumns(
  pool: TrainingPool,
  data: ValidationData,
  o: SearchOptions,
  base: AlsParams,
  budget: number,
): Promise<EaseColumns | undefined> {
  if (o.easeMaxItems <= 0 || base.listLength === 0) return undefined;
  const affordable = Math.floor(Math.cbrt(((budget * EASE_SHARE) / EASE_INVERSES) * sweepRate() * pool.threads));
  const maxItems = Math.min(o.easeMaxItems, affordable);
  if (maxItems < EASE_MIN_ITEMS) return undefined;
  const cols = await pool.easeColumns({ byItem: data.byItem, maxItems, minCount: 1 });
  return cols.n >= EASE_MIN_ITEMS && inverseSeconds(cols.n, pool.threads) <= budget * EASE_SHARE ? cols : undefined;
}
