// The training worker tasks, called in-thread: prepare → gram/halfStep iterations → finish →
// item and user lists → extend.
import t from 'tap';
import { alsLoss } from '../../native-free-kernels/als.js';
import { gramTo } from '../../native-free-kernels/linalg.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { allocateModel, modelViews, NO_ITEM, userListOf, withUserLists } from '../../src/engine/model/layout.js';
import { decodeSnapshot, replay, type LogEntry, type Snapshot } from '../../src/engine/training/ratings-replay.js';
import type { AlsParams, ItemFeatures, Prepared } from '../../src/engine/training/tasks.js';
import {
  coRatedLists,
  easeColumns,
  easeUserLists,
  extend,
  finish,
  gram,
  halfStep,
  indexAssign,
  indexCentroids,
  indexLists,
  itemLists,
  prepare,
  sharedRows,
  userLists,
} from '../../src/engine/training/worker.js';
import { CO_RATED_MAX_RATERS, CO_RATED_MAX_USER_ITEMS } from '../../src/engine/training/tasks.js';
import { coRatedListsTo as coRatedReference } from '../../native-free-kernels/reference/corated-lists.js';
import { rowNormsTo } from '../../native-free-kernels/rows.js';

const params: AlsParams = {
  factors: 4,
  iterations: 3,
  regularization: 1,
  alpha: 1,
  unobserved: 1,
  regExponent: 0,
  ratingShift: 0,
  ratingFloor: 0,
  cgSteps: 3,
  listLength: 3,
  userListsSeconds: 60,
  indexMinItems: 1000,
  popularityHalfLifeSeconds: 1e9,
  seed: 1,
};
const NOW = 1_700_000_000;

// Ratings of users [0, 25) on items [0, 16): users 25..29 and items 16..19 exist in the catalogue
// without ratings.
function randomSnapshot(seed: number): Snapshot {
  const rand = mulberry32(seed);
  const u: number[] = [],
    i: number[] = [],
    r: number[] = [],
    ts: number[] = [];
  for (let user = 0; user < 25; user++) {
    for (let item = 0; item < 16; item++) {
      // Two blocks of taste plus noise, so the factors have something to find.
      const p = user < 12 === item < 8 ? 0.5 : 0.08;
      if (rand() < p) {
        u.push(user);
        i.push(item);
        r.push(1 + Math.floor(rand() * 5));
        ts.push(NOW - Math.floor(rand() * 86_400));
      }
    }
  }
  return { users: Uint32Array.from(u), items: Uint32Array.from(i), ratings: Float32Array.from(r), timestamps: Float64Array.from(ts) };
}

function runIterations(p: Prepared, iterations: number): void {
  const f = params.factors;
  const dst = new SharedArrayBuffer(f * f * 8);
  const { dims } = modelViews(p.model);
  for (let it = 0; it < iterations; it++) {
    gram({ model: p.model, side: 'items', rowStart: 0, rowEnd: dims.items, dst });
    halfStep({ model: p.model, side: 'users', m: p.byUser, gram: dst, rowStart: 0, rowEnd: dims.users, params });
    gram({ model: p.model, side: 'users', rowStart: 0, rowEnd: dims.users, dst });
    halfStep({ model: p.model, side: 'items', m: p.byItem, gram: dst, rowStart: 0, rowEnd: dims.items, params });
  }
}

const lossOf = (p: Prepared) => {
  const v = modelViews(p.model);
  return alsLoss(
    p.byUser,
    v.userFactors,
    v.itemFactors,
    v.dims.users,
    v.dims.items,
    v.dims.factors,
    params.regularization,
    params.regularization,
    params.alpha,
  );
};

