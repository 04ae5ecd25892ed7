// Interactions of users and anonymous sessions, their resolution to users, and the inferred ratings
// they make. Each request is one Lua call, so it is applied entirely or not at all.
//
// Storage: the rows of a request are stored as chunks of at most CHUNK_ROWS rows, each one field of
// a hash (per owner kind) under a sequence number, in the order they arrive; each user or session
// keeps a list of references ("<chunk> <row>") to its rows. So an interaction costs Redis one list
// entry and its share of one hash write (rather than entries in two streams), and is stored once.
// A chunk is a LuaFrame [owners, items, rows: owner position, item position, type, timestamp,
// properties or '', rating, 'r' or 'm'] with positions into its own lists. Forgetting an owner
// blanks its rows in place (type ''), so the references of other rows stay valid.
import { commandTimeoutOf, type Connection } from './redis.js';
import { keys } from './keys.js';
import { defineScript, LuaFrame, readLuaFrame, type LuaValue, type Script } from './lua.js';
import {
  CHUNK_ROWS,
  chunks,
  idsFrame,
  parseLink,
  parseRef,
  rowCount,
  rowOf,
  type InteractionBatch,
  type Owner,
  type StoredInteraction,
} from './interaction-rows.js';
import { ADD, FORGET, RESOLVE, UNLINK } from './interactions-scripts.js';
import type { CountChange } from './rating-records.js';
import { throwIfOverQuota } from './quota-reply.js';
import { UNLIMITED, type Quotas } from '../config/quotas.js';

// Numbers for a script as one frame of decimal strings (quotas may pass uint32).
const numbers = (ns: number[]) => {
  const f = new LuaFrame().array(ns.length);
  for (const n of ns) f.string(String(n));
  return f.done();
};

// Resolutions a page of resolved sessions filtered by users looks at, at most, and per Redis call.
const RESOLVED_SCAN = 10_000;
const RESOLVED_STEP = 1_000;

export type AddResult = { kind: 'added'; count: CountChange; resolved: string[] } | { kind: 'no-database' } | { kind: 'repeated' };

// A write's Idempotency-Key and how long it is remembered once applied.
export interface Idempotency {
  key: string;
  ttlSeconds: number;
}

export class InteractionsStore {
  private readonly addScript: Script;
  private readonly resolveScript: Script;
  private readonly forgetScript: Script;
  private readonly unlinkScript: Script;
  readonly timeoutMs: number; // the longest a request waits for its write (the command timeout)

  constructor(
    private readonly redis: Connection,
    private readonly quotas: Quotas = UNLIMITED,
  ) {
    this.timeoutMs = commandTimeoutOf(redis);
    this.addScript = defineScript(redis, 'recdInteractionsAdd', 16, ADD);
    this.resolveScript = defineScript(redis, 'recdSessionResolve', 14, RESOLVE);
    this.forgetScript = defineScript(redis, 'recdInteractionsForget', 3, FORGET);
    this.unlinkScript = defineScript(redis, 'recdSessionsUnlink', 3, UNLINK);
  }

  // Forgets which sessions were resolved to the user (their interactions stay the sessions').
  // Calls of a bounded size until none is left (interactions-scripts.ts UNLINK).
  async unlinkUser(db: string, user: string): Promise<number> {
    let unlinked = 0;
    for (;;) {
      const [n, left] = (await this.unlinkScript(
        keys.userSessionsPrefix(db) + user,
        keys.resolvedSessions(db),
        keys.resolvedOrder(db),
      )) as [number, number];
      unlinked += n;
      if (left === 0 || n === 0) return unlinked;
    }
  }

