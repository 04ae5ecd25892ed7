// The way interaction writes reach Redis: per database and owner kind, one script call at a time;
// writes arriving while a call is in flight wait for it and then go together in the next one (on an
// idle server a write goes at once, on the next turn of the event loop). Redis runs one script for
// many requests, and each request is still all or nothing (its rows were all checked before, and a
// batch applies atomically). Each request answers once its write is stored.
//
// This is the hot path of single-interaction POSTs: a request's rows join the lane's next batch as
// they arrive (owners and items numbered once per batch, no merge step), and the request's promise
// resolves straight to its answer.
import type { Logger } from 'pino';
import { notFound } from '../../errors/api-error.js';
import type { InteractionBatch, InteractionRow, Owner } from '../../store/interaction-rows.js';
import type { InteractionsStore } from '../../store/interactions-store.js';
import type { TrainingScheduler } from '../../engine/training/scheduler.js';
import type { FeedbackChanges } from './feedback-changes.js';
import { feedbackWritten } from './ratings.js';

interface Waiter {
  owners: string[]; // the request's own owners, for telling it which of its sessions are resolved
  answer: (resolvedSessions: string[]) => unknown;
  resolve: (answer: unknown) => void;
  reject: (err: unknown) => void;
}

// The next batch of a lane, filled as requests arrive.
class Pending {
  readonly owners = new Map<string, number>();
  readonly items = new Map<string, number>();
  readonly rows: InteractionRow[] = [];
  readonly waiters: Waiter[] = [];

  add(batch: InteractionBatch): void {
    const owners = batch.owners.map((o) => position(this.owners, o));
    const items = batch.items.map((i) => position(this.items, i));
    for (const row of batch.rows) {
      // The rows are the request's own: renumbered in place into the lane's lists.
      row.owner = owners[row.owner]!;
      row.item = items[row.item]!;
      this.rows.push(row);
    }
  }

  batch(): InteractionBatch {
    return { owners: [...this.owners.keys()], items: [...this.items.keys()], rows: this.rows };
  }
}

interface Lane {
  next: Pending;
  idle: (() => void)[]; // drained() callers
}

function position(map: Map<string, number>, id: string): number {
  let p = map.get(id);
  if (p === undefined) map.set(id, (p = map.size));
  return p;
}

export class InteractionLanes {
  private readonly lanes = new Map<string, Lane>();

  constructor(
    private readonly store: InteractionsStore,
    private readonly training: TrainingScheduler,
    private readonly changes: FeedbackChanges,
    private readonly logger: Logger,
  ) {}

  // Resolves, once stored, with what `answer` makes of the request's sessions that are resolved.
  write<T>(db: string, owner: Owner, batch: InteractionBatch, answer: (resolvedSessions: string[]) => T): Promise<T> {
    const key = owner === 'user' ? `u${db}` : `s${db}`;
    let lane = this.lanes.get(key);
    const start = !lane;
    if (!lane) this.lanes.set(key, (lane = { next: new Pending(), idle: [] }));
    const next = lane.next;
    next.add(batch);
    const promise = new Promise<T>((resolve, reject) => {
      next.waiters.push({ owners: batch.owners, answer, resolve: resolve as (a: unknown) => void, reject });
    });
    if (start) setImmediate(() => void this.drain(key, db, owner, lane!));
    return promise;
  }

  // Every write queued so far stored, for shutdown.
  async drained(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => new Promise<void>((resolve) => lane.idle.push(resolve))));
  }

  private async drain(key: string, db: string, owner: Owner, lane: Lane): Promise<void> {
    while (lane.next.waiters.length > 0) {
      const current = lane.next;
      lane.next = new Pending();
      try {
        const batch = current.batch();
        const r = await this.store.add(db, owner, batch);
        if (owner === 'user') this.changes.wrote(db, batch.owners);
        if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
        await feedbackWritten(this.training, db, r.count).catch((err) => this.logger.error({ err, db }, 'retrain task not queued'));
        const resolved = r.resolved.length === 0 ? undefined : new Set(r.resolved);
        for (const w of current.waiters) w.resolve(w.answer(resolved ? w.owners.filter((o) => resolved.has(o)) : NONE));
      } catch (err) {
        for (const w of current.waiters) w.reject(err);
      }
    }
    this.lanes.delete(key);
    for (const done of lane.idle) done();
  }
}

const NONE: string[] = [];
