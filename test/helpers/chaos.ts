// The workload of the chaos tests (test/chaos/): writers that record every answer with the time it
// came, and read back which acknowledged writes are missing (the processes they run against:
// chaos-processes.ts).
import { Encoder } from '@msgpack/msgpack';
import type { Test } from 'tap';
import type { Api, Res } from './api.js';
import { WAIT_MS, type RecdProcess } from './chaos-processes.js';
import { until } from './cli.js';
import { uid, walkPages } from './feedback.js';
import { createDatabase, rootToken, tokenFor } from './fixtures.js';

// What a write stored, as the read-back finds it.
export type Fact =
  | { kind: 'rating'; user: string; item: number; rating: number }
  | { kind: 'interaction'; user: string; item: number; timestamp: number }
  | { kind: 'item'; item: number; n: number };

export interface Acked {
  writer: string;
  facts: Fact[];
  sentAt: number;
  ackedAt: number; // when the 2xx answer arrived (ms since the epoch)
}

// Every answer the writers got: acknowledged writes with their times, answers that are neither 2xx
// nor 503 (with their bodies), and requests that got no answer (refused or cut connections).
export class WriteLog {
  readonly acked: Acked[] = [];
  readonly unexpected: { writer: string; status: number; body: string }[] = [];
  readonly statuses = new Map<string, number>(); // status or error code → count
  private readonly unavailable = new Map<string, number>(); // writer → 503 answers
  readonly inFlight = new Map<string, number>(); // writer → when its request in flight was sent
  slowest503 = 0; // the longest a 503 answer took (ms)

  private count(what: string): void {
    this.statuses.set(what, (this.statuses.get(what) ?? 0) + 1);
  }

  // Sends one request, a write with the facts it stores or a read (no facts); true when answered 2xx.
  async send(writer: string, facts: Fact[] | undefined, call: () => Promise<Res>): Promise<boolean> {
    const sentAt = Date.now();
    let r: Res;
    this.inFlight.set(writer, sentAt);
    try {
      r = await call();
    } catch (err) {
      const e = err as NodeJS.ErrnoException;
      this.count(e.code ?? e.message);
      return false;
    } finally {
      this.inFlight.delete(writer);
    }
    this.count(String(r.status));
    if (r.status >= 200 && r.status < 300) {
      if (facts) this.acked.push({ writer, facts, sentAt, ackedAt: Date.now() });
      return true;
    }
    if (r.status === 503) {
      this.unavailable.set(writer, this.unavailableTo(writer) + 1);
      this.slowest503 = Math.max(this.slowest503, Date.now() - sentAt);
    } else {
      this.unexpected.push({ writer, status: r.status, body: r.text.slice(0, 500) });
    }
    return false;
  }

  unavailableTo(writer: string): number {
    return this.unavailable.get(writer) ?? 0;
  }

  ackedBy(writer: string): number {
    return this.acked.filter((a) => a.writer === writer).length;
  }

  // Codes of requests that got no answer other than the connection errors a killed server causes.
  strangeErrors(): string[] {
    return [...this.statuses.keys()].filter((s) => !/^\d+$/.test(s) && !CONNECTION_ERRORS.has(s));
  }
}

const CONNECTION_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'socket hang up']);

const RATINGS_PER_BULK = 200;
const ROWS_PER_BULK = 100;
const ITEMS_PER_BULK = 100;
const T0 = 1_700_000_000;
const PACE_MS = 20;
const msgpack = new Encoder();
const MSGPACK = { 'content-type': 'application/msgpack', accept: 'application/msgpack' };

// The reader goes round listings and single reads (of what `prepare` wrote), for their answers.
const READER = 'reads';
const READ_USER = uid(1);
const READ_ITEM = 1;
const READS: ((api: Api, o: { token: string }) => Promise<Res>)[] = [
  (api, o) => api.get(`users/${READ_USER}/ratings/`, o),
  (api, o) => api.get('ratings-bulk/', { ...o, query: 'amt=100' }),
  (api, o) => api.get(`items/${READ_ITEM}/properties/`, o),
  (api, o) => api.get('items-bulk/properties/', { ...o, query: 'amt=50&filters=n:gte:10' }),
  (api, o) => api.post('items-bulk/properties/list/', { items_id: [READ_ITEM, 1_000_000, 2_000_000] }, o),
  (api, o) => api.get(`users/${READ_USER}/interactions-bulk/`, o),
  (api, o) => api.get('interactions-bulk/', { ...o, query: 'amt=100' }),
  (api, o) => api.get('databases/current/status/', o),
];

// Writers: each sends one request at a time until stopped, every request with data no other request
// has (its own users, items or timestamps), so a read-back tells exactly which ones are stored.
// Users of ratings and of interactions are apart: interactions also set inferred ratings. A reader
// runs beside them.
export class Workload {
  readonly log = new WriteLog();
  private running: Promise<void>[] = [];
  private stopped = false;

