// The Lua scripts of the interactions store (interactions-store.ts describes the chunks and lists they
// work on); each script's comment names its KEYS and ARGV.
import { LUA_HELPERS } from './lua.js';
import { ROW_FIELDS } from './interaction-rows.js';

// A session's interactions that its resolution turns into its user's ratings, newest first: the most a
// resolve costs, however long the session ran.
export const RESOLVED_INTERACTIONS = 1_000;
// What one call of the background deletes does at most, so that none holds Redis for long: sessions
// unlinked from a user, and rows forgotten (and the chunks they lie in, each unpacked and packed again).
export const UNLINKED_PER_CALL = 1_000;
export const FORGOTTEN_PER_CALL = 2_000;
export const FORGOTTEN_CHUNKS_PER_CALL = 32;

// Lua: a chunk's rows, by position (0-based), from chunks read at most once per script.
const CHUNKS = `
local chunkCache = {}
local function chunkOf(batchesKey, seq)
  local c = chunkCache[seq]
  if c == nil then
    local blob = redis.call('HGET', batchesKey, seq)
    c = blob and cmsgpack.unpack(blob) or false
    chunkCache[seq] = c
  end
  return c
end
`;

// Lua: inferred ratings, in a user's ratings (ratings-store.ts): an explicit one (origin 1) is never
// changed; "max" keeps the higher of the old and new inferred rating. Each costs a field and a member,
// whatever the user holds. Log records as in ratings-store.ts, op 'infer', one per row written.
const INFER = `
local inferred = {added = 0, us = {}, is = {}, upos = {}, ipos = {}, recs = {}}
local function infer(prefix, uidx, iidx, rating, replace, ts)
  local vk, member = prefix .. uidx .. ':v', struct.pack('>I4', tonumber(iidx))
  local held = redis.call('HGET', vk, member)
  if held then
    local origin, was = struct.unpack('>Bd', held)
    if origin == 1 then return end
    if not replace and was > rating then rating = was end
  else
    inferred.added = inferred.added + 1
  end
  redis.call('ZADD', prefix .. uidx .. ':t', ts, member)
  redis.call('HSET', vk, member, struct.pack('>Bdd', 2, rating, ts))
  if not inferred.upos[uidx] then inferred.us[#inferred.us + 1] = uidx; inferred.upos[uidx] = #inferred.us - 1 end
  if not inferred.ipos[iidx] then inferred.is[#inferred.is + 1] = iidx; inferred.ipos[iidx] = #inferred.is - 1 end
  inferred.recs[#inferred.recs + 1] = struct.pack('>IIdd', inferred.upos[uidx], inferred.ipos[iidx], rating, ts)
end
local function flushInferred(countKey, nextKey, logKey)
  if #inferred.recs > 0 then
    redis.call('XADD', logKey, '*', 'op', 'infer', 'u', table.concat(inferred.us, ','), 'i', table.concat(inferred.is, ','), 'r', table.concat(inferred.recs))
  end
  return counted(countKey, nextKey, tonumber(redis.call('GET', countKey) or '0'), inferred.added)
end
`;

