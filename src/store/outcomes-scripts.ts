// The Lua scripts of the outcomes store (outcomes-store.ts): recording a batch of answers, and crediting
// interactions to them. Each script's comment names its KEYS and ARGV.
//
// A batch is a LuaFrame array of ANSWERs, each [recommendation id, time (ms, text), group, viewer,
// context item, [item ids], position of the first item less 1, model id]. A group is
// "<reco type>\x1f<scenario>\x1f<A/B arms>" (arms "<test id>:<A|B>", comma-separated): what results are
// counted by. A viewer is "u:<user id>" or "s:<session id>", '' for nobody known.
//
// A day's counters (keys.ts outcomesPrefix .. day) are fields "<group>\x1f<counter>": a answers,
// i items shown, p<k> items shown at position k (1..10), d\x1f<type> and v\x1f<type> interactions
// credited directly and view-through, k<k>\x1f<type> credited at position k. HyperLogLogs
// "<day>:users:<group>" (viewers shown) and "<day>:acted:<group>\x1f<type>" (viewers who acted).

// How many positions the position curve counts; viewers' shown items at most (past it, forgotten whole);
// batches, viewers and keys one call trims at most (each call trims again).
export const POSITIONS = 10;
export const SHOWN_PER_VIEWER = 1000;
const TRIM_PER_CALL = 100;
// An interaction may carry a time a little before its answer's (another process's clock).
const CLOCK_SKEW_MS = 2000;
const DAY_MS = 86_400_000;

// Lua: counters' keys expire `keep` ms after their day ends and are registered for trimming and deletion.
const DAY_KEYS = `
local function dayKey(registry, key, day, keep)
  local expires = (day + 1) * ${DAY_MS} + keep
  redis.call('PEXPIREAT', key, expires)
  redis.call('ZADD', registry, expires, key)
end
`;

// KEYS: database, batches, order, count, viewers, outcome keys.
// ARGV: batch name, batch (LuaFrame of ANSWERs), now (ms), impressions kept (ms), answers kept at most,
// attribution window (ms), shown prefix, outcomes prefix, credits prefix, counters kept (ms).
// Returns the answers held after trimming (-1: no such database, nothing written).
export const RECORD = `${DAY_KEYS}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local name, frame, now, keep, most, window = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6])
local shownP, outP, creditP, outKeep = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local answers = cmsgpack.unpack(frame)
redis.call('HSET', KEYS[2], name, frame)
redis.call('ZADD', KEYS[3], now, name .. ' ' .. #answers)
local held = redis.call('INCRBY', KEYS[4], #answers)
local counts, users = {}, {}
local function bump(day, field, n)
  local c = counts[day]
  if not c then c = {}; counts[day] = c end
  c[field] = (c[field] or 0) + n
end
for a = 1, #answers do
  local ans = answers[a]
  local id, t, group, viewer, items, from = ans[1], ans[2], ans[3], ans[4], ans[6], ans[7]
  local day = math.floor(tonumber(t) / ${DAY_MS})
  bump(day, group .. '\\31a', 1)
  bump(day, group .. '\\31i', #items)
  for k = 1, math.min(#items, ${POSITIONS} - from) do bump(day, group .. '\\31p' .. (from + k), 1) end
  if viewer ~= '' then
    local uk = outP .. day .. ':users:' .. group
    local u = users[uk]
    if not u then u = {day = day}; users[uk] = u end
    u[#u + 1] = viewer
    if #items > 0 then
      local sk = shownP .. viewer
      if redis.call('HLEN', sk) >= ${SHOWN_PER_VIEWER} then redis.call('DEL', sk) end
      local held, fields = hmget(sk, items), {}
      for k = 1, #items do
        local prev = held[k] and string.match(held[k], '^%S+ %d+ (%d+) ') or '0'
        fields[#fields + 1] = items[k]
        fields[#fields + 1] = id .. ' ' .. (from + k) .. ' ' .. t .. ' ' .. prev .. ' ' .. group
      end
      hset(sk, fields)
      redis.call('PEXPIRE', sk, window)
      redis.call('ZADD', KEYS[5], now + window, viewer)
    end
  end
end
for day, c in pairs(counts) do
  local dk = outP .. day
  for field, n in pairs(c) do redis.call('HINCRBY', dk, field, n) end
  dayKey(KEYS[6], dk, day, outKeep)
end
for uk, u in pairs(users) do
  redis.call('PFADD', uk, unpack(u))
  dayKey(KEYS[6], uk, u.day, outKeep)
end
local function drop(member)
  local sp = string.find(member, ' ', 1, true)
  local b = string.sub(member, 1, sp - 1)
  redis.call('HDEL', KEYS[2], b)
  redis.call('DEL', creditP .. b)
  redis.call('ZREM', KEYS[3], member)
  held = redis.call('DECRBY', KEYS[4], tonumber(string.sub(member, sp + 1)))
end
for _, m in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now - keep, 'LIMIT', 0, ${TRIM_PER_CALL})) do drop(m) end
for _ = 1, ${TRIM_PER_CALL} do
  if held <= most then break end
  local first = redis.call('ZRANGE', KEYS[3], 0, 0)
  if #first == 0 then break end
  drop(first[1])
end
redis.call('ZREMRANGEBYSCORE', KEYS[5], '-inf', now)
local over = redis.call('ZCARD', KEYS[5]) - most
if over > 0 then
  local popped = redis.call('ZPOPMIN', KEYS[5], math.min(over, ${TRIM_PER_CALL}))
  for k = 1, #popped, 2 do redis.call('DEL', shownP .. popped[k]) end
end
for _, k in ipairs(redis.call('ZRANGEBYSCORE', KEYS[6], '-inf', now, 'LIMIT', 0, ${TRIM_PER_CALL})) do redis.call('ZREM', KEYS[6], k) end
return held
`;

