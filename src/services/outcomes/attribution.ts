// Attribution: interactions are credited to the answers that led to them, off the write's path: once a
// write is stored its rows join their database's queue, and every FLUSH_MS each queue goes to Redis in
// one call (store/outcomes-scripts.ts ATTRIBUTE), which finds the answers and counts each credit once.
// A credit still queued when the process is killed is lost (the interaction itself is not: it was
// stored before it was queued).
import type { Logger } from 'pino';
import type { InteractionBatch, Owner } from '../../store/interaction-rows.js';
import { LuaFrame } from '../../store/lua.js';
import type { OutcomeLimits, OutcomesStore } from '../../store/outcomes-store.js';
import { groupParts, type OutcomeCounts } from './outcome-counts.js';

const FLUSH_MS = 200;
// Rows per call at most, and rows queued at most (past it, Redis being down or far behind, new ones are
// not credited).
const ROWS_PER_CALL = 5000;
const QUEUED_MAX = 500_000;

interface Queue {
  frames: LuaFrame[]; // full ones first, the last one filling
  rows: number; // in the last frame
}

export class Attribution {
  private queues = new Map<string, Queue>();
  private queued = 0;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly calls = new Set<Promise<void>>();

  constructor(
    private readonly store: OutcomesStore,
    private readonly limits: OutcomeLimits,
    private readonly counts: OutcomeCounts,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  // The rows of a stored write: each as its viewer, item, type, time and the answer its properties name.
  stored(db: string, owner: Owner, batch: InteractionBatch): void {
    if (this.queued + batch.rows.length > QUEUED_MAX) {
      this.dropped += batch.rows.length;
      return;
    }
    let q = this.queues.get(db);
    if (q === undefined) this.queues.set(db, (q = { frames: [], rows: 0 }));
    const tag = owner === 'user' ? 'u:' : 's:';
    for (const row of batch.rows) {
      if (q.frames.length === 0 || q.rows === ROWS_PER_CALL) {
        q.frames.push(new LuaFrame(64 * Math.min(ROWS_PER_CALL, batch.rows.length + 16)));
        q.rows = 0;
      }
      q.frames[q.frames.length - 1]!.array(5)
        .string(tag + batch.owners[row.owner]!)
        .string(batch.items[row.item]!)
        .string(row.type)
        .string(String(Math.round(row.timestamp * 1000)))
        .string(row.recommendation ?? '');
      q.rows++;
    }
    this.queued += batch.rows.length;
  }

  // Sends every queue; resolves when Redis has them (or they failed, logged).
  flush(): Promise<void> {
    const queues = this.queues;
    this.queues = new Map();
    for (const [db, q] of queues) {
      const last = q.rows;
      q.frames.forEach((frame, k) => {
        const rows = k === q.frames.length - 1 ? last : ROWS_PER_CALL;
        const call = this.send(db, frame, rows).finally(() => this.calls.delete(call));
        this.calls.add(call);
      });
    }
    return Promise.all(this.calls).then(() => undefined);
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }

  private async send(db: string, frame: LuaFrame, rows: number): Promise<void> {
    try {
      // A frame is written as rows arrive; its array header, with their number, goes in front.
      const body = frame.done();
      const head = new LuaFrame(8).array(rows).done();
      for (const c of await this.store.attribute(db, Buffer.concat([head, body]), this.limits)) {
        const { recoType, scenario } = groupParts(c.group);
        this.counts.credited.add({ db, reco_type: recoType, scenario, kind: c.kind === 'd' ? 'direct' : 'view-through', type: c.type });
      }
    } catch (err) {
      this.logger.warn({ err, db, rows }, 'interactions not credited');
    } finally {
      this.queued -= rows;
      if (this.dropped > 0) {
        this.logger.warn({ dropped: this.dropped }, 'interactions not credited: too many were waiting for Redis');
        this.dropped = 0;
      }
    }
  }
}
