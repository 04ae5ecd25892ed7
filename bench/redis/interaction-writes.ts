// What an interaction costs Redis (issue 4): InteractionsStore.add driven alone against a private
// redis-server started from the project's redis.conf, with the batches the interaction lanes send under
// load (32 rows of distinct users, one row each).
//
//   npx tsc -p . && node dist/bench/redis/interaction-writes.js   (BENCH_CALLS: batches per case, default 2000)
//
// Cases: users holding few ratings (~50, what bench/http/run.ts's load leaves them), and users holding
// 5,000 (half explicit, half inferred from interactions), with interactions on items they hold as
// inferred ratings and on new items. Reported: wall µs per row (one call at a time, so it includes the
// round trip) and Redis's script time per row (INFO commandstats).
import type { InteractionBatch } from '../../src/store/interaction-rows.js';
import { InteractionsStore } from '../../src/store/interactions-store.js';
import { keys } from '../../src/store/keys.js';
import { RatingsStore } from '../../src/store/ratings-store.js';
import { scriptMicros, withPrivateRedis } from '../lib/private-redis.js';

const CALLS = Number(process.env.BENCH_CALLS ?? 2000);
const ROWS = 32;
const DB = 'bench';

// A batch of ROWS interactions, each of its own user; item(k) names the item of the k-th row overall.
function batch(first: number, user: (k: number) => number, item: (k: number) => number): InteractionBatch {
  const owners: string[] = [];
  const items: string[] = [];
  const rows: InteractionBatch['rows'] = [];
  for (let r = 0; r < ROWS; r++) {
    owners.push(String(user(first + r)));
    items.push(String(item(first + r)));
    rows.push({
      owner: r,
      item: r,
      type: 'view',
      timestamp: 1.7e9 + first + r,
      properties: undefined,
      rating: 2,
      replace: false,
      recommendation: undefined,
    });
  }
  return { owners, items, rows };
}

// held explicit ratings (items 1..n) for each user, then as many inferred ones (items n+1..2n).
async function hold(ratings: RatingsStore, interactions: InteractionsStore, users: number, n: number): Promise<void> {
  const item = Uint32Array.from({ length: n }, (_, k) => k);
  const ids = Array.from({ length: n }, (_, k) => String(k + 1));
  for (let u = 1; u <= users; u++) {
    await ratings.put(DB, {
      users: [String(u)],
      items: ids,
      starts: Uint32Array.from([0, n]),
      item,
      rating: new Float64Array(n).fill(5),
      timestamp: new Float64Array(n).fill(1.7e9),
      size: n,
    });
    for (let s = 0; s < n; s += 1000) {
      const m = Math.min(1000, n - s);
      await interactions.add(DB, 'user', {
        owners: [String(u)],
        items: Array.from({ length: m }, (_, k) => String(n + s + k + 1)),
        rows: Array.from({ length: m }, (_, k) => ({
          owner: 0,
          item: k,
          type: 'view',
          timestamp: 1.7e9,
          properties: undefined,
          rating: 1,
          replace: false,
          recommendation: undefined,
        })),
      });
    }
  }
}

interface Case {
  name: string;
  setUp(ratings: RatingsStore, interactions: InteractionsStore): Promise<void>;
  batch(first: number): InteractionBatch;
}

const HEAVY = 2500; // explicit and as many inferred ratings per heavy user
const CASES: Case[] = [
  {
    // 5,000 users, 2,000 items: a pair comes back every 10,000 rows, as in the lanes' load.
    name: 'users holding ~50 ratings',
    setUp: async (_, interactions) => {
      for (let first = 0; first < 100_000; first += ROWS) await interactions.add(DB, 'user', CASES[0]!.batch(first));
    },
    batch: (first) =>
      batch(
        first,
        (k) => (k % 5000) + 1,
        (k) => ((k * 7) % 2000) + 1,
      ),
  },
  {
    name: 'users holding 5,000 ratings, on their inferred items',
    setUp: (ratings, interactions) => hold(ratings, interactions, 64, HEAVY),
    batch: (first) =>
      batch(
        first,
        (k) => (k % 64) + 1,
        (k) => HEAVY + ((k * 7) % HEAVY) + 1,
      ),
  },
  {
    name: 'users holding 5,000 ratings, on new items',
    setUp: (ratings, interactions) => hold(ratings, interactions, 64, HEAVY),
    batch: (first) =>
      batch(
        first,
        (k) => (k % 64) + 1,
        (k) => 2 * HEAVY + k + 1,
      ),
  },
];

console.log(`| case | wall µs per row | script µs per row |`);
console.log('|---|---:|---:|');
for (const c of CASES) {
  await withPrivateRedis('interaction-writes', async (redis) => {
    await redis.hset(keys.database(DB), 'name', DB);
    const ratings = new RatingsStore(redis);
    const interactions = new InteractionsStore(redis);
    await c.setUp(ratings, interactions);
    await redis.config('RESETSTAT');
    const t0 = performance.now();
    for (let k = 0; k < CALLS; k++) await interactions.add(DB, 'user', c.batch(1_000_000 + k * ROWS));
    const wall = performance.now() - t0;
    const usec = await scriptMicros(redis);
    console.log(`| ${c.name} | ${((wall * 1000) / (CALLS * ROWS)).toFixed(1)} | ${(usec / (CALLS * ROWS)).toFixed(1)} |`);
  });
}
console.log(`\n${CALLS} batches of ${ROWS} rows per case; node ${process.version}; ${new Date().toISOString()}`);
