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
import { evaluate, fitAndEvaluate, fitTrial } from './search-trials.js';
import type { AlsTrial, SearchSummary, Trial } from '../../store/models-store.js';
import { inverseSeconds, sweepRate } from './item-weights.js';
import { BLEND_TRIALS, itemWeightsChoice, itemWeightsRefits, searchBlends, searchItemWeights, weightsKey } from './search-item-weights.js';
import type { ListsChoice } from './lists-choice.js';
import { AlsSpace, FACTORS, MIN_GAIN, SHIFT_QUANTILES, type Point } from './search-space.js';
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
// Every EXPLORE_EVERY-th trial of a first search is a random point of the whole space; the others
// move one coordinate of the best point so far (the configured defaults are a good start on most
// data: a random point of the space mostly is not). A warm search (from the last choice) only moves.
const EXPLORE_EVERY = 4;
// ALS's trials end after this many in a row without a gain (search-space.ts MIN_GAIN): validation
// has stopped improving.
const ALS_PATIENCE = 8;
const SKIPS_MAX = 16;
// The best of many noisy validation scores is partly luck (on ml-latest-small a choice 0.01 ahead on
// validation came out 0.01 behind on the test split): the leaders — the best CONFIRM trials and trial
// 0 — are fitted again on a second split (another seed) and chosen by their mean over both. The
// search keeps this share of its time for it.
const CONFIRM = 3;
const CONFIRM_SHARE = 0.25;
// A search's time grows with the ratings its trials train on, up to SearchOptions.seconds: on 2 cores
// 0.1M (MovieLens) get 13.5 s, 0.5M 19.5 s, 2.2M and more the whole 45 s of the default.
const BUDGET_BASE_SECONDS = 12;
const BUDGET_SECONDS_PER_MILLION = 15;
export const searchBudget = (sampledRatings: number, most: number): number =>
  Math.min(most, BUDGET_BASE_SECONDS + (BUDGET_SECONDS_PER_MILLION * sampledRatings) / 1e6);

