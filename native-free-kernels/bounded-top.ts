// The best k of query · row without scoring every row: rows are scanned in descending norm order
// (normOrderOf in lists.ts, whose users' lists stop the same way), and the scan ends once the k-th
// best dot found beats |query| · |row| of the next row, which (Cauchy–Schwarz) no later row can
// exceed. Exact: the same items and order as topKTo over every row's dot (rows of norm 0 left out),
// found after scoring a fraction of the rows — about 20–45 % for the top 10 of a session of 5 items
// on ml-latest-small (bench/kernels/session-ranking.ts). Within a block, dotsOf may leave out rows
// it can tell fall short of `floor` without their dot (score-rows.ts: the int8 bound of
// quantized-rows.ts), so that most rows are never scored exactly.
import type { NormOrder } from './lists.js';
import { heapOffer, heapSortTo } from './top-k.js';

// A computed dot exceeds the exact one by at most ~f·2⁻²⁴ of |q|·|y| (f32 sums); this covers f ≤ 1024.
const SLACK = 1 + 1e-4;
// No row of norm at most rowNorm can beat a k-th best of `kth` (Cauchy–Schwarz, with the slack).
export const surelyTop = (kth: number, queryNorm: number, rowNorm: number): boolean => kth >= queryNorm * rowNorm * SLACK;
// Rows scored per block: a first block the size of a short page's ranking, doubling after.
const FIRST_BLOCK = 64,
  LAST_BLOCK = 4096;

// The dots of a block of rows at least `floor`: scores[h] and the row's offset in the block at[h], h < hits.
export interface Hits {
  scores: Float32Array;
  at: Uint32Array;
  hits: number;
}

/**
 * The best k rows by query · row into items/scores (best first, ties by row), as topKTo over every
 * row's dot would give them; returns how many (< k when fewer rows have norm > 0), or -1 when the
 * scan reached `maxRows` rows without being sure (the caller ranks elsewhere). `dotsOf(from, count,
 * floor)` gives the dots at least `floor` of the rows at norm positions [from, from + count): the
 * kernel drops the rest, so only a few of a block's dots reach the heap here.
 * filled: items/scores already hold a heap of this many (heapOffer's) of rows the scan will not
 * meet (a session's candidates from elsewhere, candidates.ts), which the scan then only has to
 * beat. partial: at maxRows, the best k of those rows and the scanned ones instead of -1.
 */
export function boundedTopTo(
  items: Uint32Array,
  scores: Float32Array,
  k: number,
  queryNorm: number,
  o: Pick<NormOrder, 'order' | 'norms' | 'count'>, // normOrderOf's (lists.ts), the rows it orders

  dotsOf: (from: number, count: number, floor: number) => Hits,
  maxRows = Infinity,
  filled = 0,
  partial = false,
): number {
  if (items.length < k || scores.length < k) throw new Error(`boundedTopTo: dst lengths ${items.length}/${scores.length} < k ${k}`);
  if (!(Number.isInteger(filled) && filled >= 0 && filled <= k)) throw new Error(`boundedTopTo: filled ${filled} outside [0, k = ${k}]`);
  if (k === 0) return 0;
  const { order, norms, count: rankable } = o;
  let size = filled,
    p = 0,
    block = Math.max(FIRST_BLOCK, k);
  while (p < rankable) {
    if (size === k && surelyTop(scores[0]!, queryNorm, norms[p]!)) break;
    if (p >= maxRows) {
      if (partial) break;
      return -1;
    }
    // A partial scan scores no row past maxRows (its result must not depend on the blocks' sizes).
    const count = Math.min(block, rankable - p, partial ? maxRows - p : Infinity);
    const found = dotsOf(p, count, size === k ? scores[0]! : -Infinity);
    for (let h = 0; h < found.hits; h++) {
      const s = found.scores[h]!;
      if (size === k && !(s >= scores[0]!)) continue;
      size = heapOffer(items, scores, size, k, s, order[p + found.at[h]!]!);
    }
    p += count;
    block = Math.min(2 * block, LAST_BLOCK);
  }
  heapSortTo(items, scores, size);
  return size;
}

// dotsOf for boundedTopTo from a function of one row's dot (the TypeScript kernels). cannotReach: a
// cheaper test that a row's dot is below the floor (quantized-rows.ts), which then spares its dot.
export function hitsOf(
  dot: (row: number) => number,
  cannotReach?: (row: number, floor: number) => boolean,
): (from: number, count: number, floor: number) => Hits {
  const found: Hits = { scores: new Float32Array(0), at: new Uint32Array(0), hits: 0 };
  return (from, count, floor) => {
    if (found.scores.length < count) {
      found.scores = new Float32Array(count);
      found.at = new Uint32Array(count);
    }
    let hits = 0;
    for (let c = 0; c < count; c++) {
      if (cannotReach?.(from + c, floor)) continue;
      const s = Math.fround(dot(from + c));
      if (!(s >= floor)) continue;
      found.scores[hits] = s;
      found.at[hits++] = c;
    }
    found.hits = hits;
    return found;
  };
}
