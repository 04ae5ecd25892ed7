// Recall of the precomputed item lists against the exact cosine ranking, on the synthetic catalogue
// (bench/lib/synthetic.ts, sizes from BENCH_SYNTH_*) trained in-process by the production trainer
// with an item index (the lists come through it, as at 100k items and more, then rounds of neighbours
// of neighbours, refine-lists.ts, then the co-rated items of items of few raters, corated-lists.ts),
// against the index's own ranking, and how long the training's lists took. Recall is against the
// exact ranking twice: as requests rank (WebAssembly, f32 sums) and in the lists' arithmetic (f64 sums).
//   npm run build && BENCH_SYNTH_ITEMS=100000 BENCH_SYNTH_USERS=200000 BENCH_SYNTH_RATINGS=4000000 node dist/bench/kernels/item-lists-recall.js
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { probeItemListsTo } from './lib/probe-lists.js';
import { directionGroupsOf, offerGroupsTo, type DirectionGroups } from './lib/direction-groups.js';
const GROUP_CAP = Number(process.env.BENCH_GROUP_CAP ?? 2048);
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { modelViews } from '../../src/engine/model/layout.js';
import { scorable, similarItems, type Scorable } from '../../src/engine/scoring/rankings.js';
import { dotAt } from '../../native-free-kernels/dot.js';
import { cosineScoresTo } from '../../native-free-kernels/scores.js';
import { topKTo } from '../../native-free-kernels/top-k.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { recallAt } from '../lib/model-recall.js';
import { Synthetic, synthSizes, trainingSnapshot } from '../lib/synthetic.js';
import {
  listHeadsTo,
  refineItemListsTo,
  refineScratchLength,
  reverseHeadsTo,
  staleRowsTo,
} from '../../native-free-kernels/refine-lists.js';
import { coRatedListsTo, coRatedScratchLength } from '../../native-free-kernels/corated-lists.js';
import { csrFromTriples, transpose, type Csr } from '../../native-free-kernels/csr.js';