export async function searchParams(
  pool: TrainingPool,
  byUser: Csr,
  base: AlsParams,
  o: SearchOptions,
  progress: (text: string, done?: number) => void,
): Promise<Searched> {
  const started = performance.now();
  const seconds = () => (performance.now() - started) / 1000;
  const users = byUser.rows,
    items = byUser.cols;
  const factorsAllowed = FACTORS.filter((f) => (users + items) * f * 4 <= FACTOR_BYTES_MAX);
  if (factorsAllowed.length === 0) factorsAllowed.push(FACTORS[0]!);
  const maxUsers = Math.max(
    VALIDATION_USERS_MIN,
    Math.min(VALIDATION_USERS, Math.floor(VALIDATION_WORK / (items * Math.max(...factorsAllowed, base.factors)))),
  );
  progress('search: validation split', 0);
  const data = await pool.validationSplit({
    byUser,
    fraction: HELD_OUT,
    seed: base.seed,
    maxRatings: o.maxRatings,
    maxUsers,
    quantiles: [...SHIFT_QUANTILES, ...CUT_QUANTILES],
  });
  const budget = searchBudget(data.ratings, o.seconds);
  const space = new AlsSpace(base, {
    factorsAllowed,
    shifts: data.shifts.slice(0, SHIFT_QUANTILES.length),
    meanRow: data.ratings / Math.max(1, data.rated),
    items,
    iterations: o.iterations,
  });

  const popularityStart = performance.now();
  const popularity = await evaluate(pool, data, undefined);
  const popularitySeconds = (performance.now() - popularityStart) / 1000;
  const trials: Trial[] = [];
  const points: (Point | undefined)[] = [];
  const cost = new Map<number, number>(); // seconds of a trial by factors, as measured
  const estimate = (f: number) => {
    const known = cost.get(f);
    if (known !== undefined) return known;
    let guess = 0;
    for (const [g, s] of cost) guess = Math.max(guess, s * (f / g) ** 1.5);
    return guess;
  };
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
  let alsIdle = 0;
  const alsTrial = async (point: Point | undefined) => {
    const p = point === undefined ? { ...base, iterations: o.iterations } : space.weights(point);
    const trialStart = performance.now();
    const q = await fitAndEvaluate(pool, data, p);
    const took = (performance.now() - trialStart) / 1000;
    cost.set(p.factors, took);
    points.push(point);
    // ALS's moves shrink their step after a cycle without a gain of ALS's own; its trials end after
    // ALS_PATIENCE in a row without one.
    const bestSoFar = bestTrial(trials, isAls);
    if (bestSoFar < 0 || q.ndcg_at_10 > trials[bestSoFar]!.ndcg_at_10) space.gained();
    alsIdle = bestSoFar >= 0 && q.ndcg_at_10 <= trials[bestSoFar]!.ndcg_at_10 * (1 + MIN_GAIN) ? alsIdle + 1 : 0;
    record({
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
  };
  await alsTrial(undefined);

  // Popularity, a candidate in its own right (a database whose users all want the same few items).
  if (maxTrials > 1)
    record({ model: 'popularity', seconds: popularitySeconds, ndcg_at_10: popularity.ndcg_at_10, recall_at_10: popularity.recall_at_10 });
  // The item-weights models over the most rated items, in their share of the time and trials.
  const cols = maxTrials > 1 ? await itemWeightsColumns(pool, data, o, base, budget) : undefined;
  if (cols !== undefined) {
    const alsToo = o.candidates.includes('als');
    await searchItemWeights(pool, data, cols, {
      trials: Math.min(
        maxTrials - (o.candidates.includes('blend') ? BLEND_TRIALS : 0),
        trials.length + (alsToo ? Math.max(ITEM_WEIGHTS_TRIALS_MIN, Math.floor(maxTrials * ITEM_WEIGHTS_TRIALS_SHARE)) : maxTrials),
      ),
      until: exploring,
      easeSeconds: alsToo ? budget * EASE_SHARE : exploring,
      seconds,
      held: () => trials.length,
      record,
      candidates: o.candidates,
      cuts: [...new Set([data.threshold, ...data.shifts.slice(SHIFT_QUANTILES.length)])],
      graded: data.shifts[0] !== data.shifts[SHIFT_QUANTILES.length - 1],
      start: o.warm?.lists?.model === 'ease' ? o.warm.lists : undefined,
    });
  }

  // The blends' trials are kept free.
  const alsTrials = maxTrials - (cols !== undefined && o.candidates.includes('blend') ? BLEND_TRIALS : 0);
  let ended: SearchSummary['ended'] = 'trials';
  // The blends come after ALS's trials: their time (refitting the best item-weights trial and the best
  // ALS trial) is kept from ALS's.
  const lead = () => trials[bestTrial(trials, (x) => x.model === 'ease' || x.model === 'item-knn')];
  const blending = cols !== undefined && o.candidates.includes('blend');
  const blendSeconds = () => (blending ? (lead()?.seconds ?? 0) + trials[bestTrial(trials, isAls)]!.seconds : 0);
  // A point too costly for the time left is skipped (a cheaper move may fit); SKIPS_MAX in a row end them.
  let drawn = 0,
    skipped = 0;
  while (trials.length < alsTrials && o.candidates.includes('als')) {
    if (alsIdle >= ALS_PATIENCE) {
      ended = 'no gain';
      break;
    }
    if (skipped >= SKIPS_MAX || seconds() + estimate(factorsAllowed[0]!) + blendSeconds() > exploring) {
      ended = 'budget';
      break;
    }
    const point =
      ++drawn % EXPLORE_EVERY === 0 && o.warm === undefined
        ? space.randomPoint()
        : space.moved(points[alsIndex(trials, bestTrial(trials, isAls))] ?? space.pointOf(base));
    if (seconds() + estimate(point.factors) + blendSeconds() > exploring) {
      skipped++;
      continue;
    }
    skipped = 0;
    await alsTrial(point);
  }
  const paramsOf = (x: AlsTrial): AlsParams => ({
    ...base,
    factors: x.factors,
    regularization: x.regularization,
    alpha: x.alpha,
    unobserved: x.unobserved,
    regExponent: x.reg_exponent,
    ratingShift: x.rating_shift,
    ratingFloor: x.rating_floor,
  });
  // Blends of the best item-weights trial with the best ALS trial.
  const leading = lead();
  const als = bestTrial(trials, isAls);
  if (blending && (leading?.model === 'ease' || leading?.model === 'item-knn') && seconds() + blendSeconds() <= exploring) {
    const model = await fitTrial(pool, data, { ...paramsOf(trials[als] as AlsTrial), iterations: o.iterations });
    await searchBlends(pool, data, cols!, leading, { trial: als, model }, record, () => seconds() <= exploring);
  }
  // Only the configured candidates may win (ALS trial 0 is fitted for the factors in any case).
  const eligible = (k: number) => o.candidates.includes(kindOf(trials[k]!));
  const byScore = [...trials.keys()].filter(eligible).sort((a, b) => trials[b]!.ndcg_at_10 - trials[a]!.ndcg_at_10);
  // With no eligible trial (EASE alone configured but not run), ALS's trial 0.
  let chosen = byScore[0] ?? 0;
  // The leaders, trial 0 and the best ALS (the model's factors come from ALS whatever wins).
  const leaders = [...new Set([...byScore.slice(0, CONFIRM), 0, bestTrial(trials, isAls)])];
  // Each distinct fit once: the ALS trials among the leaders and their blends', and the item-weights
  // the leaders use (at the seconds of the trial that first fitted them).
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
  const confirming =
    [...alsFitted].reduce((sum, k) => sum + trials[k]!.seconds, 0) + [...weightsFitted].reduce((sum, key) => sum + weightsSeconds(key), 0);
  let meanOf = (k: number) => trials[k]!.ndcg_at_10;
  if (trials.length > CONFIRM && seconds() + confirming <= budget) {
    progress('search: confirming the leaders on a second split', 1 - CONFIRM_SHARE);
    const second = await pool.validationSplit({
      byUser,
      fraction: HELD_OUT,
      seed: base.seed + 1,
      maxRatings: o.maxRatings,
      maxUsers,
      quantiles: [],
    });
    const alsFits = new Map<number, Promise<SharedArrayBuffer>>();
    const alsOn = (k: number) =>
      alsFits.get(k) ?? alsFits.set(k, fitTrial(pool, second, { ...paramsOf(trials[k] as AlsTrial), iterations: o.iterations })).get(k)!;
    const weightsOn = cols && itemWeightsRefits(pool, second, cols);
    const refit = async (x: Trial, k: number): Promise<number> => {
      if (x.model === 'popularity') return (await evaluate(pool, second, undefined)).ndcg_at_10;
      if (x.model === 'als') return (await evaluate(pool, second, await alsOn(k))).ndcg_at_10;
      return weightsOn!(x, x.als_trial === undefined ? undefined : await alsOn(x.als_trial));
    };
    for (const k of leaders) trials[k]!.second_split_ndcg_at_10 = await refit(trials[k]!, k);
    meanOf = (k: number) => (leaders.includes(k) ? (trials[k]!.ndcg_at_10 + trials[k]!.second_split_ndcg_at_10!) / 2 : -1);
    chosen = leaders.filter(eligible).reduce((b, k) => (meanOf(k) > meanOf(b) ? k : b), chosen);
  }
  const win = trials[chosen]!;
  // A blend's lists add the scores of its ALS trial's parameters: the model's factors must be those.
  const chosenAls =
    win.model !== 'als' && win.model !== 'popularity' && win.als_trial !== undefined ? win.als_trial : bestTrial(trials, isAls, meanOf);
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
  return { params: paramsOf(trials[chosenAls] as AlsTrial), lists, summary };
}

// What a trial is among the candidates: its model, or a blend.
const kindOf = (x: Trial): SearchCandidate =>
  x.model !== 'als' && x.model !== 'popularity' && x.als_weight !== undefined ? 'blend' : x.model;

// The index of the best trial that `keep` keeps, by `score` (validation NDCG@10 unless given; the
// first on a tie); -1 when it keeps none.
function bestTrial(trials: Trial[], keep: (x: Trial) => boolean, score = (k: number) => trials[k]!.ndcg_at_10): number {
  let best = -1;
  for (let k = 0; k < trials.length; k++) if (keep(trials[k]!) && (best < 0 || score(k) > score(best))) best = k;
  return best;
}
const isAls = (x: Trial) => x.model === 'als';
// The index of an ALS trial's point among the ALS trials' points.
const alsIndex = (trials: Trial[], k: number) => trials.slice(0, k).filter((x) => x.model === 'als').length;

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
