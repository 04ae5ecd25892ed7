// What one bulk ratings write costs Redis, by storage form (issue 7): scripts of 16,384 ratings (820
// users × 20, each round of the same users naming 20 other items, as bench/http/bulk-ratings.ts sends)
// against a private redis-server started from the project's redis.conf.
//
//   npx tsc -p . && node dist/bench/redis/ratings-writes.js
//
// Forms: `hset` — what src/store/ratings-store.ts does (struct.unpack of the packed argument, one HSET
// per user), with the default hash encoding (a listpack up to 128 fields) and with hash tables only
// (`hash-max-listpack-entries 0`); `unpack` — the same script without the HSETs (its own cost);
// `append` — each user's records appended to one string per user (APPEND); `set + append` — the
// store before the sorted set and hash: the item indices added to a set per user (SADD, whose answer counts the new
// pairs) and the records (item index and value) appended to a string per user, which could only be
// read whole; `sorted set + hash` — what src/store/ratings-store.ts does now: the items added to a
// sorted set per user scored by timestamp (ZADD, whose answer counts the new pairs) and their values
// to a hash (HSET), so that a page of a user's ratings costs the page;
// `two strings` — an earlier try: item indices and values as two strings per user, held items found
// and overwritten, new ones appended. Reported: wall ms per script (median; over all writes,
// over the first write of each batch — new items — and over the repeats — held items), Redis's
// script time per rating (INFO commandstats), and memory per stored rating.
import type { Redis } from 'ioredis';
import { scriptMicros, usedMemory, withPrivateRedis } from '../lib/private-redis.js';
import { median } from '../lib/report.js';

const PER_USER = 20;
const USERS = 820;
const ROUNDS = 8; // distinct batches; each is written REPEATS times
const REPEATS = 4;

function batch(round: number): Buffer {
  const parts: Buffer[] = [];
  for (let u = 0; u < USERS; u++) {
    const user = String(100_000 + u);
    const head = Buffer.alloc(5 + user.length);
    head[0] = user.length;
    head.write(user, 1);
    head.writeUInt32LE(PER_USER, 1 + user.length);
    parts.push(head);
    for (let j = 0; j < PER_USER; j++) {
      const item = String(10_000 + ((u * 37 + j * 101 + round * 7) % 20_000));
      const rec = Buffer.alloc(18 + item.length);
      rec[0] = item.length;
      rec.write(item, 1);
      rec[1 + item.length] = 1;
      rec.writeDoubleBE(1 + (j % 10), 2 + item.length);
      rec.writeDoubleBE(1.7e9 + j, 10 + item.length);
      parts.push(rec);
    }
  }
  return Buffer.concat(parts);
}

const HSET = (write: boolean) => `
local blob, pos, added, formats = ARGV[2], 1, 0, {}
while pos <= #blob do
  local u, n
  u, n, pos = struct.unpack('<Bc0I4', blob, pos)
  local fmt = formats[n]
  if not fmt then fmt = '<' .. string.rep('Bc0c17', n); formats[n] = fmt end
  local args = {struct.unpack(fmt, blob, pos)}
  pos = args[#args]
  args[#args] = nil
  ${write ? "added = added + redis.call('HSET', ARGV[1] .. u, unpack(args))" : ''}
end
return added`;

const APPEND = `
local blob, pos = ARGV[2], 1
while pos <= #blob do
  local u, n
  u, n, pos = struct.unpack('<Bc0I4', blob, pos)
  local start = pos
  for k = 1, n do pos = pos + 18 + string.byte(blob, pos) end
  redis.call('APPEND', ARGV[1] .. u, string.sub(blob, start, pos - 1))
end
return 0`;

// The core of the store's PUT: one SADD of the item indices and one APPEND of the 21-byte records per
// user. ARGV after the prefix: per user, its index, indices and records.
const SET_APPEND = `
local added = 0
for a = 2, #ARGV, 3 do
  local ks = ARGV[a + 1]
  local items = {struct.unpack(string.rep('I4', #ks / 4), ks)}
  items[#items] = nil
  added = added + redis.call('SADD', ARGV[1] .. ARGV[a] .. ':s', unpack(items))
  redis.call('APPEND', ARGV[1] .. ARGV[a] .. ':r', ARGV[a + 2])
end
return added`;

