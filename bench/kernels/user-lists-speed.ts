// Users' lists on trained factors: userListsTo scanning items longest row first and stopping once a
// block's lists are settled, against the same kernel made to scan every item (bounds of +∞), on a
// model the service's trainer makes of the synthetic catalogue (bench/lib/synthetic.ts: power-law
// popularity and activity). Both give the exact lists (checked here); what differs is time. Then, in
// the same run, the WebAssembly SIMD kernel training uses (wasm-user-lists.ts, over the rows in wasm
// memory): with and without its early stop, in one call for all sampled users (blocks of 32) and in
// calls of BENCH_CALL users (a training's tasks: 40 at 100,000 items of 32 factors, lists.ts
// usersPerTask); its lists are counted against the TypeScript kernel's (f32 sums against f64 sums:
// near-ties may swap).
//
// One thread, the sampled users in one call per variant (training runs the same calls in tasks on
// every thread of the pool, the most recently active users first).
//
// Run: npx tsc -p . && node dist/bench/kernels/user-lists-speed.js
// Env: BENCH_SYNTH_ITEMS (100,000), BENCH_SYNTH_USERS (200,000), BENCH_SYNTH_RATINGS (4,000,000),
//      BENCH_ITERATIONS (10), BENCH_FACTORS (32), BENCH_SAMPLE (2,000 users), BENCH_LIST (128),
//      BENCH_BLOCKS ("4,8"), BENCH_CALL (40).
import os from 'node:os';
import { csrFromTriples } from '../../native-free-kernels/csr.js';
import { normOrderOf, userListsScratchLength, userListsTo } from '../../native-free-kernels/lists.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { modelViews } from '../../src/engine/model/layout.js';
import { scoreRows } from '../../native-free-kernels/score-rows.js';
import { wasmUserListsTo } from '../../native-free-kernels/wasm-user-lists.js';
import { WasmRows } from '../../native-free-kernels/wasm-rows.js';
import { rowNorms } from '../../src/engine/scoring/rankings.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import type { Snapshot } from '../../src/engine/training/ratings-replay.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { Synthetic, synthSizes } from '../lib/synthetic.js';

const env = (name: string, fallback: number) => Number(process.env[name] ?? fallback);
const SAMPLE = env('BENCH_SAMPLE', 2000);
const N = env('BENCH_LIST', 128);
const BLOCKS = (process.env.BENCH_BLOCKS ?? '4,8').split(',').map(Number);
const CALL = env('BENCH_CALL', 40);

function snapshotOf(synth: Synthetic, users: number, ratings: number): Snapshot {
  const s: Snapshot = {
    users: new Uint32Array(ratings),
    items: new Uint32Array(ratings),
    ratings: new Float32Array(ratings),
    timestamps: new Float64Array(ratings),
  };
  const item = new Uint32Array(synth.sizes.items),
    rating = new Uint8Array(synth.sizes.items),
    stamp = new Uint32Array(synth.sizes.items); // a user rates each item once at most
  let at = 0;
  for (let u = 1; u <= users; u++) {
    const n = synth.ratingsOf(u, item, rating, stamp);
    // Sorted by (user, item), as a snapshot is.
    const order = Array.from({ length: n }, (_, j) => j).sort((a, b) => item[a]! - item[b]!);
    for (const j of order) {
      s.users[at] = u - 1;
      s.items[at] = item[j]! - 1;
      s.ratings[at] = rating[j]!;
      s.timestamps[at++] = stamp[j]!;
    }
  }
  return s;
}

