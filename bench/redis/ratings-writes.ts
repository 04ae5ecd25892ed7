// What one bulk ratings write costs Redis, by storage form (issue 7): scripts of 16,384 ratings (820
// users × 20, each round of the same users naming 20 other items, as bench/http/bulk-ratings.ts sends)
// against a private redis-server started from the project's redis.conf.
//
//   npx tsc -p . && node dist/bench/redis/ratings-writes.js
//
// Forms: `hset` — what src/store/ratings-store.ts does (struct.unpack of the packed argument, one HSET
// per user), with the default hash encoding (a listpack up to 128 fields) and with hash tables only
// (`hash-max-listpack-entries 0`); `unpack` — the same script without the HSETs (its own cost);
// `append` — each user's records appended to one string per user (APPEND). Reported: wall ms per
// script (median), Redis's script time per rating (INFO commandstats), and memory per stored rating.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { startRedisServer } from '../../src/store/redis-server.js';

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

const FORMS: { name: string; lua: string; listpack?: number }[] = [
  { name: 'hset, default encoding', lua: HSET(true) },
  { name: 'hset, hash tables only', lua: HSET(true), listpack: 0 },
  { name: 'unpack only (no write)', lua: HSET(false) },
  { name: 'append, one string per user', lua: APPEND },
];

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const batches = Array.from({ length: ROUNDS }, (_, r) => batch(r));
const ratings = USERS * PER_USER;
console.log(`| form | wall ms per ${ratings.toLocaleString('en-US')} ratings (median; first round … last) | script µs per rating | bytes per stored rating |`);
console.log('|---|---|---:|---:|');
for (const form of FORMS) {
  const dir = mkdtempSync(join(tmpdir(), 'recd-ratings-writes-'));
  const server = await startRedisServer(dir);
  const redis = new Redis({ port: server.port, lazyConnect: false });
  try {
    if (form.listpack !== undefined) await redis.config('SET', 'hash-max-listpack-entries', String(form.listpack));
    redis.defineCommand('write', { numberOfKeys: 0, lua: form.lua });
    const write = (prefix: string, blob: Buffer) => (redis as unknown as { write(p: string, b: Buffer): Promise<number> }).write(prefix, blob);
    await redis.config('RESETSTAT');
    const times: number[] = [];
    for (let rep = 0; rep < REPEATS; rep++) {
      for (const blob of batches) {
        const t0 = performance.now();
        await write('u:', blob);
        times.push(performance.now() - t0);
      }
    }
    const stats = await redis.info('commandstats');
    const usec = Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(stats)?.[1] ?? /cmdstat_eval:calls=\d+,usec=(\d+)/.exec(stats)?.[1]);
    const used = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    await redis.flushall();
    const empty = Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const stored = form.name.startsWith('unpack') ? NaN : form.name.startsWith('append') ? ratings * ROUNDS * REPEATS : ratings * ROUNDS;
    console.log(
      `| ${form.name} | ${median(times).toFixed(1)} (${times[0]!.toFixed(0)} … ${times[ROUNDS - 1]!.toFixed(0)}) | ${(usec / (times.length * ratings)).toFixed(2)} | ${Number.isNaN(stored) ? '–' : ((used - empty) / stored).toFixed(0)} |`,
    );
  } finally {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}
console.log(`\n${ROUNDS} batches × ${REPEATS} repeats; node ${process.version}; ${new Date().toISOString()}`);