t.test('prepare: shapes, counts, popularity, initial factors', async (t) => {
  const snapshot = randomSnapshot(1);
  const p = prepare({ snapshot, log: [], users: 30, items: 20, params, now: NOW });
  const v = modelViews(p.model);
  t.same(
    v.dims,
    { factors: 4, users: 30, items: 20, itemList: 3, userList: 3, trainedItems: 20, lists: 0, listedUsers: 0 },
    'dims cover the catalogue (users get lists after the fit)',
  );
  t.equal(p.ratings, snapshot.users.length, 'rating count');
  t.equal(p.users, new Set(snapshot.users).size, 'users with ratings');
  t.same(decodeSnapshot(p.compacted), replay(snapshot, []), 'the compacted snapshot');
  t.ok(p.compacted.buffer instanceof SharedArrayBuffer, 'encoded in shared memory: it crosses to the caller uncopied');
  t.equal(p.byUser.rows, 30);
  t.equal(p.byUser.cols, 20);
  t.equal(p.byItem.rows, 20);
  t.equal(p.byItem.cols, 30);
  t.ok(p.byUser.indptr.buffer instanceof SharedArrayBuffer && p.byItem.values.buffer instanceof SharedArrayBuffer, 'CSR shared');
  t.equal(p.byUser.indices.length, snapshot.users.length, 'every rating in byUser');

  const counts = new Array<number>(20).fill(0);
  for (const i of snapshot.items) counts[i]!++;
  t.same(Array.from(v.itemCounts), counts, 'itemCounts = ratings per item');
  t.ok(
    counts.slice(16).every((c) => c === 0),
    'unrated items count 0',
  );
  let popOk = true;
  for (let i = 0; i < 20; i++) if (Math.abs(v.popularity[i]! - counts[i]!) > 1e-3 * Math.max(1, counts[i]!)) popOk = false;
  t.ok(popOk, 'popularity ≈ counts with a huge half-life');

  t.ok(v.userFactors.every((x) => x >= 0 && x < 0.01) && v.itemFactors.every((x) => x >= 0 && x < 0.01), 'initial factors in [0, 0.01)');
  t.ok(new Set(v.itemFactors).size > 50, 'initial factors are random');
  const again = modelViews(prepare({ snapshot, log: [], users: 30, items: 20, params, now: NOW }).model);
  t.same(Array.from(again.itemFactors), Array.from(v.itemFactors), 'same seed, same initial factors');
  const other = modelViews(prepare({ snapshot, log: [], users: 30, items: 20, params: { ...params, seed: 2 }, now: NOW }).model);
  t.notSame(Array.from(other.itemFactors), Array.from(v.itemFactors), 'another seed, other factors');
});

t.test('prepare: the log is replayed and dims grow to cover rated indices', async (t) => {
  const snapshot = randomSnapshot(2);
  const r = Buffer.alloc(48);
  r.writeUInt32BE(0, 0);
  r.writeUInt32BE(0, 4);
  r.writeDoubleBE(3, 8);
  r.writeDoubleBE(NOW, 16);
  r.writeUInt32BE(1, 24);
  r.writeUInt32BE(1, 28);
  r.writeDoubleBE(2, 32);
  r.writeDoubleBE(NOW, 40);
  const log: LogEntry[] = [
    { op: 'delete-user', u: '3', i: '', r: undefined },
    { op: 'put', u: '40,2', i: '24,0', r }, // user 40 rates item 24: beyond the catalogue marks given
  ];
  const p = prepare({ snapshot, log, users: 30, items: 20, params, now: NOW });
  const v = modelViews(p.model);
  t.same(decodeSnapshot(p.compacted), replay(snapshot, log), 'the replayed snapshot');
  t.equal(v.dims.users, 41, 'users grow to the highest rated index + 1');
  t.equal(v.dims.items, 25, 'items grow to the highest rated index + 1');
  t.equal(v.dims.trainedItems, 25);
  t.equal(p.byUser.indptr[4]! - p.byUser.indptr[3]!, 0, 'the deleted user has no ratings');
  t.equal(v.itemCounts[24], 1);
});

