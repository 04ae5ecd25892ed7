// The way interaction writes reach Redis: per database and owner kind, one script call at a time;
// writes arriving while a call is in flight wait for it and then go together in the next one (on an
// idle server a write goes at once, on the next turn of the event loop). Redis runs one script for
// many requests, and each request is still all or nothing (its rows were all checked before, and a
// batch applies atomically). Each request answers once its write is stored.
import type { Logger } from 'pino';
import { notFound } from '../errors/api-error.js';
import type { InteractionBatch, InteractionsStore, Owner } from '../store/interactions-store.js';
import type { TrainingScheduler } from '../engine/scheduler.js';
import type { ProfileCache } from './profile-cache.js';
import { feedbackWritten } from './ratings.js';

interface Queued {
  batch: InteractionBatch;
  resolve: (resolvedSessions: string[]) => void;
  reject: (err: unknown) => void;
}

interface Lane {
  queue: Queued[];
  idle: (() => void)[]; // drained() callers
}

export class InteractionLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly store: InteractionsStore,
    private readonly training: TrainingScheduler,
    private readonly profiles: ProfileCache,
    private readonly logger: Logger,
  ) {}

  // Resolves with the request's sessions that are resolved, once stored.
  write(db: string, owner: Owner, batch: InteractionBatch): Promise<string[]> {
    const key = `${owner} ${db}`;
    let lane = this.lanes.get(key);
    const start = !lane;
    if (!lane) this.lanes.set(key, (lane = { queue: [], idle: [] }));
    const promise = new Promise<string[]>((resolve, reject) => lane!.queue.push({ batch, resolve, reject }));
    if (start) setImmediate(() => void this.drain(key, db, owner, lane!));
    return promise;
  }

  // Every write queued so far stored, for shutdown.
  async drained(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => new Promise<void>((resolve) => lane.idle.push(resolve))));
  }

  private async drain(key: string, db: string, owner: Owner, lane: Lane): Promise<void> {
    while (lane.queue.length > 0) {
      const queue = lane.queue;
      lane.queue = [];
      try {
        const merged = mergeBatches(queue.map((q) => q.batch));
        const r = await this.store.add(db, owner, merged);
        if (owner === 'user') this.profiles.forget(db, merged.owners);
        if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
        await feedbackWritten(this.training, db, r.count).catch((err) => this.logger.error({ err, db }, 'retrain task not queued'));
        const resolved = new Set(r.resolved);
        for (const q of queue) q.resolve(q.batch.owners.filter((o) => resolved.has(o)));
      } catch (err) {
        for (const q of queue) q.reject(err);
      }
    }
    this.lanes.delete(key);
    for (const done of lane.idle) done();
  }
}

// One batch of several: owners and items distinct again, rows pointing into the merged lists.
function mergeBatches(batches: InteractionBatch[]): InteractionBatch {
  if (batches.length === 1) return batches[0]!;
  const owners = new Map<string, number>();
  const items = new Map<string, number>();
  const at = (map: Map<string, number>, id: string) => {
    let p = map.get(id);
    if (p === undefined) map.set(id, (p = map.size));
    return p;
  };
  const rows = batches.flatMap((b) => b.rows.map((r) => ({ ...r, owner: at(owners, b.owners[r.owner]!), item: at(items, b.items[r.item]!) })));
  return { owners: [...owners.keys()], items: [...items.keys()], rows };
}
