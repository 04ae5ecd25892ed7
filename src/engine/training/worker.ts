// Piscina worker tasks of a training run (pool.run(data, { name })). Workers only compute: every
// buffer they read or write is a SharedArrayBuffer the coordinator (training/trainer.ts) owns, so a
// half-step or a neighbour pass is split among workers writing disjoint rows.
import { alsHalfStepTo, alsLoss } from '../../../native-free-kernels/als.js';
import { wasmHalfStepTo } from '../../../native-free-kernels/wasm-als.js';
import { csrFromTriples, sharedCsr, transpose, type Csr } from '../../../native-free-kernels/csr.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { gramTo } from '../../../native-free-kernels/linalg.js';
import { assignTo, listsFromAssignmentTo, NO_LIST, sphericalKMeansTo } from '../../../native-free-kernels/ivf.js';
import { itemListsTo, listsScratchLength, normOrderOf, userListsScratchLength, userListsTo, type NormOrder } from '../../../native-free-kernels/lists.js';
import type { SharedRows } from '../../../native-free-kernels/score-rows.js';
import { popularityTo } from '../../../native-free-kernels/popularity.js';
import { listHeadsTo, refineItemListsTo, refineScratchLength, reverseHeadsTo, staleRowsTo } from '../../../native-free-kernels/refine-lists.js';
import { coRatedListsTo, coRatedScratchLength } from '../../../native-free-kernels/corated-lists.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { featureFactorsTo } from '../../../native-free-kernels/feature-factors.js';
import { rowIsZero } from '../../../native-free-kernels/rows.js';
import { alsTerms } from '../model/als-terms.js';
import { allocateModel, listsFor, modelViews, NO_ITEM, NO_SLOT, type ModelDims, type ModelViews } from '../model/layout.js';
import { itemsForVector, popularItems, rowNorms, scorable, similarItems } from '../scoring/rankings.js';
import { replay, type Snapshot } from './ratings-replay.js';
import { initFactors } from './init-factors.js';
import { CO_RATED_MAX_RATERS, CO_RATED_MAX_USER_ITEMS, refineFanout } from './tasks.js';
import { fillFromFactors } from './item-weights-tasks.js';
import { workerData } from 'piscina';
import { niceThisThread } from '../thread-priority.js';
import type { PrepareInput, Prepared, GramInput, HalfStepInput, FinishInput, ItemListsInput, ListHeadsInput, RefineListsInput, CoRatedListsInput, UserListsInput, IndexCentroidsInput, IndexAssignInput, ExtendInput, Extended, TableInput } from './tasks.js';

// Training runs beside request handling: its threads yield the cores (engine/thread-priority.ts).
if (typeof workerData?.nice === 'number' && workerData.nice > 0) niceThisThread(workerData.nice);

// Ratings snapshot + log → compacted ratings → CSR both ways, popularity, counts, initial factors.
export function prepare(input: PrepareInput): Prepared {
  const { params: p } = input;
  const snapshot = replay(input.snapshot, input.log);
  const n = snapshot.users.length;
  let users = input.users, items = input.items;
  for (let e = 0; e < n; e++) {
    if (snapshot.users[e]! >= users) users = snapshot.users[e]! + 1;
    if (snapshot.items[e]! >= items) items = snapshot.items[e]! + 1;
  }
  const byUser = sharedCsr(csrFromTriples(users, items, snapshot.users, snapshot.items, snapshot.ratings));
  const byItem = sharedCsr(transpose(byUser));
  const { buffer, views } = allocateModel({ factors: p.factors, users, items, itemList: p.listLength, userList: p.listLength, trainedItems: items, lists: listsFor(items, p.indexMinItems) });
  views.itemLists.fill(NO_ITEM);
  popularityTo(views.popularity, snapshot.items, snapshot.timestamps, new Float32Array(n).fill(1), input.now, p.popularityHalfLifeSeconds);
  for (let i = 0; i < items; i++) views.itemCounts[i] = byItem.indptr[i + 1]! - byItem.indptr[i]!;
  initFactors(views, p.seed);
  const recent = recentUsers(snapshot, users);
  return { model: buffer, byUser, byItem, snapshot, ratings: n, users: recent.length, recent: recent.buffer as SharedArrayBuffer };
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

// k-means runs on this many sample rows per list: enough for stable centroids, far cheaper than all rows.
const SAMPLE_PER_LIST = 48;
const KMEANS_ITERATIONS = 8;


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
  // WebAssembly SIMD where the engine runs it (7–8× the TypeScript kernel on ml-100k, bench/RESULTS.md).
  if (!wasmHalfStepTo(dst, m, other, gram, f, t.regularization, t.alpha, p.cgSteps, rowStart, rowEnd)) alsHalfStepTo(dst, m, other, gram, f, t.regularization, t.alpha, p.cgSteps, new Float64Array(4 * f), rowStart, rowEnd);
}

