// Item lists refined from the rating graph: an item rated by few users gets as candidates every item
// those users rated. On sparse catalogues the items rated by the same one or two users have nearly
// parallel factor rows (ALS gives an item rated by user u alone a row along a direction set by u),
// so their exact top n is decided by differences of 1e-5 among hundreds or thousands of such items,
// which neither the item index nor neighbours of neighbours reach (bench/RESULTS.md); the items the
// item's raters rated hold them all.
import type { Csr } from './csr.js';
import { dotAt } from './dot.js';

const EMPTY = 0xffffffff;

/** Scratch coRatedListsTo needs: `items` ints (which row saw which item) plus a heap of n items and scores. */
export const coRatedScratchLength = (items: number, n: number): number => items + 2 * n;

// "score a, item a ranks below score b, item b": the exact ranking's order (equal scores: lower item first).
const below = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);

/**
 * Rows [rowStart, rowEnd) of `lists` (n each, best first by cosine similarity, EMPTY after the last)
 * refined in place: a row of norm other than 0 rated by 1 to maxRaters users (byItem) gets the best n
 * of its own list and the items its raters rated (byUser), raters of more than maxUserItems items
 * left out, ranked exactly by cosine similarity (as refine-lists.ts: float32 scores, equal scores
 * keep the lower item). Candidates of norm 0, the row itself and EMPTY slots are never listed. Other
 * rows stay as they are. scratch: coRatedScratchLength(items, n) words whose first `items` hold -1
 * before the first call (left holding row numbers, which calls on other rows do not take for theirs).
 * Returns how many lists changed.
 */
export function coRatedListsTo(
  lists: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  items: number,
  f: number,
  byItem: Csr,
  byUser: Csr,
  maxRaters: number,
  maxUserItems: number,
  rowStart: number,
  rowEnd: number,
  scratch: Int32Array,
): number {
  const name = 'coRatedListsTo';
  if (lists.length !== items * n) throw new Error(`${name}: lists need items*n = ${items * n} entries, got ${lists.length}`);
  if (factors.length !== items * f || norms.length !== items) throw new Error(`${name}: factors or norms do not hold ${items} rows of ${f}`);
  if (byItem.rows !== items || byUser.cols !== items || byItem.cols !== byUser.rows) throw new Error(`${name}: byItem (${byItem.rows} × ${byItem.cols}) and byUser (${byUser.rows} × ${byUser.cols}) do not match ${items} items`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= items)) throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${items})`);
  if (scratch.length < coRatedScratchLength(items, n)) throw new Error(`${name}: scratch length ${scratch.length} < ${coRatedScratchLength(items, n)}`);
  const seen = scratch.subarray(0, items);
  const heapItems = new Uint32Array(scratch.buffer, scratch.byteOffset + items * 4, n);
  const heapScores = new Float32Array(scratch.buffer, scratch.byteOffset + (items + n) * 4, n);
  let changed = 0;
  for (let r = rowStart; r < rowEnd; r++) {
    const raters = byItem.indptr[r + 1]! - byItem.indptr[r]!;
    if (norms[r] === 0 || raters === 0 || raters > maxRaters) continue;
    const x = r * f, nr = norms[r]!;
    // A bounded min-heap: the root holds the weakest kept, so most candidates cost one comparison.
    let size = 0;
    seen[r] = r;
    const offer = (c: number) => {
      if (c === EMPTY || seen[c] === r || norms[c] === 0) return;
      seen[c] = r;
      const s = Math.fround(dotAt(factors, x, factors, c * f, f) / (nr * norms[c]!));
      if (size < n) {
        let hole = size++;
        while (hole > 0) {
          const parent = (hole - 1) >> 1;
          if (!below(s, c, heapScores[parent]!, heapItems[parent]!)) break;
          heapScores[hole] = heapScores[parent]!;
          heapItems[hole] = heapItems[parent]!;
          hole = parent;
        }
        heapScores[hole] = s;
        heapItems[hole] = c;
      } else if (below(heapScores[0]!, heapItems[0]!, s, c)) siftDown(heapItems, heapScores, size, c, s);
    };
    const own = r * n;
    for (let k = 0; k < n; k++) offer(lists[own + k]!);
    for (let p = byItem.indptr[r]!; p < byItem.indptr[r + 1]!; p++) {
      const u = byItem.indices[p]!;
      const from = byUser.indptr[u]!, to = byUser.indptr[u + 1]!;
      if (to - from > maxUserItems) continue;
      for (let q = from; q < to; q++) offer(byUser.indices[q]!);
    }
    // Popping the weakest fills the list from its end.
    let same = true;
    for (let k = n - 1; k >= size; k--) if (lists[own + k] !== EMPTY) [same, lists[own + k]] = [false, EMPTY];
    for (let k = size - 1; k >= 0; k--) {
      const c = heapItems[0]!;
      if (lists[own + k] !== c) [same, lists[own + k]] = [false, c];
      if (k > 0) siftDown(heapItems, heapScores, k, heapItems[k]!, heapScores[k]!);
    }
    if (!same) changed++;
  }
  return changed;
}

// The heap's root replaced by (item, score), then moved down to its place among size entries.
function siftDown(items: Uint32Array, scores: Float32Array, size: number, item: number, score: number): void {
  let hole = 0;
  for (;;) {
    let child = 2 * hole + 1;
    if (child >= size) break;
    if (child + 1 < size && below(scores[child + 1]!, items[child + 1]!, scores[child]!, items[child]!)) child++;
    if (!below(scores[child]!, items[child]!, score, item)) break;
    scores[hole] = scores[child]!;
    items[hole] = items[child]!;
    hole = child;
  }
  scores[hole] = score;
  items[hole] = item;
}
