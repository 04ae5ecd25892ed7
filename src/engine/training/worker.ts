// Piscina worker tasks of a training run (pool.run(data, { name })). Workers only compute: every
// buffer they read or write is a SharedArrayBuffer the coordinator (training/trainer.ts) owns, so a
// half-step or a neighbour pass is split among workers writing disjoint rows.
import { alsHalfStepTo, alsLoss } from '../../../native-free-kernels/als.js';
import { wasmHalfStepTo } from '../../../native-free-kernels/wasm-als.js';
import { csrFromSorted, transpose } from '../../../native-free-kernels/csr.js';
import { gramTo } from '../../../native-free-kernels/linalg.js';
import { assignTo, listsFromAssignmentTo, sphericalKMeansTo } from '../../../native-free-kernels/ivf.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import { popularityTo } from '../../../native-free-kernels/popularity.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { rowIsZero } from '../../../native-free-kernels/rows.js';
import { alsTerms } from '../model/als-terms.js';
import { allocateModel, listsFor, modelViews, NO_ITEM } from '../model/layout.js';
import { itemsForVector, popularItems, rowNorms, scorable, similarItems, type Ranking } from '../scoring/rankings.js';
import { encodeSnapshot, replay, type Snapshot } from './ratings-replay.js';
import { initFactors, warmFactors } from './init-factors.js';
import { KMEANS_ITERATIONS, SAMPLE_PER_LIST } from './tasks.js';
import { workerData } from 'piscina';
import { niceThisThread } from '../thread-priority.js';
import type {
  PrepareInput,
  Prepared,
  GramInput,
  HalfStepInput,
  FinishInput,
  IndexCentroidsInput,
  IndexAssignInput,
  TableInput,
} from './tasks.js';

// Training runs beside request handling: its threads yield the cores (engine/thread-priority.ts).
if (typeof workerData?.nice === 'number' && workerData.nice > 0) niceThisThread(workerData.nice);

// Ratings snapshot + log → compacted ratings → CSR both ways, popularity, counts, initial factors.
export function prepare(input: PrepareInput): Prepared {
  const { params: p } = input;
  const snapshot = replay(input.snapshot, input.log);
  const compacted = encodeSnapshot(snapshot, true);
  const n = snapshot.users.length;
  let users = input.users,
    items = input.items;
  for (let e = 0; e < n; e++) {
    if (snapshot.users[e]! >= users) users = snapshot.users[e]! + 1;
    if (snapshot.items[e]! >= items) items = snapshot.items[e]! + 1;
  }
  // replay's ratings come sorted by (user, item), each pair once.
  const byUser = csrFromSorted(users, items, snapshot.users, snapshot.items, snapshot.ratings, true);
  const byItem = transpose(byUser, true);
  const { buffer, views } = allocateModel({
    factors: p.factors,
    users,
    items,
    itemList: p.listLength,
    userList: p.listLength,
    trainedItems: items,
    lists: listsFor(items, p.indexMinItems),
  });
  views.itemLists.fill(NO_ITEM);
  popularityTo(views.popularity, snapshot.items, snapshot.timestamps, new Float32Array(n).fill(1), input.now, p.popularityHalfLifeSeconds);
  for (let i = 0; i < items; i++) views.itemCounts[i] = byItem.indptr[i + 1]! - byItem.indptr[i]!;
  initFactors(views, p.seed);
  const warm = input.start !== undefined && warmFactors(views, modelViews(input.start));
  const recent = recentUsers(snapshot, users);
  return { model: buffer, warm, byUser, byItem, compacted, ratings: n, users: recent.length, recent: recent.buffer as SharedArrayBuffer };
}

// The users with ratings, the one whose latest rating is newest first (ties: lower row first).
function recentUsers(s: Snapshot, users: number): Uint32Array {
  const latest = new Float64Array(users).fill(-Infinity);
  for (let e = 0; e < s.users.length; e++) if (s.timestamps[e]! > latest[s.users[e]!]!) latest[s.users[e]!] = s.timestamps[e]!;
  let rated = 0;
  for (let u = 0; u < users; u++) if (latest[u] !== -Infinity) rated++;
  const out = new Uint32Array(new SharedArrayBuffer(rated * 4));
  let k = 0;
  for (let u = 0; u < users; u++) if (latest[u] !== -Infinity) out[k++] = u;
  out.sort((a, b) => latest[b]! - latest[a]! || a - b);
  return out;
}

export function gram({ model, side, rowStart, rowEnd, dst }: GramInput): void {
  const v = modelViews(model);
  const f = v.dims.factors;
  const factors = side === 'users' ? v.userFactors : v.itemFactors;
  gramTo(new Float64Array(dst), factors.subarray(rowStart * f, rowEnd * f), rowEnd - rowStart, f);
}

