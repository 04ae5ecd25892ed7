// Rankings of a served model: items most similar to an item, items best for a user's factor vector,
// popular items. Each returns the best `depth` items (partial selection, not a sort); callers ask
// again with a larger depth when filters or pages consume them. Items without factors (never rated
// and not given any by ml_new_items) are left out of factor rankings.
import { gatherPositions, listScoresTo } from '../../../native-free-kernels/ivf.js';
import { rowNormsTo, unitRowsTo } from '../../../native-free-kernels/rows.js';
import { scoreRows, type ScoreRows, type SharedRows } from '../../../native-free-kernels/score-rows.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';
import { userListOf, type ModelViews } from '../model/layout.js';
import { listLength } from './list-lengths.js';
import { gatherCandidates, rankCandidates, SESSION_CANDIDATES } from './candidates.js';

// What scoring reads of a model (a worker has no more than this).
export interface Scorable {
  views: ModelViews;
  // Item norms, and with an item index the unit rows of the listed items in list order
  // (listMembers' order), so a probe reads each list in one sequential pass: read row by row from
  // itemFactors, the members of a list lie all over memory, and fetching them cost more than
  // scoring them (bench/http/reco-large.ts). With the score kernels over them (WebAssembly SIMD where
  // available); built once per model and shared with scoring workers (rows.shared).
  rows: ScoreRows;
}

// What scoring needs of a model's views; `shared` when another thread already built its rows.
export function scorable(views: ModelViews, shared?: SharedRows): Scorable {
  const { items, factors: f, lists } = views.dims;
  const listed = lists > 0 ? views.listOffsets[lists]! : 0;
  return {
    views,
    rows: scoreRows(views.itemFactors, items, f, views.listMembers.subarray(0, listed), shared, { listLength: views.dims.userList }),
  };
}

export interface Ranking {
  items: Uint32Array; // best first
  scores: Float32Array; // NaN where the order came from a precomputed list
  complete: boolean; // every rankable item is listed: a deeper ranking would add nothing
}

function select(scores: Float32Array, n: number, depth: number): Ranking {
  const k = Math.min(depth, n);
  const items = new Uint32Array(k),
    best = new Float32Array(k);
  const got = topKTo(items, best, scores, n, k);
  return { items: items.subarray(0, got), scores: best.subarray(0, got), complete: got < k || k === n };
}

// With an item index, a similar-items ranking first scores the lists nearest the item until it holds
// this many candidates (bench/http/reco-large.ts measures what share of the exact top items it finds).
export const MIN_CANDIDATES = 8192;

// Multiply-adds a ranking of this depth costs, about: what decides whether it runs on the event loop.
export function rankWork(m: Scorable, spec: RankSpec, depth: number): number {
  const { items: n, factors: f, lists } = m.views.dims;
  switch (spec.kind) {
    case 'similar':
      if (depth <= listLength(itemList(m.views, spec.item))) return 0;
      return lists > 0 && depth < MIN_CANDIDATES ? Math.min(n, MIN_CANDIDATES) * f : n * f;
    case 'listed':
      return depth <= listLength(userList(m.views, spec)) ? 0 : n * f;
    case 'vector':
      return n * f;
    case 'session':
      return depth <= SESSION_CANDIDATES.longest
        ? (spec.seeds.length * Math.min(SESSION_CANDIDATES.perSeed, m.views.dims.itemList) + SESSION_CANDIDATES.longest) * f
        : n * f;
    case 'group':
      return n * f * spec.vectors.length;
    case 'popular':
      return n;
  }
}

// The item's list, then (deeper) the rest of its similar-items ranking.
function similarListed(m: Scorable, item: number, depth: number): Ranking {
  return listed(itemList(m.views, item), depth, (d) => similarItems(m, item, d));
}

// The user's list of unrated items, then (deeper) the rest of the ranking of their trained factors.
function userListed(m: Scorable, spec: ListedSpec, depth: number): Ranking {
  return listed(userList(m.views, spec), depth, (d) => itemsForVector(m, spec.vector, d));
}

// A row's precomputed list (empty when the model has none).
const itemList = (v: ModelViews, item: number) => v.itemLists.subarray(item * v.dims.itemList, (item + 1) * v.dims.itemList);
// A listed spec's list: the one it carries (made on a request, held by the serving process), else the model's.
const userList = (v: ModelViews, spec: ListedSpec) => spec.list ?? userListOf(v, spec.user);

