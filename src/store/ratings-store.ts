// Ratings: per user a sorted set and a hash, the database's rating count, and the ratings log that
// training replays. A request's ratings are written by one Lua call per RATINGS_PER_CALL of them.
//
// A user's ratings are `<prefix><user index>:t`, a sorted set of the items rated (each a 4-byte member,
// its dense index big-endian) scored by the rating's timestamp, and `<prefix><user index>:v`, a hash of
// the same members to their values. A value is 17 bytes: origin (1 explicit, 2 inferred from
// interactions), rating and timestamp as big-endian float64. The set gives pages newest (or oldest)
// first and the count at the cost of the page, whatever the user holds (docs/security.md, "What one
// request costs Redis"); an explicit rating replaces an inferred one by overwriting its value. The
// log's records are 24 bytes: user and item as uint32 positions into the entry's `u` and `i` index
// lists, rating and timestamp as float64.
import { commandTimeoutOf, StorageDeadline, withinDeadline, type Connection } from './redis.js';
import { keys } from './keys.js';
import { IndexCache } from './index-cache.js';
import { defineScript, LuaFrame, type Script } from './lua.js';
import {
  highest,
  logRecords,
  packed,
  readValue,
  slices,
  VALUE_BYTES,
  type BatchId,
  type CountChange,
  type RatingBatch,
  type StoredRating,
} from './rating-records.js';
import { COUNT, DELETE, PAGE, PUT, RESOLVE, USER } from './ratings-scripts.js';
import { throwIfOverQuota } from './quota-reply.js';
import { UNLIMITED, type Quotas } from '../config/quotas.js';

// Ratings one script writes or reads at most: a larger request or page is made of calls of this many,
// each whole, so that no call holds Redis (and every other tenant) for more than a few milliseconds
// (~3 µs a rating written, bench/redis/ratings-writes.ts). A request cut short between two calls by a storage
// failure answers 503 with its first calls stored; ratings being idempotent, sending it again
// completes it.
export const RATINGS_PER_CALL = 2048;

// Users one page of every rating looks at, at most: an empty user costs the script a lookup (~1 µs).
const PAGE_USERS = 5_000;

export interface RatingsPage {
  ratings: StoredRating[];
  next: { user: number; item: number } | undefined;
}

export class RatingsStore {
  private readonly resolveScript: Script;
  private readonly cache = new IndexCache();
  private readonly putScript: Script;
  private readonly deleteScript: Script;
  private readonly userScript: Script;
  private readonly pageScript: Script;
  private readonly countScript: Script;
  private readonly timeoutMs: number;

  constructor(
    redis: Connection,
    private readonly quotas: Quotas = UNLIMITED,
  ) {
    this.timeoutMs = commandTimeoutOf(redis);
    this.resolveScript = defineScript(redis, 'recdRatingsResolve', 4, RESOLVE);
    // A (re)connection may reach a Redis that restarted with less than it had: resolve everything again.
    redis.on('ready', () => this.cache.clear());
    this.putScript = defineScript(redis, 'recdRatingsPut', 6, PUT);
    this.deleteScript = defineScript(redis, 'recdRatingsDelete', 5, DELETE);
    this.userScript = defineScript(redis, 'recdRatingsUser', 3, USER, true);
    this.pageScript = defineScript(redis, 'recdRatingsPage', 4, PAGE, true);
    this.countScript = defineScript(redis, 'recdRatingsCount', 1, COUNT);
  }

  // Explicit ratings; undefined without the database. Ids this process has not seen get their indices
  // from a first script (allocating new ones is harmless on its own); then one script per
  // RATINGS_PER_CALL ratings writes them, the count and the log entry together. Fails as a command
  // would once the calls together have taken the command timeout. Writing the same ratings again
  // changes nothing that is read (the count grows by new pairs only), so a write that timed out is
  // safe to send again. The threshold returned is the highest any call reached.
  put(db: string, batch: RatingBatch): Promise<CountChange | undefined> {
    let late = false;
    return withinDeadline(
      this.writeAll(db, batch, () => late),
      this.timeoutMs,
      () => (late = true),
    );
  }

  private async writeAll(db: string, batch: RatingBatch, late: () => boolean): Promise<CountChange | undefined> {
    let threshold = 0;
    for (const slice of slices(batch, RATINGS_PER_CALL)) {
      const change = await this.write(db, slice, late);
      if (!change) return undefined;
      threshold = Math.max(threshold, change.threshold);
    }
    return { threshold };
  }

  // late: the request has been answered 503; the write is then not sent once the look-ups return.
  private async write(db: string, batch: RatingBatch, late: () => boolean): Promise<CountChange | undefined> {
    for (let attempt = 0; ; attempt++) {
      const users = await this.indices(db, 'user', batch.users);
      const items = users && (await this.indices(db, 'item', batch.items));
      if (!users || !items) return undefined;
      if (late()) throw new StorageDeadline(this.timeoutMs);
      const [threshold] = throwIfOverQuota(
        (await this.putScript(
          keys.database(db),
          keys.ratingsCount(db),
          keys.ratingsLog(db),
          keys.ratingsNextThreshold(db),
          keys.entityNext(db, 'user'),
          keys.entityNext(db, 'item'),
          keys.userRatingsPrefix(db),
          packed(batch, users, items),
          users.join(','),
          items.join(','),
          logRecords(batch),
          String(highest(users)),
          String(highest(items)),
          String(this.quotas.ratings),
          String(batch.size),
        )) as [number],
      );
      if (threshold === -1) return undefined;
      if (threshold !== -2) return { threshold: threshold! };
      this.cache.forget(db);
      if (attempt > 0) throw new Error('ratings: entity indices keep changing under the cache');
    }
  }