  // With `once`, a write whose key was applied before (within its TTL) is not applied again: 'repeated'.
  async add(db: string, owner: Owner, batch: InteractionBatch, once?: Idempotency): Promise<AddResult> {
    const r = (await this.addScript(
      keys.database(db),
      ...keys.entityIndexing(db, 'user'),
      ...keys.entityIndexing(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      keys.interactionChunks(db, owner),
      keys.resolvedSessions(db),
      keys.ratingsNextThreshold(db),
      keys.interactionChunkSeq(db, owner),
      keys.idempotencyKey(db, once?.key ?? ''),
      keys.interactionCounts(db),
      keys.idempotencyKeys(db),
      owner,
      keys.userRatingsPrefix(db),
      keys.interactionRefsPrefix(db, owner),
      idsFrame(batch),
      once ? String(once.ttlSeconds * 1000) : '',
      numbers([this.quotas.items, this.quotas.users, this.quotas.ratings, this.quotas.interactions, batch.rows.length]),
      ...chunks(batch),
    )) as (number | string)[];
    throwIfOverQuota(r);
    if (r[0] === -1) return { kind: 'no-database' };
    if (r[0] === -2) return { kind: 'repeated' };
    return { kind: 'added', count: { threshold: r[0] as number }, resolved: r.slice(1) as string[] };
  }

  // rules: every type's rating and combine, to replay the session's interactions with.
  async resolve(
    db: string,
    session: string,
    user: string,
    timestamp: number,
    rules: [string, number, boolean][],
  ): Promise<CountChange | 'already' | 'no-database'> {
    const f = new LuaFrame().array(rules.length * 3);
    for (const [type, rating, replace] of rules)
      f.string(type)
        .string(String(rating))
        .string(replace ? 'r' : 'm');
    const r = (await this.resolveScript(
      keys.database(db),
      keys.resolvedSessions(db),
      keys.resolvedOrder(db),
      keys.resolvedSeq(db),
      keys.userSessionsPrefix(db) + user,
      ...keys.entityIndexing(db, 'user'),
      keys.entityIndex(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      keys.interactionRefsPrefix(db, 'session') + session,
      keys.ratingsNextThreshold(db),
      keys.interactionChunks(db, 'session'),
      session,
      user,
      String(timestamp),
      keys.userRatingsPrefix(db),
      f.done(),
      numbers([this.quotas.users, this.quotas.ratings]),
    )) as number[];
    throwIfOverQuota(r);
    return r[0] === 1 ? { threshold: r[1]! } : r[0] === 0 ? 'already' : 'no-database';
  }

  // Sessions' links: user id and timestamp, undefined where not resolved.
  async links(db: string, sessions: string[]): Promise<({ user: string; timestamp: number } | undefined)[]> {
    if (sessions.length === 0) return [];
    return (await this.redis.hmget(keys.resolvedSessions(db), ...sessions)).map((v) => (v === null ? undefined : parseLink(v)));
  }

  // Resolved sessions in resolution order from position `from`; with `users`, only theirs, looking at
  // RESOLVED_SCAN resolutions at most (so a page may come back short, or empty with a next position).
  async resolvedPage(
    db: string,
    from: number,
    amt: number,
    users?: string[],
  ): Promise<{ sessions: { session: string; user: string; timestamp: number }[]; next: number | undefined }> {
    if (!users) {
      const got = await this.redis.zrange(keys.resolvedOrder(db), String(from), String(from + amt));
      const ids = got.slice(0, amt);
      const links = await this.links(db, ids);
      return {
        sessions: ids.flatMap((session, k) => (links[k] ? [{ session, ...links[k]! }] : [])),
        next: got.length > amt ? from + amt : undefined,
      };
    }
    const wanted = new Set(users);
    const sessions: { session: string; user: string; timestamp: number }[] = [];
    let at = from;
    while (at - from < RESOLVED_SCAN) {
      const step = Math.min(RESOLVED_STEP, from + RESOLVED_SCAN - at);
      const ids = await this.redis.zrange(keys.resolvedOrder(db), String(at), String(at + step - 1));
      const links = await this.links(db, ids);
      for (let k = 0; k < ids.length; k++) {
        const link = links[k];
        if (link && wanted.has(link.user)) sessions.push({ session: ids[k]!, ...link });
        if (sessions.length === amt) return { sessions, next: (await this.resolvedAfter(db, at + k)) ? at + k + 1 : undefined };
      }
      if (ids.length < step) return { sessions, next: undefined };
      at += step;
    }
    return { sessions, next: (await this.resolvedAfter(db, at - 1)) ? at : undefined };
  }

  // Whether a resolution follows position `at`.
  private async resolvedAfter(db: string, at: number): Promise<boolean> {
    return (await this.redis.zrange(keys.resolvedOrder(db), String(at + 1), String(at + 1))).length > 0;
  }

  // One user's or session's interactions from position `from` of its list, `amt` at most.
  async own(db: string, owner: Owner, id: string, from: number, amt: number): Promise<{ list: StoredInteraction[]; more: boolean }> {
    const refs = await this.redis.lrange(keys.interactionRefsPrefix(db, owner) + id, from, from + amt);
    const wanted = refs.slice(0, amt).map(parseRef);
    const chunks = await this.chunks(db, owner, [...new Set(wanted.map(([seq]) => seq))]);
    const list: StoredInteraction[] = [];
    for (const [seq, row] of wanted) {
      const got = chunks.get(seq) && rowOf(chunks.get(seq)!, row);
      if (got) list.push(got);
    }
    return { list, more: refs.length > amt };
  }

  // Every user's (or session's) interactions in the order received, from chunk `seq`, row `row` on:
  // `scan` rows at most (forgotten rows are passed over but count). Each comes with its position;
  // `next` is where the next call goes on from.
  async all(
    db: string,
    owner: Owner,
    seq: number,
    row: number,
    scan: number,
  ): Promise<{ list: (StoredInteraction & { at: [number, number] })[]; scanned: number; next: [number, number]; more: boolean }> {
    const last = Number((await this.redis.get(keys.interactionChunkSeq(db, owner))) ?? 0);
    const list: (StoredInteraction & { at: [number, number] })[] = [];
    let scanned = 0;
    while (scanned < scan && seq <= last) {
      // Enough chunks for the rows wanted (a chunk holds at most CHUNK_ROWS); removed ones are skipped.
      const seqs = Array.from({ length: Math.min(last - seq + 1, Math.ceil((scan - scanned) / CHUNK_ROWS)) }, (_, k) => seq + k);
      const chunks = await this.chunks(db, owner, seqs);
      for (const s of seqs) {
        const chunk = chunks.get(s);
        const rows = chunk ? rowCount(chunk) : 0;
        while (row < rows && scanned < scan) {
          const got = rowOf(chunk!, row);
          if (got) list.push({ ...got, at: [s, row] });
          row++;
          scanned++;
        }
        if (row < rows) return { list, scanned, next: [s, row], more: true };
        seq = s + 1;
        row = 0;
      }
    }
    return { list, scanned, next: [seq, row], more: seq <= last };
  }

  // Removes the owner's interactions everywhere; how many there were. The oldest go first,
  // in calls of a bounded size until none is left (interactions-scripts.ts FORGET).
  async forget(db: string, owner: Owner, id: string): Promise<number> {
    let forgotten = 0;
    for (;;) {
      const [n, left] = (await this.forgetScript(
        keys.interactionRefsPrefix(db, owner) + id,
        keys.interactionChunks(db, owner),
        keys.interactionCounts(db),
        owner,
      )) as [number, number];
      forgotten += n;
      if (left === 0 || n === 0) return forgotten;
    }
  }

  private async chunks(db: string, owner: Owner, seqs: number[]): Promise<Map<number, LuaValue[]>> {
    const out = new Map<number, LuaValue[]>();
    if (seqs.length === 0) return out;
    const blobs = await this.redis.hmgetBuffer(keys.interactionChunks(db, owner), ...seqs.map(String));
    seqs.forEach((seq, k) => {
      const blob = blobs[k];
      if (blob) out.set(seq, readLuaFrame(blob) as LuaValue[]);
    });
    return out;
  }
}
