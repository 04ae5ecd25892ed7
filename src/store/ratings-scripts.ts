// The Lua scripts of the ratings store (ratings-store.ts describes the keys and record layouts they
// work on); each script's comment names its KEYS and ARGV. Every script's work is bounded by what
// its request names (a batch, a page): none reads a user's ratings whole.
import { LUA_HELPERS } from './lua.js';
import { MEMBER_BYTES, VALUE_BYTES } from './rating-records.js';

// Dense indices of users or items, allocated where missing (an id never changes index, so the write
// below and the cache may use them). KEYS: database, index/counter/ids. ARGV: frame [ids], the kind's
// quota, its name. Returns the indices; -1 without the database; a quota answer (lua.ts overQuota).
export const RESOLVE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local idxs, over = resolve(KEYS[2], KEYS[3], KEYS[4], cmsgpack.unpack(ARGV[1]), ARGV[2], ARGV[3])
if over then return over end
return idxs
`;

// KEYS: database, count, log, next threshold, users counter, items counter. ARGV: user ratings prefix,
// packed ratings, log u, log i, log records, highest user index, highest item index used (-1: none).
// Indices may come from this process's cache: each kind's counter must still be above the highest one
// used, else the script returns {-2} and the caller resolves every id again (Redis lost data or was
// flushed). The packed ratings hold, per user: its index and rating count n (uint32 LE each), then n
// pairs of the item's member (uint32 BE) and its value as stored. A user's set is scored by each
// rating's timestamp (the value's last 8 bytes). ARGV[8], [9]: the ratings quota, the ratings in the
// packed ones: when they could pass the quota, the pairs that are new are counted first (at the
// batch's cost) and a write that would pass it is refused whole. Returns {threshold reached (0:
// none)}, or a quota answer (lua.ts overQuota).
export const PUT = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if tonumber(redis.call('GET', KEYS[5]) or '0') <= tonumber(ARGV[6]) or tonumber(redis.call('GET', KEYS[6]) or '0') <= tonumber(ARGV[7]) then return {-2} end
local PAIR = ${MEMBER_BYTES + VALUE_BYTES}
local blob, pos, added = ARGV[2], 1, 0
local held = tonumber(redis.call('GET', KEYS[2]) or '0')
if held + tonumber(ARGV[9]) > tonumber(ARGV[8]) then
  local new, p = 0, 1
  while p <= #blob do
    local u, n
    u, n, p = struct.unpack('<I4I4', blob, p)
    local seen = {}
    for done = 0, n - 1, SLICE do
      local part = {}
      for k = done, math.min(n, done + SLICE) - 1 do part[#part + 1] = string.sub(blob, p + PAIR * k, p + PAIR * k + ${MEMBER_BYTES - 1}) end
      local scores = redis.call('ZMSCORE', ARGV[1] .. u .. ':t', unpack(part))
      for k = 1, #part do
        if not scores[k] and not seen[part[k]] then new = new + 1; seen[part[k]] = true end
      end
    end
    p = p + PAIR * n
  end
  local over = overQuota('ratings', ARGV[8], held, new)
  if over then return over end
end
while pos <= #blob do
  local u, n
  u, n, pos = struct.unpack('<I4I4', blob, pos)
  local tk, vk = ARGV[1] .. u .. ':t', ARGV[1] .. u .. ':v'
  for done = 0, n - 1, SLICE / 2 do
    local m = math.min(n - done, SLICE / 2)
    local scored, valued = {}, {}
    for k = 0, m - 1 do
      local at = pos + PAIR * (done + k)
      local member = string.sub(blob, at, at + ${MEMBER_BYTES - 1})
      scored[2 * k + 1] = struct.unpack('>d', blob, at + PAIR - 8)
      scored[2 * k + 2] = member
      valued[2 * k + 1] = member
      valued[2 * k + 2] = string.sub(blob, at + ${MEMBER_BYTES}, at + PAIR - 1)
    end
    added = added + redis.call('ZADD', tk, unpack(scored))
    redis.call('HSET', vk, unpack(valued))
  end
  pos = pos + PAIR * n
end
local threshold = counted(KEYS[2], KEYS[4], held, added)
if #blob > 0 then redis.call('XADD', KEYS[3], '*', 'op', 'put', 'u', ARGV[3], 'i', ARGV[4], 'r', ARGV[5]) end
return {threshold}
`;