// A precomputed list as the head of a ranking: its items in order, then, for a deeper ranking, the
// items of `ranking(depth)` it does not hold, in that ranking's order. Every deeper ranking only
// appends, so pages of one ranking never repeat or skip an item. A list shorter than its length
// holds every item there is.
function listed(list: Uint32Array, depth: number, ranking: (depth: number) => Ranking): Ranking {
  const len = listLength(list);
  const whole = len > 0 && len < list.length;
  if (len > 0 && (depth <= len || whole)) {
    const k = Math.min(depth, len);
    // A copy, not a view: rankings are cached, and a view would keep the whole model alive after
    // a newer one replaced it.
    return { items: list.slice(0, k), scores: nanScores(k), complete: whole && depth >= len };
  }
  const rest = ranking(depth);
  if (len === 0) return rest;
  const head = new Set(list.subarray(0, len));
  const items = new Uint32Array(depth),
    scores = new Float32Array(depth).fill(NaN);
  items.set(list.subarray(0, len));
  let k = len;
  for (let j = 0; j < rest.items.length && k < depth; j++) {
    if (head.has(rest.items[j]!)) continue;
    items[k] = rest.items[j]!;
    scores[k++] = rest.scores[j]!;
  }
  return { items: items.subarray(0, k), scores: scores.subarray(0, k), complete: rest.complete && k < depth };
}

// The precomputed list of a 'similar' or 'listed' ranking as a ranking of its own, or undefined when
// the spec has none. A view into the model: for the walk of one request, never to be cached (a cached
// view would keep the model alive after a newer one replaced it; listed() copies instead). Serving
// from it costs no ranking, copy or cache lookup.
export function listHead(v: ModelViews, spec: RankSpec): Ranking | undefined {
  const list = spec.kind === 'similar' ? itemList(v, spec.item) : spec.kind === 'listed' ? userList(v, spec) : undefined;
  if (list === undefined) return undefined;
  const len = listLength(list);
  if (len === 0) return undefined;
  return { items: list.subarray(0, len), scores: nanScores(len), complete: len < list.length };
}

// The scores of a list's head: NaN, one shared (never written) array, so serving from a list
// allocates nothing for them.
let nans = new Float32Array(0);
function nanScores(k: number): Float32Array {
  if (nans.length < k) nans = new Float32Array(Math.max(k, 2 * nans.length)).fill(NaN);
  return nans.subarray(0, k);
}

// Cosine similarity of factor rows; the item itself is never listed.
export function similarItems(m: Scorable, item: number, depth: number): Ranking {
  const n = m.views.dims.items;
  if (m.views.dims.lists > 0) return similarByIndex(m, item, depth);
  const scores = new Float32Array(n);
  m.rows.cosineScoresTo(scores, item); // NaN (skipped by topKTo) for the item and rows without factors
  return select(scores, n, depth);
}

// With an item index: the members of the lists nearest the item (at least MIN_CANDIDATES of them)
// by cosine similarity, then, when a ranking must go deeper than those, every other listed item by
// cosine similarity after them. Each part is ranked exactly and a deeper ranking only appends, so
// pages of one ranking never repeat or skip an item. Complete once every list is ranked.
function similarByIndex(m: Scorable, item: number, depth: number): Ranking {
  const v = m.views;
  const { items: n, factors: f, lists } = v.dims;
  if (m.rows.norms[item] === 0) return { items: new Uint32Array(0), scores: new Float32Array(0), complete: true };
  const q = new Float32Array(f);
  unitRowsTo(q, v.itemFactors, m.rows.norms, n, f, Uint32Array.of(item));
  const listScores = new Float64Array(lists),
    taken = new Uint8Array(lists);
  listScoresTo(listScores, v.itemFactors, f, v.listCentroids, lists, item);
  const near = gatherPositions(listScores, taken, lists, v.listOffsets, MIN_CANDIDATES);
  const all = taken.every((x) => x === 1);
  const first = rankPositions(m, q, item, near, depth);
  if (first.items.length === depth || all) return { ...first, complete: all && first.items.length < depth };
  const rest = rankPositions(m, q, item, gatherPositions(listScores, taken, lists, v.listOffsets, Infinity), depth - first.items.length);
  const items = new Uint32Array(first.items.length + rest.items.length),
    scores = new Float32Array(items.length);
  items.set(first.items);
  items.set(rest.items, first.items.length);
  scores.set(first.scores);
  scores.set(rest.scores, first.items.length);
  return { items, scores, complete: items.length < depth };
}

// The best `depth` of the listed items at `positions` by cosine similarity with the unit vector q
// of `item` (never the item itself).
function rankPositions(
  m: Scorable,
  q: Float32Array,
  item: number,
  positions: Uint32Array,
  depth: number,
): { items: Uint32Array; scores: Float32Array } {
  const members = m.views.listMembers;
  const scores = new Float32Array(positions.length);
  m.rows.positionScoresTo(scores, q, positions, item);
  const k = Math.min(depth, positions.length);
  const at = new Uint32Array(k),
    best = new Float32Array(k);
  const got = topKTo(at, best, scores, positions.length, k);
  const items = new Uint32Array(got);
  for (let c = 0; c < got; c++) items[c] = members[positions[at[c]!]!]!;
  return { items, scores: best.subarray(0, got) };
}

// Items by x · item factors, from the rows that may enter the top `depth` (bounded-top.ts).
export function itemsForVector(m: Scorable, x: Float32Array, depth: number): Ranking {
  return vectorRanking(m, x, depth)!;
}

