// Impressions: every item-list answer is recorded with what it showed, to whom, under which scenario and
// A/B arm, off the answer's path: the answer only joins its database's open batch (its id names the
// batch and its place in it), and batches go to Redis together every FLUSH_MS, pipelined, where
// store/outcomes-scripts.ts RECORD keeps them by age and count and counts them per group and day.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import type { Claims } from '../../contract/claims.js';
import type { RecoType } from '../../contract/reco-types.js';
import type { OutcomeLimits, OutcomesStore } from '../../store/outcomes-store.js';
import { LuaFrame } from '../../store/lua.js';
import { parseId, pathOwner } from '../ids/request-ids.js';
import type { IdValue } from '../ids/id-types.js';
import { SHOWN, requestUser, type RecoQuery, type Shown } from '../reco/request/request.js';
import { groupOf, type OutcomeCounts } from './outcome-counts.js';

// Answers per batch at most (a direct credit reads its answer's whole batch), and how often open
// batches are written.
export const BATCH_ANSWERS = 64;
const FLUSH_MS = 200;
// Answers waiting for Redis at most: past it (Redis down or far behind) new ones are not recorded.
const WAITING_MAX = 100_000;

// Who and what an answer was for, as its request said.
export interface Viewed {
  auth: Claims;
  db: string;
  recoType: RecoType | 'properties_to_items'; // that endpoint has no reco type of the spec's
  q: RecoQuery;
  user?: string; // the path's user (raw)
  item?: string; // the query item (raw)
}

interface Recorded {
  who: Viewed;
  answer: { items_id: IdValue[]; [SHOWN]?: Shown };
  t: number;
  id: string;
}

interface Batch {
  db: string;
  name: string;
  answers: Recorded[];
}

export class Impressions {
  private readonly prefix = randomBytes(6).toString('base64url');
  private made = 0;
  private readonly open = new Map<string, Batch>();
  private full: Batch[] = [];
  private waiting = 0;
  private dropped = 0;
  private readonly timer: NodeJS.Timeout;
  private readonly writes = new Set<Promise<void>>();

  constructor(
    private readonly store: OutcomesStore,
    private readonly limits: OutcomeLimits,
    private readonly counts: OutcomeCounts,
    private readonly logger: Logger,
  ) {
    this.timer = setInterval(() => this.flush(), FLUSH_MS);
    this.timer.unref();
  }

  // The id of an answer just made, recorded with it (unless too many wait for Redis: then an id of a
  // batch that is never written, which credits nothing).
  record(who: Viewed, answer: Recorded['answer']): string {
    let b = this.open.get(who.db);
    if (b === undefined) this.open.set(who.db, (b = { db: who.db, name: this.prefix + (++this.made).toString(36), answers: [] }));
    const id = `${b.name}.${b.answers.length.toString(36)}`;
    if (this.waiting >= WAITING_MAX) {
      this.dropped++;
      return id;
    }
    b.answers.push({ who, answer, t: Date.now(), id });
    this.waiting++;
    if (b.answers.length >= BATCH_ANSWERS) {
      this.open.delete(who.db);
      this.full.push(b);
    }
    return id;
  }

  // Writes every batch, open or full; resolves when they are in Redis (or failed, logged).
  flush(): Promise<void> {
    const out = this.full;
    this.full = [];
    for (const b of this.open.values()) out.push(b);
    this.open.clear();
    for (const b of out) {
      const w = this.write(b).finally(() => this.writes.delete(w));
      this.writes.add(w);
    }
    return Promise.all(this.writes).then(() => undefined);
  }

  stop(): Promise<void> {
    clearInterval(this.timer);
    return this.flush();
  }

  private async write(b: Batch): Promise<void> {
    const now = Date.now();
    try {
      const frame = new LuaFrame(256 + b.answers.length * 256).array(b.answers.length);
      for (const a of b.answers) this.encode(frame, a);
      await this.store.record(b.db, b.name, frame.done(), now, this.limits);
    } catch (err) {
      this.logger.warn({ err, db: b.db, answers: b.answers.length }, 'impressions not recorded');
    } finally {
      this.waiting -= b.answers.length;
      if (this.dropped > 0) {
        this.logger.warn({ dropped: this.dropped }, 'impressions not recorded: too many were waiting for Redis');
        this.dropped = 0;
      }
    }
  }

  // One ANSWER (store/outcomes-scripts.ts), counted for the metrics.
  private encode(f: LuaFrame, { who, answer, t, id }: Recorded): void {
    const shown = answer[SHOWN];
    const scenario = shown?.plan.evaluated[0] ?? who.q.scenario ?? '';
    const arms = shown ? shown.plan.arms.map((a) => `${a.test}:${a.arm}`).join(',') : '';
    this.counts.answers.add({ db: who.db, reco_type: who.recoType, scenario });
    f.array(8)
      .string(id)
      .string(String(t))
      .string(groupOf(who.recoType, scenario, arms))
      .string(viewerOf(who));
    f.string(who.item === undefined ? '' : quietly(() => parseId(who.auth, 'item', who.item, false).key));
    if (shown) {
      f.array(shown.rows.length);
      for (const row of shown.rows) f.string(shown.model.itemIds[row]!);
    } else {
      f.array(answer.items_id.length);
      for (const v of answer.items_id) f.string(String(v));
    }
    f.uint(shown?.from ?? 0).string(shown?.model.meta.model_id ?? '');
  }
}

// "u:<user id>" or "s:<session id>" of whom the answer was shown to, '' when nobody is known: the path's
// user, else the request's user_id, else a frontend token's own user or session.
function viewerOf(who: Viewed): string {
  const user =
    who.user !== undefined
      ? quietly(() => pathOwner(who.auth, 'user', who.user!, false).key)
      : quietly(() => requestUser(who.auth, who.q) ?? '');
  if (user !== '') return `u:${user}`;
  if (who.auth.fuid !== undefined) return `u:${who.auth.fuid}`;
  return who.auth.fsid !== undefined ? `s:${who.auth.fsid}` : '';
}

// An id the request had already checked (else it would not have been answered); '' should it not parse.
function quietly(read: () => string): string {
  try {
    return read();
  } catch {
    return '';
  }
}