// The core of the store's PUT now: one ZADD (scored by the value's timestamp) and one HSET per user.
// ARGV after the prefix: per user, its index, members and values.
const ZSET_HASH = `
local added = 0
for a = 2, #ARGV, 3 do
  local ks, vs = ARGV[a + 1], ARGV[a + 2]
  local scored, valued = {}, {}
  for j = 0, #ks / 4 - 1 do
    local m = string.sub(ks, 4 * j + 1, 4 * j + 4)
    scored[2 * j + 1] = struct.unpack('>d', vs, 17 * j + 10)
    scored[2 * j + 2] = m
    valued[2 * j + 1] = m
    valued[2 * j + 2] = string.sub(vs, 17 * j + 1, 17 * j + 17)
  end
  added = added + redis.call('ZADD', ARGV[1] .. ARGV[a] .. ':t', unpack(scored))
  redis.call('HSET', ARGV[1] .. ARGV[a] .. ':v', unpack(valued))
end
return added`;

// Two strings per user: item indices (uint32 LE) and, in the same order, the 17-byte values. An item
// already held is found by a plain search of the indices string (aligned hits only); held items are
// overwritten by rebuilding the values string once, the rest appended. ARGV after the prefix: per
// user, its index, indices and values.
const PACKED = `
local function findKey(s, key)
  local init = 1
  while true do
    local at = string.find(s, key, init, true)
    if not at then return nil end
    if at % 4 == 1 then return (at - 1) / 4 end
    init = at + 1
  end
end
local added = 0
for a = 2, #ARGV, 3 do
  local kk, vk, ks, vs = ARGV[1] .. ARGV[a] .. ':k', ARGV[1] .. ARGV[a] .. ':v', ARGV[a + 1], ARGV[a + 2]
  local n = #ks / 4
  local old = redis.call('GET', kk)
  if not old then
    redis.call('SET', kk, ks); redis.call('SET', vk, vs); added = added + n
  else
    local found, held = {}, {}
    for j = 0, n - 1 do
      local at = findKey(old, string.sub(ks, 4 * j + 1, 4 * j + 4))
      if at then found[j] = at; held[#held + 1] = j end
    end
    if #held == 0 then
      redis.call('APPEND', kk, ks); redis.call('APPEND', vk, vs); added = added + n
    else
      local nk, nv = {}, {}
      for j = 0, n - 1 do
        if not found[j] then nk[#nk + 1] = string.sub(ks, 4 * j + 1, 4 * j + 4); nv[#nv + 1] = string.sub(vs, 17 * j + 1, 17 * j + 17) end
      end
      table.sort(held, function(a, b) return found[a] < found[b] end)
      local ov, parts, from = redis.call('GET', vk), {}, 1
      for _, j in ipairs(held) do
        local p = 17 * found[j]
        parts[#parts + 1] = string.sub(ov, from, p)
        parts[#parts + 1] = string.sub(vs, 17 * j + 1, 17 * j + 17)
        from = p + 18
      end
      parts[#parts + 1] = string.sub(ov, from)
      for k = 1, #nv do parts[#parts + 1] = nv[k] end
      redis.call('SET', vk, table.concat(parts))
      if #nk > 0 then redis.call('APPEND', kk, table.concat(nk)); added = added + #nk end
    end
  end
end
return added`;

