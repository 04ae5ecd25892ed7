// Model bytes with users' lists stored only for the users a training listed (layout 3), against a
// list slot for every user (layout 2), and the training time of ml-latest-small with lists of 128
// for every user (the production trainer, no search; median of RUNS).
//   npm run build && RECD_DATASETS=../shared/datasets node dist/bench/kernels/model-user-lists.js
// The training part reads only the model buffer's size and the trainer's result, so the same file
// times an earlier build too.
import { TrainingPool } from '../../src/engine/training/pool.js';
import { trainAls } from '../../src/engine/training/trainer.js';
import { modelViews } from '../../src/engine/model/layout.js';
import * as layout from '../../src/engine/model/layout.js';
import { loadMlLatestSmall } from '../quality/data.js';

const RUNS = Number(process.env.RUNS ?? 5);
const THREADS = Number(process.env.THREADS ?? 2);
const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;
const align8 = (n: number) => Math.ceil(n / 8) * 8;

// Layout 3 sizes from modelBytes; layout 2 is the same model with a list for every user and no slots.
const modelBytes = (layout as unknown as { modelBytes: (d: object) => number }).modelBytes;
function sizes(
  label: string,
  d: { factors: number; users: number; items: number; itemList: number; userList: number; trainedItems: number; lists: number },
  listedShare: number,
): void {
  const listedUsers = Math.round(d.users * listedShare);
  const after = modelBytes({ ...d, listedUsers });
  const before = modelBytes({ ...d, listedUsers: d.users }) - (d.userList > 0 ? align8(d.users * 4) : 0);
  console.log(
    `${label}, ${(100 * listedShare).toFixed(0)} % listed: layout 2 ${mb(before)}, layout 3 ${mb(after)} (${((100 * after) / before).toFixed(1)} %)`,
  );
}

if (process.env.SIZES !== '0') {
  const big = { factors: 32, users: 1_000_000, items: 100_000, itemList: 128, userList: 128, trainedItems: 100_000, lists: 49 };
  for (const share of [1, 0.9, 0.2, 0]) sizes('1M users × 100k items × 32 factors, lists of 128', big, share);
  const huge = { factors: 32, users: 20_000_000, items: 100_000, itemList: 128, userList: 128, trainedItems: 100_000, lists: 49 };
  for (const share of [1, 0.2]) sizes('20M users × 100k items × 32 factors, lists of 128', huge, share);
}

const d = loadMlLatestSmall();
const n = d.u.length;
const order = Array.from({ length: n }, (_, k) => k).sort((a, b) => d.u[a]! - d.u[b]! || d.i[a]! - d.i[b]!);
const snapshot = {
  users: Uint32Array.from(order, (k) => d.u[k]!),
  items: Uint32Array.from(order, (k) => d.i[k]!),
  ratings: Float32Array.from(order, (k) => 2 * d.r[k]!),
  timestamps: Float64Array.from(order, (k) => k),
};
const pool = new TrainingPool(THREADS);
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
  userListsSeconds: 300,
  indexMinItems: 2 ** 31,
  popularityHalfLifeSeconds: 1e9,
  seed: 42,
};
const runs: { seconds: number; lists: number }[] = [];
let bytes = 0,
  listed = 0,
  users = 0;
for (let r = 0; r < RUNS + 1; r++) {
  const t = await trainAls(pool, { snapshot, log: [], users: d.users, items: d.items }, params, () => {});
  bytes = t.model.byteLength;
  listed = t.listed.users;
  users = modelViews(t.model).dims.users;
  if (r > 0) runs.push({ seconds: t.seconds, lists: t.listed.seconds }); // the first warms the pool up
}
const median = (x: number[]) => x.sort((a, b) => a - b)[x.length >> 1]!;
console.log(`ml-latest-small: ${users} users (${listed} listed), model ${bytes} bytes`);
console.log(
  `training (${THREADS} threads, ${RUNS} runs): median ${median(runs.map((r) => r.seconds)).toFixed(3)} s, of it item and user lists ${median(runs.map((r) => r.lists)).toFixed(3)} s; all: ${runs.map((r) => r.seconds.toFixed(3)).join(' ')}`,
);
await pool.close();