t.test('iterations lower the loss; finish, item and user lists, and extend', async (t) => {
  const snapshot = randomSnapshot(3);
  const p = prepare({ snapshot, log: [], users: 30, items: 20, params, now: NOW });
  const v = modelViews(p.model);
  const f = params.factors;
  const before = lossOf(p);

  // gram() writes FᵀF of the chosen side.
  const dst = new SharedArrayBuffer(f * f * 8);
  gram({ model: p.model, side: 'users', rowStart: 0, rowEnd: v.dims.users, dst });
  const want = new Float64Array(f * f);
  gramTo(want, v.userFactors, v.dims.users, f);
  t.same(Array.from(new Float64Array(dst)), Array.from(want), 'gram of the user factors');
  // Parts over row ranges sum to the whole (what the coordinator does with one part per thread).
  const cut = Math.floor(v.dims.users / 3);
  const parts = [new SharedArrayBuffer(f * f * 8), new SharedArrayBuffer(f * f * 8)];
  gram({ model: p.model, side: 'users', rowStart: 0, rowEnd: cut, dst: parts[0]! });
  gram({ model: p.model, side: 'users', rowStart: cut, rowEnd: v.dims.users, dst: parts[1]! });
  const summed = Array.from(new Float64Array(parts[0]!), (x, k) => x + new Float64Array(parts[1]!)[k]!);
  summed.forEach((x, k) => t.ok(Math.abs(x - want[k]!) <= 1e-9 * Math.max(1, Math.abs(want[k]!)), `gram part sum ${k}`));

  const losses = [before];
  for (let it = 0; it < params.iterations; it++) {
    runIterations(p, 1);
    losses.push(lossOf(p));
  }
  t.ok(losses.every(Number.isFinite), `finite losses ${losses.join(', ')}`);
  t.ok(losses[losses.length - 1]! < before, `loss decreased from ${before} to ${losses[losses.length - 1]}`);
  t.ok(losses[1]! < before, 'the first iteration already lowers it');
  // Rows without ratings are zero after a half-step.
  let unratedZero = true;
  for (let u = 25; u < 30; u++) for (let a = 0; a < f; a++) if (v.userFactors[u * f + a] !== 0) unratedZero = false;
  for (let i = 16; i < 20; i++) for (let a = 0; a < f; a++) if (v.itemFactors[i * f + a] !== 0) unratedZero = false;
  t.ok(unratedZero, 'users and items without ratings have zero factors');

  const { loss } = finish({ model: p.model, byUser: p.byUser, params });
  t.equal(loss, lossOf(p), 'finish reports the loss');
  gramTo(want, v.itemFactors, v.dims.items, f);
  t.same(Array.from(v.gram), Array.from(want), 'finish stores the item Gram matrix');

  const dot = (a: Float32Array, i: number, b: Float32Array, j: number) =>
    Array.from({ length: f }, (_, x) => a[i * f + x]! * b[j * f + x]!).reduce((x, y) => x + y, 0);
  const cosine = (i: number, j: number) =>
    dot(v.itemFactors, i, v.itemFactors, j) / Math.sqrt(dot(v.itemFactors, i, v.itemFactors, i) * dot(v.itemFactors, j, v.itemFactors, j));
  itemLists({ model: p.model, sharedRows: undefined, rowStart: 0, rowEnd: v.dims.items });
  const k = v.dims.itemList;
  t.equal(v.itemLists.length, 20 * k);
  let listsOk = true;
  for (let i = 0; i < 16; i++) {
    const list = Array.from(v.itemLists.subarray(i * k, (i + 1) * k));
    const best = Array.from({ length: 16 }, (_, j) => j)
      .filter((j) => j !== i)
      .sort((a, b) => cosine(i, b) - cosine(i, a) || a - b)
      .slice(0, k);
    if (list.some((j, s) => j !== best[s] && Math.abs(cosine(i, j) - cosine(i, best[s]!)) > 1e-5)) listsOk = false;
  }
  t.ok(listsOk, 'item lists: the other trained items by descending cosine');
  t.ok(
    v.itemLists.subarray(16 * k).every((j) => j === NO_ITEM),
    'items without factors: empty lists',
  );

  // recent: users with ratings, the latest rating newest first.
  const latest = new Map<number, number>();
  snapshot.users.forEach((u, e) => latest.set(u, Math.max(latest.get(u) ?? -Infinity, snapshot.timestamps[e]!)));
  const recent = Array.from(new Uint32Array(p.recent));
  t.same(
    recent,
    [...latest.keys()].sort((a, b) => latest.get(b)! - latest.get(a)! || a - b),
    'recent users',
  );
  t.equal(v.userLists.length, 0, 'no user list before userLists');
  const out = new SharedArrayBuffer((recent.length - 2) * k * 4),
    made = new Uint32Array(out);
  userLists({
    model: p.model,
    byUser: p.byUser,
    users: p.recent,
    sharedRows: sharedRows({ model: p.model }),
    from: 2,
    to: recent.length,
    out,
  });
  let userOk = true;
  for (const [at, u] of recent.entries()) {
    if (at < 2) continue;
    const list = Array.from(made.subarray((at - 2) * k, (at - 1) * k));
    const rated = new Set(Array.from(p.byUser.indices.subarray(p.byUser.indptr[u]!, p.byUser.indptr[u + 1]!)));
    const best = Array.from({ length: 16 }, (_, j) => j)
      .filter((j) => !rated.has(j))
      .sort((a, b) => dot(v.userFactors, u, v.itemFactors, b) - dot(v.userFactors, u, v.itemFactors, a) || a - b)
      .slice(0, k);
    while (best.length < k) best.push(NO_ITEM);
    if (
      list.some(
        (j, s) =>
          j !== best[s]
          && (j === NO_ITEM || Math.abs(dot(v.userFactors, u, v.itemFactors, j) - dot(v.userFactors, u, v.itemFactors, best[s]!)) > 1e-5),
      )
    )
      userOk = false;
  }
  t.ok(userOk, 'user lists: unrated trained items by descending score, only for the users asked');
  // The model with those lists: slots for the users listed only; extend keeps them.
  const listedModel = withUserLists(p.model, Uint32Array.from(recent.slice(2)), [made]);
  const lv = modelViews(listedModel);
  t.equal(lv.dims.listedUsers, recent.length - 2);
  t.ok(
    recent.every((u, at) => userListOf(lv, u).join() === (at < 2 ? '' : made.subarray((at - 2) * k, (at - 1) * k).join())),
    'each listed user reads their list, the others none',
  );

  // extend: items 20..23 are new. Feature 0: trained items 1, 4, 6 and new item 21; feature 1:
  // trained items 2, 9 plus old unrated item 17; item 22 has both features; 23 has none; feature 2
  // only new item 20 (no trained item: the global mean).
  const featuresOf: number[][] = Array.from({ length: 24 }, () => []);
  for (const i of [1, 4, 6, 21, 22]) featuresOf[i]!.push(0);
  for (const i of [2, 9, 17, 22]) featuresOf[i]!.push(1);
  featuresOf[20]!.push(2);
  const indptr = new Uint32Array(25);
  featuresOf.forEach((fs, i) => (indptr[i + 1] = indptr[i]! + fs.length));
  const features: ItemFeatures = { indptr, indices: Uint32Array.from(featuresOf.flat()), count: 3 };

  const oldBytes = new Uint8Array(p.model).slice();
  const ext = extend({ model: p.model, features });
  t.ok(Buffer.from(new Uint8Array(p.model)).equals(Buffer.from(oldBytes)), 'the old model is not modified');
  const e = modelViews(ext.model);
  t.same(e.dims, { ...v.dims, items: 24 }, 'covers every catalogue item, trainedItems unchanged');
  t.same(ext.dims, e.dims);
  t.equal(ext.targets, 4 + 4, 'targets: old unrated items 16..19 and new items 20..23');
  t.equal(ext.fromFeatures, 3, 'from features: 17, 21, 22');
  t.same(Array.from(e.userFactors), Array.from(v.userFactors), 'user factors copied');
  const le = modelViews(extend({ model: listedModel, features }).model);
  t.same(le.dims, { ...lv.dims, items: 24 }, 'extended: the same listed users');
  t.ok(
    Array.from({ length: 30 }, (_, u) => userListOf(le, u).join() === userListOf(lv, u).join()).every(Boolean),
    "extended: every user's list kept",
  );
  t.same(Array.from(e.itemFactors.subarray(0, 16 * f)), Array.from(v.itemFactors.subarray(0, 16 * f)), 'trained item rows copied exactly');
  t.same(Array.from(e.gram), Array.from(v.gram), 'gram copied');
  t.same(Array.from(e.popularity.subarray(0, 20)), Array.from(v.popularity), 'popularity copied');
  t.same(Array.from(e.popularity.subarray(20)), [0, 0, 0, 0], 'new items: no popularity');
  t.same(Array.from(e.itemCounts.subarray(0, 20)), Array.from(v.itemCounts), 'counts copied');
  t.same(Array.from(e.itemCounts.subarray(20)), [0, 0, 0, 0], 'new items: count 0');
  t.same(Array.from(e.itemLists.subarray(0, 20 * k)), Array.from(v.itemLists), 'item lists copied');
  t.ok(
    e.itemLists.subarray(20 * k).every((j) => j === NO_ITEM),
    'new items: empty lists',
  );
  t.same(Array.from(e.userLists), Array.from(v.userLists), 'user lists copied');

  const row = (a: Float32Array, i: number) => Array.from(a.subarray(i * f, (i + 1) * f));
  const mean = (items: number[]) =>
    Array.from({ length: f }, (_, a) => items.reduce((s, i) => s + v.itemFactors[i * f + a]!, 0) / items.length);
  const close = (got: number[], want: number[]) => got.every((x, a) => Math.abs(x - want[a]!) <= 1e-6 * Math.max(1, Math.abs(want[a]!)));
  const f0 = mean([1, 4, 6]),
    f1 = mean([2, 9]);
  const trainedMean = mean(Array.from({ length: 16 }, (_, i) => i));
  t.ok(close(row(e.itemFactors, 21), f0), `item 21 = mean of items 1, 4, 6: ${row(e.itemFactors, 21)} vs ${f0}`);
  t.ok(close(row(e.itemFactors, 17), f1), 'old unrated item 17 = mean of items 2, 9');
  t.ok(
    close(
      row(e.itemFactors, 22),
      f0.map((x, a) => (x + f1[a]!) / 2),
    ),
    'item 22 = mean of its two features’ means',
  );
  t.ok(close(row(e.itemFactors, 23), trainedMean), 'item 23 without features = mean trained item');
  t.ok(close(row(e.itemFactors, 20), trainedMean), 'item 20 whose feature no trained item has = mean trained item');
  t.ok(close(row(e.itemFactors, 16), trainedMean), 'old unrated item 16 without features = mean trained item');
  t.ok(
    row(e.itemFactors, 21).some((x) => x !== 0),
    'a non-zero row',
  );

  // The targets' lists (listNewItems): each its similar items by cosine, trained or given factors; the others untouched.
  t.same([...new Uint32Array(ext.targetRows)], [16, 17, 18, 19, 20, 21, 22, 23], 'target rows');
  const untouched = e.itemLists.slice(0, 16 * k);
  itemLists({ model: ext.model, sharedRows: undefined, rowStart: 0, rowEnd: 5, rows: ext.targetRows });
  itemLists({ model: ext.model, sharedRows: undefined, rowStart: 5, rowEnd: 8, rows: ext.targetRows });
  t.same([...e.itemLists.subarray(0, 16 * k)], [...untouched], 'trained items keep their lists');
  const cos = (i: number, j: number) => {
    const a = row(e.itemFactors, i),
      b = row(e.itemFactors, j);
    const dot = (x: number[], y: number[]) => x.reduce((s, xa, c) => s + xa * y[c]!, 0);
    return dot(a, b) / Math.sqrt(dot(a, a) * dot(b, b));
  };
  let targetsOk = true;
  for (let i = 16; i < 24; i++) {
    const list = [...e.itemLists.subarray(i * k, (i + 1) * k)];
    const best = Array.from({ length: 24 }, (_, j) => j)
      .filter((j) => j !== i && row(e.itemFactors, j).some((x) => x !== 0))
      .sort((x, y) => cos(i, y) - cos(i, x))
      .slice(0, k);
    if (list.some((j, s) => j !== best[s] && Math.abs(cos(i, j) - cos(i, best[s]!)) > 1e-5)) targetsOk = false;
  }
  t.ok(targetsOk, 'every target listed with its most similar items');

  // Fewer feature rows than model items: the model keeps its size.
  const short = extend({ model: p.model, features: { indptr: new Uint32Array(1), indices: new Uint32Array(0), count: 0 } });
  t.equal(short.dims.items, 20, 'never shrinks');
  t.equal(short.targets, 4);
  t.equal(short.fromFeatures, 0);
});

