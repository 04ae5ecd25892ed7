// Recall of the precomputed item lists against the exact cosine ranking, on the synthetic catalogue
// (bench/lib/synthetic.ts, sizes from BENCH_SYNTH_*) trained in-process by the production trainer
// with an item index (the lists come through it, as at 100k items and more, then a round of
// neighbours of neighbours, refine-lists.ts), against the index's own ranking, and how long the
// training's lists took.
//   npm run build && BENCH_SYNTH_ITEMS=100000 BENCH_SYNTH_USERS=200000 BENCH_SYNTH_RATINGS=4000000 node dist/bench/kernels/item-lists-recall.js
import { availableParallelism } from 'node:os';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { modelViews } from '../../src/engine/model/layout.js';
import { scorable, similarItems, type Scorable } from '../../src/engine/scoring/rankings.js';
import { dotAt } from '../../native-free-kernels/dot.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { recallAt } from '../lib/model-recall.js';
import { Synthetic, synthSizes, trainingSnapshot } from '../lib/synthetic.js';
import { listHeadsTo, refineItemListsTo, refineScratchLength, reverseHeadsTo } from '../../native-free-kernels/refine-lists.js';

const F = Number(process.env['RECD_ALS_FACTORS'] ?? 32);
const SAMPLED = Number(process.env['BENCH_SAMPLED'] ?? 300);
const sizes = synthSizes();
const synth = new Synthetic(sizes);
let t0 = performance.now();
const snapshot = trainingSnapshot(synth);
const n = snapshot.users.length;
console.error(`generated ${n} ratings in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const pool = new TrainingPool(availableParallelism());
const params = { factors: F, iterations: 15, regularization: 20, alpha: 0.25, unobserved: 1, regExponent: 0, ratingShift: 0, ratingFloor: 0, cgSteps: 3, listLength: 128, userListsSeconds: 0, indexMinItems: 1, popularityHalfLifeSeconds: 1e9, seed: 42 };
t0 = performance.now();
// When each step of the training began (its progress texts).
const began = new Map<string, number>();
const { model } = await trainAls(pool, { snapshot, log: [], users: sizes.users, items: sizes.items }, params, (text) => {
  if (!began.has(text)) began.set(text, performance.now());
});
const ended = performance.now();
await pool.close();
const seconds = (from: string, to?: string) => (((to === undefined ? ended : began.get(to)!) - began.get(from)!) / 1000).toFixed(1);
const views = modelViews(model);
const { items, itemList, lists } = views.dims;
const indexed: Scorable = scorable(views);
const exact: Scorable = { ...indexed, views: { ...views, dims: { ...views.dims, lists: 0 } } };
const rand = mulberry32(7);
const sample: number[] = [], exactTop: Uint32Array[] = [];
const recall = { index: { 10: [] as number[], 64: [] as number[] }, lists: { 10: [] as number[], 64: [] as number[] } };
for (let s = 0; s < SAMPLED; s++) {
  let r: number;
  do r = Math.floor(rand() * items);
  while (indexed.rows.norms[r] === 0);
  const want = similarItems(exact, r, 64).items;
  sample.push(r);
  exactTop.push(want);
  const index = similarItems(indexed, r, itemList).items; // what the lists held before the round of neighbours of neighbours
  const list = views.itemLists.subarray(r * itemList, (r + 1) * itemList);
  for (const k of [10, 64] as const) {
    recall.index[k].push(recallAt(index, want, k));
    recall.lists[k].push(recallAt(list, want, k));
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const line = (xs: number[]) => `mean ${mean(xs).toFixed(3)}, median ${sorted(xs)[xs.length >> 1]!.toFixed(2)}, worst ${sorted(xs)[0]!.toFixed(2)}`;
// The share of the top k found that scores at least the exact k-th best less 0.001: items the exact
// ranking could have put in its top k but for near-ties (recall@k counts them as misses).
const norms = indexed.rows.norms;
const cos = (r: number, i: number) => dotAt(views.itemFactors, r * F, views.itemFactors, i * F, F) / (norms[r]! * norms[i]!);
const nearTies = (got: (r: number) => Uint32Array, k: number) =>
  sample.map((r, s) => {
    const floor = cos(r, exactTop[s]![k - 1]!) - 1e-3;
    return [...got(r).subarray(0, k)].filter((i) => i !== 0xffffffff && cos(r, i) >= floor).length / k;
  });
console.log(`${items.toLocaleString('en-US')} items × ${F} factors, ${sizes.users.toLocaleString('en-US')} users, ${n.toLocaleString('en-US')} ratings, an index of ${lists} lists; ${SAMPLED} random items; ${new Date().toISOString()}`);
console.log(`- training ${((ended - t0) / 1000).toFixed(1)} s; item lists through the index ${seconds('item lists', 'item lists: neighbours of neighbours')} s, then the round of neighbours of neighbours ${seconds('item lists: neighbours of neighbours')} s`);
for (const k of [10, 64] as const) {
  console.log(`- recall@${k}: through the index ${line(recall.index[k])}; the model's lists (after the round) ${line(recall.lists[k])}`);
}
console.log(`- within near-ties of the exact top 64 (≥ its 64th score − 0.001): the model's lists ${line(nearTies((r) => views.itemLists.subarray(r * itemList, (r + 1) * itemList), 64))}`);
// Further rounds over a copy of the model's lists, to see what more would buy: BENCH_EXTRA_ROUNDS=16,r16,32
// (one round at each fanout, in turn, each after the last; r: with reverse neighbours).
const lists2 = views.itemLists.slice();
for (const round of (process.env['BENCH_EXTRA_ROUNDS'] ?? '').split(',').filter(Boolean)) {
  const fanout = Number(round.replace('r', ''));
  const heads = new Uint32Array(items * fanout);
  listHeadsTo(heads, lists2, itemList, items, fanout);
  let reverse: Uint32Array | undefined;
  if (round.startsWith('r')) reverseHeadsTo((reverse = new Uint32Array(items * fanout)), heads, items, fanout);
  const scratch = new Int32Array(refineScratchLength(items, itemList, fanout)).fill(-1, 0, items);
  t0 = performance.now();
  refineItemListsTo(lists2, heads, itemList, views.itemFactors, indexed.rows.norms, items, F, fanout, 0, items, scratch, reverse);
  const took = ((performance.now() - t0) / 1000).toFixed(1);
  const xs = { 10: [] as number[], 64: [] as number[] };
  sample.forEach((r, s) => {
    for (const k of [10, 64] as const) {
      xs[k].push(recallAt(lists2.subarray(r * itemList, (r + 1) * itemList), exactTop[s]!, k));
    }
  });
  const ties = nearTies((r) => lists2.subarray(r * itemList, (r + 1) * itemList), 64);
  console.log(`- one more round at fanout ${round} (${took} s, one thread): recall@10 ${line(xs[10])}; recall@64 ${line(xs[64])}; within near-ties@64 ${line(ties)}`);
}