  // Dense indices of ids, from the cache or else resolved (allocated where new) by Redis; undefined
  // without the database.
  private async indices(db: string, kind: 'user' | 'item', ids: BatchId[]): Promise<Uint32Array | undefined> {
    const known = this.cache.of(db, kind);
    const out = new Uint32Array(ids.length);
    const missing: number[] = [];
    for (let k = 0; k < ids.length; k++) {
      const idx = known.get(ids[k]!);
      if (idx === undefined) missing.push(k);
      else out[k] = idx;
    }
    if (missing.length === 0) return out;
    const f = new LuaFrame(64 + missing.length * 24).array(missing.length);
    for (const k of missing) f.string(String(ids[k]!));
    const got = throwIfOverQuota(
      (await this.resolveScript(
        keys.database(db),
        ...keys.entityIndexing(db, kind),
        f.done(),
        String(this.quotas[`${kind}s`]),
        `${kind}s`,
      )) as (string | number)[] | -1,
    );
    if (got === -1) return undefined;
    for (let m = 0; m < missing.length; m++) {
      const k = missing[m]!;
      out[k] = Number(got[m]!);
      this.cache.add(db, kind, ids[k]!, out[k]!);
    }
    return out;
  }

  // item undefined: every rating of the user. Returns how many were removed, undefined without the database.
  async remove(db: string, user: string, item: string | undefined): Promise<number | undefined> {
    const n = (await this.deleteScript(
      keys.entityIndex(db, 'user'),
      keys.entityIndex(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      keys.database(db),
      keys.userRatingsPrefix(db),
      user,
      item ?? '',
    )) as number;
    return n < 0 ? undefined : n;
  }

  // A page of the user's ratings, newest (or oldest) first from position `from`, and how many they
  // hold; undefined without the database.
  async ofUser(
    db: string,
    user: string,
    from: number,
    amt: number,
    order: 'newest' | 'oldest' = 'newest',
  ): Promise<{ ratings: StoredRating[]; total: number } | undefined> {
    const ratings: StoredRating[] = [];
    let total = 0;
    // In calls of RATINGS_PER_CALL at most, as writes are: each one holds Redis for a few ms.
    for (let at = from; at < from + amt; at += RATINGS_PER_CALL) {
      const n = Math.min(RATINGS_PER_CALL, from + amt - at);
      const r = (await this.userScript(
        keys.entityIndex(db, 'user'),
        keys.entityIds(db, 'item'),
        keys.database(db),
        keys.userRatingsPrefix(db),
        user,
        String(at),
        String(at + n - 1),
        order,
      )) as [Buffer[], Buffer, number] | [];
      if (r.length === 0) return undefined;
      const [items, values, held] = r;
      total = held;
      for (let k = 0; k < items.length; k++)
        ratings.push({ user, item: items[k]!.toString(), ...readValue(values.subarray(k * VALUE_BYTES, (k + 1) * VALUE_BYTES)) });
      if (items.length < n) break;
    }
    return { ratings, total };
  }

  // How many ratings the user holds, explicit and inferred (0 for a user with none or unknown).
  async count(db: string, user: string): Promise<number> {
    return (await this.countScript(keys.entityIndex(db, 'user'), keys.userRatingsPrefix(db), user)) as number;
  }

  // users: how many users one call looks at, at most (a page can come back short, never wrong).
  // from.item: a position in the user's ratings, oldest first.
  async page(db: string, from: { user: number; item: number }, amt: number, users = PAGE_USERS): Promise<RatingsPage | undefined> {
    const ratings: StoredRating[] = [];
    let next: { user: number; item: number } | undefined = from;
    // In calls of RATINGS_PER_CALL at most; a call that comes back short has used its users' budget.
    while (next && ratings.length < amt) {
      const want = Math.min(RATINGS_PER_CALL, amt - ratings.length);
      const r = (await this.pageScript(
        keys.entityNext(db, 'user'),
        keys.entityIds(db, 'user'),
        keys.entityIds(db, 'item'),
        keys.database(db),
        keys.userRatingsPrefix(db),
        String(next.user),
        String(next.item),
        String(want),
        String(users),
      )) as [Buffer[], Buffer[], Buffer[], number, number] | [];
      if (r.length === 0) return undefined;
      const [us, is, vs, nextUser, nextItem] = r;
      for (let k = 0; k < vs.length; k++) ratings.push({ user: us[k]!.toString(), item: is[k]!.toString(), ...readValue(vs[k]!) });
      next = nextUser < 0 ? undefined : { user: nextUser, item: nextItem };
      if (vs.length < want) break;
    }
    return { ratings, next };
  }
}
