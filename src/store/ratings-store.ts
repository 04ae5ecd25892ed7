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
import type { Redis } from 'ioredis';
import { keys } from './keys.js';
import { defineScript, LUA_HELPERS, LuaFrame, type Script } from './lua.js';

export const VALUE_BYTES = 17;
export const LOG_RECORD_BYTES = 24;
export const EXPLICIT = 1;

export interface RatingValue {
  rating: number;
  timestamp: number;
  explicit: boolean;
}

export interface StoredRating extends RatingValue {
  user: string; // canonical ids
  item: string;
}

// A canonical id, or a uint id as the number whose decimal text is its canonical id (what numeric
// columns hold: no string per id).
export type BatchId = string | number;

// Ratings of one request, grouped by user: users and items are distinct canonical ids; the ratings of
// users[g] are rows starts[g] to starts[g + 1] - 1 of the columns, in request order (a later rating of the
// same item wins), each naming its item by position in items.
export interface RatingBatch {
  users: BatchId[];
  items: BatchId[];
  starts: Uint32Array; // users.length + 1 entries
  item: Uint32Array;
  rating: Float64Array;
  timestamp: Float64Array;
  size: number; // rows
}

// A write's effect on training: the rating threshold it reached first (0: none).
export interface CountChange {
  threshold: number;
}

export const RECORD_BYTES = 4 + VALUE_BYTES;

// Lua over a user's explicit records (see the top of this file), read record by record: an item's 4
// bytes may also lie inside a value or across two records, so the string is never searched.
const USER_RATINGS_LUA = `
local RATING_RECORD = ${RECORD_BYTES}
-- Per item (its 4 bytes): the position of its last record; and the items in first-written order.
local function liveRatings(rs)
  local last, order = {}, {}
  for p = 0, #rs / RATING_RECORD - 1 do
    local key = string.sub(rs, RATING_RECORD * p + 1, RATING_RECORD * p + 4)
    if not last[key] then order[#order + 1] = key end
    last[key] = p
  end
  return last, order
end
-- A user's records, the last of each item only, leaving out the item "except" (4 bytes) if given.
local function keptRatings(rs, except)
  local last, order = liveRatings(rs)
  local parts = {}
  for k = 1, #order do
    if order[k] ~= except then
      local p = last[order[k]]
      parts[#parts + 1] = string.sub(rs, RATING_RECORD * p + 1, RATING_RECORD * (p + 1))
    end
  end
  return table.concat(parts)
end
-- A user's ratings: their item indices (explicit ones in first-written order, then inferred ones) and
-- each one's 17-byte value by item index.
local function heldRatings(prefix, u)
  local rs = redis.call('GET', prefix .. u .. ':r') or ''
  local last, order = liveRatings(rs)
  local items, value = {}, {}
  for k = 1, #order do
    local i, p = struct.unpack('<I4', order[k]), last[order[k]]
    items[k] = i
    value[i] = string.sub(rs, RATING_RECORD * p + 5, RATING_RECORD * (p + 1))
  end
  local inferred = redis.call('HGETALL', prefix .. u .. ':i')
  for k = 1, #inferred, 2 do
    local i = tonumber(inferred[k])
    items[#items + 1] = i
    value[i] = inferred[k + 1]
  end
  return items, value
end
`;