  private constructor(
    readonly api: Api,
    readonly token: string,
  ) {}

  // A database with an integer item property and a backend account on it.
  static async prepare(api: Api): Promise<Workload> {
    const root = await rootToken(api);
    const db = await createDatabase(api, root, { item_id_type: 'uint32', user_id_type: 'uuid' });
    const token = await tokenFor(api, root, 'backend', db);
    const def = await api.post('items-properties/', { property_name: 'n', value_type: 'int32' }, { token });
    if (def.status !== 204) throw new Error(`property definition: ${def.status} ${def.text}`);
    for (const r of [
      await api.put(`items/${READ_ITEM}/properties/`, { item: { n: 1 } }, { token }),
      await api.put(`users/${READ_USER}/ratings/${READ_ITEM}/`, { rating: 5, timestamp: T0 }, { token }),
      await api.post(`users/${READ_USER}/interactions/${READ_ITEM}/`, { interaction_type: 'view', timestamp: T0 }, { token }),
    ]) {
      if (r.status >= 300) throw new Error(`what the reader reads: ${r.status} ${r.text}`);
    }
    return new Workload(api, token);
  }

  static readonly WRITERS = [
    'ratings-bulk json',
    'ratings-bulk msgpack',
    'rating',
    'interactions-bulk',
    'interaction',
    'items-bulk',
    'item',
  ] as const;

  start(): void {
    const o = { token: this.token };
    const api = this.api;
    const loop = (writer: string, next: (k: number) => { facts?: Fact[]; call: () => Promise<Res> }) =>
      (async () => {
        // A request without a 2xx answer is sent again, as a client would: a write cut half-way
        // must not stand in the way of the same write done again.
        for (let k = 0, w = next(0); !this.stopped; ) {
          const acked = await this.log.send(writer, w.facts, w.call);
          if (acked) w = next(++k);
          // A writer that got no answer waits a little, so a killed server is not hammered while it
          // starts; one that did waits less, so the amount written (and read back) stays bounded.
          await new Promise((r) => setTimeout(r, acked ? PACE_MS : 20));
        }
      })();
    const ratingRows = (base: number, k: number) =>
      Array.from({ length: RATINGS_PER_BULK }, (_, i) => ({
        user_id: uid(base + k),
        item_id: i + 1,
        rating: ((k * 7 + i) % 10) + 1,
        timestamp: T0 + k,
      }));
    const ratingFacts = (rows: ReturnType<typeof ratingRows>): Fact[] =>
      rows.map((r) => ({ kind: 'rating', user: r.user_id, item: r.item_id, rating: r.rating }));
    this.running = [
      loop('ratings-bulk json', (k) => {
        const rows = ratingRows(1_000_000, k);
        return { facts: ratingFacts(rows), call: () => api.put('ratings-bulk/', { ratings: rows }, o) };
      }),
      loop('ratings-bulk msgpack', (k) => {
        const rows = ratingRows(2_000_000, k);
        const raw = Buffer.from(msgpack.encode({ ratings: rows }));
        return { facts: ratingFacts(rows), call: () => api.call('PUT', 'ratings-bulk/', { ...o, raw, headers: MSGPACK }) };
      }),
      loop('rating', (k) => {
        const user = uid(3_000_000 + Math.floor(k / 50));
        const item = (k % 50) + 1;
        const rating = (k % 10) + 1;
        return {
          facts: [{ kind: 'rating', user, item, rating }],
          call: () => api.put(`users/${user}/ratings/${item}/`, { rating, timestamp: T0 + k }, o),
        };
      }),
      loop('interactions-bulk', (k) => {
        const rows = Array.from({ length: ROWS_PER_BULK }, (_, i) => ({
          user_id: uid(4_000_000 + (i % 10)),
          item_id: i + 1,
          interaction_type: 'view',
          timestamp: T0 + k * ROWS_PER_BULK + i,
        }));
        return {
          facts: rows.map((r) => ({ kind: 'interaction', user: r.user_id, item: r.item_id, timestamp: r.timestamp })),
          call: () => api.post('interactions-bulk/', { interactions: rows }, o),
        };
      }),
      loop('interaction', (k) => {
        const user = uid(5_000_000 + (k % 10));
        const item = (k % 97) + 1;
        const timestamp = T0 + k;
        return {
          facts: [{ kind: 'interaction', user, item, timestamp }],
          call: () => api.post(`users/${user}/interactions/${item}/`, { interaction_type: 'click', timestamp }, o),
        };
      }),
      loop('items-bulk', (k) => {
        const items = Array.from({ length: ITEMS_PER_BULK }, (_, i) => ({
          item_id: 1_000_000 + k * ITEMS_PER_BULK + i,
          n: k * ITEMS_PER_BULK + i,
        }));
        return {
          facts: items.map((i) => ({ kind: 'item', item: i.item_id, n: i.n })),
          call: () => api.put('items-bulk/properties/', { items }, o),
        };
      }),
      loop('item', (k) => {
        const item = 2_000_000 + k;
        return { facts: [{ kind: 'item', item, n: k }], call: () => api.put(`items/${item}/properties/`, { item: { n: k } }, o) };
      }),
      loop(READER, (k) => ({ call: () => READS[k % READS.length]!(api, o) })),
    ];
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.all(this.running);
  }