// KEYS: database, users index/counter/ids, items index/counter/ids, ratings count, ratings log,
// chunks of all (users or sessions), resolved sessions, next threshold, chunk sequence, idempotency key,
// interaction counts (keys.ts: rows stored and owners holding any, bumped here in the same call),
// idempotency keys registry.
// ARGV: 'user' or 'session', user ratings prefix, references prefix, [owners, items] (distinct ids of
// the whole request), the idempotency key's TTL in ms ('': the write has no key), the quotas [items,
// users, ratings, interactions, and the rows of this request], then its chunks. Every check comes
// before the first write (index allocation aside, which is harmless on its own).
// The key is set by the script that applies the write, so a write and its retry (with the same key)
// are applied once, whichever of them Redis runs first. The registry gets its name in the same call
// (a key that expires cannot be found otherwise when the database is deleted), and loses up to 16
// expired ones.
// Returns {threshold reached (0: none), sessions of the request already resolved...}; {-1} without the
// database; {-2} when the idempotency key is held already (nothing applied); a quota answer (lua.ts
// overQuota, nothing applied).
export const ADD = `${LUA_HELPERS}${INFER}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if ARGV[5] ~= '' and redis.call('EXISTS', KEYS[14]) == 1 then return {-2} end
local kind, ratingsPrefix, refsPrefix = ARGV[1], ARGV[2], ARGV[3]
local quota = cmsgpack.unpack(ARGV[6])
local ids = cmsgpack.unpack(ARGV[4])
local owners, items = ids[1], ids[2]
local held = redis.call('HMGET', KEYS[15], 'rows:user', 'rows:session')
local over = overQuota('interactions', quota[4], tonumber(held[1] or '0') + tonumber(held[2] or '0'), quota[5])
if over then return over end
local itemIdx, ownerIdx, resolved = {}, {}, {}
local iidx
iidx, over = resolve(KEYS[5], KEYS[6], KEYS[7], items, quota[1], 'items')
if over then return over end
for k = 1, #items do itemIdx[items[k]] = iidx[k] end
if kind == 'user' then
  local uidx
  uidx, over = resolve(KEYS[2], KEYS[3], KEYS[4], owners, quota[2], 'users')
  if over then return over end
  for k = 1, #owners do ownerIdx[owners[k]] = uidx[k] end
else
  local links = hmget(KEYS[11], owners)
  for o = 1, #owners do
    if links[o] then
      resolved[#resolved + 1] = owners[o]
      local user = string.sub(links[o], string.find(links[o], ' ') + 1)
      local uidx
      uidx, over = resolve(KEYS[2], KEYS[3], KEYS[4], {user}, quota[2], 'users')
      if over then return over end
      ownerIdx[owners[o]] = uidx[1]
    end
  end
end
-- Each row may infer a new rating of its user: near the ratings quota, a write that could pass it is
-- refused (counting exactly would cost a look-up per row before any write).
if kind == 'user' or #resolved > 0 then
  over = overQuota('ratings', quota[3], tonumber(redis.call('GET', KEYS[8]) or '0'), quota[5])
  if over then return over end
end
if ARGV[5] ~= '' then
  redis.call('SET', KEYS[14], '1', 'PX', ARGV[5])
  local clock = redis.call('TIME')
  local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
  -- A few of the expired names at a time (more than a write adds): after a quiet spell with many
  -- expired, no one write pays for them all.
  local expired = redis.call('ZRANGEBYSCORE', KEYS[16], '-inf', now, 'LIMIT', 0, 16)
  if #expired > 0 then redis.call('ZREM', KEYS[16], unpack(expired)) end
  redis.call('ZADD', KEYS[16], now + tonumber(ARGV[5]), KEYS[14])
end
local refs, order = {}, {}
for c = 7, #ARGV do
  local seq = redis.call('INCR', KEYS[13])
  redis.call('HSET', KEYS[10], seq, ARGV[c])
  local chunk = cmsgpack.unpack(ARGV[c])
  local cOwners, cItems, rows = chunk[1], chunk[2], chunk[3]
  for r = 1, #rows, ${ROW_FIELDS} do
    local owner = cOwners[rows[r] + 1]
    local list = refs[owner]
    if not list then list = {}; refs[owner] = list; order[#order + 1] = owner end
    list[#list + 1] = seq .. ' ' .. math.floor((r - 1) / ${ROW_FIELDS})
    local u = ownerIdx[owner]
    if u then infer(ratingsPrefix, u, itemIdx[cItems[rows[r + 1] + 1]], tonumber(rows[r + 5]), rows[r + 6] == 'r', tonumber(rows[r + 3])) end
  end
end
local stored, owners = 0, 0
for k = 1, #order do
  local list = refs[order[k]]
  local length
  for s = 1, #list, SLICE do length = redis.call('RPUSH', refsPrefix .. order[k], unpack(list, s, math.min(s + SLICE - 1, #list))) end
  stored = stored + #list
  -- A list as long as what was just pushed was empty: an owner holding interactions for the first time.
  if length == #list then owners = owners + 1 end
end
if stored > 0 then redis.call('HINCRBY', KEYS[15], 'rows:' .. kind, stored) end
if owners > 0 then redis.call('HINCRBY', KEYS[15], 'owners:' .. kind, owners) end
local out = {flushInferred(KEYS[8], KEYS[12], KEYS[9])}
for k = 1, #resolved do out[#out + 1] = resolved[k] end
return out
`;

