// Bulk item ingest over JSON: 100,000 items × 10 properties in batches of 500 with concurrent
// clients against a recd child process on a private redis-server. Prints items/s (median of rounds).
// Usage: npx tsc -p . && node dist/bench/http/bulk-items.js   (BENCH_ITEMS, BENCH_CLIENTS, BENCH_ROUNDS)
import os from 'node:os';
import { BENCH_PROPERTIES, benchItem, propertyBody } from '../lib/catalogue-fixture.js';
import { startBenchStack } from '../lib/recd-stack.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const BATCH = 500;
const CLIENTS = Number(process.env.BENCH_CLIENTS ?? 4);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);

function batch(round: number, start: number): string {
  const items = [];
  for (let i = start; i < Math.min(start + BATCH, ITEMS); i++) {
    items.push(benchItem(round * ITEMS + i + 1, i));
  }
  return JSON.stringify({ items });
}

async function main() {
  const stack = await startBenchStack();
  try {
    for (const prop of BENCH_PROPERTIES) await stack.call('POST', 'items-properties/', propertyBody(prop));
    const rates: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bodies: string[] = [];
      for (let s = 0; s < ITEMS; s += BATCH) bodies.push(batch(round, s));
      let next = 0;
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: CLIENTS }, async () => {
          while (next < bodies.length) await stack.call('PUT', 'items-bulk/properties/', bodies[next++]!);
        }),
      );
      const seconds = (performance.now() - t0) / 1000;
      rates.push(ITEMS / seconds);
      console.log(`round ${round + 1}: ${ITEMS} items in ${seconds.toFixed(2)} s = ${Math.round(ITEMS / seconds)} items/s`);
    }
    rates.sort((a, b) => a - b);
    console.log(
      `median ${Math.round(rates[Math.floor(rates.length / 2)]!)} items/s (${ITEMS} items x ${BENCH_PROPERTIES.length} properties, batches of ${BATCH}, ${CLIENTS} clients, ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()})`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
