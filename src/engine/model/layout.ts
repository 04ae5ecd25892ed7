// The model buffer: one contiguous block (a SharedArrayBuffer in memory, the same bytes as a Redis
// blob) holding a header and named sections. This file is the only place that knows offsets.
//
// Header: 16 int32 slots. Sections follow in the order of SECTIONS, each starting on an 8-byte
// boundary so every typed-array view is aligned. Row r of a factor matrix is the entity of dense
// index r (the catalogue's index), so no id order is stored: ids come from the catalogue.

export const MODEL_MAGIC = 0x72656364; // "recd"
export const LAYOUT_VERSION = 3;
// Layout 1 (before precomputed user lists) is still read: its item lists are its 20 neighbours, a
// section of their scores follows them, and it has no user lists. Layout 2 (a list slot for every
// user, UNLISTED first when not computed) is still read: its users' slots are their rows.
const READABLE_LAYOUTS = [1, 2, 3];

const SLOT = {
  magic: 0,
  layout: 1,
  factors: 2,
  users: 3,
  items: 4,
  itemList: 5, // length of each item's precomputed list (0: none)
  trainedItems: 6, // items [0, trainedItems) existed when ALS ran; later rows come from ml_new_items
  lists: 7, // L, lists of the item index (0: none; models written before the index read as 0)
  userList: 8, // length of each user's precomputed list (0: none; layout 1 reads as 0)
  listedUsers: 9, // users with a precomputed list (layout 3; layout 2 reads as users: a slot each)
} as const;
const HEADER_SLOTS = 16;
const HEADER_BYTES = HEADER_SLOTS * 4;

export interface ModelDims {
  factors: number;
  users: number;
  items: number;
  itemList: number;
  userList: number;
  trainedItems: number;
  lists: number;
  // Users given a list at training (0 when absent): only they have one in the model, so a model of
  // 20M users of whom a fifth were listed does not carry 128 empty slots for each of the others.
  listedUsers?: number;
}

export interface ModelViews {
  dims: Required<ModelDims>;
  header: Int32Array;
  userFactors: Float32Array; // users × factors
  itemFactors: Float32Array; // items × factors
  gram: Float64Array; // factors × factors: itemFactorsᵀ·itemFactors over trained items, for fold-in
  popularity: Float32Array; // items: time-decayed rating count
  itemCounts: Uint32Array; // items: ratings in the training data (0: cold item)
  // Precomputed at training (engine/training/lists.ts), best first, NO_ITEM after the last:
  itemLists: Uint32Array; // items × itemList: each item's most similar items
  // users (empty when userList is 0, and in layout 2, where a user's slot is their row): each
  // user's slot in userLists, NO_SLOT for a user without a list. Read through userListOf.
  userListSlots: Uint32Array;
  userLists: Uint32Array; // listedUsers × userList: listed users' best unrated items (layout 2: UNLISTED first when not computed)
  // The item index (native-free-kernels/ivf.ts), for catalogues too large to rank whole per request:
  listCentroids: Float32Array; // lists × factors, unit vectors
  listOffsets: Uint32Array; // lists + 1 (empty without lists): list c holds listMembers[offsets[c] .. offsets[c+1])
  listMembers: Uint32Array; // items (empty without lists): item rows grouped by list
}

export const NO_ITEM = 0xffffffff;
export const UNLISTED = 0xfffffffe;
export const NO_SLOT = 0xffffffff;

type ArrayKind = Float32ArrayConstructor | Float64ArrayConstructor | Uint32ArrayConstructor;
type Section = Exclude<keyof ModelViews, 'dims' | 'header'> | 'layout1Scores';