// undefined when the scan would score more than maxRows rows.
function vectorRanking(m: Scorable, x: Float32Array, depth: number, maxRows = Infinity): Ranking | undefined {
  const k = Math.min(depth, m.views.dims.items);
  const items = new Uint32Array(k),
    scores = new Float32Array(k);
  const got = m.rows.vectorTopTo(items, scores, k, x, maxRows);
  if (got < 0) return undefined;
  return { items: items.subarray(0, got), scores: scores.subarray(0, got), complete: got < k || k === m.views.dims.items };
}

// The ranking when it costs at most about `work` multiply-adds, else undefined (the scoring pool
// makes it). A vector's ranking scans rows until it is sure of its top (bounded-top.ts), so its
// cost is only known by trying: it gives up after `work`, at most that much wasted.
export function rankWithin(m: Scorable, spec: RankSpec, depth: number, work: number): Ranking | undefined {
  if (spec.kind === 'popular' || rankWork(m, spec, depth) <= work) return rank(m, spec, depth);
  if (spec.kind === 'vector') return vectorRanking(m, spec.vector, depth, Math.floor(work / m.views.dims.factors));
  // A session past its candidates: they are ranked here when they may be, the rest like a vector's.
  if (spec.kind === 'session')
    return rankWork(m, spec, 0) <= work
      ? sessionRanking(m, spec.vector, spec.seeds, depth, Math.floor(work / m.views.dims.factors))
      : undefined;
  return undefined;
}

export function popularItems(m: Scorable, depth: number): Ranking {
  const scores = Float32Array.from(m.views.popularity, (p, i) => (m.views.itemCounts[i] === 0 ? NaN : p));
  return select(scores, m.views.dims.items, depth);
}

// Items for a group: per item, (1 − consensus) · the mean of the members' scores + consensus · the
// lowest one, so a consensus of 1 ranks what nobody in the group dislikes first.
export function itemsForGroup(m: Scorable, vectors: Float32Array[], consensus: number, depth: number): Ranking {
  const n = m.views.dims.items;
  const scores = new Float32Array(n);
  m.rows.groupScoresTo(scores, vectors, consensus);
  return select(scores, n, depth);
}

// A session's ranking: its candidates (candidates.ts: its items' lists and the longest rows) ranked
// by its vector, then, for a deeper ranking, the other items of its full ranking in that ranking's
// order. Every deeper ranking only appends (the candidates' order is the same at every depth), so
// pages of one session never repeat or skip an item. undefined when the full ranking would score
// more than maxRows rows.
export function sessionRanking(m: Scorable, x: Float32Array, seeds: Uint32Array, depth: number, maxRows = Infinity): Ranking | undefined {
  const v = m.views;
  const c = gatherCandidates(v, m.rows, seeds, SESSION_CANDIDATES);
  const head = rankCandidates(m.rows, x, c, depth);
  if (head.items.length >= depth) return { items: head.items, scores: head.scores, complete: head.items.length === v.dims.items };
  // Past the candidates: the full ranking, less the candidates, after them.
  const rest = vectorRanking(m, x, depth, maxRows);
  if (rest === undefined) return undefined;
  const isHead = new Set(head.items);
  const items = new Uint32Array(depth),
    scores = new Float32Array(depth);
  items.set(head.items);
  scores.set(head.scores);
  let k = head.items.length;
  for (let j = 0; j < rest.items.length && k < depth; j++) {
    if (isHead.has(rest.items[j]!)) continue;
    items[k] = rest.items[j]!;
    scores[k++] = rest.scores[j]!;
  }
  return { items: items.subarray(0, k), scores: scores.subarray(0, k), complete: rest.complete && k < depth };
}

// What to rank, in a form that can travel to a scoring worker. similar: from the item's list while
// it lasts; listed: a user's list while it lasts (`list` when made on a request, else the model's),
// then by their trained factors (`vector`); session:
// from the candidates of its items (`seeds`, model rows) while they last, then by `vector`.
export type RankSpec =
  | { kind: 'similar'; item: number }
  | ListedSpec
  | { kind: 'vector'; vector: Float32Array }
  | { kind: 'session'; vector: Float32Array; seeds: Uint32Array }
  | { kind: 'group'; vectors: Float32Array[]; consensus: number }
  | { kind: 'popular' };

type ListedSpec = { kind: 'listed'; user: number; vector: Float32Array; list?: Uint32Array | undefined };

export function rank(m: Scorable, spec: RankSpec, depth: number): Ranking {
  switch (spec.kind) {
    case 'similar':
      return similarListed(m, spec.item, depth);
    case 'listed':
      return userListed(m, spec, depth);
    case 'vector':
      return itemsForVector(m, spec.vector, depth);
    case 'session':
      return sessionRanking(m, spec.vector, spec.seeds, depth)!;
    case 'group':
      return itemsForGroup(m, spec.vectors, spec.consensus, depth);
    case 'popular':
      return popularItems(m, depth);
  }
}

// Item norms of a factor matrix (0 for a row without factors).
export function rowNorms(factors: Float32Array, rows: number, f: number): Float32Array {
  const out = new Float32Array(rows);
  rowNormsTo(out, factors, rows, f);
  return out;
}
