// Ratings: per user a set, a string and a hash, the database's rating count, and the ratings log that
// training replays. A request's ratings are written by one Lua call, entirely or not at all.
//
// A user's ratings are `<prefix><user index>:s`, the set of the item indices rated (an intset: 4 bytes
// each); `<prefix><user index>:r`, the explicit ratings as records of 21 bytes appended in the order
// written: the item index as uint32 little-endian, then the value (an item's last record is its
// rating); and `<prefix><user index>:i`, a hash of the ratings inferred from interactions, item index
// -> value. A value is 17 bytes: origin (1 explicit, 2 inferred from interactions), rating and
// timestamp as big-endian float64. An item is in the set and in exactly one of the string and the hash.
// A bulk write is one SADD (whose answer counts the new pairs) and one APPEND per user: less than half
// the script time of a hash field per rating (bench/redis/ratings-writes.ts); items that were held
// already are also removed from the hash (an explicit rating replaces an inferred one). An interaction
// reads and writes one field of the hash, so its cost does not grow with the user's ratings. Records
// an update left behind are dropped when they make up more than half of the string. The log's records
// are 24 bytes: user and item as uint32 positions into the entry's `u` and `i` index lists, rating
// and timestamp as float64.
import { commandTimeoutOf, StorageDeadline, withinDeadline, type Connection } from './redis.js';
import { keys } from './keys.js';
import { IndexCache } from './index-cache.js';
import { defineScript, LuaFrame, type Script } from './lua.js';
import { highest, logRecords, packed, readValue, VALUE_BYTES, type BatchId, type CountChange, type RatingBatch, type StoredRating } from './rating-records.js';
import { COUNT, DELETE, PAGE, PUT, RESOLVE, USER } from './ratings-scripts.js';

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

  constructor(redis: Connection) {
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
  // from a first script (allocating new ones is harmless on its own); then one script writes every
  // rating, the count and the log entry together, all or nothing. Fails as a command would once the
  // calls together have taken the command timeout. Writing the same ratings again changes nothing
  // that is read (an item's last record counts, the count grows by new pairs only), so a write that
  // timed out is safe to send again.
  put(db: string, batch: RatingBatch): Promise<CountChange | undefined> {
    let late = false;
    return withinDeadline(this.write(db, batch, () => late), this.timeoutMs, () => (late = true));
  }

  // late: the request has been answered 503; the write is then not sent once the look-ups return.
  private async write(db: string, batch: RatingBatch, late: () => boolean): Promise<CountChange | undefined> {
    for (let attempt = 0; ; attempt++) {
      const users = await this.indices(db, 'user', batch.users);
      const items = users && (await this.indices(db, 'item', batch.items));
      if (!users || !items) return undefined;
      if (late()) throw new StorageDeadline(this.timeoutMs);
      const [threshold] = (await this.putScript(
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
      )) as [number];
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
    const got = (await this.resolveScript(keys.database(db), ...keys.entityIndexing(db, kind), f.done())) as (string | number)[] | -1;
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

  // undefined without the database.
  async ofUser(db: string, user: string): Promise<StoredRating[] | undefined> {
    const r = (await this.userScript(keys.entityIndex(db, 'user'), keys.entityIds(db, 'item'), keys.database(db), keys.userRatingsPrefix(db), user)) as [Buffer[], Buffer] | [];
    if (r.length === 0) return undefined;
    const [items, values] = r;
    return items.map((item, k) => ({ user, item: item.toString(), ...readValue(values.subarray(k * VALUE_BYTES, (k + 1) * VALUE_BYTES)) }));
  }

  // How many ratings the user holds, explicit and inferred (0 for a user with none or unknown).
  async count(db: string, user: string): Promise<number> {
    return (await this.countScript(keys.entityIndex(db, 'user'), keys.userRatingsPrefix(db), user)) as number;
  }

  // users: how many users one call looks at, at most (a page can come back short, never wrong).
  async page(db: string, from: { user: number; item: number }, amt: number, users = 10_000): Promise<RatingsPage | undefined> {
    const r = (await this.pageScript(
      keys.entityNext(db, 'user'),
      keys.entityIds(db, 'user'),
      keys.entityIds(db, 'item'),
      keys.database(db),
      keys.userRatingsPrefix(db),
      String(from.user),
      String(from.item),
      String(amt),
      String(users),
    )) as [Buffer[], Buffer[], Buffer[], number, number] | [];
    if (r.length === 0) return undefined;
    const [us, is, vs, nextUser, nextItem] = r;
    return {
      ratings: vs.map((v, k) => ({ user: us[k]!.toString(), item: is[k]!.toString(), ...readValue(v) })),
      next: nextUser < 0 ? undefined : { user: nextUser, item: nextItem },
    };
  }

}