  // Resolves once every writer has had `n` more writes acknowledged than it had when called.
  async progress(n: number, ms = WAIT_MS): Promise<void> {
    const from = new Map(Workload.WRITERS.map((w) => [w, this.log.ackedBy(w)]));
    await until(
      `${n} acknowledged writes of every writer`,
      () => Workload.WRITERS.every((w) => this.log.ackedBy(w) >= from.get(w)! + n),
      ms,
    );
  }

  // Resolves once most writers have a request in flight: the moment for a kill.
  async midStream(ms = WAIT_MS): Promise<void> {
    const most = Math.ceil(Workload.WRITERS.length / 2);
    await until('writers with requests in flight', () => Workload.WRITERS.filter((w) => this.log.inFlight.has(w)).length >= most, ms);
  }

  // Resolves once, since called, every writer and the reader were answered 503 (some reads are
  // answered from memory while Redis is away).
  async unavailable(ms = WAIT_MS): Promise<void> {
    const wanted = new Map<string, number>([...Workload.WRITERS, READER].map((w) => [w, this.log.unavailableTo(w) + 1]));
    const short = () =>
      [...wanted].filter(([w, n]) => this.log.unavailableTo(w) < n).map(([w, n]) => `${w}: ${this.log.unavailableTo(w)} of ${n}`);
    await until('503 answers to every writer and read', () => short().length === 0, ms).catch((err: Error) => {
      const waiting = [...this.log.inFlight].map(([w, at]) => `${w} for ${Date.now() - at} ms`);
      throw new Error(
        `${err.message} (short: ${short().join(', ')}; waiting: ${waiting.join(', ') || 'none'}; answers: ${summary(this.log)})`,
      );
    });
  }

  // The acknowledged writes of which something is not stored, read back through `api` (a recd on
  // the same Redis), each with the facts that are missing.
  async missing(api: Api = this.api): Promise<{ write: Acked; lost: Fact[] }[]> {
    const ratings = new Map<string, number>();
    for (const r of (await walkPages(api, this.token, 'ratings-bulk/', 'ratings', { amt: 16384 })).rows)
      ratings.set(`${r.user_id}|${r.item_id}`, r.rating);
    const interactions = new Set<string>();
    for (const i of (await walkPages(api, this.token, 'interactions-bulk/', 'interactions', { amt: 16384 })).rows)
      interactions.add(`${i.user_id}|${i.item_id}|${i.timestamp}`);
    const items = new Map<number, number>();
    for (const i of (await walkPages(api, this.token, 'items-bulk/properties/', 'items', { amt: 500 })).rows) items.set(i.item_id, i.n);
    const stored = (f: Fact) =>
      f.kind === 'rating'
        ? ratings.get(`${f.user}|${f.item}`) === f.rating
        : f.kind === 'interaction'
          ? interactions.has(`${f.user}|${f.item}|${f.timestamp}`)
          : items.get(f.item) === f.n;
    return this.log.acked.map((write) => ({ write, lost: write.facts.filter((f) => !stored(f)) })).filter((m) => m.lost.length > 0);
  }
}

// A Redis outage that may lose writes: what Redis held from `lossFrom` on may be gone, and Redis was
// gone by `goneAt` (requests sent later never reached the Redis that lost them).
export interface Loss {
  lossFrom: number;
  goneAt: number;
}

// How long before the loss began an acknowledged write was acknowledged, for the first loss it was
// exposed to (negative: acknowledged after it began); undefined when none could have taken it.
export function exposure(a: Acked, losses: Loss[]): number | undefined {
  const loss = losses.find((l) => a.sentAt < l.goneAt);
  return loss && loss.lossFrom - a.ackedAt;
}

// Every answer was a 2xx or a 503. A failure names what recd logged first: CI keeps only a few lines
// after a failing assertion, and the rest follows as a comment.
export function answeredAsExpected(t: Test, log: WriteLog, recd: RecdProcess): void {
  const logged = log.unexpected.length > 0 ? recd.errors() : [];
  t.same(
    log.unexpected,
    [],
    logged.length > 0 ? `every answer is 2xx or 503; recd logged first: ${logged[0]}` : 'every answer is 2xx or 503',
  );
  if (logged.length > 1) t.comment(`recd logged:\n${logged.join('\n')}`);
}

// A readable summary of what the writers got, for the test's comments and failure messages.
export function summary(log: WriteLog): string {
  const slowest = log.slowest503 > 0 ? ` (the slowest 503 took ${log.slowest503} ms)` : '';
  return [...log.statuses].map(([s, n]) => `${s}: ${n}`).join(', ') + slowest;
}
