// A session's ranking from candidates instead of every item: the items of its items' precomputed
// lists (their nearest neighbours) and the model's longest factor rows (the items a dot product
// favours whatever the session: popular ones), each scored exactly by the session's vector, with
// the scores a full ranking gives them. The longest rows are the first rows of the norm-ordered scan
// of an exact ranking (bounded-top.ts): when the scan is sure of its top before the end of them the
// ranking is the exact one. A random session of 5 items finds most of its exact top
// this way (bench/kernels/session-candidates.ts) for a fraction of a full ranking's multiply-adds.
import { heapOffer } from '../../../native-free-kernels/top-k.js';
import type { ScoreRows } from '../../../native-free-kernels/score-rows.js';
import { NO_ITEM, UNLISTED, type ModelViews } from '../model/layout.js';

// Where a session's candidates come from: the first `perSeed` items of each of its items' lists, and
// the `longest` rows of longest factor row.
export interface CandidateSource {
  perSeed: number;
  longest: number;
}

// What the service ranks sessions with (bench/kernels/session-candidates.ts measured the choice): the
// longest rows are read in one sequential pass (of their int8 copies: only the ~5 % of them that may
// still enter the top are scored exactly, quantized-rows.ts), each list item from wherever it lies
// in memory, and the first of each list carry most of what the lists add.
export const SESSION_CANDIDATES: CandidateSource = { perSeed: 16, longest: 2048 };

// Candidates are worth it when they are at most a third of the rankable items: on a smaller
// catalogue the exact scan reads hardly more rows, in order.
export function candidatesPay(rows: Pick<ScoreRows, 'normOrder'>, seeds: number, itemList: number, source = SESSION_CANDIDATES): boolean {
  return itemList > 0 && 3 * (seeds * Math.min(source.perSeed, itemList) + source.longest) <= rows.normOrder.length;
}

// The list items gathered: distinct rows with factors, none of them among the longest rows.
export interface Candidates {
  items: Uint32Array; // scratch: valid until the next gatherCandidates for the same rows
  count: number;
  longest: number; // rows of the norm order to scan after them
}

// Per model (its score rows, which a scoring thread keeps across tasks while its views are made
// anew for each): one mark per item, SKIPPED on each of its `longest` first rows in norm order and
// on rows without factors, else the stamp of the last call that gathered it; and the array they are
// gathered into. One array, so each list item costs one read from wherever it lies in memory (the
// scan of the longest rows has evicted these arrays from the cache by the next request), where a
// mark, a flag and a norm were three.
interface Held {
  longest: number;
  marks: Uint32Array;
  stamp: number;
  out: Uint32Array;
}
const held = new WeakMap<object, Held>();
const SKIPPED = 0xffffffff; // never a stamp: stamps wrap before it

function heldFor(v: ModelViews, rows: Pick<ScoreRows, 'normOrder' | 'norms'>, longest: number): Held {
  const n = v.dims.items;
  let h = held.get(rows);
  if (h === undefined) held.set(rows, (h = { longest: -1, marks: new Uint32Array(n), stamp: 0, out: new Uint32Array(0) }));
  const want = Math.min(longest, rows.normOrder.length);
  if (h.longest !== want) {
    h.longest = want;
    h.stamp = 0;
    skipMarks(h, rows);
  }
  return h;
}

// Every mark cleared, then SKIPPED on the longest rows and on rows without factors.
function skipMarks(h: Held, rows: Pick<ScoreRows, 'normOrder' | 'norms'>): void {
  const marks = h.marks,
    order = rows.normOrder,
    norms = rows.norms;
  marks.fill(0);
  for (let i = 0; i < marks.length; i++) if (!(norms[i]! > 0)) marks[i] = SKIPPED;
  for (let p = 0; p < h.longest; p++) marks[order[p]!] = SKIPPED;
}

/**
 * The list candidates of a session whose items are `seeds` (rows of the model): the items of each
 * seed's list (its first perSeed) that are not among the longest rows, once each, leaving out rows
 * without factors. The order depends only on the seeds' order and the model, so every thread
 * gathers the same.
 */
