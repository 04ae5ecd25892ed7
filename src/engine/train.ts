// One ALS training run coordinated from the main thread: every step is a pool task over shared
// buffers, each half-step and the neighbour pass split into one row range per thread.
import type { Csr } from '../../native-free-kernels/csr.js';
import { modelViews } from './layout.js';
import type { LogEntry, Snapshot } from './ratings-replay.js';
import type { TrainingPool } from './training-pool.js';
import type { AlsParams } from './workers/training.js';

export type { AlsParams };

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
  const gram = new SharedArrayBuffer(dims.factors * dims.factors * 8);
  const split = (rows: number, m: Csr) => ranges(rows, m, pool.threads);
  const userParts = split(dims.users, byUser);
  const itemParts = split(dims.items, byItem);
  for (let it = 1; it <= p.iterations; it++) {
    progress(`iteration ${it}/${p.iterations}`);
    await pool.gram({ model, side: 'items', dst: gram });
    await Promise.all(userParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'users', m: byUser, gram, rowStart, rowEnd, params: p })));
    await pool.gram({ model, side: 'users', dst: gram });
    await Promise.all(itemParts.map(([rowStart, rowEnd]) => pool.halfStep({ model, side: 'items', m: byItem, gram, rowStart, rowEnd, params: p })));
  }
  progress('neighbours');
  const { loss } = await pool.finish({ model, byUser, params: p });
  if (dims.neighbours > 0) {
    const parts = evenRanges(dims.items, pool.threads);
    await Promise.all(parts.map(([rowStart, rowEnd]) => pool.neighbours({ model, rowStart, rowEnd })));
  }
  return { model, snapshot: prep.snapshot, ratings: prep.ratings, users: prep.users, loss, seconds: (performance.now() - started) / 1000 };
}

// Row ranges of about equal work (nonzeros plus a per-row share), one per thread.
function ranges(rows: number, m: Csr, parts: number): [number, number][] {
  const total = m.indptr[rows]! + rows;
  const out: [number, number][] = [];
  let start = 0;
  for (let k = 1; k <= parts && start < rows; k++) {
    let end = start;
    const goal = (total * k) / parts;
    while (end < rows && m.indptr[end]! + end < goal) end++;
    if (k === parts) end = rows;
    if (end > start) out.push([start, end]);
    start = end;
  }
  return out;
}

// Row ranges of equal size, one per thread.
export function evenRanges(rows: number, parts: number): [number, number][] {
  const out: [number, number][] = [];
  for (let k = 0; k < parts; k++) {
    const a = Math.floor((rows * k) / parts), b = Math.floor((rows * (k + 1)) / parts);
    if (b > a) out.push([a, b]);
  }
  return out;
}