// The Gram matrix fold-in needs, and the training loss for the model's metrics.
export function finish({ model, byUser, params: p }: FinishInput): { loss: number } {
  const v = modelViews(model);
  const f = v.dims.factors;
  gramTo(v.gram, v.itemFactors, v.dims.items, f);
  const users = alsTerms(p, v.dims.items), items = alsTerms(p, v.dims.users);
  // In the kernels' scale (the objective divided by the unobserved weight).
  return { loss: alsLoss(byUser, v.userFactors, v.itemFactors, v.dims.users, v.dims.items, f, users.regularization, items.regularization, users.alpha) };
}

// Each item's list: by cosine similarity over every item, or through the item index when the model
// has one (the same ranking item-to-items requests make).
export function itemLists({ model, sharedRows, rowStart, rowEnd, rows }: ItemListsInput): void {
  const v = modelViews(model);
  const { items, factors: f, itemList: n } = v.dims;
  if (rows !== undefined) {
    // Scattered rows (items given factors after a training): each by its similar-items ranking.
    const m = scorable(v, sharedRows);
    const listed = new Uint32Array(rows);
    for (let k = rowStart; k < rowEnd; k++) {
      const r = listed[k]!;
      v.itemLists.fill(NO_ITEM, r * n, (r + 1) * n);
      v.itemLists.set(similarItems(m, r, n).items, r * n);
    }
    return;
  }
  if (sharedRows !== undefined) {
    const m = scorable(v, sharedRows);
    for (let r = rowStart; r < rowEnd; r++) v.itemLists.set(similarItems(m, r, n).items, r * n);
    return;
  }
  itemListsTo(v.itemLists, n, v.itemFactors, rowNorms(v.itemFactors, items, f), items, f, rowStart, rowEnd, new Float32Array(listsScratchLength(items, f, n)));
}

// The first refineFanout items of every item's list, each item's reverse neighbours among them, and
// which rows the next round must refine (all of them in the first); returns how many.
export function listHeads({ model, heads, reverse, last, stale }: ListHeadsInput): number {
  const v = modelViews(model);
  const { items, itemList: n } = v.dims;
  const fanout = refineFanout(n);
  listHeadsTo(new Uint32Array(heads), v.itemLists, n, items, fanout);
  reverseHeadsTo(new Uint32Array(reverse), new Uint32Array(heads), items, fanout);
  const s = new Uint8Array(stale);
  if (last === undefined) return s.fill(1), items;
  return staleRowsTo(s, new Uint32Array(heads), new Uint32Array(last.heads), new Uint32Array(reverse), new Uint32Array(last.reverse), items, fanout);
}

// Rows [rowStart, rowEnd) of the item lists refined by one round of neighbours of neighbours.
// Returns how many of the rows' lists changed.
export function refineItemLists({ model, heads, reverse, stale, rowStart, rowEnd }: RefineListsInput): number {
  const v = modelViews(model);
  const { items, factors: f, itemList: n } = v.dims;
  const fanout = refineFanout(n);
  const scratch = new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items);
  return refineItemListsTo(v.itemLists, new Uint32Array(heads), n, v.itemFactors, rowNorms(v.itemFactors, items, f), items, f, fanout, rowStart, rowEnd, scratch, new Uint32Array(reverse), new Uint8Array(stale));
}

// Rows [rowStart, rowEnd) of the item lists refined from the items their raters rated; returns how
// many of the rows' lists changed.
export function coRatedLists({ model, byUser, byItem, rowStart, rowEnd }: CoRatedListsInput): number {
  const v = modelViews(model);
  const { items, factors: f, itemList: n } = v.dims;
  const scratch = new Int32Array(coRatedScratchLength(items, n, f, CO_RATED_MAX_USER_ITEMS)).fill(-1, 0, 2 * items);
  return coRatedListsTo(v.itemLists, n, v.itemFactors, rowNorms(v.itemFactors, items, f), items, f, byItem, byUser, CO_RATED_MAX_RATERS, CO_RATED_MAX_USER_ITEMS, rowStart, rowEnd, scratch);
}

