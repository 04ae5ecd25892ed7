// Ratings ingest over JSON: PUT ratings-bulk/ in batches of 16,384 (what existing Python clients
// send) with concurrent clients, against a recd child process on a private redis-server.
// Usage: npx tsc -p . && node dist/bench/http/bulk-ratings.js   (BENCH_RATINGS, BENCH_CLIENTS, BENCH_ROUNDS)
import os from 'node:os';
import { startBenchStack } from './recd-stack.js';

const RATINGS = Number(process.env.BENCH_RATINGS ?? 1_000_000);
const BATCH = 16_384;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const USERS = 50_000;
const ITEMS = 20_000;

// Ratings of users in order, ~20 per user, as exports from an application's database come.
function batch(round: number, start: number): string {
  const ratings = [];
  for (let k = start; k < Math.min(start + BATCH, RATINGS); k++) {
    ratings.push({ user_id: (Math.floor(k / 20) % USERS) + 1, item_id: ((k * 7919 + round) % ITEMS) + 1, rating: 1 + (k % 10), timestamp: 1_700_000_000 + k });
  }
  return JSON.stringify({ ratings });
}

async function main() {
  const stack = await startBenchStack();
  try {
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies: string[] = [];
      for (let s = 0; s < RATINGS; s += BATCH) bodies.push(batch(round, s));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < bodies.length) await stack.call('PUT', 'ratings-bulk/', bodies[next++]!);
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      rates.push(RATINGS / seconds);
      console.log(`round ${round + 1}: ${RATINGS} ratings in ${seconds.toFixed(2)} s = ${Math.round(RATINGS / seconds)} ratings/s`);
    }
    rates.sort((a, b) => a - b);
    console.log(
      `median ${Math.round(rates[Math.floor(rates.length / 2)]!)} ratings/s (${RATINGS} ratings, ${USERS} users, ${ITEMS} items, batches of ${BATCH}, ${CLIENTS} clients, ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()})`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