t.test('halfStep over split ranges equals the full half-step', async (t) => {
  const a = prepare({ snapshot: randomSnapshot(4), log: [], users: 30, items: 20, params, now: NOW });
  const b = prepare({ snapshot: randomSnapshot(4), log: [], users: 30, items: 20, params, now: NOW });
  const f = params.factors;
  const g = new SharedArrayBuffer(f * f * 8);
  gram({ model: a.model, side: 'items', rowStart: 0, rowEnd: 20, dst: g });
  halfStep({ model: a.model, side: 'users', m: a.byUser, gram: g, rowStart: 0, rowEnd: 30, params });
  for (const [s, e] of [
    [0, 7],
    [7, 7],
    [7, 19],
    [19, 30],
  ] as const)
    halfStep({ model: b.model, side: 'users', m: b.byUser, gram: g, rowStart: s, rowEnd: e, params });
  t.ok(Buffer.from(new Uint8Array(a.model)).equals(Buffer.from(new Uint8Array(b.model))), 'same model bytes');
  itemLists({ model: a.model, sharedRows: undefined, rowStart: 0, rowEnd: 20 });
  itemLists({ model: b.model, sharedRows: undefined, rowStart: 10, rowEnd: 20 });
  itemLists({ model: b.model, sharedRows: undefined, rowStart: 0, rowEnd: 10 });
  t.ok(Buffer.from(new Uint8Array(a.model)).equals(Buffer.from(new Uint8Array(b.model))), 'same item lists');
});

