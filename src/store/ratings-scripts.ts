// The Lua scripts of the ratings store (ratings-store.ts describes the keys and record layouts they
// work on); each script's comment names its KEYS and ARGV.
import { LUA_HELPERS } from './lua.js';
import { RECORD_BYTES } from './rating-records.js';

// Lua over a user's explicit records (see the top of ratings-store.ts), read record by record: an item's 4
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
export const RESOLVE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return resolve(KEYS[2], KEYS[3], KEYS[4], cmsgpack.unpack(ARGV[1]))
`;

// KEYS: database, count, log, next threshold, users counter, items counter. ARGV: user ratings prefix,
// packed ratings, log u, log i, log records, highest user index, highest item index used (-1: none).
// Indices may come from this process's cache: each kind's counter must still be above the highest one
// used, else the script returns {-2} and the caller resolves every id again (Redis lost data or was
// flushed). The packed ratings hold, per user: its index and rating count n (uint32 LE each), the n
// item indices (uint32 LE), then the n records as stored. The indices are in the records too, but
// reading them out of the records (struct padding over each value) costs Redis ~0.1 µs more per rating
// than 4 more bytes do (bench/RESULTS.md, "Ratings storage"). Returns {threshold reached (0: none)}.
export const PUT = `${LUA_HELPERS}${USER_RATINGS_LUA}
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
export const DELETE = `${USER_RATINGS_LUA}
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
export const USER = `${LUA_HELPERS}${USER_RATINGS_LUA}
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
export const PAGE = `${LUA_HELPERS}${USER_RATINGS_LUA}
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
export const COUNT = `
local u = redis.call('HGET', KEYS[1], ARGV[2])
return u and redis.call('SCARD', ARGV[1] .. u .. ':s') or 0
`;
