// Bulk listing latency: a page of 500 items, filtered and unfiltered, over a 100,000-item catalogue.
// Usage: npx tsc -p . && node dist/bench/http/listing.js   (BENCH_ITEMS, BENCH_SECONDS, BENCH_CONNECTIONS)
import autocannon from 'autocannon';
import os from 'node:os';
import { startBenchStack } from '../lib/recd-stack.js';

const ITEMS = Number(process.env.BENCH_ITEMS ?? 100_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 8);
const COLOURS = ['red', 'green', 'blue', 'black', 'white'];

async function main() {
  const stack = await startBenchStack();
  try {
    for (const [name, type, repeated] of [
      ['price', 'float', false],
      ['colour', 'unicode16', false],
      ['stock', 'int32', false],
      ['tags', 'unicode16', true],
    ] as const) {
      await stack.call('POST', 'items-properties/', { property_name: name, value_type: type, repeated });
    }
    for (let s = 0; s < ITEMS; s += 500) {
      const items = [];
      for (let i = s; i < Math.min(s + 500, ITEMS); i++) {
        items.push({
          item_id: i + 1,
          price: ((i * 7919) % 1000) / 10,
          colour: COLOURS[i % COLOURS.length],
          stock: i % 100,
          tags: [`t${i % 13}`],
        });
      }
      await stack.call('PUT', 'items-bulk/properties/', { items });
    }
    // The first listing builds the process's view of the catalogue; it is not part of the measure.
    const t0 = performance.now();
    await stack.call('GET', 'items-bulk/properties/?amt=1');
    console.log(`first listing (builds the view of ${ITEMS} items): ${Math.round(performance.now() - t0)} ms\n`);
    console.log(`| scenario | req/s | p50 ms | p99 ms | non-2xx |`);
    console.log(`|---|---:|---:|---:|---:|`);
    for (const [label, query] of [
      ['page of 500, no filter', 'amt=500'],
      ['page of 500, colour:eq:red and price:gte:50 (1 in 10 items match)', 'amt=500&filters=colour:eq:red&filters=price:gte:50'],
      ['page of 500, tags:in:t1,t2 (2 in 13 match)', 'amt=500&filters=tags:in:t1,t2'],
    ] as const) {
      const r = await autocannon({
        url: `${stack.base}/items-bulk/properties/?${query}`,
        headers: { authorization: `Bearer ${stack.token}` },
        connections: CONNECTIONS,
        duration: SECONDS,
      });
      console.log(`| ${label} | ${Math.round(r.requests.average)} | ${r.latency.p50} | ${r.latency.p99} | ${r.non2xx} |`);
    }
    console.log(
      `\n${ITEMS} items, ${CONNECTIONS} connections, ${SECONDS} s each, ${os.cpus().length} cores, node ${process.version}, ${new Date().toISOString()}`,
    );
  } finally {
    await stack.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