// The lists of the users at users[from, to): their best items by factor score, less what they rated,
// into `out` (users[from + k]'s at k · userList).
export function userLists({ model, byUser, users, byNorm, from, to, out }: UserListsInput): void {
  const v = modelViews(model);
  const { factors: f, userList: n } = v.dims;
  const rows = new Uint32Array(users, from * 4, to - from);
  userListsTo(new Uint32Array(out), n, rows, v.userFactors, v.dims.users, byNorm, f, byUser.indptr, byUser.indices, new Float32Array(userListsScratchLength(f, n)), undefined, true);
}

// The lists of users at [from, to) of `users`: the most popular items they did not rate (popularity
// won the search), into `out` as userLists.
export function popularUserLists({ model, byUser, users, from, to, out }: { model: SharedArrayBuffer; byUser: Csr; users: SharedArrayBuffer; from: number; to: number; out: SharedArrayBuffer }): void {
  const v = modelViews(model);
  const { items, userList: len } = v.dims;
  const scores = Float32Array.from(v.popularity, (p, i) => (v.itemCounts[i] === 0 ? NaN : p));
  const mask = new Uint8Array(items);
  const top = new Uint32Array(len), best = new Float32Array(len);
  const lists = new Uint32Array(out);
  new Uint32Array(users, from * 4, to - from).forEach((u, k) => {
    mask.fill(1);
    for (let e = byUser.indptr[u]!; e < byUser.indptr[u + 1]!; e++) mask[byUser.indices[e]!] = 0;
    const got = fillFromFactors(v, byUser, u, top, topKTo(top, best, scores, items, len, mask));
    const list = lists.subarray(k * len, (k + 1) * len);
    list.fill(NO_ITEM);
    list.set(top.subarray(0, got));
  });
}

