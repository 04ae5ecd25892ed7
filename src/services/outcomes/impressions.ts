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
import { pathOwner } from '../ids/request-ids.js';
import type { IdValue } from '../ids/id-types.js';
import { SHOWN, requestUser, type RecoQuery, type Shown } from '../reco/request/request.js';
import { POSITIONS } from '../../store/outcomes-scripts.js';
import { groupOf, groupParts, type OutcomeCounts } from './outcome-counts.js';

// Answers per batch at most (a direct credit reads its answer's whole batch), and how often open
// batches are written.
export const BATCH_ANSWERS = 128;
const FLUSH_MS = 200;
const DAY_MS = 86_400_000;
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

// The answer as the flows make it: its ids, and what the pager says it showed.
type Answer = { items_id: IdValue[]; [SHOWN]?: Shown };

// A database's batch being filled: its answers encoded as they come (nothing of them is held, so
// nothing is left for the collector to move), and what they count.
interface Batch {
  db: string;
  name: string;
  n: number;
  frame: LuaFrame; // the ANSWERs
  work: Work;
}

export class Impressions {
  private readonly prefix = randomBytes(6).toString('base64url');
  private made = 0;
  private readonly open = new Map<string, Batch>();
  private full: Batch[] = [];
  private waiting = 0;
  private dropped = 0; // since the last warning
  private unrecorded = 0;
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

  // The id of an answer just made, recorded with it (unless too many wait for Redis: then an id that
  // names no batch, which credits nothing).
  record(who: Viewed, answer: Answer): string {
    if (this.waiting >= WAITING_MAX) {
      this.dropped++;
      return `${this.prefix}-${(++this.unrecorded).toString(36)}`;
    }
    let b = this.open.get(who.db);
    if (b === undefined) this.open.set(who.db, (b = this.batch(who.db)));
    const id = `${b.name}.${b.n.toString(36)}`;
    this.encode(b, who, answer, id);
    b.n++;
    this.waiting++;
    if (b.n >= BATCH_ANSWERS) {
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

  // The frame starts with the array header of a full batch, set to the answers it holds when sent.
  private batch(db: string): Batch {
    const frame = new LuaFrame(BATCH_ANSWERS * 256).array(BATCH_ANSWERS);
    return { db, name: this.prefix + (++this.made).toString(36), n: 0, frame, work: new Work() };
  }

  private async write(b: Batch): Promise<void> {
    try {
      const frame = b.frame.done();
      frame.writeUInt32BE(b.n, 1); // LuaFrame's array32 header: 0xdd, then the count
      await this.store.record(b.db, b.name, frame, b.n, b.work.done(this.counts, b.db), Date.now(), this.limits);
    } catch (err) {
      this.logger.warn({ err, db: b.db, answers: b.n }, 'impressions not recorded');
    } finally {
      this.waiting -= b.n;
      if (this.dropped > 0) {
        this.logger.warn({ dropped: this.dropped }, 'impressions not recorded: too many were waiting for Redis');
        this.dropped = 0;
      }
    }
  }

  // One ANSWER (store/outcomes-scripts.ts) into the batch, and what it counts.
  private encode(b: Batch, who: Viewed, answer: Answer, id: string): void {
    const t = Date.now();
    const shown = answer[SHOWN];
    const plan = shown?.plan;
    const scenario = plan?.evaluated[0] ?? who.q.scenario ?? '';
    const arms = plan === undefined || plan.arms.length === 0 ? '' : plan.arms.map((a) => `${a.test}:${a.arm}`).join(',');
    const group = groupOf(who.recoType, scenario, arms);
    const viewer = viewerOf(who);
    const time = String(t);
    const f = b.frame;
    f.array(8)
      .string(id)
      .string(time)
      .string(group)
      .string(viewer)
      .string(who.item ?? '');
    const from = shown?.from ?? 0;
    let items: number;
    let entry = '';
    if (shown) {
      const { rows, model } = shown;
      items = rows.length;
      f.array(items);
      for (let k = 0; k < items; k++) f.string(model.itemIds[rows[k]!]!);
      if (viewer !== '' && items > 0)
        entry = shownEntry(
          id,
          time,
          from,
          group,
          rows.map((row) => model.itemIds[row]!),
        );
    } else {
      const ids = answer.items_id;
      items = ids.length;
      f.array(items);
      for (const v of ids) f.string(String(v));
      if (viewer !== '' && items > 0) entry = shownEntry(id, time, from, group, ids.map(String));
    }
    f.uint(from).string(shown?.model.meta.model_id ?? '');
    b.work.answer(Math.floor(t / DAY_MS), group, viewer, items, from, entry);
  }
}

// A viewer's shown answer as the script keeps it (store/outcomes-scripts.ts SHOWN).
const shownEntry = (id: string, time: string, from: number, group: string, items: string[]) =>
  `${id}\u001d${time}\u001d${from}\u001d${group}\u001d\u001e${items.join('\u001e')}\u001e`;

// What a batch counts, gathered as its answers are encoded (store/outcomes-scripts.ts RECORD's work):
// counters in a small map, and what each answer with a viewer adds written to a frame at once (so that
// nothing of it is held for the collector to move).
class Work {
  private readonly counters = new Map<string, { day: number; group: string; n: number[] }>();
  private readonly viewed = new LuaFrame(4096);
  private shown = 0;

  answer(day: number, group: string, viewer: string, items: number, from: number, entry: string): void {
    const key = `${day} ${group}`;
    let c = this.counters.get(key);
    if (c === undefined) this.counters.set(key, (c = { day, group, n: new Array<number>(2 + POSITIONS).fill(0) }));
    c.n[0]!++;
    c.n[1]! += items;
    for (let p = from; p < Math.min(from + items, POSITIONS); p++) c.n[2 + p]!++;
    if (viewer === '') return;
    this.viewed.array(4).uint(day).string(group).string(viewer).string(entry);
    this.shown++;
  }

  // The work's frame; the answers counted for the metrics.
  done(counts: OutcomeCounts, db: string): Buffer {
    const fields: [number, string, number][] = [];
    for (const { day, group, n } of this.counters.values()) {
      const { recoType, scenario } = groupParts(group);
      counts.answers.add({ db, reco_type: recoType, scenario }, n[0]!);
      n.forEach((count, k) => {
        if (count > 0) fields.push([day, `${group}\u001f${k === 0 ? 'a' : k === 1 ? 'i' : `p${k - 1}`}`, count]);
      });
    }
    const f = new LuaFrame(256 + fields.length * 64).array(2).array(fields.length);
    for (const [day, field, count] of fields) f.array(3).uint(day).string(field).uint(count);
    return Buffer.concat([f.array(this.shown).done(), this.viewed.done()]);
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
