// The way interaction writes reach Redis: per database and owner kind, one script call at a time;
// writes arriving while a call is in flight wait for it and then go together in the next one (on an
// idle server a write goes at once, on the next turn of the event loop). Redis runs one script for
// many requests, and each request is still all or nothing (its rows were all checked before, and a
// batch applies atomically). Each request answers once its write is stored.
//
// This is the hot path of single-interaction POSTs: a request's rows join the lane's next batch as
// they arrive (owners and items numbered once per batch, no merge step), and the request's promise
// resolves straight to its answer.
//
// A request answers 503 once it has waited the Redis command timeout, counted from when it joined
// the lane (not per call: a request queued behind a call that times out would otherwise wait twice).
// Batches not sent yet when a call times out fail at once, and a batch all of whose requests have
// been answered 503 is never sent: for those, 503 means "not applied". A batch already sent may still
// be applied when Redis answers, which an Idempotency-Key makes safe to retry. A write with a key
// goes in a batch of its own, since the script applies or skips a whole batch by its key.
import type { Logger } from 'pino';
import { notFound } from '../../errors/api-error.js';
import type { InteractionBatch, InteractionRow, Owner } from '../../store/interaction-rows.js';
import type { Idempotency, InteractionsStore } from '../../store/interactions-store.js';
import { isTimeout, withinDeadline } from '../../store/redis.js';
import type { TrainingScheduler } from '../../engine/training/scheduler.js';
import type { FeedbackChanges } from './feedback-changes.js';
import { retrainOnFeedback } from '../../engine/training/retrain-on-feedback.js';

// What a stored write answers from: the request's sessions that are resolved, and whether its
// Idempotency-Key had been applied before (the write was not applied again).
export type WriteAnswer<T> = (resolvedSessions: string[], repeated: boolean) => T;

interface Waiter {
  owners: string[]; // the request's own owners, for telling it which of its sessions are resolved
  answer: WriteAnswer<unknown>;
  resolve: (answer: unknown) => void;
  reject: (err: unknown) => void;
  gone: boolean; // answered 503 for waiting too long
}

// A batch of a lane, filled as requests arrive until it is sent.
class Pending {
  readonly owners = new Map<string, number>();
  readonly items = new Map<string, number>();
  readonly rows: InteractionRow[] = [];
  readonly waiters: Waiter[] = [];

  constructor(readonly once: Idempotency | undefined) {}

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
  queue: Pending[]; // batches not sent yet, in arrival order; only the last one takes more requests
  idle: (() => void)[]; // drained() callers
}

function position(map: Map<string, number>, id: string): number {
  let p = map.get(id);
  if (p === undefined) map.set(id, (p = map.size));
  return p;
}

export class InteractionLanes {
  private readonly lanes = new Map<string, Lane>();
  // Told of every batch once stored (not of one an Idempotency-Key had applied before): attribution.
  onStored: ((db: string, owner: Owner, batch: InteractionBatch) => void) | undefined;

  constructor(
    private readonly store: InteractionsStore,
    private readonly training: TrainingScheduler,
    private readonly changes: FeedbackChanges,
    private readonly logger: Logger,
    private readonly idempotencyTtlSeconds: number,
  ) {}

  // Resolves, once stored, with what `answer` makes of the request's sessions that are resolved.
  // idempotencyKey: the request's Idempotency-Key, if it has one; waitMs: how long it may wait.
  write<T>(
    db: string,
    owner: Owner,
    batch: InteractionBatch,
    answer: WriteAnswer<T>,
    idempotencyKey: string | undefined,
    waitMs: number,
  ): Promise<T> {
    const once: Idempotency | undefined =
      idempotencyKey === undefined ? undefined : { key: idempotencyKey, ttlSeconds: this.idempotencyTtlSeconds };
    const key = owner === 'user' ? `u${db}` : `s${db}`;
    let lane = this.lanes.get(key);
    const start = !lane;
    if (!lane) this.lanes.set(key, (lane = { queue: [], idle: [] }));
    let next = lane.queue[lane.queue.length - 1];
    if (!next || next.once || once) lane.queue.push((next = new Pending(once)));
    next.add(batch);
    let waiter: Waiter;
    const promise = new Promise<T>((resolve, reject) => {
      waiter = { owners: batch.owners, answer, resolve: resolve as (a: unknown) => void, reject, gone: false };
      next.waiters.push(waiter);
    });
    if (start) setImmediate(() => void this.drain(key, db, owner, lane!));
    return withinDeadline(promise, waitMs, () => (waiter.gone = true));
  }

  // Every write queued so far stored, for shutdown.
  async drained(): Promise<void> {
    await Promise.all([...this.lanes.values()].map((lane) => new Promise<void>((resolve) => lane.idle.push(resolve))));
  }

  private async drain(key: string, db: string, owner: Owner, lane: Lane): Promise<void> {
    for (let current = lane.queue.shift(); current; current = lane.queue.shift()) {
      if (current.waiters.every((w) => w.gone)) continue; // every request of it answered 503 already
      try {
        const batch = current.batch();
        const r = await this.store.add(db, owner, batch, current.once);
        if (r.kind === 'no-database') throw notFound('DATABASE_NOT_FOUND', 'database', db);
        if (r.kind === 'repeated') {
          for (const w of current.waiters) w.resolve(w.answer(NONE, true));
          continue;
        }
        if (owner === 'user') this.changes.wrote(db, batch.owners);
        this.onStored?.(db, owner, batch);
        await retrainOnFeedback(this.training, db, r.count).catch((err) => this.logger.error({ err, db }, 'retrain task not queued'));
        const resolved = r.resolved.length === 0 ? undefined : new Set(r.resolved);
        for (const w of current.waiters) w.resolve(w.answer(resolved ? w.owners.filter((o) => resolved.has(o)) : NONE, false));
      } catch (err) {
        for (const w of current.waiters) w.reject(err);
        // Redis did not answer a call for a whole timeout: the batches queued meanwhile would only wait
        // behind it in a stalled connection, so they fail now, unsent (503, not applied).
        if (isTimeout(err)) for (const queued of lane.queue.splice(0)) for (const w of queued.waiters) w.reject(err);
      }
    }
    this.lanes.delete(key);
    for (const done of lane.idle) done();
  }
}

const NONE: string[] = [];