const listed = (d: ModelDims, layout: number) => (layout < 3 ? d.users : (d.listedUsers ?? 0));
const SECTIONS: { name: Section; type: ArrayKind; length: (d: ModelDims, layout: number) => number }[] = [
  { name: 'userFactors', type: Float32Array, length: (d) => d.users * d.factors },
  { name: 'itemFactors', type: Float32Array, length: (d) => d.items * d.factors },
  { name: 'gram', type: Float64Array, length: (d) => d.factors * d.factors },
  { name: 'popularity', type: Float32Array, length: (d) => d.items },
  { name: 'itemCounts', type: Uint32Array, length: (d) => d.items },
  { name: 'itemLists', type: Uint32Array, length: (d) => d.items * d.itemList },
  { name: 'layout1Scores', type: Float32Array, length: (d, layout) => (layout === 1 ? d.items * d.itemList : 0) },
  { name: 'userListSlots', type: Uint32Array, length: (d, layout) => (layout >= 3 && d.userList > 0 ? d.users : 0) },
  { name: 'userLists', type: Uint32Array, length: (d, layout) => listed(d, layout) * d.userList },
  // Last, and empty without lists, so a model without an index has the bytes of layout 1 before it.
  { name: 'listCentroids', type: Float32Array, length: (d) => d.lists * d.factors },
  { name: 'listOffsets', type: Uint32Array, length: (d) => (d.lists > 0 ? d.lists + 1 : 0) },
  { name: 'listMembers', type: Uint32Array, length: (d) => (d.lists > 0 ? d.items : 0) },
];

// Not `(n + 7) & ~7`: bitwise operators work on int32, and a model of 20M users × 32 factors is past 2 GiB.
const align8 = (n: number) => Math.ceil(n / 8) * 8;

function offsets(d: ModelDims, layout = LAYOUT_VERSION): { at: number[]; bytes: number } {
  const at: number[] = [];
  let pos = HEADER_BYTES;
  for (const s of SECTIONS) {
    at.push(pos);
    pos = align8(pos + s.length(d, layout) * s.type.BYTES_PER_ELEMENT);
  }
  return { at, bytes: pos };
}

export const modelBytes = (d: ModelDims): number => offsets(d).bytes;

// The `lists` a training gives a model: from AlsParams.indexMinItems items on (RECD_ITEM_INDEX_MIN_ITEMS,
// default 100,000: where a similar-items ranking over every item costs several ms, bench/http/reco-large.ts),
// the model carries an item index (native-free-kernels/ivf.ts) of about ITEMS_PER_LIST items a list,
// and item-to-items rankings score the lists nearest the item. Here, not in the training, so that the
// capacity planner (src/cli/plan-model.ts) sizes a model as a training makes it.
export const ITEMS_PER_LIST = 2048;
export const listsFor = (items: number, minItems: number): number => (items < minItems ? 0 : Math.ceil(items / ITEMS_PER_LIST));

// Bytes one more item or user adds to a model (documented in docs/api-choices.md): a user's list
// only when the training listed them.
export const bytesPerItem = (factors: number, itemList: number, lists = 0) => factors * 4 + 4 + 4 + itemList * 4 + (lists > 0 ? 4 : 0);
export const bytesPerUser = (factors: number, userList: number, listed = true) =>
  factors * 4 + (userList > 0 ? 4 : 0) + (listed ? userList * 4 : 0);

// The user's precomputed list (empty when they have none; in layout 2, UNLISTED first when the
// training had no time for it).
export function userListOf(v: ModelViews, user: number): Uint32Array {
  const n = v.dims.userList;
  if (n === 0 || user >= v.dims.users) return new Uint32Array(0);
  const slot = v.userListSlots.length === 0 ? user : v.userListSlots[user]!;
  return slot === NO_SLOT ? new Uint32Array(0) : v.userLists.subarray(slot * n, (slot + 1) * n);
}

function checkDims(d: ModelDims): void {
  for (const [k, v] of Object.entries(d)) {
    if (!Number.isInteger(v) || v < 0 || v > 0x7fffffff) throw new Error(`model ${k} must be a non-negative int32, got ${v}`);
  }
  if (d.trainedItems > d.items) throw new Error(`model trainedItems ${d.trainedItems} > items ${d.items}`);
  if ((d.listedUsers ?? 0) > d.users) throw new Error(`model listedUsers ${d.listedUsers} > users ${d.users}`);
}

