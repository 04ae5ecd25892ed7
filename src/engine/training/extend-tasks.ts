// The ml_new_items worker task (a piscina task of worker.ts): the model extended to every catalogue
// item, and its item index to the items given factors.
import { assignTo, listsFromAssignmentTo, NO_LIST, sphericalKMeansTo } from '../../../native-free-kernels/ivf.js';
import { mulberry32 } from '../../../native-free-kernels/random.js';
import { featureFactorsTo } from '../../../native-free-kernels/feature-factors.js';
import { allocateModel, modelViews, NO_ITEM, NO_SLOT, type ModelDims, type ModelViews } from '../model/layout.js';
import { rowNorms } from '../scoring/rankings.js';
import { KMEANS_ITERATIONS, SAMPLE_PER_LIST, type ExtendInput, type Extended } from './tasks.js';

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
function extendIndex(
  old: ModelViews,
  itemFactors: Float32Array,
  items: number,
  targets: number[],
): { lists: number; centroids: Float32Array; assign: Uint32Array } {
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
    sphericalKMeansTo(
      own,
      parts,
      itemFactors,
      norms,
      items,
      f,
      Uint32Array.from(members.slice(0, size)),
      KMEANS_ITERATIONS,
      new Float64Array(parts * f),
      new Uint32Array(parts),
      new Uint32Array(size),
    );
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