t.test('item index tasks: centroids, assignment in ranges, lists; extend places new items', async (t) => {
  const f = 4,
    items = 600,
    lists = 6;
  const { buffer: model, views: v } = allocateModel({ factors: f, users: 1, items, itemList: 0, userList: 0, trainedItems: items, lists });
  const rand = mulberry32(5);
  // Six directions, 100 items each; items 0..9 have no factors (never rated).
  const centres = Array.from({ length: lists }, () => Array.from({ length: f }, () => rand() * 2 - 1));
  for (let i = 10; i < items; i++)
    for (let a = 0; a < f; a++) v.itemFactors[i * f + a] = centres[i % lists]![a]! * (1 + rand()) + (rand() - 0.5) * 0.02;
  v.itemCounts.fill(1, 10);
  indexCentroids({ model, seed: 3 });
  for (let c = 0; c < lists; c++)
    t.ok(Math.abs(Math.hypot(...v.listCentroids.subarray(c * f, (c + 1) * f)) - 1) < 1e-5, `centroid ${c} is a unit vector`);
  const assign = new SharedArrayBuffer(items * 4);
  indexAssign({ model, assign, rowStart: 0, rowEnd: 250 });
  indexAssign({ model, assign, rowStart: 250, rowEnd: items });
  indexLists({ model, assign });
  t.equal(v.listOffsets[lists], items - 10, 'every item with factors is listed, the 10 without are not');
  const listOf = new Map<number, number>();
  for (let c = 0; c < lists; c++) for (let p = v.listOffsets[c]!; p < v.listOffsets[c + 1]!; p++) listOf.set(v.listMembers[p]!, c);
  t.equal(listOf.size, items - 10, 'no item in two lists');
  const nearest = (views: typeof v, i: number) => {
    const dots = Array.from({ length: lists }, (_, c) =>
      Array.from({ length: f }, (_, a) => views.itemFactors[i * f + a]! * views.listCentroids[c * f + a]!).reduce((x, y) => x + y),
    );
    return dots.indexOf(Math.max(...dots));
  };
  t.ok(
    [...listOf].every(([i, c]) => nearest(v, i) === c),
    'each item is in the list of its nearest centroid',
  );
  t.ok(new Set(listOf.values()).size >= lists - 1, 'the lists share the items out');

  // Items 0..9 and new items 600..603 get factors from features: each joins a list.
  const indptr = new Uint32Array(items + 5);
  const featureOf = (i: number) => [i % lists]; // the planted direction of the item's residue
  for (let i = 0; i < items + 4; i++) indptr[i + 1] = indptr[i]! + featureOf(i).length;
  const ext = extend({
    model,
    features: { indptr, indices: Uint32Array.from(Array.from({ length: items + 4 }, (_, i) => featureOf(i)).flat()), count: lists },
  });
  const e = modelViews(ext.model);
  t.equal(e.dims.lists, lists, 'the extended model keeps its lists');
  t.same(e.listCentroids, v.listCentroids, 'and its centroids');
  t.equal(e.listOffsets[lists], items + 4, 'every item is listed now');
  const extOf = new Map<number, number>();
  for (let c = 0; c < lists; c++) for (let p = e.listOffsets[c]!; p < e.listOffsets[c + 1]!; p++) extOf.set(e.listMembers[p]!, c);
  t.ok(
    [...listOf].every(([i, c]) => extOf.get(i) === c),
    'listed items keep their list',
  );
  t.ok(
    [0, 1, 2, 3, 600, 601, 602, 603].every((i) => extOf.get(i) === nearest(e, i)),
    'items given factors join the list of their nearest centroid',
  );

  // 1,000 new items sharing one feature pile into one list (4× the mean list of 99 and more): it is split.
  const many = items + 1000;
  const crowd = new Uint32Array(many + 1);
  const crowdOf = (i: number) => (i < items ? [i % lists] : [0]);
  for (let i = 0; i < many; i++) crowd[i + 1] = crowd[i]! + 1;
  const big = extend({
    model,
    features: { indptr: crowd, indices: Uint32Array.from(Array.from({ length: many }, (_, i) => crowdOf(i)).flat()), count: lists },
  });
  const g = modelViews(big.model);
  t.ok(g.dims.lists > lists, `lists grew: ${g.dims.lists}`);
  const sizes = Array.from({ length: g.dims.lists }, (_, c) => g.listOffsets[c + 1]! - g.listOffsets[c]!);
  t.equal(g.listOffsets[g.dims.lists], many, 'every item listed once');
  t.equal(new Set(g.listMembers.subarray(0, many)).size, many, 'no item in two lists');
  const changed = Array.from({ length: lists }, (_, c) => c).filter((c) =>
    g.listCentroids.subarray(c * f, (c + 1) * f).some((x, a) => x !== v.listCentroids[c * f + a]),
  );
  t.equal(changed.length, 1, 'one list was split (its first part takes its place); the others keep their centroids');
  t.ok(
    Array.from({ length: g.dims.lists }, (_, c) => Math.abs(Math.hypot(...g.listCentroids.subarray(c * f, (c + 1) * f)) - 1) < 1e-5).every(
      Boolean,
    ),
    'every centroid a unit vector',
  );
  // The crowd's rows are one and the same (the mean of feature 0's items): k-means cannot part them, but
  // the trained items among them get lists of their own.
  t.ok(sizes.filter((x) => x > 0).length > lists, `more non-empty lists than before: ${sizes.join(',')}`);
});