// KEYS: users index, items index, count, log, database. ARGV: user ratings prefix, user id, item id or
// '' (all). Returns how many ratings were removed; -1 without the database. A user's keys go by
// UNLINK: Redis frees a large one in the background, not inside this call.
export const DELETE = `
if redis.call('EXISTS', KEYS[5]) == 0 then return -1 end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return 0 end
local tk, vk, n = ARGV[1] .. u .. ':t', ARGV[1] .. u .. ':v', 0
if ARGV[3] == '' then
  n = redis.call('ZCARD', tk)
  redis.call('UNLINK', tk, vk)
  if n > 0 then redis.call('XADD', KEYS[4], '*', 'op', 'delete-user', 'u', u) end
else
  local i = redis.call('HGET', KEYS[2], ARGV[3])
  local member = i and struct.pack('>I4', tonumber(i))
  if member and redis.call('ZREM', tk, member) == 1 then
    n = 1
    redis.call('HDEL', vk, member)
    redis.call('XADD', KEYS[4], '*', 'op', 'delete', 'u', u, 'i', i)
  end
end
if n > 0 then redis.call('DECRBY', KEYS[3], n) end
return n
`;

// KEYS: users index, items ids, database. ARGV: user ratings prefix, user id, first position, last
// position, 'newest' or 'oldest' first. Returns {item ids, their values concatenated in the same
// order, how many ratings the user holds}; {} without the database. Costs the page, whatever the
// user holds.
export const USER = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[3]) == 0 then return {} end
local u = redis.call('HGET', KEYS[1], ARGV[2])
if not u then return {{}, '', 0} end
local tk = ARGV[1] .. u .. ':t'
local members = ARGV[5] == 'newest' and redis.call('ZRANGE', tk, ARGV[3], ARGV[4], 'REV') or redis.call('ZRANGE', tk, ARGV[3], ARGV[4])
if #members == 0 then return {{}, '', redis.call('ZCARD', tk)} end
local values = hmget(ARGV[1] .. u .. ':v', members)
local ids = {}
for k = 1, #members do ids[k] = tostring(struct.unpack('>I4', members[k])) end
return {hmget(KEYS[2], ids), table.concat(values), redis.call('ZCARD', tk)}
`;

// KEYS: users counter, users ids, items ids, database. ARGV: user ratings prefix, first user index,
// first position within it, how many ratings at most, how many users to look at at most.
// Walks users in index order and each user's ratings oldest first. Returns {user ids, item ids,
// values, next user index, next position} (next user -1: the walk is done); {} without the database.
export const PAGE = `${LUA_HELPERS}
if redis.call('EXISTS', KEYS[4]) == 0 then return {} end
local total = tonumber(redis.call('GET', KEYS[1]) or '0')
local u, from, amt, budget = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local us, is, vs = {}, {}, {}
while u < total and #vs < amt and budget > 0 do
  budget = budget - 1
  local want = amt - #vs
  local members = redis.call('ZRANGE', ARGV[1] .. u .. ':t', from, from + want)
  local got, more = math.min(#members, want), #members > want
  if got > 0 then
    members[got + 1] = nil
    local values = hmget(ARGV[1] .. u .. ':v', members)
    for k = 1, got do
      us[#us + 1] = tostring(u); is[#is + 1] = tostring(struct.unpack('>I4', members[k]))
      vs[#vs + 1] = values[k] or ''
    end
  end
  if more then from = from + want else u = u + 1; from = 0 end
end
if u >= total then u = -1 end
return {#us > 0 and hmget(KEYS[2], us) or {}, #is > 0 and hmget(KEYS[3], is) or {}, vs, u, from}
`;

// KEYS: users index. ARGV: user ratings prefix, user id. How many ratings the user holds (0: none, or
// no such user).
export const COUNT = `
local u = redis.call('HGET', KEYS[1], ARGV[2])
return u and redis.call('ZCARD', ARGV[1] .. u .. ':t') or 0
`;
