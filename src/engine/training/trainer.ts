// One training run coordinated from the main thread: the ratings prepared, a parameter search when
// due (search.ts), the ALS fit, the item index and the lists; every step is a pool task over shared buffers.
import { modelViews } from '../model/layout.js';
import type { LogEntry, Snapshot } from './ratings-replay.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams } from './tasks.js';
import { computeLists, type Listed } from './lists.js';
import { evenRanges } from './ranges.js';
import { fitFactors } from './fit.js';
import { searchParams, type Searched, type SearchOptions } from './search.js';
import { listerFor } from './lists.js';
import type { ListsChoice } from './lists-choice.js';

export interface TrainInput {
  snapshot: Snapshot | undefined;
  log: LogEntry[];
  users: number;
  items: number;
  start?: SharedArrayBuffer | undefined; // the last model: the fit starts from its factors (PrepareInput)
  // Given the compacted ratings (encodeSnapshot) once they are made, before the fit: storing them need
  // not wait for the model.
  compacted?: (blob: Uint8Array) => void;
}

export interface Trained {
  model: SharedArrayBuffer;
  ratings: number;
  users: number; // with ratings
  listed: Listed;
  loss: number;
  params: AlsParams; // base, or what the search chose
  lists: ListsChoice | undefined; // what users' lists came from when not ALS: the search's choice, or the one reused
  searched: Searched | undefined;
  warm: boolean; // fitted from the last model's factors, in WARM_SHARE of the iterations
  seconds: number;
}

// A retrain asked for explicitly waits behind this run while it is still before its lists: the run
// stops, and the next one trains on the newer data (two full runs never go back to back).
export class StoppedEarly extends Error {
  override name = 'StoppedEarly';
  constructor() {
    super('stopped early: a retrain asked for meanwhile trains on the newer data instead');
  }
}

export class NoRatingsError extends Error {
  constructor() {
    super('no ratings to train on');
  }
}

// Where phases start and end in a run's progress (0–1): preparing, the search (when it runs), the
// fit, the index and lists.
const SEARCH_START = 0.05,
  SEARCH_END = 0.55,
  LISTS_START = 0.88;
// A fit from the last model's factors needs this share of the iterations: on ml-latest-small (10 % of
// the ratings new) and ml-100k (30 % new), 3–5 iterations from the last factors scored as 15 from
// the start on a test split (0.2907–0.2917 against 0.2906; 0.3693–0.3697 against 0.3697).
const WARM_SHARE = 1 / 3;

/**
 * A run: progress reports the phase and how far the run is, as "<phase> (<n>%)". The parameters are
 * `base`, or what the search chooses when `search` is given and due for the run's ratings; users'
 * lists come from EASE when the search chooses it, or, without a search, when `reuse` says so.
 * Once `cutLists()` (a retrain asked for waits): before the lists the run stops (StoppedEarly), in
 * them users' lists end early (computeLists) and the model is published.
 */
export async function trainAls(
  pool: TrainingPool,
  input: TrainInput,
  base: AlsParams,
  progress: (text: string) => void,
  search?: SearchOptions & { due: (ratings: number) => boolean; reuse?: ListsChoice | undefined },
  cutLists: () => boolean = () => false,
): Promise<Trained> {
  const started = performance.now();
  let span: readonly [number, number] = [0, SEARCH_START];
  const report = (text: string, done = 0) => {
    if (span[1] <= LISTS_START && cutLists()) throw new StoppedEarly();
    progress(`${text} (${Math.min(99, Math.floor(100 * (span[0] + (span[1] - span[0]) * Math.min(1, done))))}%)`);
  };
  const phase = (from: number, to: number) => (span = [from, to]);
  report('preparing ratings');
  const { compacted, ...prepare } = input;
  const prep = await pool.prepare({ ...prepare, params: base, now: Date.now() / 1000 });
  compacted?.(prep.compacted);
  if (prep.ratings === 0) throw new NoRatingsError();
  const { byUser, byItem } = prep;
  let model = prep.model;
  let p = base;
  let searched: Searched | undefined;
  const searching = search?.due(prep.ratings) === true;
  let lists = searching ? undefined : search?.reuse;
  // A retrain between searches keeps its parameters: from the last factors, fewer iterations do.
  const warm = prep.warm && !searching;
  if (warm) p = { ...p, iterations: Math.max(2, Math.ceil(p.iterations * WARM_SHARE)) };
  if (searching) {
    phase(SEARCH_START, SEARCH_END);
    searched = await searchParams(pool, byUser, base, search, report);
    p = searched.params;
    lists = searched.lists;
    if (p.factors !== base.factors) model = await pool.refactor({ model, factors: p.factors, seed: p.seed });
  }
  phase(searching ? SEARCH_END : SEARCH_START, LISTS_START);
  if (p.ratingShift !== 0 || p.ratingFloor !== 0) {
    await Promise.all([byUser, byItem].map((m) => pool.confidence({ m, shift: p.ratingShift, floor: p.ratingFloor, inPlace: true })));
  }
  await fitFactors(pool, model, byUser, byItem, p, (it) => report(`iteration ${it}/${p.iterations}`, (it - 1) / p.iterations));
  report('finishing', 1);
  const { loss } = await pool.finish({ model, byUser, params: p });
  phase(LISTS_START, 1);
  const dims = modelViews(model).dims;
  if (dims.lists > 0) {
    report('item index');
    await pool.indexCentroids({ model, seed: p.seed });
    const assign = new SharedArrayBuffer(dims.items * 4);
    await Promise.all(
      evenRanges(dims.items, pool.threads).map(([rowStart, rowEnd]) => pool.indexAssign({ model, assign, rowStart, rowEnd })),
    );
    await pool.indexLists({ model, assign });
  }
  // After the index: item lists of an indexed catalogue come through it.
  if (lists !== undefined && lists.model !== 'popularity' && dims.userList > 0)
    report(`${lists.model === 'ease' ? 'EASE' : 'item-KNN'} on all ratings`);
  const lister = lists !== undefined && dims.userList > 0 ? await listerFor(pool, model, byUser, byItem, lists) : undefined;
  const listed = await computeLists(pool, model, byUser, byItem, prep.recent, p.userListsSeconds, cutLists, report, lister);
  return {
    model: listed.model,
    ratings: prep.ratings,
    users: prep.users,
    listed,
    loss,
    params: p,
    lists: lister && lists,
    searched,
    warm,
    seconds: (performance.now() - started) / 1000,
  };
}