t.test("easeUserLists: a list that runs out of covered items is filled by the user's factors", async (t) => {
  const f = 2,
    items = 6,
    len = 4;
  const { buffer: model, views: v } = allocateModel({
    factors: f,
    users: 1,
    items,
    itemList: 0,
    userList: len,
    trainedItems: items,
    lists: 0,
  });
  v.userFactors.set([1, 0]);
  // Item 5 has no factors (never listed); items 2, 3, 4 are uncovered, ranked by factors 4 > 2 > 3.
  v.itemFactors.set([0.1, 0, 0.2, 0, 0.5, 0, 0.3, 0, 0.9, 0, 0, 0]);
  const byUser = { rows: 1, cols: items, indptr: Uint32Array.of(0, 1), indices: Uint32Array.of(0), values: Float32Array.of(1) };
  // EASE covers items 0 and 1; the user rated 0, so it lists 1 and then runs out.
  const cols = easeColumns({
    byItem: {
      rows: items,
      cols: 1,
      indptr: Uint32Array.of(0, 1, 2, 2, 2, 2, 2),
      indices: Uint32Array.of(0, 0),
      values: Float32Array.of(1, 1),
    },
    maxItems: 10,
    minCount: 1,
  });
  t.same([...cols.kept], [0, 1]);
  const weights = new SharedArrayBuffer(4 * 4);
  new Float32Array(weights).set([0, 0.5, 0.5, 0]);
  const users = new SharedArrayBuffer(4),
    out = new SharedArrayBuffer(len * 4);
  easeUserLists({ model, byUser, weights, cols, users, from: 0, to: 1, out, alsWeight: 0 });
  t.same([...new Uint32Array(out)], [1, 4, 2, 3], 'the covered item, then the best others by factors');
  // A list the covered items fill is left as it is.
  const all = easeColumns({
    byItem: {
      rows: items,
      cols: 1,
      indptr: Uint32Array.of(0, 1, 2, 3, 4, 5, 5),
      indices: Uint32Array.of(0, 0, 0, 0, 0),
      values: new Float32Array(5).fill(1),
    },
    maxItems: 10,
    minCount: 1,
  });
  const w5 = new SharedArrayBuffer(25 * 4);
  new Float32Array(w5).set(Array.from({ length: 25 }, (_, k) => (Math.floor(k / 5) === 0 ? [0, 0.1, 0.4, 0.3, 0.2][k % 5]! : 0)));
  easeUserLists({ model, byUser, weights: w5, cols: all, users, from: 0, to: 1, out, alsWeight: 0 });
  t.same([...new Uint32Array(out)], [2, 3, 4, 1], 'by EASE alone');
});