// The items in descending order of norm, made once for the users' lists tasks to share.
export function normOrder({ model }: { model: SharedArrayBuffer }): NormOrder {
  const v = modelViews(model);
  const { items, factors: f } = v.dims;
  return normOrderOf(v.itemFactors, rowNorms(v.itemFactors, items, f), items, f);
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
  sphericalKMeansTo(v.listCentroids, lists, v.itemFactors, norms, items, f, sample, KMEANS_ITERATIONS, new Float64Array(lists * f), new Uint32Array(lists), new Uint32Array(size));
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

// ml_new_items: a copy of the model covering every catalogue item, where items without ratings
// (created after training, or never rated) get the mean factors of rated items sharing their
// property values.
export function extend({ model, features }: ExtendInput): Extended {
  const old = modelViews(model);
  const items = Math.max(old.dims.items, features.indptr.length - 1);
  const f = old.dims.factors;
  // The item factors first (the index's lists may grow with them, and with them the model's size).
  const itemFactors = new Float32Array(items * f);
  itemFactors.set(old.itemFactors);
  const itemCounts = new Uint32Array(items);
  itemCounts.set(old.itemCounts);
  const trained = new Uint8Array(items);
  const targets: number[] = [];
  for (let i = 0; i < items; i++) {
    if (itemCounts[i]! > 0) trained[i] = 1;
    else targets.push(i);
  }
  // Items beyond the catalogue's feature rows (none, normally) have no features.
  const indptr = new Uint32Array(items + 1);
  indptr.set(features.indptr.subarray(0, Math.min(features.indptr.length, items + 1)));
  for (let i = features.indptr.length; i <= items; i++) indptr[i] = indptr[i - 1]!;
  const fromFeatures = featureFactorsTo(
    itemFactors,
    items,
    f,
    trained,
    indptr,
    features.indices,
    features.count,
    Uint32Array.from(targets),
    new Float64Array(features.count * f),
    new Uint32Array(features.count),
    new Float64Array(f),
  );
  const index = old.dims.lists > 0 ? extendIndex(old, itemFactors, items, targets) : undefined;
  const dims: ModelDims = { ...old.dims, items, lists: index ? index.lists : old.dims.lists };
  const { buffer, views: v } = allocateModel(dims);
  v.userFactors.set(old.userFactors);
  v.itemFactors.set(itemFactors);
  v.gram.set(old.gram);
  v.popularity.set(old.popularity);
  v.itemCounts.set(itemCounts);
  v.itemLists.fill(NO_ITEM);
  v.itemLists.set(old.itemLists);
  // A layout 2 model's users' slots are their rows.
  if (old.userListSlots.length > 0) v.userListSlots.set(old.userListSlots);
  else if (dims.userList > 0) v.userListSlots.forEach((_, u) => (v.userListSlots[u] = u < (dims.listedUsers ?? 0) ? u : NO_SLOT));
  v.userLists.set(old.userLists);
  if (index) {
    v.listCentroids.set(index.centroids);
    listsFromAssignmentTo(v.listOffsets, v.listMembers, index.assign, items, dims.lists);
  }
  const targetRows = new Uint32Array(new SharedArrayBuffer(targets.length * 4));
  targetRows.set(targets);
  return { model: buffer, dims, targets: targets.length, targetRows: targetRows.buffer as SharedArrayBuffer, fromFeatures };
}

// The index after ml_new_items: rows keep their lists; rows given factors join the list of their
// nearest centroid; a list that grows past 4× the index's mean list at training is split by
// spherical k-means over its members into lists of about that mean (new centroids after the old
// ones). Items given factors from their properties have rows near the mean item and would otherwise
// all join one list: 331k of 1M synthetic items did, and every ranking that took it scored a third
// of the catalogue (bench/kernels/new-items-index.ts).
function extendIndex(old: ModelViews, itemFactors: Float32Array, items: number, targets: number[]): { lists: number; centroids: Float32Array; assign: Uint32Array } {
  const f = old.dims.factors;
  let lists = old.dims.lists;
  const assign = new Uint32Array(items).fill(NO_LIST);
  for (let c = 0; c < lists; c++) for (let p = old.listOffsets[c]!; p < old.listOffsets[c + 1]!; p++) assign[old.listMembers[p]!] = c;
  const norms = rowNorms(itemFactors, items, f);
  for (const i of targets) assignTo(assign, itemFactors, norms, items, f, old.listCentroids, lists, i, i + 1);
  const counts = new Uint32Array(lists);
  for (let i = 0; i < items; i++) if (assign[i] !== NO_LIST) counts[assign[i]!]!++;
  const mean = Math.max(1, old.listOffsets[lists]! / lists);
  const split: { list: number; parts: number }[] = [];
  for (let c = 0; c < lists; c++) if (counts[c]! > 4 * mean) split.push({ list: c, parts: Math.ceil(counts[c]! / mean) });
  const added = split.reduce((sum, s) => sum + s.parts - 1, 0);
  const centroids = new Float32Array((lists + added) * f);
  centroids.set(old.listCentroids);
  const next = mulberry32(old.dims.items);
  for (const { list, parts } of split) {
    const members: number[] = [];
    for (let i = 0; i < items; i++) if (assign[i] === list) members.push(i);
    // A sample of the members in random order, as indexCentroids takes it (the first seed the centroids).
    const size = Math.min(members.length, parts * SAMPLE_PER_LIST);
    for (let s = 0; s < size; s++) {
      const pick = s + Math.floor(next() * (members.length - s));
      [members[s], members[pick]] = [members[pick]!, members[s]!];
    }
    const own = new Float32Array(parts * f);
    sphericalKMeansTo(own, parts, itemFactors, norms, items, f, Uint32Array.from(members.slice(0, size)), KMEANS_ITERATIONS, new Float64Array(parts * f), new Uint32Array(parts), new Uint32Array(size));
    // Part 0 takes the old list's place, the others come after every list so far.
    const at = [list, ...Array.from({ length: parts - 1 }, (_, k) => lists + k)];
    for (let k = 0; k < parts; k++) centroids.set(own.subarray(k * f, (k + 1) * f), at[k]! * f);
    const local = new Uint32Array(items);
    for (const i of members) {
      assignTo(local, itemFactors, norms, items, f, own, parts, i, i + 1);
      assign[i] = at[local[i]!]!;
    }
    lists += parts - 1;
  }
  return { lists, centroids, assign };
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
    let ranked;
    if (kind === 'item_to_items') ranked = similarItems(m, r, amt);
    else {
      ranked = rowIsZero(views.userFactors, views.dims.users, f, r) ? popularItems(m, amt) : itemsForVector(m, views.userFactors.subarray(r * f, (r + 1) * f), amt);
    }
    out.fill(0xffffffff, r * amt, (r + 1) * amt);
    out.set(ranked.items, r * amt);
  }
}
export { validationSplit, confidence, trialModel, refactor, validate } from './search-tasks.js';
export { weighRatings, easeColumns, easeGram, easePivot, easeUpdate, easeWeights, knnWeights, easeValidate, easeUserLists } from './item-weights-tasks.js';