export function halfStep({ model, side, m, gram: g, rowStart, rowEnd, params: p }: HalfStepInput): void {
  const v = modelViews(model);
  const f = v.dims.factors;
  const [dst, other] = side === 'users' ? [v.userFactors, v.itemFactors] : [v.itemFactors, v.userFactors];
  const t = alsTerms(p, m.cols);
  const gram = new Float64Array(g);
  // WebAssembly SIMD where the engine runs it (7–8× the TypeScript kernel on ml-100k: bench/RESULTS.md, "Training speed: ALS against numpy, one and two threads").
  if (!wasmHalfStepTo(dst, m, other, gram, f, t.regularization, t.alpha, p.cgSteps, rowStart, rowEnd))
    alsHalfStepTo(dst, m, other, gram, f, t.regularization, t.alpha, p.cgSteps, new Float64Array(4 * f), rowStart, rowEnd);
}

// The Gram matrix fold-in needs, and the training loss for the model's metrics.
export function finish({ model, byUser, params: p }: FinishInput): { loss: number } {
  const v = modelViews(model);
  const f = v.dims.factors;
  gramTo(v.gram, v.itemFactors, v.dims.items, f);
  const users = alsTerms(p, v.dims.items),
    items = alsTerms(p, v.dims.users);
  // In the kernels' scale (the objective divided by the unobserved weight).
  return {
    loss: alsLoss(
      byUser,
      v.userFactors,
      v.itemFactors,
      v.dims.users,
      v.dims.items,
      f,
      users.regularization,
      items.regularization,
      users.alpha,
      v.gram,
    ),
  };
}

// The rows rankings score (score-rows.ts), built once for the item lists' tasks to share.
export function sharedRows({ model }: { model: SharedArrayBuffer }): SharedRows {
  return scorable(modelViews(model)).rows.shared;
}

// The item index's centroids: spherical k-means on a random sample of the items with factors.
export function indexCentroids({ model, seed }: IndexCentroidsInput): void {
  const v = modelViews(model);
  const { items, factors: f, lists } = v.dims;
  const norms = rowNorms(v.itemFactors, items, f);
  const rated: number[] = [];
  for (let i = 0; i < items; i++) if (norms[i]! > 0) rated.push(i);
  if (rated.length === 0) return; // nothing to index: every list stays empty
  const next = mulberry32(seed);
  // Without replacement while rows suffice (a partial shuffle), else with repeats (duplicate seeds
  // leave lists empty, which k-means re-seeds).
  const size = Math.max(lists, Math.min(rated.length, lists * SAMPLE_PER_LIST));
  const sample = new Uint32Array(size);
  for (let s = 0; s < size; s++) {
    if (s < rated.length) {
      const pick = s + Math.floor(next() * (rated.length - s));
      [rated[s], rated[pick]] = [rated[pick]!, rated[s]!];
      sample[s] = rated[s]!;
    } else sample[s] = rated[Math.floor(next() * rated.length)]!;
  }
  sphericalKMeansTo(
    v.listCentroids,
    lists,
    v.itemFactors,
    norms,
    items,
    f,
    sample,
    KMEANS_ITERATIONS,
    new Float64Array(lists * f),
    new Uint32Array(lists),
    new Uint32Array(size),
  );
}

export function indexAssign({ model, assign, rowStart, rowEnd }: IndexAssignInput): void {
  const v = modelViews(model);
  const { items, factors: f, lists } = v.dims;
  assignTo(new Uint32Array(assign), v.itemFactors, rowNorms(v.itemFactors, items, f), items, f, v.listCentroids, lists, rowStart, rowEnd);
}

export function indexLists({ model, assign }: { model: SharedArrayBuffer; assign: SharedArrayBuffer }): void {
  const v = modelViews(model);
  listsFromAssignmentTo(v.listOffsets, v.listMembers, new Uint32Array(assign), v.dims.items, v.dims.lists);
}

// Rows of a precomputed table: per item its most similar items, per user the items of highest
// score, by the same rankings requests use (engine/scoring/rankings.ts); a user without factors (no
// ratings at training time) gets the popular items.
export function table({ model, kind, amt, rowStart, rowEnd, dst }: TableInput): void {
  const views = modelViews(model);
  const f = views.dims.factors;
  const m = scorable(views);
  const out = new Uint32Array(dst);
  for (let r = rowStart; r < rowEnd; r++) {
    let ranked: Ranking;
    if (kind === 'item_to_items') ranked = similarItems(m, r, amt);
    else {
      ranked = rowIsZero(views.userFactors, views.dims.users, f, r)
        ? popularItems(m, amt)
        : itemsForVector(m, views.userFactors.subarray(r * f, (r + 1) * f), amt);
    }
    out.fill(0xffffffff, r * amt, (r + 1) * amt);
    out.set(ranked.items, r * amt);
  }
}
export { itemLists, listHeads, refineItemLists, coRatedLists, userLists, popularUserLists } from './list-tasks.js';
export { validationSplit, confidence, trialModel, refactor, validate } from './search-tasks.js';
export { extend } from './extend-tasks.js';
export {
  weighRatings,
  easeColumns,
  easeGram,
  easePivot,
  easeUpdate,
  easeWeights,
  knnWeights,
  easeValidate,
  easeUserLists,
} from './item-weights-tasks.js';