export function gatherCandidates(
  v: ModelViews,
  rows: Pick<ScoreRows, 'normOrder' | 'norms'>,
  seeds: ArrayLike<number>,
  source: CandidateSource,
): Candidates {
  const h = heldFor(v, rows, source.longest);
  const L = v.dims.itemList,
    per = Math.min(source.perSeed, L),
    n = v.dims.items;
  if (h.out.length < seeds.length * per) h.out = new Uint32Array(seeds.length * per);
  const out = h.out;
  if (++h.stamp === SKIPPED) {
    h.stamp = 1;
    skipMarks(h, rows);
  }
  const stamp = h.stamp,
    marks = h.marks,
    lists = v.itemLists;
  let count = 0;
  for (let s = 0; s < seeds.length; s++) {
    const seed = seeds[s]!;
    if (!(seed < n)) continue;
    for (let j = seed * L, end = j + per; j < end; j++) {
      const i = lists[j]!;
      if (i === NO_ITEM || i === UNLISTED) break;
      const mark = marks[i]!;
      if (mark === stamp || mark === SKIPPED) continue;
      marks[i] = stamp;
      out[count++] = i;
    }
  }
  return { items: out, count, longest: h.longest };
}

/**
 * The best `depth` of the candidates and the longest rows by x · row, best first (ties by row), with
 * their scores, as the full ranking scores them (the same kernels). The lists' items are scored
 * first and their best fill the heap the scan of the longest rows then only has to beat: the scan
 * starts from their k-th best rather than from nothing, so it offers few of its rows to the heap and
 * may stop before the last of them (no later row can enter, bounded-top.ts), with the same result.
 * The result is the top of one fixed set of rows at every depth, so deeper rankings only append.
 */
export function rankCandidates(
  rows: Pick<ScoreRows, 'rowDotsTo' | 'vectorTopTo'>,
  x: Float32Array,
  c: Candidates,
  depth: number,
): { items: Uint32Array; scores: Float32Array } {
  if (depth === 0) return { items: new Uint32Array(0), scores: new Float32Array(0) };
  const s = scratchFor(depth, c.count);
  const items = s.items,
    scores = s.scores;
  let size = 0;
  if (c.count > 0) {
    const listed = c.items.subarray(0, c.count),
      dots = s.dots;
    rows.rowDotsTo(dots, x, listed);
    for (let j = 0; j < c.count; j++) size = heapOffer(items, scores, size, depth, dots[j]!, listed[j]!);
  }
  // The list items are none of the longest rows: a filled heap of rows the scan does not meet.
  const got = rows.vectorTopTo(items, scores, depth, x, c.longest, size, true);
  // Copies: the ranking is kept (ranking-cache.ts) while the scratch serves the next call. Both in
  // one buffer: past 64 bytes a typed array's memory lies outside the heap, and each such backing
  // store is one more for the collector to track and free (a session is ranked on every request).
  const buffer = new ArrayBuffer(8 * got);
  const outItems = new Uint32Array(buffer, 0, got),
    outScores = new Float32Array(buffer, 4 * got, got);
  for (let j = 0; j < got; j++) {
    outItems[j] = items[j]!;
    outScores[j] = scores[j]!;
  }
  return { items: outItems, scores: outScores };
}

// rankCandidates' scratch, one per thread, grown to the largest depth and candidate count asked: a
// session is ranked on every request, and fresh typed arrays each time were backing stores the
// collector had to free (a tenth of a random session's CPU).
interface Scratch {
  items: Uint32Array;
  scores: Float32Array;
  dots: Float32Array;
}
let scratch: Scratch = { items: new Uint32Array(0), scores: new Float32Array(0), dots: new Float32Array(0) };
function scratchFor(depth: number, count: number): Scratch {
  if (scratch.items.length < depth) scratch = { ...scratch, items: new Uint32Array(depth), scores: new Float32Array(depth) };
  if (scratch.dots.length < count) scratch = { ...scratch, dots: new Float32Array(count) };
  return scratch;
}