// Per user: its index, the item indices (uint32 LE), and the values in the same order — 17 bytes each,
// or 21 with the item index in front (records).
function packedArgs(round: number, records: boolean): Buffer[] {
  const args: Buffer[] = [];
  const size = records ? 21 : 17;
  for (let u = 0; u < USERS; u++) {
    const ks = Buffer.alloc(4 * PER_USER);
    const vs = Buffer.alloc(size * PER_USER);
    for (let j = 0; j < PER_USER; j++) {
      const item = 10_000 + ((u * 37 + j * 101 + round * 7) % 20_000);
      ks.writeUInt32LE(item, 4 * j);
      const at = size * j + (records ? 4 : 0);
      if (records) vs.writeUInt32LE(item, size * j);
      vs[at] = 1;
      vs.writeDoubleBE(1 + (j % 10), at + 1);
      vs.writeDoubleBE(1.7e9 + j, at + 9);
    }
    args.push(Buffer.from(String(100_000 + u)), ks, vs);
  }
  return args;
}

const FORMS: { name: string; lua: string; listpack?: number; packed?: 'values' | 'records' }[] = [
  { name: 'hset, default encoding', lua: HSET(true) },
  { name: 'hset, hash tables only', lua: HSET(true), listpack: 0 },
  { name: 'unpack only (no write)', lua: HSET(false) },
  { name: 'append, one string per user', lua: APPEND },
  { name: "set + append (recd's earlier form)", lua: SET_APPEND, packed: 'records' },
  { name: 'sorted set + hash (what recd does)', lua: ZSET_HASH, packed: 'values' },
  { name: 'sorted set + hash, listpacks up to 256', lua: ZSET_HASH, packed: 'values', listpack: 256 },
  { name: 'two strings: indices, values found and overwritten', lua: PACKED, packed: 'values' },
];

const batches = Array.from({ length: ROUNDS }, (_, r) => batch(r));
const packedBatches = {
  values: Array.from({ length: ROUNDS }, (_, r) => packedArgs(r, false)),
  records: Array.from({ length: ROUNDS }, (_, r) => packedArgs(r, true)),
};
const ratings = USERS * PER_USER;
console.log(
  `| form | wall ms per ${ratings.toLocaleString('en-US')} ratings (median; first round … last) | new items: ms (median) | held items: ms (median) | script µs per rating | bytes per stored rating |`,
);
console.log('|---|---|---:|---:|---:|---:|');
for (const form of FORMS) {
  await withPrivateRedis('ratings-writes', async (redis: Redis) => {
    if (form.listpack !== undefined) await redis.config('SET', 'hash-max-listpack-entries', String(form.listpack));
    if (form.listpack !== undefined && form.lua === ZSET_HASH)
      await redis.config('SET', 'zset-max-listpack-entries', String(form.listpack));
    redis.defineCommand('write', { numberOfKeys: 0, lua: form.lua });
    const write = (prefix: string, blob: Buffer | Buffer[]) =>
      (redis as unknown as { write(p: string, ...b: Buffer[]): Promise<number> }).write(prefix, ...(Array.isArray(blob) ? blob : [blob]));
    await redis.config('RESETSTAT');
    const times: number[] = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const blob of form.packed ? packedBatches[form.packed] : batches) {
        const t0 = performance.now();
        await write('u:', blob);
        times.push(performance.now() - t0);
      }
    }
    const usec = await scriptMicros(redis);
    const used = await usedMemory(redis);
    await redis.flushall();
    const empty = await usedMemory(redis);
    // Appended records are all kept (the store compacts only when updates make up more than half).
    const stored = form.name.startsWith('unpack')
      ? NaN
      : form.name.startsWith('append') || form.packed === 'records'
        ? ratings * ROUNDS * REPEATS
        : ratings * ROUNDS;
    console.log(
      `| ${form.name} | ${median(times).toFixed(1)} (${times[0]!.toFixed(0)} … ${times[ROUNDS - 1]!.toFixed(0)}) | ${median(times.slice(0, ROUNDS)).toFixed(1)} | ${median(times.slice(ROUNDS)).toFixed(1)} | ${(usec / (times.length * ratings)).toFixed(2)} | ${Number.isNaN(stored) ? '–' : ((used - empty) / stored).toFixed(0)} |`,
    );
  });
}
console.log(`\n${ROUNDS} batches × ${REPEATS} repeats; node ${process.version}; ${new Date().toISOString()}`);
