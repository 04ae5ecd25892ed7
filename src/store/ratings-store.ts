// Ratings: one hash per user (item index -> value), the database's rating count, and the ratings log
// that training replays. Each request is one Lua call, so it is applied entirely or not at all.
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

// Ratings of one request, grouped by user: users and items are distinct ids; each group names a
// user (position in users) and its ratings (item position, rating, timestamp).
export interface RatingBatch {
  users: string[];
  items: string[];
  groups: { user: number; items: number[]; ratings: number[]; timestamps: number[] }[];
  size: number; // ratings in all groups
}

// A write's effect on training: the rating threshold it reached first (0: none).
export interface CountChange {
  threshold: number;
}

// KEYS: database, users index/counter/ids, items index/counter/ids, count, log, next threshold.
// ARGV: user hash prefix, frame [users, items, [[user position, [item position, value, ...]], ...]], log records.
const PUT = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local b = cmsgpack.unpack(ARGV[2])
local users = resolve(KEYS[2], KEYS[3], KEYS[4], b[1])
local items = resolve(KEYS[5], KEYS[6], KEYS[7], b[2])
local added = 0
for g = 1, #b[3] do
  local key, list, args = ARGV[1] .. users[b[3][g][1] + 1], b[3][g][2], {}
  for k = 1, #list, 2 do args[#args + 1] = items[list[k] + 1]; args[#args + 1] = list[k + 1] end
  for s = 1, #args, SLICE do added = added + redis.call('HSET', key, unpack(args, s, math.min(s + SLICE - 1, #args))) end
end
local threshold = counted(KEYS[8], KEYS[10], tonumber(redis.call('GET', KEYS[8]) or '0'), added)
if #b[3] > 0 then redis.call('XADD', KEYS[9], '*', 'op', 'put', 'u', table.concat(users, ','), 'i', table.concat(items, ','), 'r', ARGV[3]) end
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
  private readonly putScript: Script;
  private readonly deleteScript: Script;
  private readonly userScript: Script;
  private readonly pageScript: Script;

  constructor(redis: Redis) {
    this.putScript = defineScript(redis, 'recdRatingsPut', 10, PUT);
    this.deleteScript = defineScript(redis, 'recdRatingsDelete', 5, DELETE);
    this.userScript = defineScript(redis, 'recdRatingsUser', 3, USER, true);
    this.pageScript = defineScript(redis, 'recdRatingsPage', 4, PAGE, true);
  }

  // Explicit ratings; undefined without the database.
  async put(db: string, batch: RatingBatch): Promise<CountChange | undefined> {
    const [threshold] = (await this.putScript(
      keys.database(db),
      ...keys.entityIndexing(db, 'user'),
      ...keys.entityIndexing(db, 'item'),
      keys.ratingsCount(db),
      keys.ratingsLog(db),
      keys.ratingsNextThreshold(db),
      keys.userRatingsPrefix(db),
      frame(batch),
      logRecords(batch),
    )) as [number];
    return threshold === -1 ? undefined : { threshold: threshold! };
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

function frame(b: RatingBatch): Buffer {
  const f = new LuaFrame(64 + b.users.length * 20 + b.items.length * 20 + b.size * 30 + b.groups.length * 10);
  f.array(3).array(b.users.length);
  for (const u of b.users) f.string(u);
  f.array(b.items.length);
  for (const i of b.items) f.string(i);
  f.array(b.groups.length);
  for (const g of b.groups) {
    f.array(2).uint(g.user).array(g.items.length * 2);
    for (let k = 0; k < g.items.length; k++) {
      f.uint(g.items[k]!).raw(VALUE_BYTES, (buf, at) => {
        buf[at] = EXPLICIT;
        buf.writeDoubleBE(g.ratings[k]!, at + 1);
        buf.writeDoubleBE(g.timestamps[k]!, at + 9);
      });
    }
  }
  return f.done();
}

function logRecords(b: RatingBatch): Buffer {
  const out = Buffer.allocUnsafe(b.size * LOG_RECORD_BYTES);
  let at = 0;
  for (const g of b.groups) {
    for (let k = 0; k < g.items.length; k++) {
      out.writeUInt32BE(g.user, at);
      out.writeUInt32BE(g.items[k]!, at + 4);
      out.writeDoubleBE(g.ratings[k]!, at + 8);
      out.writeDoubleBE(g.timestamps[k]!, at + 16);
      at += LOG_RECORD_BYTES;
    }
  }
  return out;
}
