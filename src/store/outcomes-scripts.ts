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
export const SHOWN_ANSWERS = 100;
const TRIM_PER_CALL = 100;
// An interaction may carry a time a little before its answer's (another process's clock).
const CLOCK_SKEW_MS = 2000;
const DAY_MS = 86_400_000;

// A viewer's shown answers (keys.ts shownPrefix), newest first: each "<recommendation id>\x1d<time ms>\x1d
// <first position less 1>\x1d<group>\x1d\x1e<item>\x1e<item>…\x1e".
const SHOWN = `
local function shownParts(entry)
  return string.match(entry, '^([^\\29]*)\\29(%d+)\\29(%d+)\\29([^\\29]*)\\29(.*)$')
end
-- The item's position (1-based) in a shown answer's items ("\\30a\\30b\\30"), or nil.
local function positionIn(items, from, item)
  local at = string.find(items, '\\30' .. item .. '\\30', 1, true)
  if not at then return nil end
  local _, before = string.gsub(string.sub(items, 1, at), '\\30', '')
  return from + before
end
`;

// Lua: counters' keys expire `keep` ms after their day ends and are registered for trimming and deletion.
const DAY_KEYS = `
local function dayKey(registry, key, day, keep)
  local expires = (day + 1) * ${DAY_MS} + keep
  redis.call('PEXPIREAT', key, expires)
  redis.call('ZADD', registry, expires, key)
end
`;

// KEYS: database, batches, order, count, viewers, outcome keys.
// ARGV: batch name, batch (LuaFrame of ANSWERs, stored as it is), its answers, now (ms), impressions kept
// (ms), answers kept at most, attribution window (ms), shown prefix, outcomes prefix, credits prefix,
// counters kept (ms), and the work (a LuaFrame the recorder made while encoding the batch, so this never
// reads the batch): [[day, field, count] …] counters and [[day, group, viewer, SHOWN entry or ''] …]
// answers with a viewer.
// Returns the answers held after trimming (-1: no such database, nothing written).
export const RECORD = `${DAY_KEYS}${SHOWN}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local name, frame, n, now, keep, most, window = ARGV[1], ARGV[2], tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5]), tonumber(ARGV[6]), tonumber(ARGV[7])
local shownP, outP, creditP, outKeep = ARGV[8], ARGV[9], ARGV[10], tonumber(ARGV[11])
local work = cmsgpack.unpack(ARGV[12])
redis.call('HSET', KEYS[2], name, frame)
redis.call('ZADD', KEYS[3], now, name .. ' ' .. n)
local held = redis.call('INCRBY', KEYS[4], n)
local touched = {}
for _, c in ipairs(work[1]) do
  local dk = outP .. c[1]
  redis.call('HINCRBY', dk, c[2], c[3])
  if not touched[dk] then touched[dk] = true; dayKey(KEYS[6], dk, c[1], outKeep) end
end
-- Viewers shown answers, counted per day and group; each answer's entry on its viewer's list. A viewer
-- is registered when their list is made, and the registry's entry renewed when found due while the list
-- lives on (below): an answer costs two commands.
local users = {}
for _, a in ipairs(work[2]) do
  local uk = outP .. a[1] .. ':users:' .. a[2]
  local u = users[uk]
  if not u then u = {day = a[1]}; users[uk] = u end
  u[#u + 1] = a[3]
  if a[4] ~= '' then
    local sk = shownP .. a[3]
    local len = redis.call('LPUSH', sk, a[4])
    if len > ${SHOWN_ANSWERS} then redis.call('RPOP', sk) end
    redis.call('PEXPIRE', sk, window)
    if len == 1 then redis.call('ZADD', KEYS[5], now + window, a[3]) end
  end
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
for _, v in ipairs(redis.call('ZRANGEBYSCORE', KEYS[5], '-inf', now, 'LIMIT', 0, ${TRIM_PER_CALL})) do
  local ttl = redis.call('PTTL', shownP .. v)
  if ttl > 0 then redis.call('ZADD', KEYS[5], now + ttl, v) else redis.call('ZREM', KEYS[5], v) end
end
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
export const ATTRIBUTE = `${DAY_KEYS}${SHOWN}
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
local lists = {}
local function shownTo(viewer)
  local l = lists[viewer]
  if l == nil then
    l = redis.call('LRANGE', shownP .. viewer, 0, -1)
    lists[viewer] = l
  end
  return l
end
local rows = cmsgpack.unpack(ARGV[1])
for r = 1, #rows do
  local viewer, item, typ, t, rec = rows[r][1], rows[r][2], rows[r][3], tonumber(rows[r][4]), rows[r][5]
  local done = false
  local shown = viewer ~= '' and shownTo(viewer) or {}
  if rec ~= '' then
    -- The answer among the viewer's, else (an answer to nobody known) in its batch.
    for _, entry in ipairs(shown) do
      if string.sub(entry, 1, #rec + 1) == rec .. '\\29' then
        local id, at, from, group, items = shownParts(entry)
        local pos = positionIn(items, tonumber(from), item)
        local b, idx = split(id)
        if pos and idx then credit('d', b, idx, tonumber(at), group, pos, viewer, item, typ); done = true end
        break
      end
    end
    if not done then
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
  end
  if not done then
    -- The latest answer that showed the item within the window before the interaction.
    for _, entry in ipairs(shown) do
      local id, at, from, group, items = shownParts(entry)
      at = tonumber(at)
      if at and at <= t + ${CLOCK_SKEW_MS} then
        if at < t - window then break end
        local pos = positionIn(items, tonumber(from), item)
        if pos then
          local b, idx = split(id)
          if idx then credit('v', b, idx, at, group, pos, viewer, item, typ) end
          break
        end
      end
    end
  end
end
return out
`;
