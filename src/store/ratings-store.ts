// Ratings: one hash per user (item index -> value), the database's rating count, and the ratings log
// that training replays. A request's ratings are written by one Lua call, entirely or not at all.
//
// A stored value is 17 bytes: origin (1 explicit, 2 inferred from interactions), rating and
// timestamp as big-endian float64. The log's records are 24 bytes: user and item as uint32
// positions into the entry's `u` and `i` index lists, rating and timestamp as float64.
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

// KEYS: database, count, log, next threshold, users counter, items counter. ARGV: user hash prefix, packed
// ratings, log u, log i, log records, highest user index, highest item index used (-1: none). Indices
// may come from this process's cache: each kind's counter must still be above the highest one used,
// else the script returns {-2} and the caller resolves every id again (Redis lost data or was flushed).
// The packed ratings hold, per user, its index (length byte + digits) and rating count (uint32), then per
// rating the item index (length byte + digits) and the 17-byte value: struct.unpack turns a whole slice of
// them into HSET arguments in one C call, so the script does no work per rating (that took ~1 µs each).
const PUT = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if tonumber(redis.call('GET', KEYS[5]) or '0') <= tonumber(ARGV[6]) or tonumber(redis.call('GET', KEYS[6]) or '0') <= tonumber(ARGV[7]) then return {-2} end
local SLICE = 2000 -- ratings per HSET: 4000 values, within Lua's C stack
local blob, pos, added, formats = ARGV[2], 1, 0, {}
while pos <= #blob do
  local u, n
  u, n, pos = struct.unpack('<Bc0I4', blob, pos)
  local key = ARGV[1] .. u
  while n > 0 do
    local m = math.min(n, SLICE)
    local fmt = formats[m]
    if not fmt then fmt = '<' .. string.rep('Bc0c${VALUE_BYTES}', m); formats[m] = fmt end
    local args = {struct.unpack(fmt, blob, pos)}
    pos = args[#args]
    args[#args] = nil
    added = added + redis.call('HSET', key, unpack(args))
    n = n - m
  end
end
local threshold = counted(KEYS[2], KEYS[4], tonumber(redis.call('GET', KEYS[2]) or '0'), added)
if #blob > 0 then redis.call('XADD', KEYS[3], '*', 'op', 'put', 'u', ARGV[3], 'i', ARGV[4], 'r', ARGV[5]) end
return {threshold}
`;

// KEYS: users index, items index, count, log, database. ARGV: user hash prefix, user id, item id or '' (all).
// Returns how many ratings were removed; -1 without the database.
const DELETE = `
if redis.call('EXISTS', KEYS[5]) == 0 then return -1 end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return 0 end
local key, n = ARGV[1] .. u, 0
if ARGV[3] == '' then
  n = redis.call('HLEN', key)
  redis.call('DEL', key)
  if n > 0 then redis.call('XADD', KEYS[4], '*', 'op', 'delete-user', 'u', u) end
else
  local i = redis.call('HGET', KEYS[2], ARGV[3])
  if i then n = redis.call('HDEL', key, i) end
  if n > 0 then redis.call('XADD', KEYS[4], '*', 'op', 'delete', 'u', u, 'i', i) end
end
if n > 0 then redis.call('DECRBY', KEYS[3], n) end
return n
`;

// KEYS: users index, items ids, database. ARGV: user hash prefix, user id. Returns {item ids, values}; {} without the database.
const USER = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[3]) == 0 then return {} end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return {{}, {}} end
local flat = redis.call('HGETALL', ARGV[1] .. u)
local idxs, values = {}, {}
for k = 1, #flat, 2 do idxs[#idxs + 1] = flat[k]; values[#values + 1] = flat[k + 1] end
return {#idxs > 0 and hmget(KEYS[2], idxs) or {}, values}
`;

// KEYS: users counter, users ids, items ids, database. ARGV: user hash prefix, first user index, first item
// index within it, how many ratings at most, how many users to look at at most.
// Walks users in index order and each user's ratings in item index order. Returns
// {user ids, item ids, values, next user index, next item index} (next user -1: the walk is done);
// {} without the database.
const PAGE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[4]) == 0 then return {} end
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local u, from, amt, budget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local us, is, vs = {}, {}, {}
while u < total and #vs < amt and budget > 0 do
  budget = budget - 1
  local flat = redis.call('HGETALL', ARGV[1] .. u)
  local order = {}
  for k = 1, #flat, 2 do local i = tonumber(flat[k]); if i >= from then order[#order + 1] = i end end
  table.sort(order)
  local values = {}
  for k = 1, #flat, 2 do values[flat[k]] = flat[k + 1] end
  local k = 1
  while k <= #order and #vs < amt do
    us[#us + 1] = tostring(u); is[#is + 1] = tostring(order[k]); vs[#vs + 1] = values[tostring(order[k])]
    k = k + 1
  end
  if k <= #order then from = order[k] else u = u + 1; from = 0 end
end
if u >= total then u = -1 end
return {#us > 0 and hmget(KEYS[2], us) or {}, #is > 0 and hmget(KEYS[3], is) or {}, vs, u, from}
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

  constructor(redis: Redis) {
    this.resolveScript = defineScript(redis, 'recdRatingsResolve', 4, RESOLVE);
    // A (re)connection may reach a Redis that restarted with less than it had: resolve everything again.
    redis.on('ready', () => this.cache.clear());
    this.putScript = defineScript(redis, 'recdRatingsPut2', 6, PUT);
    this.deleteScript = defineScript(redis, 'recdRatingsDelete', 5, DELETE);
    this.userScript = defineScript(redis, 'recdRatingsUser', 3, USER, true);
    this.pageScript = defineScript(redis, 'recdRatingsPage', 4, PAGE, true);
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
    const r = (await this.userScript(keys.entityIndex(db, 'user'), keys.entityIds(db, 'item'), keys.database(db), keys.userRatingsPrefix(db), user)) as [Buffer[], Buffer[]] | [];
    if (r.length === 0) return undefined;
    const [items, values] = r;
    return values.map((v, k) => ({ user, item: items[k]!.toString(), ...readValue(v) }));
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

// The PUT script's packed ratings (see there); indices are decimal ASCII, at most 10 digits.
function packed(b: RatingBatch, users: Uint32Array, items: Uint32Array): Buffer {
  const buf = Buffer.allocUnsafe(b.users.length * 15 + b.size * (11 + VALUE_BYTES));
  const view = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
  let at = 0;
  // A length byte, then the digits of n.
  const ascii = (n: number) => {
    const digits = n < 10 ? 1 : n < 100 ? 2 : n < 1000 ? 3 : n < 1e4 ? 4 : n < 1e5 ? 5 : n < 1e6 ? 6 : n < 1e7 ? 7 : n < 1e8 ? 8 : n < 1e9 ? 9 : 10;
    buf[at] = digits;
    for (let k = at + digits; k > at; k--) {
      buf[k] = 48 + (n % 10);
      n = Math.floor(n / 10);
    }
    at += digits + 1;
  };
  for (let g = 0; g < b.users.length; g++) {
    const from = b.starts[g]!;
    const to = b.starts[g + 1]!;
    if (to === from) continue;
    ascii(users[g]!);
    view.setUint32(at, to - from, true);
    at += 4;
    for (let r = from; r < to; r++) {
      ascii(items[b.item[r]!]!);
      buf[at] = EXPLICIT;
      view.setFloat64(at + 1, b.rating[r]!);
      view.setFloat64(at + 9, b.timestamp[r]!);
      at += VALUE_BYTES;
    }
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
