// Memory per stored rating by how many ratings a user holds, with the project's redis.conf and with
// Redis's default set-max-intset-entries (512), against a private redis-server. Each user's ratings go
// in one RatingsStore.put; the ratings log is left out (training trims it). Then what growing large
// sets costs: users reaching 20,000 ratings 100 a request, in random item order (an intset inserts in
// the middle by moving what follows).
//
//   npx tsc -p . && node dist/bench/redis/ratings-memory.js
import { keys } from '../../src/store/keys.js';
import { RatingsStore } from '../../src/store/ratings-store.js';
import { scriptMicros, usedMemory, withPrivateRedis } from '../lib/private-redis.js';

const TOTAL = 200_000; // ratings per case
const PER_USER = [20, 200, 5000, 20_000];
const DB = 'bench';

// perUser ratings per user, in requests of `step` in random item order (0: one request, in order).
async function bytesPerRating(perUser: number, intsetEntries: string | undefined, step = 0): Promise<{ bytes: number; scriptUs: number }> {
  return withPrivateRedis('ratings-memory', async (redis) => {
    if (intsetEntries) await redis.config('SET', 'set-max-intset-entries', intsetEntries);
    await redis.hset(keys.database(DB), 'name', DB);
    const store = new RatingsStore(redis);
    const ids = Array.from({ length: perUser }, (_, k) => String(k + 1));
    const item = Uint32Array.from({ length: perUser }, (_, k) => k);
    const put = (user: string, of: Uint32Array) =>
      store.put(DB, {
        users: [user],
        items: ids,
        starts: Uint32Array.from([0, of.length]),
        item: of,
        rating: new Float64Array(of.length).fill(5),
        timestamp: new Float64Array(of.length).fill(1.7e9),
        size: of.length,
      });
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
    const write = async (user: string) => {
      if (step === 0) return void (await put(user, item));
      const order = item.slice();
      for (let k = order.length - 1; k > 0; k--) {
        const j = Math.floor(random() * (k + 1));
        [order[k], order[j]] = [order[j]!, order[k]!];
      }
      for (let s = 0; s < perUser; s += step) await put(user, order.subarray(s, s + step));
    };
    await put('0', item); // the items' indices, allocated once
    await redis.del(keys.ratingsLog(DB));
    await redis.config('RESETSTAT');
    const before = await usedMemory(redis);
    const users = TOTAL / perUser;
    for (let u = 1; u <= users; u++) await write(String(u));
    await redis.del(keys.ratingsLog(DB));
    return { bytes: ((await usedMemory(redis)) - before) / TOTAL, scriptUs: (await scriptMicros(redis)) / TOTAL };
  });
}

console.log(
  '| ratings per user | bytes per rating (redis.conf) | script µs per rating | bytes per rating (set-max-intset-entries 512) | script µs per rating |',
);
console.log('|---:|---:|---:|---:|---:|');
for (const perUser of PER_USER) {
  const conf = await bytesPerRating(perUser, undefined);
  const dflt = await bytesPerRating(perUser, '512');
  console.log(
    `| ${perUser.toLocaleString('en-US')} | ${conf.bytes.toFixed(1)} | ${conf.scriptUs.toFixed(2)} | ${dflt.bytes.toFixed(1)} | ${dflt.scriptUs.toFixed(2)} |`,
  );
}
const grown = await bytesPerRating(20_000, undefined, 100);
const grownDefault = await bytesPerRating(20_000, '512', 100);
console.log(
  `| 20,000, 100 a request in random order | ${grown.bytes.toFixed(1)} | ${grown.scriptUs.toFixed(2)} | ${grownDefault.bytes.toFixed(1)} | ${grownDefault.scriptUs.toFixed(2)} |`,
);
console.log(
  `\n${TOTAL.toLocaleString('en-US')} ratings per case, one request per user unless said; node ${process.version}; ${new Date().toISOString()}`,
);