// KEYS: database, resolved, order, sequence, the user's sessions set, users index/counter/ids,
// items index, ratings count, ratings log, the session's references, next threshold, session chunks.
// ARGV: session id, user id, timestamp, user ratings prefix, rules [type, rating, 'r' or 'm', ...],
// quotas [users, ratings] (a resolution that could pass them is refused, nothing applied). The
// session's newest RESOLVED_INTERACTIONS interactions become the user's inferred ratings: the
// call costs that many at most, however many the session holds.
// Returns {1, threshold reached (0: none)}; {0} when already resolved; {-1} without the database; a
// quota answer.
export const RESOLVE = `${LUA_HELPERS}${INFER}${CHUNKS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
if redis.call('HEXISTS', KEYS[2], ARGV[1]) == 1 then return {0} end
local quota = cmsgpack.unpack(ARGV[6])
local over = overQuota('ratings', quota[2], tonumber(redis.call('GET', KEYS[10]) or '0'), math.min(${RESOLVED_INTERACTIONS}, redis.call('LLEN', KEYS[12])))
if over then return over end
local uidx
uidx, over = resolve(KEYS[6], KEYS[7], KEYS[8], {ARGV[2]}, quota[1], 'users')
if over then return over end
local u = uidx[1]
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3] .. ' ' .. ARGV[2])
redis.call('ZADD', KEYS[3], redis.call('INCR', KEYS[4]), ARGV[1])
redis.call('SADD', KEYS[5], ARGV[1])
local rules = cmsgpack.unpack(ARGV[5])
local rule = {}
for k = 1, #rules, 3 do rule[rules[k]] = {tonumber(rules[k + 1]), rules[k + 2] == 'r'} end
for _, ref in ipairs(redis.call('LRANGE', KEYS[12], -${RESOLVED_INTERACTIONS}, -1)) do
  local space = string.find(ref, ' ')
  local chunk = chunkOf(KEYS[14], string.sub(ref, 1, space - 1))
  if chunk then
    local at = tonumber(string.sub(ref, space + 1)) * ${ROW_FIELDS} + 1
    local rows = chunk[3]
    local r = rule[string.lower(rows[at + 2])]
    local i = redis.call('HGET', KEYS[9], chunk[2][rows[at + 1] + 1])
    if r and i then infer(ARGV[4], u, i, r[1], r[2], tonumber(rows[at + 3])) end
  end
end
return {1, flushInferred(KEYS[10], KEYS[13], KEYS[11])}
`;

// KEYS: the user's sessions set, resolved, order. Unlinks up to UNLINKED_PER_CALL sessions resolved
// to the user. Returns {how many were unlinked, how many are left}.
export const UNLINK = `
local sessions = redis.call('SPOP', KEYS[1], ${UNLINKED_PER_CALL})
if #sessions > 0 then
  redis.call('HDEL', KEYS[2], unpack(sessions))
  redis.call('ZREM', KEYS[3], unpack(sessions))
end
return {#sessions, redis.call('SCARD', KEYS[1])}
`;

// KEYS: the owner's references, the chunks of all, interaction counts. ARGV: 'user' or 'session'.
// Blanks the owner's oldest rows in their chunks (a chunk left with none is removed), up to
// FORGOTTEN_PER_CALL rows or FORGOTTEN_CHUNKS_PER_CALL chunks, drops their references and takes them
// off the counts (the owner too, once none is left). Returns {how many rows were blanked, how many
// references are left}.
export const FORGET = `${CHUNKS}
local refs = redis.call('LRANGE', KEYS[1], 0, ${FORGOTTEN_PER_CALL - 1})
local touched, order, done = {}, {}, 0
for _, ref in ipairs(refs) do
  local space = string.find(ref, ' ')
  local seq = string.sub(ref, 1, space - 1)
  if not touched[seq] and #order == ${FORGOTTEN_CHUNKS_PER_CALL} then break end
  local chunk = chunkOf(KEYS[2], seq)
  if chunk then
    local at = tonumber(string.sub(ref, space + 1)) * ${ROW_FIELDS} + 1
    local rows = chunk[3]
    chunk[1][rows[at] + 1] = ''
    for f = 2, ${ROW_FIELDS} - 1 do rows[at + f] = '' end
    rows[at + 3] = '0'
    if not touched[seq] then touched[seq] = true; order[#order + 1] = seq end
  end
  done = done + 1
end
for _, seq in ipairs(order) do
  local chunk = chunkCache[seq]
  local live = false
  for r = 1, #chunk[3], ${ROW_FIELDS} do if chunk[3][r + 2] ~= '' then live = true; break end end
  if live then redis.call('HSET', KEYS[2], seq, cmsgpack.pack(chunk)) else redis.call('HDEL', KEYS[2], seq) end
end
redis.call('LTRIM', KEYS[1], done, -1)
local left = redis.call('LLEN', KEYS[1])
if done > 0 then
  redis.call('HINCRBY', KEYS[3], 'rows:' .. ARGV[1], -done)
  if left == 0 then redis.call('HINCRBY', KEYS[3], 'owners:' .. ARGV[1], -1) end
end
return {done, left}
`;