t.test('coRatedLists: the lists of items of at most two raters, in parts, as the reference twin makes them', async (t) => {
  // 20 users rating 2 to 7 of 60 items: many items of one or two raters.
  const rand = mulberry32(9);
  const u: number[] = [],
    i: number[] = [];
  for (let user = 0; user < 20; user++) {
    const taken = new Set<number>();
    const count = 2 + Math.floor(rand() * 6);
    while (taken.size < count) taken.add(Math.floor(rand() * 60));
    for (const item of taken) u.push(user), i.push(item);
  }
  const snapshot = {
    users: Uint32Array.from(u),
    items: Uint32Array.from(i),
    ratings: new Float32Array(u.length).fill(3),
    timestamps: new Float64Array(u.length).fill(NOW),
  };
  const p = prepare({ snapshot, log: [], users: 20, items: 60, params, now: NOW });
  runIterations(p, 2);
  const v = modelViews(p.model);
  const { items, factors: f, itemList: n } = v.dims;
  v.itemLists.fill(NO_ITEM);
  const want = v.itemLists.slice();
  const norms = new Float32Array(items);
  rowNormsTo(norms, v.itemFactors, items, f);
  const wantChanged = coRatedReference(
    want,
    n,
    v.itemFactors,
    norms,
    items,
    f,
    p.byItem,
    p.byUser,
    CO_RATED_MAX_RATERS,
    CO_RATED_MAX_USER_ITEMS,
    0,
    items,
  );
  const rows = sharedRows({ model: p.model });
  const changed =
    coRatedLists({ model: p.model, byUser: p.byUser, byItem: p.byItem, sharedRows: rows, rowStart: 0, rowEnd: 25 })
    + coRatedLists({ model: p.model, byUser: p.byUser, byItem: p.byItem, sharedRows: rows, rowStart: 25, rowEnd: items });
  t.ok(wantChanged > 10, `${wantChanged} lists made`);
  t.equal(changed, wantChanged);
  t.same([...v.itemLists], [...want]);
});
