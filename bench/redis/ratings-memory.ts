// Memory per stored rating by how many ratings a user holds, with the project's redis.conf and with
// Redis's default set-max-intset-entries (512), against a private redis-server. Each user's ratings go
// in one RatingsStore.put; the ratings log is left out (training trims it).
//
//   npx tsc -p . && node dist/bench/redis/ratings-memory.js
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { keys } from '../../src/store/keys.js';
import { RatingsStore } from '../../src/store/ratings-store.js';
import { startRedisServer } from '../../src/store/redis-server.js';

const TOTAL = 200_000; // ratings per case
const PER_USER = [20, 200, 5000, 20_000];
const DB = 'bench';

async function bytesPerRating(perUser: number, intsetEntries: string | undefined): Promise<{ bytes: number; scriptUs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'recd-ratings-memory-'));
  const server = await startRedisServer(dir);
  const redis = new Redis({ port: server.port });
  try {
    if (intsetEntries) await redis.config('SET', 'set-max-intset-entries', intsetEntries);
    await redis.hset(keys.database(DB), 'name', DB);
    const store = new RatingsStore(redis);
    const ids = Array.from({ length: perUser }, (_, k) => String(k + 1));
    const item = Uint32Array.from({ length: perUser }, (_, k) => k);
    const write = (user: string) =>
      store.put(DB, { users: [user], items: ids, starts: Uint32Array.from([0, perUser]), item, rating: new Float64Array(perUser).fill(5), timestamp: new Float64Array(perUser).fill(1.7e9), size: perUser });
    await write('0'); // the items' indices, allocated once
    await redis.del(keys.ratingsLog(DB));
    await redis.config('RESETSTAT');
    const used = async () => Number(/used_memory:(\d+)/.exec(await redis.info('memory'))![1]);
    const before = await used();
    const users = TOTAL / perUser;
    for (let u = 1; u <= users; u++) await write(String(u));
    await redis.del(keys.ratingsLog(DB));
    const usec = Number(/cmdstat_evalsha:calls=\d+,usec=(\d+)/.exec(await redis.info('commandstats'))?.[1]);
    return { bytes: ((await used()) - before) / TOTAL, scriptUs: usec / TOTAL };
  } finally {
    redis.disconnect();
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

console.log('| ratings per user | bytes per rating (redis.conf) | script µs per rating | bytes per rating (set-max-intset-entries 512) | script µs per rating |');
console.log('|---:|---:|---:|---:|---:|');
for (const perUser of PER_USER) {
  const conf = await bytesPerRating(perUser, undefined);
  const dflt = await bytesPerRating(perUser, '512');
  console.log(`| ${perUser.toLocaleString('en-US')} | ${conf.bytes.toFixed(1)} | ${conf.scriptUs.toFixed(2)} | ${dflt.bytes.toFixed(1)} | ${dflt.scriptUs.toFixed(2)} |`);
}
console.log(`\n${TOTAL.toLocaleString('en-US')} ratings per case, one request per user; node ${process.version}; ${new Date().toISOString()}`);
