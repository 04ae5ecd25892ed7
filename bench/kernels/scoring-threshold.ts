// Where scoring leaves the event loop: the cost of one ranking (cosine item-to-items, top 128) on the
// event loop against a round trip to the scoring pool, over catalogue sizes at 64 factors.
// Run: node dist/bench/kernels/scoring-threshold.js   (BENCH_SIZES=1000,10000 to choose sizes)
import os from 'node:os';
import { allocateModel } from '../../src/engine/model/layout.js';
import { scorable, similarItems } from '../../src/engine/scoring/rankings.js';
import type { LoadedModel } from '../../src/engine/model/registry.js';
import { ScoringPool } from '../../src/engine/scoring/pool.js';
import { mulberry32 } from '../../native-free-kernels/random.js';

const FACTORS = 64;
const DEPTH = 128;
const SIZES = (process.env.BENCH_SIZES ?? '1000,3000,10000,30000,100000,300000').split(',').map(Number);

function model(items: number): LoadedModel {
  const { buffer, views } = allocateModel({ factors: FACTORS, users: 1, items, itemList: 0, userList: 0, trainedItems: items, lists: 0 });
  const next = mulberry32(items);
  for (let k = 0; k < views.itemFactors.length; k++) views.itemFactors[k] = next() - 0.5;
  for (let k = 0; k < FACTORS; k++) views.userFactors[k] = next() - 0.5;
  return {
    id: `bench-${items}`,
    meta: {} as LoadedModel['meta'],
    buffer,
    itemIds: [],
    itemIndex: new Map(),
    userIndex: new Map(),
    ...scorable(views),
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const pool = new ScoringPool(1);
const rows: string[] = [];
for (const items of SIZES) {
  const m = model(items);
  const runs = items >= 100_000 ? 7 : 25;
  const inline: number[] = [];
  for (let r = 0; r < runs + 3; r++) {
    const t0 = performance.now();
    similarItems(m, r % items, DEPTH);
    if (r >= 3) inline.push(performance.now() - t0);
  }
  const pooled: number[] = [];
  for (let r = 0; r < runs + 3; r++) {
    const t0 = performance.now();
    await pool.rank(m, { kind: 'similar', item: r % items }, DEPTH);
    if (r >= 3) pooled.push(performance.now() - t0);
  }
  rows.push(
    `| ${items.toLocaleString('en-US')} | ${(items * FACTORS).toLocaleString('en-US')} | ${median(inline).toFixed(3)} | ${median(pooled).toFixed(3)} |`,
  );
}
const trip: number[] = [];
const tiny = model(16);
for (let r = 0; r < 200; r++) {
  const t0 = performance.now();
  await pool.rank(tiny, { kind: 'similar', item: 0 }, 1);
  trip.push(performance.now() - t0);
}
await pool.close();
console.log(`Machine: ${os.cpus()[0]?.model}, ${os.cpus().length} cores; Node ${process.version}; ${new Date().toISOString()}`);
console.log(`Pool round trip with a 16-item model: median ${(median(trip.slice(20)) * 1000).toFixed(0)} µs`);
console.log('| items | items × factors | on the event loop, ms (median) | in the scoring pool incl. round trip, ms (median) |');
console.log('|---:|---:|---:|---:|');
for (const r of rows) console.log(r);