async function main(): Promise<void> {
  const sizes = synthSizes();
  sizes.items = env('BENCH_SYNTH_ITEMS', 100_000);
  sizes.users = env('BENCH_SYNTH_USERS', 200_000);
  sizes.ratings = env('BENCH_SYNTH_RATINGS', 4_000_000);
  const synth = new Synthetic(sizes);
  let t0 = performance.now();
  const snapshot = snapshotOf(synth, sizes.users, sizes.ratings);
  console.log(
    `synthetic ${sizes.items.toLocaleString('en-US')} items × ${sizes.users.toLocaleString('en-US')} users × ${sizes.ratings.toLocaleString('en-US')} ratings in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  const pool = new TrainingPool(os.availableParallelism());
  t0 = performance.now();
  const params = {
    factors: env('BENCH_FACTORS', 32),
    iterations: env('BENCH_ITERATIONS', 10),
    regularization: 20,
    alpha: 0.25,
    unobserved: 1,
    regExponent: 0,
    ratingShift: 0,
    ratingFloor: 0,
    cgSteps: 3,
    listLength: 0,
    userListsSeconds: 0,
    indexMinItems: 2 ** 31,
    popularityHalfLifeSeconds: 30 * 86400,
    seed: 42,
  };
  const trained = await trainAls(pool, { snapshot, log: [], users: sizes.users, items: sizes.items }, params, () => {});
  await pool.close();
  const v = modelViews(trained.model);
  const { items, users, factors: f } = v.dims;
  console.log(`trained in ${((performance.now() - t0) / 1000).toFixed(1)} s: ${f} factors`);

  const byUser = csrFromTriples(users, items, snapshot.users, snapshot.items, snapshot.ratings);
  const rand = mulberry32(7);
  const picked = new Set<number>();
  while (picked.size < Math.min(SAMPLE, users)) picked.add(Math.floor(rand() * users));
  const sample = Uint32Array.from(picked);
  const norms = rowNorms(v.itemFactors, items, f);
  t0 = performance.now();
  const byNorm = normOrderOf(v.itemFactors, norms, items, f);
  console.log(
    `norm order of ${byNorm.count.toLocaleString('en-US')} items in ${(performance.now() - t0).toFixed(0)} ms; longest row ${byNorm.norms[0]!.toFixed(3)}, median ${byNorm.norms[byNorm.count >> 1]!.toFixed(4)}`,
  );
  const unbounded = { ...byNorm, norms: new Float32Array(byNorm.count).fill(Infinity) };
  const full = new Uint32Array(users * N);
  console.log('\n| variant | block | ms a user | × full scan | 1M users on 2 threads |');
  console.log('|---|---:|---:|---:|---:|');
  for (const block of BLOCKS) {
    const scratch = new Float32Array(userListsScratchLength(f, N, block));
    t0 = performance.now();
    userListsTo(full, N, sample, v.userFactors, users, unbounded, f, byUser.indptr, byUser.indices, scratch, block);
    const fullMs = (performance.now() - t0) / sample.length;
    const got = new Uint32Array(users * N);
    t0 = performance.now();
    userListsTo(got, N, sample, v.userFactors, users, byNorm, f, byUser.indptr, byUser.indices, scratch, block);
    const ms = (performance.now() - t0) / sample.length;
    let same = 0;
    for (const u of sample) if (got.subarray(u * N, u * N + N).every((x, p) => x === full[u * N + p])) same++;
    if (same !== sample.length) throw new Error(`the early stop changed ${sample.length - same} lists`);
    const projected = (ms: number) => `${((ms * 1e6) / 2 / 1000).toFixed(0)} s`;
    console.log(`| every item | ${block} | ${fullMs.toFixed(3)} | 1.0× | ${projected(fullMs)} |`);
    console.log(`| longest rows first, early stop | ${block} | ${ms.toFixed(3)} | ${(fullMs / ms).toFixed(1)}× | ${projected(ms)} |`);
  }
  console.log(`\nthe same lists for all ${sample.length.toLocaleString('en-US')} users (TypeScript, both scans)`);

  const rows = WasmRows.attach(
    scoreRows(v.itemFactors, items, f, new Uint32Array(0), undefined, { listLength: N }).shared as WebAssembly.Memory,
  );
  if (!rows) throw new Error('no WebAssembly SIMD here');
  const wasm = (dst: Uint32Array, users: Uint32Array) => {
    if (!wasmUserListsTo(rows, dst, N, users, v.userFactors, v.userFactors.length / f, byUser.indptr, byUser.indices))
      throw new Error('the wasm kernel did not run');
  };
  const timed = (run: () => void) => {
    const t = performance.now();
    run();
    return (performance.now() - t) / sample.length;
  };
  const stopped = new Uint32Array(users * N),
    inCalls = new Uint32Array(users * N),
    every = new Uint32Array(users * N);
  wasm(stopped, sample.subarray(0, 64)); // compiled before timing
  const msOne = timed(() => wasm(stopped, sample));
  const msCalls = timed(() => {
    for (let p = 0; p < sample.length; p += CALL) wasm(inCalls, sample.subarray(p, p + CALL));
  });
  const sortedNorms = rows.sorted.norms,
    kept = sortedNorms.slice();
  sortedNorms.fill(Infinity);
  const msEvery = timed(() => wasm(every, sample));
  sortedNorms.set(kept);
  let same = 0,
    sameStop = 0;
  for (const u of sample) {
    const list = stopped.subarray(u * N, u * N + N);
    if (list.every((x, p) => x === full[u * N + p])) same++;
    if (list.every((x, p) => x === every[u * N + p] && x === inCalls[u * N + p])) sameStop++;
  }
  if (sameStop !== sample.length) throw new Error(`the wasm kernel's early stop or calls changed ${sample.length - sameStop} lists`);
  const projected = (ms: number) => `${((ms * 1e6) / 2 / 1000).toFixed(0)} s`;
  console.log('\n| WebAssembly SIMD | ms a user | 1M users on 2 threads |');
  console.log('|---|---:|---:|');
  console.log(`| every item, one call | ${msEvery.toFixed(3)} | ${projected(msEvery)} |`);
  console.log(`| early stop, one call (blocks of 32) | ${msOne.toFixed(3)} | ${projected(msOne)} |`);
  console.log(`| early stop, calls of ${CALL} users | ${msCalls.toFixed(3)} | ${projected(msCalls)} |`);
  console.log(
    `\nwasm: the same lists with and without the early stop and in calls of ${CALL}; the TypeScript kernel's exact lists for ${same} of ${sample.length} users (the rest: near-equal scores in another order)`,
  );
}

await main();
