// One ALS training run coordinated from the main thread: every step is a pool task over shared
// buffers, each half-step and the neighbour pass split into one row range per thread.
import type { Csr } from '../../../native-free-kernels/csr.js';
import { sumTo } from '../../../native-free-kernels/linalg.js';
import { modelViews } from '../model/layout.js';
import type { LogEntry, Snapshot } from './ratings-replay.js';
import type { TrainingPool } from './pool.js';
import type { AlsParams } from './tasks.js';
import { computeLists, type Listed } from './lists.js';
import { evenRanges, ranges } from './ranges.js';

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
  seconds: number;
}

export class NoRatingsError extends Error {
  constructor() {
    super('no ratings to train on');
  }
}

export async function trainAls(pool: TrainingPool, input: TrainInput, p: AlsParams, progress: (text: string) => void): Promise<Trained> {
  const started = performance.now();
  const prep = await pool.prepare({ ...input, params: p, now: Date.now() / 1000 });
  if (prep.ratings === 0) throw new NoRatingsError();
  const { model, byUser, byItem } = prep;
  const dims = modelViews(model).dims;
  const f = dims.factors;
  const gram = new SharedArrayBuffer(f * f * 8);
  const split = (rows: number, m: Csr) => ranges(rows, m, pool.threads, f);
  const userParts = split(dims.users, byUser);
  const itemParts = split(dims.items, byItem);
  // The Gram matrix of one side as the sum of one part per thread.
  const parts = Array.from({ length: pool.threads }, () => new SharedArrayBuffer(f * f * 8));
  const gramOf = async (side: 'users' | 'items') => {
    const rows = evenRanges(side === 'users' ? dims.users : dims.items, pool.threads);
    await Promise.all(rows.map(([rowStart, rowEnd], k) => pool.gram({ model, side, rowStart, rowEnd, dst: parts[k]! })));
    sumTo(new Float64Array(gram), rows.map((_, k) => new Float64Array(parts[k]!)));
  };
  for (let it = 1; it <= p.iterations; it++) {
    progress(`iteration ${it}/${p.iterations}`);
    await gramOf('items');
    await Promise.all(userParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'users', m: byUser, gram, rowStart, rowEnd, params: p })));
    await gramOf('users');
    await Promise.all(itemParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'items', m: byItem, gram, rowStart, rowEnd, params: p })));
  }
  // The loop ends on the items' half-step: one more of the users' makes their factors the best
  // fit to the final item factors, which is what folding a user's ratings in gives (serving ranks
  // users unchanged since training by these factors).
  await gramOf('items');
  await Promise.all(userParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'users', m: byUser, gram, rowStart, rowEnd, params: p })));
  progress('finishing');
  const { loss } = await pool.finish({ model, byUser, params: p });
  if (dims.lists > 0) {
    progress('item index');
    await pool.indexCentroids({ model, seed: p.seed });
    const assign = new SharedArrayBuffer(dims.items * 4);
    await Promise.all(evenRanges(dims.items, pool.threads).map(([rowStart, rowEnd]) => pool.indexAssign({ model, assign, rowStart, rowEnd })));
    await pool.indexLists({ model, assign });
  }
  // After the index: item lists of an indexed catalogue come through it.
  const listed = await computeLists(pool, model, byUser, prep.recent, p.userListsSeconds, progress);
  return { model, snapshot: prep.snapshot, ratings: prep.ratings, users: prep.users, listed, loss, seconds: (performance.now() - started) / 1000 };
}