// A zeroed shared buffer for a model of these dimensions, header written.
export function allocateModel(d: ModelDims): { buffer: SharedArrayBuffer; views: ModelViews } {
  checkDims(d);
  const buffer = new SharedArrayBuffer(modelBytes(d));
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  header[SLOT.magic] = MODEL_MAGIC;
  header[SLOT.layout] = LAYOUT_VERSION;
  header[SLOT.factors] = d.factors;
  header[SLOT.users] = d.users;
  header[SLOT.items] = d.items;
  header[SLOT.itemList] = d.itemList;
  header[SLOT.userList] = d.userList;
  header[SLOT.trainedItems] = d.trainedItems;
  header[SLOT.lists] = d.lists;
  header[SLOT.listedUsers] = d.userList > 0 ? (d.listedUsers ?? 0) : 0;
  const views = modelViews(buffer);
  views.userListSlots.fill(NO_SLOT);
  return { buffer, views };
}

// Views over a model buffer; throws when the bytes are not a model of this layout.
export function modelViews(buffer: SharedArrayBuffer | ArrayBuffer): ModelViews {
  if (buffer.byteLength < HEADER_BYTES) throw new Error(`model buffer of ${buffer.byteLength} bytes has no header`);
  const header = new Int32Array(buffer, 0, HEADER_SLOTS);
  if (header[SLOT.magic] !== MODEL_MAGIC) throw new Error('model buffer: bad magic');
  const layout = header[SLOT.layout]!;
  if (!READABLE_LAYOUTS.includes(layout))
    throw new Error(`model buffer: layout ${layout}, this process reads ${READABLE_LAYOUTS.join(', ')}`);
  const dims: Required<ModelDims> = {
    factors: header[SLOT.factors]!,
    users: header[SLOT.users]!,
    items: header[SLOT.items]!,
    itemList: header[SLOT.itemList]!,
    userList: layout === 1 ? 0 : header[SLOT.userList]!,
    trainedItems: header[SLOT.trainedItems]!,
    lists: header[SLOT.lists]!,
    listedUsers: 0,
  };
  dims.listedUsers = layout < 3 ? (dims.userList > 0 ? dims.users : 0) : header[SLOT.listedUsers]!;
  checkDims(dims);
  const { at, bytes } = offsets(dims, layout);
  if (bytes !== buffer.byteLength) throw new Error(`model buffer: ${buffer.byteLength} bytes, its header describes ${bytes}`);
  const views = { dims, header } as ModelViews;
  SECTIONS.forEach((s, k) => {
    if (s.name !== 'layout1Scores')
      (views as unknown as Record<string, unknown>)[s.name] = new s.type(buffer as ArrayBuffer, at[k]!, s.length(dims, layout));
  });
  return views;
}

// A copy of a model whose users' lists are the blocks' lists, one after another (slot order): slot k
// is users[k]'s. Every other section is copied as it is.
export function withUserLists(model: SharedArrayBuffer, users: Uint32Array, blocks: readonly Uint32Array[]): SharedArrayBuffer {
  const old = modelViews(model);
  const n = old.dims.userList;
  const length = blocks.reduce((sum, b) => sum + b.length, 0);
  if (length !== users.length * n) throw new Error(`withUserLists: ${length} list slots for ${users.length} users of lists of ${n}`);
  const { buffer, views } = allocateModel({ ...old.dims, listedUsers: n > 0 ? users.length : 0 });
  copySections(old, views);
  if (n > 0) {
    users.forEach((u, k) => (views.userListSlots[u] = k));
    let at = 0;
    for (const b of blocks) {
      views.userLists.set(b, at);
      at += b.length;
    }
  }
  return buffer;
}

// Every section but the users' lists, from a model to one of the same dimensions.
function copySections(from: ModelViews, to: ModelViews): void {
  for (const s of SECTIONS) {
    if (s.name === 'layout1Scores' || s.name === 'userListSlots' || s.name === 'userLists') continue;
    (to[s.name] as Uint32Array).set(from[s.name] as Uint32Array);
  }
}
