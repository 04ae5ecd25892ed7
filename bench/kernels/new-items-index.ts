// What ml_new_items does to the item index: the synthetic catalogue (bench/lib/synthetic.ts, sizes
// from BENCH_SYNTH_*) trained in-process by the production trainer, then extended as ml_new_items
// extends it (items without ratings get factors from their category and year), and then: how many
// items were given factors, the index's largest lists, and what a similar-items ranking costs for
// trained and for new items.
//   npm run build && BENCH_SYNTH_ITEMS=1000000 BENCH_SYNTH_USERS=200000 BENCH_SYNTH_RATINGS=5000000 node dist/bench/kernels/new-items-index.js
import { availableParallelism } from 'node:os';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { extend } from '../../src/engine/training/worker.js';
import { modelViews } from '../../src/engine/model/layout.js';
import { scorable, similarItems } from '../../src/engine/scoring/rankings.js';
import { CATEGORIES, Synthetic, synthSizes, trainingSnapshot, YEAR_MAX, YEAR_MIN } from '../lib/synthetic.js';

const sizes = synthSizes();
const synth = new Synthetic(sizes);
const snapshot = trainingSnapshot(synth);
const n = snapshot.users.length;
const pool = new TrainingPool(availableParallelism());
const params = {
  factors: 32,
  iterations: 15,
  regularization: 20,
  alpha: 0.25,
  unobserved: 1,
  regExponent: 0,
  ratingShift: 0,
  ratingFloor: 0,
  cgSteps: 3,
  listLength: 128,
  userListsSeconds: 0,
  indexMinItems: 100_000,
  popularityHalfLifeSeconds: 1e9,
  seed: 42,
};
let t0 = performance.now();
const { model } = await trainAls(pool, { snapshot, log: [], users: sizes.users, items: sizes.items }, params, () => {});
const trainSeconds = (performance.now() - t0) / 1000;
await pool.close();
// Features as the catalogue gives them: one per category, one per year.
const N = sizes.items,
  years = YEAR_MAX - YEAR_MIN + 1;
const indptr = new Uint32Array(N + 1),
  indices = new Uint32Array(2 * N);
for (let i = 0; i < N; i++) {
  indices[2 * i] = synth.categoryOf[i + 1]!;
  indices[2 * i + 1] = CATEGORIES.length + synth.yearOf[i + 1]! - YEAR_MIN;
  indptr[i + 1] = 2 * i + 2;
}
t0 = performance.now();
const ext = extend({ model, features: { indptr, indices, count: CATEGORIES.length + years } });
const extendSeconds = (performance.now() - t0) / 1000;
const v = modelViews(ext.model);
const listSizes = Array.from({ length: v.dims.lists }, (_, c) => v.listOffsets[c + 1]! - v.listOffsets[c]!).sort((a, b) => b - a);
const m = scorable(v);
const targets = new Uint32Array(ext.targetRows);
const timed = (rows: number[]) => {
  const ms = rows.map((r) => {
    const t = performance.now();
    similarItems(m, r, 128);
    return performance.now() - t;
  });
  ms.sort((a, b) => a - b);
  return `median ${ms[ms.length >> 1]!.toFixed(2)} ms, p90 ${ms[Math.floor(ms.length * 0.9)]!.toFixed(2)} ms`;
};
console.log(
  `${N.toLocaleString('en-US')} items × 32 factors, ${sizes.users.toLocaleString('en-US')} users, ${n.toLocaleString('en-US')} ratings; ${new Date().toISOString()}`,
);
console.log(
  `- training ${trainSeconds.toFixed(1)} s; extend ${extendSeconds.toFixed(1)} s: ${ext.targets.toLocaleString('en-US')} items given factors (${ext.fromFeatures.toLocaleString('en-US')} from properties)`,
);
console.log(
  `- index: ${v.dims.lists} lists; largest ${listSizes
    .slice(0, 6)
    .map((x) => x.toLocaleString('en-US'))
    .join(', ')}; median ${listSizes[listSizes.length >> 1]!.toLocaleString('en-US')}`,
);
console.log(
  `- similar items (depth 128) of 200 trained items: ${timed(Array.from({ length: 200 }, (_, k) => (k * 7919) % N).filter((r) => v.itemCounts[r]! > 0))}`,
);
console.log(
  `- of 200 items given factors: ${timed(Array.from({ length: 200 }, (_, k) => targets[Math.floor((k * targets.length) / 200)]!))}`,
);
