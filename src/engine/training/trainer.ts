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

export interface TrainInput {
  snapshot: Snapshot | undefined;
  log: LogEntry[];
  users: number;
  items: number;
}

export interface Trained {
  model: SharedArrayBuffer;
  snapshot: Snapshot;
  ratings: number;
  users: number; // with ratings
  listed: Listed;
  loss: number;
  params: AlsParams; // base, or what the search chose
  searched: Searched | undefined;
  seconds: number;
}

export class NoRatingsError extends Error {
  constructor() {
    super('no ratings to train on');
  }
}

export async function trainAls(pool: TrainingPool, input: TrainInput, base: AlsParams, progress: (text: string) => void, search?: SearchOptions & { due: (ratings: number) => boolean }): Promise<Trained> {
  const started = performance.now();
  const prep = await pool.prepare({ ...input, params: base, now: Date.now() / 1000 });
  if (prep.ratings === 0) throw new NoRatingsError();
  const { byUser, byItem } = prep;
  let model = prep.model;
  let p = base;
  let searched: Searched | undefined;
  if (search?.due(prep.ratings)) {
    searched = await searchParams(pool, byUser, base, search, progress);
    p = searched.params;
    if (p.factors !== base.factors) model = await pool.refactor({ model, factors: p.factors, seed: p.seed });
  }
  if (p.ratingShift !== 0 || p.ratingFloor !== 0) {
    await Promise.all([byUser, byItem].map((m) => pool.confidence({ m, shift: p.ratingShift, floor: p.ratingFloor, inPlace: true })));
  }
  await fitFactors(pool, model, byUser, byItem, p, (it) => progress(`iteration ${it}/${p.iterations}`));
  progress('finishing');
  const { loss } = await pool.finish({ model, byUser, params: p });
  const dims = modelViews(model).dims;
  if (dims.lists > 0) {
    progress('item index');
    await pool.indexCentroids({ model, seed: p.seed });
    const assign = new SharedArrayBuffer(dims.items * 4);
    await Promise.all(evenRanges(dims.items, pool.threads).map(([rowStart, rowEnd]) => pool.indexAssign({ model, assign, rowStart, rowEnd })));
    await pool.indexLists({ model, assign });
  }
  // After the index: item lists of an indexed catalogue come through it.
  const listed = await computeLists(pool, model, byUser, prep.recent, p.userListsSeconds, progress);
  return { model, snapshot: prep.snapshot, ratings: prep.ratings, users: prep.users, listed, loss, params: p, searched, seconds: (performance.now() - started) / 1000 };
}