// KEYS: database, batches, outcome keys.
// ARGV: interactions (LuaFrame array of [viewer, item id, interaction type, time (ms, text),
// recommendation id or '']), attribution window (ms), shown prefix, outcomes prefix, credits prefix,
// counters kept (ms).
// An interaction naming an answer that showed its item is credited to it directly (at the item's
// position); otherwise, one whose viewer was shown the item within the window is credited to the
// latest answer that showed it, view-through. Once per (answer, item, type).
// Returns the credits given, flat: group, d|v, type for each.
export const ATTRIBUTE = `${DAY_KEYS}
if redis.call('EXISTS', KEYS[1]) == 0 then return {} end
local window, shownP, outP, creditP, outKeep = tonumber(ARGV[2]), ARGV[3], ARGV[4], ARGV[5], tonumber(ARGV[6])
local batches, out = {}, {}
local function split(id)
  local dot = string.find(id, '.', 1, true)
  if not dot then return nil end
  return string.sub(id, 1, dot - 1), tonumber(string.sub(id, dot + 1), 36)
end
local function answerOf(id)
  local b, idx = split(id)
  if not idx then return nil end
  local answers = batches[b]
  if answers == nil then
    local blob = redis.call('HGET', KEYS[2], b)
    answers = blob and cmsgpack.unpack(blob) or false
    batches[b] = answers
  end
  if not answers then return nil end
  local ans = answers[idx + 1]
  if not ans or ans[1] ~= id then return nil end
  return ans, b, idx
end
local function credit(kind, b, idx, t, group, pos, viewer, item, typ)
  if redis.call('HSETNX', creditP .. b, idx .. ' ' .. item .. ' ' .. typ, kind) == 0 then return end
  local day = math.floor(t / ${DAY_MS})
  local dk = outP .. day
  redis.call('HINCRBY', dk, group .. '\\31' .. kind .. '\\31' .. typ, 1)
  if pos <= ${POSITIONS} then redis.call('HINCRBY', dk, group .. '\\31k' .. pos .. '\\31' .. typ, 1) end
  dayKey(KEYS[3], dk, day, outKeep)
  if viewer ~= '' then
    local ak = outP .. day .. ':acted:' .. group .. '\\31' .. typ
    redis.call('PFADD', ak, viewer)
    dayKey(KEYS[3], ak, day, outKeep)
  end
  out[#out + 1] = group
  out[#out + 1] = kind
  out[#out + 1] = typ
end
local rows = cmsgpack.unpack(ARGV[1])
for r = 1, #rows do
  local viewer, item, typ, t, rec = rows[r][1], rows[r][2], rows[r][3], tonumber(rows[r][4]), rows[r][5]
  local done = false
  if rec ~= '' then
    local ans, b, idx = answerOf(rec)
    if ans then
      local items = ans[6]
      for k = 1, #items do
        if items[k] == item then
          credit('d', b, idx, tonumber(ans[2]), ans[3], ans[7] + k, viewer, item, typ)
          done = true
          break
        end
      end
    end
  end
  if not done and viewer ~= '' then
    local s = redis.call('HGET', shownP .. viewer, item)
    if s then
      local id, pos, at, group = string.match(s, '^(%S+) (%d+) (%d+) %d+ (.*)$')
      at = tonumber(at)
      if id and t >= at - ${CLOCK_SKEW_MS} and t <= at + window then
        local b, idx = split(id)
        if idx then credit('v', b, idx, at, group, tonumber(pos), viewer, item, typ) end
      end
    end
  end
end
return out
`;
