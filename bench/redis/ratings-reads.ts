// What one page of a heavy user's ratings costs Redis (issue 41): a user of 200,000 ratings written
// through the store, then pages of 1, 100 and 2,048 read by the store's USER script (newest first,
// at a random depth), against a private redis-server from the project's redis.conf. Reported: Redis's
// script time per call and per rating (INFO commandstats), and the wall time per call.
//
//   npx tsc -p . && node dist/bench/redis/ratings-reads.js
import type { Redis } from 'ioredis';
import { scriptMicros, withPrivateRedis } from '../lib/private-redis.js';
import { median } from '../lib/report.js';
import { RatingsStore } from '../../src/store/ratings-store.js';
import { keys } from '../../src/store/keys.js';

const RATINGS = Number(process.env.BENCH_RATINGS ?? 200_000);
const CALLS = 200;

await withPrivateRedis('ratings-reads', async (redis: Redis) => {
  const db = 'bench';
  await redis.set(keys.database(db), 'x');
  const store = new RatingsStore(redis);
  for (let from = 0; from < RATINGS; from += 16_384) {
    const n = Math.min(16_384, RATINGS - from);
    await store.put(db, {
      users: ['u1'],
      items: Array.from({ length: n }, (_, k) => String(from + k + 1)),
      starts: Uint32Array.from([0, n]),
      item: Uint32Array.from({ length: n }, (_, k) => k),
      rating: Float64Array.from({ length: n }, (_, k) => 1 + (k % 10)),
      timestamp: Float64Array.from({ length: n }, (_, k) => 1e9 + from + k),
      size: n,
    });
  }
  console.log(`| page | wall ms per call (median) | Redis script µs per call | µs per rating |`);
  console.log('|---:|---:|---:|---:|');
  for (const amt of [1, 100, 2048]) {
    await redis.config('RESETSTAT');
    const times: number[] = [];
    for (let c = 0; c < CALLS; c++) {
      const from = Math.floor(Math.random() * (RATINGS - amt));
      const t0 = performance.now();
      const got = await store.ofUser(db, 'u1', from, amt);
      times.push(performance.now() - t0);
      if (got?.ratings.length !== amt) throw new Error(`page of ${got?.ratings.length}`);
    }
    const usec = await scriptMicros(redis);
    console.log(`| ${amt} | ${median(times).toFixed(2)} | ${(usec / CALLS).toFixed(0)} | ${(usec / CALLS / amt).toFixed(2)} |`);
  }
});
console.log(`\n${RATINGS} ratings of one user; ${CALLS} calls a page size; node ${process.version}; ${new Date().toISOString()}`);