// Dense indices of users or items, allocated where missing (an id never changes index, so the write
// below and the cache may use them). KEYS: database, index/counter/ids. ARGV: frame [ids].
// Returns the indices; -1 without the database.
const RESOLVE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return resolve(KEYS[2], KEYS[3], KEYS[4], cmsgpack.unpack(ARGV[1]))
`;

// Indices of ids this process has resolved, per database and kind. Bounded: past MAX_CACHED entries in
// all, everything is dropped and filled again as requests come.
const MAX_CACHED = 2_000_000;

// A uint id may be held twice (as text from JSON, as a number from a numeric column): the same index.
class IndexCache {
  private readonly dbs = new Map<string, { user: Map<BatchId, number>; item: Map<BatchId, number> }>();
  private size = 0;

  of(db: string, kind: 'user' | 'item'): Map<BatchId, number> {
    let d = this.dbs.get(db);
    if (!d) this.dbs.set(db, (d = { user: new Map(), item: new Map() }));
    return d[kind];
  }

  add(db: string, kind: 'user' | 'item', id: BatchId, idx: number): void {
    if (this.size >= MAX_CACHED) {
      this.dbs.clear();
      this.size = 0;
    }
    this.of(db, kind).set(id, idx);
    this.size++;
  }

  clear(): void {
    this.dbs.clear();
    this.size = 0;
  }

  forget(db: string): void {
    const d = this.dbs.get(db);
    if (d) this.size -= d.user.size + d.item.size;
    this.dbs.delete(db);
  }
}

// KEYS: database, count, log, next threshold, users counter, items counter. ARGV: user ratings prefix,
// packed ratings, log u, log i, log records, highest user index, highest item index used (-1: none).
// Indices may come from this process's cache: each kind's counter must still be above the highest one
// used, else the script returns {-2} and the caller resolves every id again (Redis lost data or was
// flushed). The packed ratings hold, per user: its index and rating count n (uint32 LE each), the n
// item indices (uint32 LE), then the n records as stored. The indices are in the records too, but
// reading them out of the records (struct padding over each value) costs Redis ~0.1 µs more per rating
// than 4 more bytes do (bench/RESULTS.md, "Ratings storage"). Returns {threshold reached (0: none)}.
const PUT = `${LUA_HELPERS}${USER_RATINGS_LUA}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if tonumber(redis.call('GET', KEYS[5]) or '0') <= tonumber(ARGV[6]) or tonumber(redis.call('GET', KEYS[6]) or '0') <= tonumber(ARGV[7]) then return {-2} end
local blob, pos, added, formats = ARGV[2], 1, 0, {}
while pos <= #blob do
  local u, n
  u, n, pos = struct.unpack('<I4I4', blob, pos)
  local sk, rk = ARGV[1] .. u .. ':s', ARGV[1] .. u .. ':r'
  local new = 0
  for done = 0, n - 1, SLICE do
    local m = math.min(n - done, SLICE)
    local fmt = formats[m]
    if not fmt then fmt = '<' .. string.rep('I4', m); formats[m] = fmt end
    local items = {struct.unpack(fmt, blob, pos + 4 * done)}
    items[#items] = nil
    local got = redis.call('SADD', sk, unpack(items))
    -- Held items may be inferred ones: the explicit rating replaces them.
    if got < m then redis.call('HDEL', ARGV[1] .. u .. ':i', unpack(items)) end
    new = new + got
  end
  pos = pos + 4 * n
  local length = redis.call('APPEND', rk, string.sub(blob, pos, pos + RATING_RECORD * n - 1))
  pos = pos + RATING_RECORD * n
  added = added + new
  if new < n and length > 2 * RATING_RECORD * redis.call('SCARD', sk) + 4096 then
    redis.call('SET', rk, keptRatings(redis.call('GET', rk)))
  end
end
local threshold = counted(KEYS[2], KEYS[4], tonumber(redis.call('GET', KEYS[2]) or '0'), added)
if #blob > 0 then redis.call('XADD', KEYS[3], '*', 'op', 'put', 'u', ARGV[3], 'i', ARGV[4], 'r', ARGV[5]) end
return {threshold}
`;

// KEYS: users index, items index, count, log, database. ARGV: user ratings prefix, user id, item id or
// '' (all). Returns how many ratings were removed; -1 without the database.
const DELETE = `${USER_RATINGS_LUA}
if redis.call('EXISTS', KEYS[5]) == 0 then return -1 end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return 0 end
local sk, rk, ik, n = ARGV[1] .. u .. ':s', ARGV[1] .. u .. ':r', ARGV[1] .. u .. ':i', 0
if ARGV[3] == '' then
  n = redis.call('SCARD', sk)
  redis.call('DEL', sk, rk, ik)
  if n > 0 then redis.call('XADD', KEYS[4], '*', 'op', 'delete-user', 'u', u) end
else
  local i = redis.call('HGET', KEYS[2], ARGV[3])
  if i and redis.call('SREM', sk, i) == 1 then
    n = 1
    if redis.call('HDEL', ik, i) == 0 then
      local kept = keptRatings(redis.call('GET', rk), struct.pack('<I4', tonumber(i)))
      if #kept > 0 then redis.call('SET', rk, kept) else redis.call('DEL', rk) end
    end
    redis.call('XADD', KEYS[4], '*', 'op', 'delete', 'u', u, 'i', i)
  end
end
if n > 0 then redis.call('DECRBY', KEYS[3], n) end
return n
`;

// KEYS: users index, items ids, database. ARGV: user ratings prefix, user id. Returns {item ids, their
// values concatenated in the same order}; {} without the database.
const USER = `${LUA_HELPERS}${USER_RATINGS_LUA}
if redis.call('EXISTS', KEYS[3]) == 0 then return {} end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return {{}, ''} end
local items, value = heldRatings(ARGV[1], u)
local ids, values = {}, {}
for k = 1, #items do ids[k] = tostring(items[k]); values[k] = value[items[k]] end
return {hmget(KEYS[2], ids), table.concat(values)}
`;

// KEYS: users counter, users ids, items ids, database. ARGV: user ratings prefix, first user index, first
// item index within it, how many ratings at most, how many users to look at at most.
// Walks users in index order and each user's ratings in item index order. Returns
// {user ids, item ids, values, next user index, next item index} (next user -1: the walk is done);
// {} without the database.
const PAGE = `${LUA_HELPERS}${USER_RATINGS_LUA}
if redis.call('EXISTS', KEYS[4]) == 0 then return {} end
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local u, from, amt, budget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local us, is, vs = {}, {}, {}
while u < total and #vs < amt and budget > 0 do
  budget = budget - 1
  local items, value = heldRatings(ARGV[1], u)
  local order = {}
  for k = 1, #items do if items[k] >= from then order[#order + 1] = items[k] end end
  table.sort(order)
  local k = 1
  while k <= #order and #vs < amt do
    us[#us + 1] = tostring(u); is[#is + 1] = tostring(order[k])
    vs[#vs + 1] = value[order[k]]
    k = k + 1
  end
  if k <= #order then from = order[k] else u = u + 1; from = 0 end
end
if u >= total then u = -1 end
return {#us > 0 and hmget(KEYS[2], us) or {}, #is > 0 and hmget(KEYS[3], is) or {}, vs, u, from}
`;

// KEYS: users index. ARGV: user ratings prefix, user id. How many ratings the user holds (0: none, or
// no such user).
const COUNT = `
local u = redis.call('HGET', KEYS[1], ARGV[2])
return u and redis.call('SCARD', ARGV[1] .. u .. ':s') or 0
`;

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

  constructor(redis: Redis) {
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
  // rating, the count and the log entry together, all or nothing.
  async put(db: string, batch: RatingBatch): Promise<CountChange | undefined> {
    for (let attempt = 0; ; attempt++) {
      const users = await this.indices(db, 'user', batch.users);
      const items = users && (await this.indices(db, 'item', batch.items));
      if (!users || !items) return undefined;
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

export function readValue(v: Buffer): RatingValue {
  return { explicit: v[0] === EXPLICIT, rating: v.readDoubleBE(1), timestamp: v.readDoubleBE(9) };
}

function highest(indices: Uint32Array): number {
  let most = -1;
  for (let k = 0; k < indices.length; k++) if (indices[k]! > most) most = indices[k]!;
  return most;
}

// The PUT script's packed ratings (see there), rows in request order: a later rating of the same item
// is a later record, so it wins.
function packed(b: RatingBatch, users: Uint32Array, items: Uint32Array): Buffer {
  const buf = Buffer.allocUnsafe(b.users.length * 8 + b.size * (4 + RECORD_BYTES));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  for (let g = 0; g < b.users.length; g++) {
    const from = b.starts[g]!;
    const n = b.starts[g + 1]! - from;
    if (n === 0) continue;
    view.setUint32(at, users[g]!, true);
    view.setUint32(at + 4, n, true);
    let k = at + 8;
    let rec = k + 4 * n;
    for (let r = from; r < from + n; r++) {
      const item = items[b.item[r]!]!;
      view.setUint32(k, item, true);
      view.setUint32(rec, item, true);
      buf[rec + 4] = EXPLICIT;
      view.setFloat64(rec + 5, b.rating[r]!);
      view.setFloat64(rec + 13, b.timestamp[r]!);
      k += 4;
      rec += RECORD_BYTES;
    }
    at = rec;
  }
  return buf.subarray(0, at);
}

function logRecords(b: RatingBatch): Buffer {
  const out = Buffer.allocUnsafe(b.size * LOG_RECORD_BYTES);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  let at = 0;
  for (let g = 0; g < b.users.length; g++) {
    for (let r = b.starts[g]!; r < b.starts[g + 1]!; r++) {
      view.setUint32(at, g);
      view.setUint32(at + 4, b.item[r]!);
      view.setFloat64(at + 8, b.rating[r]!);
      view.setFloat64(at + 16, b.timestamp[r]!);
      at += LOG_RECORD_BYTES;
    }
  }
  return out;
}
