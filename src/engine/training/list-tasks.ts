import type { Csr } from '../../../native-free-kernels/csr.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { itemListsTo, listsScratchLength } from '../../../native-free-kernels/lists.js';
import {
  listHeadsTo,
  refineItemListsTo,
  refineScratchLength,
  reverseHeadsTo,
  staleRowsTo,
} from '../../../native-free-kernels/refine-lists.js';
import { coRatedListsTo, coRatedScratchLength } from '../../../native-free-kernels/corated-lists.js';
import { modelViews, NO_ITEM } from '../model/layout.js';
import { rowNorms, scorable, similarItems } from '../scoring/rankings.js';
import { CO_RATED_MAX_RATERS, CO_RATED_MAX_USER_ITEMS, refineFanout } from './tasks.js';
import { fillFromFactors } from './item-weights-tasks.js';
import type { ItemListsInput, ListHeadsInput, RefineListsInput, CoRatedListsInput, UserListsInput } from './tasks.js';

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
  itemListsTo(
    v.itemLists,
    n,
    v.itemFactors,
    rowNorms(v.itemFactors, items, f),
    items,
    f,
    rowStart,
    rowEnd,
    new Float32Array(listsScratchLength(items, f, n)),
  );
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
  if (last === undefined) return (s.fill(1), items);
  return staleRowsTo(
    s,
    new Uint32Array(heads),
    new Uint32Array(last.heads),
    new Uint32Array(reverse),
    new Uint32Array(last.reverse),
    items,
    fanout,
  );
}

// Rows [rowStart, rowEnd) of the item lists refined by one round of neighbours of neighbours.
// Returns how many of the rows' lists changed.
// The norms are the shared rows' (made once: each task making its own took a seventh of the item
// lists' time at 100k items), and their kernels score the candidates (in WebAssembly SIMD where it
// runs: the same f32 cosines as refine-lists.ts's own loop, about half its time at 100k items).
export function refineItemLists({ model, heads, reverse, stale, sharedRows, rowStart, rowEnd }: RefineListsInput): number {
  const v = modelViews(model);
  const { items, factors: f, itemList: n } = v.dims;
  const fanout = refineFanout(n);
  const scratch = new Int32Array(refineScratchLength(items, n, fanout)).fill(-1, 0, items);
  const rows = scorable(v, sharedRows).rows;
  return refineItemListsTo(
    v.itemLists,
    new Uint32Array(heads),
    n,
    v.itemFactors,
    rows.norms,
    items,
    f,
    fanout,
    rowStart,
    rowEnd,
    scratch,
    new Uint32Array(reverse),
    new Uint8Array(stale),
    (dst, row, list) => rows.rowCosinesTo(dst, row, list),
  );
}

// Rows [rowStart, rowEnd) of the item lists refined from the items their raters rated; returns how
// many of the rows' lists changed.
export function coRatedLists({ model, byUser, byItem, sharedRows, rowStart, rowEnd }: CoRatedListsInput): number {
  const v = modelViews(model);
  const { items, factors: f, itemList: n } = v.dims;
  const scratch = new Int32Array(coRatedScratchLength(items, n, f, CO_RATED_MAX_USER_ITEMS)).fill(-1, 0, 2 * items);
  return coRatedListsTo(
    v.itemLists,
    n,
    v.itemFactors,
    scorable(v, sharedRows).rows.norms,
    items,
    f,
    byItem,
    byUser,
    CO_RATED_MAX_RATERS,
    CO_RATED_MAX_USER_ITEMS,
    rowStart,
    rowEnd,
    scratch,
  );
}

// The lists of the users at users[from, to): their best items by factor score, less what they rated,
// into `out` (users[from + k]'s at k · userList). In WebAssembly SIMD where the engine runs it, with
// the dots a user's later pages are ranked by (score-rows.ts userListsTo).
export function userLists({ model, byUser, users, sharedRows, from, to, out }: UserListsInput): void {
  const v = modelViews(model);
  const rows = new Uint32Array(users, from * 4, to - from);
  scorable(v, sharedRows).rows.userListsTo(
    new Uint32Array(out),
    v.dims.userList,
    rows,
    v.userFactors,
    v.dims.users,
    byUser.indptr,
    byUser.indices,
    true,
  );
}

// The lists of users at [from, to) of `users`: the most popular items they did not rate (popularity
// won the search), into `out` as userLists.
export function popularUserLists({
  model,
  byUser,
  users,
  from,
  to,
  out,
}: {
  model: SharedArrayBuffer;
  byUser: Csr;
  users: SharedArrayBuffer;
  from: number;
  to: number;
  out: SharedArrayBuffer;
}): void {
  const v = modelViews(model);
  const { items, userList: len } = v.dims;
  const scores = Float32Array.from(v.popularity, (p, i) => (v.itemCounts[i] === 0 ? NaN : p));
  const mask = new Uint8Array(items);
  const top = new Uint32Array(len),
    best = new Float32Array(len);
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