const F = Number(process.env.RECD_ALS_FACTORS ?? 32);
const SAMPLED = Number(process.env.BENCH_SAMPLED ?? 300);
const sizes = synthSizes();
const synth = new Synthetic(sizes);
let t0 = performance.now();
const snapshot = trainingSnapshot(synth);
const n = snapshot.users.length;
console.error(`generated ${n} ratings in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const pool = new TrainingPool(availableParallelism());
const params = {
  factors: F,
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
  indexMinItems: 1,
  popularityHalfLifeSeconds: 1e9,
  seed: 42,
};
t0 = performance.now();
// When each step of the training began (its progress texts).
const began = new Map<string, number>();
// BENCH_MODEL_FILE: the trained model is written there, or read from there when it exists (training
// skipped), so variants of the lists can be compared on one model without training again.
const modelFile = process.env.BENCH_MODEL_FILE;
let model: SharedArrayBuffer;
if (modelFile !== undefined && existsSync(modelFile)) {
  const bytes = readFileSync(modelFile);
  model = new SharedArrayBuffer(bytes.byteLength);
  new Uint8Array(model).set(bytes);
  console.error(`model read from ${modelFile}`);
} else {
  ({ model } = await trainAls(pool, { snapshot, log: [], users: sizes.users, items: sizes.items }, params, (text) => {
    if (!began.has(text)) began.set(text, performance.now());
  }));
  if (modelFile !== undefined) writeFileSync(modelFile, new Uint8Array(model));
}
const ended = performance.now();
await pool.close();
// When the first step whose text begins `prefix` began (texts end with the run's percentage).
const at = (prefix: string) => [...began].find(([text]) => text.startsWith(prefix))?.[1];
const seconds = (from: string, to?: string) => {
  const a = at(from),
    b = to === undefined ? ended : at(to);
  return a === undefined || b === undefined ? '(not run)' : ((b - a) / 1000).toFixed(1);
};
const views = modelViews(model);
const { items, itemList, lists } = views.dims;
const indexed: Scorable = scorable(views);
const exact: Scorable = { ...indexed, views: { ...views, dims: { ...views.dims, lists: 0 } } };
const rand = mulberry32(7);
const sample: number[] = [],
  exactTop: Uint32Array[] = [];
// The exact ranking in the lists' own arithmetic (dotAt: f64 sums, scores rounded to f32): the one
// above scores in WebAssembly with f32 sums, whose rounding (~1e-6 relative, wasm/assembly/scores.ts)
// orders near-parallel rows differently, so recall against it counts ties broken by rounding as misses.
const exactF64: Uint32Array[] = [];
const scoresF64 = new Float32Array(items);
const f64Top = (r: number) => {
  cosineScoresTo(scoresF64, views.itemFactors, indexed.rows.norms, items, F, r);
  const at = new Uint32Array(64),
    best = new Float32Array(64);
  return at.subarray(0, topKTo(at, best, scoresF64, items, 64));
};
const recall = { index: { 10: [] as number[], 64: [] as number[] }, lists: { 10: [] as number[], 64: [] as number[] } };
for (let s = 0; s < SAMPLED; s++) {
  let r: number;
  do r = Math.floor(rand() * items);
  while (indexed.rows.norms[r] === 0);
  const want = similarItems(exact, r, 64).items;
  sample.push(r);
  exactTop.push(want);
  exactF64.push(f64Top(r));
  const index = similarItems(indexed, r, itemList).items; // what the lists held before the round of neighbours of neighbours
  const list = views.itemLists.subarray(r * itemList, (r + 1) * itemList);
  for (const k of [10, 64] as const) {
    recall.index[k].push(recallAt(index, want, k));
    recall.lists[k].push(recallAt(list, want, k));
  }
}
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);
const line = (xs: number[]) =>
  `mean ${mean(xs).toFixed(3)}, median ${sorted(xs)[xs.length >> 1]!.toFixed(2)}, worst ${sorted(xs)[0]!.toFixed(2)}`;
// The share of the top k found that scores at least the exact k-th best less 0.001: items the exact
// ranking could have put in its top k but for near-ties (recall@k counts them as misses).
const norms = indexed.rows.norms;
const cos = (r: number, i: number) => dotAt(views.itemFactors, r * F, views.itemFactors, i * F, F) / (norms[r]! * norms[i]!);
const nearTies = (got: (r: number) => Uint32Array, k: number) =>
  sample.map((r, s) => {
    const floor = cos(r, exactTop[s]![k - 1]!) - 1e-3;
    return [...got(r).subarray(0, k)].filter((i) => i !== 0xffffffff && cos(r, i) >= floor).length / k;
  });
console.log(
  `${items.toLocaleString('en-US')} items × ${F} factors, ${sizes.users.toLocaleString('en-US')} users, ${n.toLocaleString('en-US')} ratings, an index of ${lists} lists; ${SAMPLED} random items; ${new Date().toISOString()}`,
);
const rounds = [...began.keys()].filter((k) => k.startsWith('item lists: neighbours of neighbours')).length;
console.log(
  `- training ${((ended - t0) / 1000).toFixed(1)} s; item lists through the index ${seconds('item lists', 'item lists: neighbours of neighbours, round 1')} s, then ${rounds} round(s) of neighbours of neighbours ${seconds('item lists: neighbours of neighbours, round 1', 'item lists: co-rated')} s, then co-rated items ${seconds('item lists: co-rated')} s (load ${loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')})`,
);
for (const k of [10, 64] as const) {
  console.log(`- recall@${k}: through the index ${line(recall.index[k])}; the model's lists (after the round) ${line(recall.lists[k])}`);
}
console.log(
  `- within near-ties of the exact top 64 (≥ its 64th score − 0.001): the model's lists ${line(nearTies((r) => views.itemLists.subarray(r * itemList, (r + 1) * itemList), 64))}`,
);
// Variants of the lists, each from a start then rounds, recall after each step:
// BENCH_VARIANTS="model:r16x4;p16384:r16x4" — start `model` (the trained model's lists), `index` (the
// index's ranking, as requests make it) or `pN` (the index probed for at least N candidates, one
// thread); rounds `[r]F[xK]`: K rounds (default 1) at fanout F, r: with reverse neighbours; `cR[mM]`:
// the items co-rated by the raters of each item of at most R raters, raters of more than M items
// (default: none) left out (corated-lists.ts; the ratings regenerated from the synthetic seed, as the training had them).
const exactTies = (got: (r: number) => Uint32Array, k: number) =>
  sample.map((r, s) => {
    const floor = cos(r, exactTop[s]![k - 1]!);
    return [...got(r).subarray(0, k)].filter((i) => i !== 0xffffffff && cos(r, i) >= floor).length / k;
  });
const report = (label: string, work: Uint32Array, took: string) => {
  const of = (r: number) => work.subarray(r * itemList, (r + 1) * itemList);
  const xs = { 10: [] as number[], 64: [] as number[] },
    f64 = { 10: [] as number[], 64: [] as number[] };
  sample.forEach((r, s) => {
    for (const k of [10, 64] as const) xs[k].push(recallAt(of(r), exactTop[s]!, k)), f64[k].push(recallAt(of(r), exactF64[s]!, k));
  });
  console.log(
    `| ${label} | ${line(xs[10])} | ${line(xs[64])} | ${mean(f64[10]).toFixed(3)} | ${line(f64[64])} | ${mean(exactTies(of, 64)).toFixed(3)} | ${mean(nearTies(of, 64)).toFixed(3)} | ${took} |`,
  );
};
// biome-ignore lint/suspicious/noConfusingVoidType: timed runs of kernels that return a count and of ones that return nothing
const timed = (run: () => number | void): [string, number | void] => {
  const t = performance.now();
  const out = run();
  return [((performance.now() - t) / 1000).toFixed(1), out];
};
let ratings: { byUser: Csr; byItem: Csr } | undefined;
const ratingsCsr = () => {
  const byUser = csrFromTriples(sizes.users, items, snapshot.users, snapshot.items, snapshot.ratings);
  return { byUser, byItem: transpose(byUser) };
};
for (const variant of (process.env.BENCH_VARIANTS ?? '').split(';').filter(Boolean)) {
  const [start, rounds = ''] = variant.split(':');
  let work: Uint32Array;
  let took: string;
  if (start === 'model') [work, took] = [views.itemLists.slice(), '(the training)'];
  else if (start === 'index') {
    work = new Uint32Array(items * itemList).fill(0xffffffff);
    [took] = timed(() => {
      for (let r = 0; r < items; r++) work.set(similarItems(indexed, r, itemList).items, r * itemList);
    });
  } else {
    work = new Uint32Array(items * itemList);
    const probe = Number(start!.slice(1));
    [took] = timed(() =>
      probeItemListsTo(
        work,
        itemList,
        views.itemFactors,
        norms,
        items,
        F,
        views.listCentroids,
        lists,
        views.listOffsets,
        views.listMembers,
        probe,
        0,
        items,
      ),
    );
  }
  console.log(
    `\n${variant} (${new Date().toISOString()}, load ${loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')})\n`,
  );
  console.log(
    '| step | recall@10 | recall@64 | recall@10 (f64 exact) | recall@64 (f64 exact) | exact ties@64 | near-ties@64 | seconds (one thread) |\n|---|---|---|---:|---|---:|---:|---:|',
  );
  report(start!, work, took);
  // As the training: with reverse neighbours, a round after one at the same fanout refines only
  // the rows whose neighbourhood changed (staleRowsTo).
  let last: { spec: string; heads: Uint32Array; reverse: Uint32Array } | undefined;
  let groups: DirectionGroups | undefined;
  for (const round of rounds.split(',').filter(Boolean)) {
    if (round.startsWith('c')) {
      const { byUser, byItem } = (ratings ??= ratingsCsr());
      let most = 0;
      for (let u = 0; u < byUser.rows; u++) most = Math.max(most, byUser.indptr[u + 1]! - byUser.indptr[u]!);
      const [maxRaters, maxUserItems = most] = round.slice(1).split('m').map(Number);
      const scratch = new Int32Array(coRatedScratchLength(items, itemList, F, maxUserItems!)).fill(-1, 0, 2 * items);
      const [secs, changed] = timed(() =>
        coRatedListsTo(work, itemList, views.itemFactors, norms, items, F, byItem, byUser, maxRaters!, maxUserItems!, 0, items, scratch),
      );
      // `last` kept: a row whose heads and neighbours' heads did not move holds the best of the last
      // round's candidates and the co-rated ones, so a round that skips it still makes the same lists.
      report(`+ co-rated ${round} (${(changed as number).toLocaleString('en-US')} lists changed)`, work, secs);
      continue;
    }
    const [spec, times = '1'] = round.split('x');
    const fanout = Number(spec!.replace('g', '').replace('r', ''));
    // g: each row also offered its group of equal direction (lib/direction-groups.ts), up to
    // GROUP_CAP, after the round: the same lists as offering it within the round.
    const withGroups = spec!.startsWith('g');
    if (withGroups) groups ??= directionGroupsOf(views.itemFactors, norms, items, F);
    const offered = withGroups ? groups : undefined;
    for (let t = 0; t < Number(times); t++) {
      const heads = new Uint32Array(items * fanout);
      listHeadsTo(heads, work, itemList, items, fanout);
      let reverse: Uint32Array | undefined, stale: Uint8Array | undefined;
      if (spec!.includes('r')) reverseHeadsTo((reverse = new Uint32Array(items * fanout)), heads, items, fanout);
      let staleCount = items;
      if (reverse && last !== undefined && last.spec === spec)
        staleCount = staleRowsTo((stale = new Uint8Array(items)), heads, last.heads, reverse, last.reverse, items, fanout);
      last = reverse && { spec: spec!, heads, reverse };
      const scratch = new Int32Array(refineScratchLength(items, itemList, fanout)).fill(-1, 0, items);
      const before = offered && work.slice();
      const [secs, refined] = timed(() => {
        const changed = refineItemListsTo(
          work,
          heads,
          itemList,
          views.itemFactors,
          norms,
          items,
          F,
          fanout,
          0,
          items,
          scratch,
          reverse,
          stale,
        );
        if (offered) offerGroupsTo(work, itemList, views.itemFactors, norms, items, F, offered, GROUP_CAP, 0, items, stale);
        return changed;
      });
      const changed = before ? changedLists(before, work, itemList) : refined;
      report(
        `+ round ${spec} (${staleCount.toLocaleString('en-US')} rows refined, ${(changed as number).toLocaleString('en-US')} lists changed)`,
        work,
        secs,
      );
    }
  }
}

// How many rows (n entries each) differ between two copies of the lists.
function changedLists(before: Uint32Array, after: Uint32Array, n: number): number {
  let changed = 0;
  for (let r = 0; r * n < after.length; r++) {
    for (let k = r * n; k < (r + 1) * n; k++) {
      if (before[k] !== after[k]) {
        changed++;
        break;
      }
    }
  }
  return changed;
}
