// Item lists refined from the rating graph: an item rated by few users gets as candidates every item
// those users rated. On sparse catalogues the items rated by the same one or two users have nearly
// parallel factor rows (ALS gives an item rated by user u alone a row along a direction set by u),
// so their exact top n is decided by differences of 1e-5 among hundreds or thousands of such items,
// which neither the item index nor neighbours of neighbours reach (bench/RESULTS.md); the items the
// item's raters rated hold them all.
import type { Csr } from './csr.js';
import { dotAt } from './dot.js';
import { heapOffer, heapSortTo } from './top-k.js';

const EMPTY = 0xffffffff;

/**
 * Scratch coRatedListsTo needs, in 32-bit words: `items` (which row saw which item) and `items`
 * (which user's block holds which item), both -1 before the first call, then a heap of n items and
 * scores, then a block of up to maxUserItems items, norms and rows of f.
 */
export const coRatedScratchLength = (items: number, n: number, f: number, maxUserItems: number): number =>
  2 * items + 2 * n + maxUserItems * (f + 2);

// "score a, item a ranks below score b, item b": the exact ranking's order (equal scores: lower item first).
const below = (sa: number, ia: number, sb: number, ib: number) => sa < sb || (sa === sb && ia > ib);

/**
 * Rows [rowStart, rowEnd) of `lists` (n each, best first by cosine similarity, EMPTY after the last)
 * refined in place: a row of norm other than 0 rated by 1 to maxRaters users (byItem) gets the best n
 * of its own list and the items its raters rated (byUser), raters of more than maxUserItems items
 * left out, ranked exactly by cosine similarity (as refine-lists.ts: dotAt over the norms' product,
 * rounded to f32; equal scores keep the lower item). Candidates of norm 0, the row itself and EMPTY
 * slots are never listed. Other rows stay as they are. scratch: coRatedScratchLength words (its first
 * 2 · items at -1 before the first call; left holding row and user numbers, which later calls read
 * rightly). Returns how many lists changed.
 *
 * Rows are taken grouped by their rater of most items, whose items' rows are copied into one block
 * first: most candidates then come from memory read in order, not from rows all over the model.
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
  if (factors.length !== items * f || norms.length !== items)
    throw new Error(`${name}: factors or norms do not hold ${items} rows of ${f}`);
  if (byItem.rows !== items || byUser.cols !== items || byItem.cols !== byUser.rows)
    throw new Error(
      `${name}: byItem (${byItem.rows} × ${byItem.cols}) and byUser (${byUser.rows} × ${byUser.cols}) do not match ${items} items`,
    );
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= items))
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${items})`);
  if (!(Number.isInteger(maxUserItems) && maxUserItems >= 0))
    throw new Error(`${name}: maxUserItems must be an integer ≥ 0, got ${maxUserItems}`);
  const length = coRatedScratchLength(items, n, f, maxUserItems);
  if (scratch.length < length) throw new Error(`${name}: scratch length ${scratch.length} < ${length}`);
  const word = (k: number) => scratch.byteOffset + k * 4;
  const seen = scratch.subarray(0, items);
  const mark = scratch.subarray(items, 2 * items);
  const heapItems = new Uint32Array(scratch.buffer, word(2 * items), n);
  const heapScores = new Float32Array(scratch.buffer, word(2 * items + n), n);
  const blockItems = new Uint32Array(scratch.buffer, word(2 * items + 2 * n), maxUserItems);
  const blockNorms = new Float32Array(scratch.buffer, word(2 * items + 2 * n + maxUserItems), maxUserItems);
  const blockRows = new Float32Array(scratch.buffer, word(2 * items + 2 * n + 2 * maxUserItems), maxUserItems * f);
  const ratedBy = (u: number) => byUser.indptr[u + 1]! - byUser.indptr[u]!;

  // The rows to refine and the rater each is grouped under (of most items, at most maxUserItems).
  const mainOf = new Int32Array(rowEnd - rowStart);
  let count = 0;
  for (let r = rowStart; r < rowEnd; r++) {
    const from = byItem.indptr[r]!,
      to = byItem.indptr[r + 1]!;
    let main = -1;
    mainOf[r - rowStart] = main;
    if (norms[r] === 0 || to === from || to - from > maxRaters) continue;
    for (let p = from; p < to; p++) {
      const u = byItem.indices[p]!;
      if (ratedBy(u) <= maxUserItems && (main < 0 || ratedBy(u) > ratedBy(main))) main = u;
    }
    mainOf[r - rowStart] = main;
    if (main >= 0) count++;
  }
  const rows = new Uint32Array(count);
  for (let r = rowStart, k = 0; r < rowEnd; r++) if (mainOf[r - rowStart]! >= 0) rows[k++] = r;
  rows.sort((a, b) => mainOf[a - rowStart]! - mainOf[b - rowStart]! || a - b);

  if (n === 0) return 0;
  let changed = 0,
    blockOf = -1,
    blockSize = 0;
  for (const r of rows) {
    const main = mainOf[r - rowStart]!;
    if (main !== blockOf) {
      blockOf = main;
      blockSize = 0;
      for (let q = byUser.indptr[main]!; q < byUser.indptr[main + 1]!; q++) {
        const c = byUser.indices[q]!;
        mark[c] = main;
        if (norms[c] === 0) continue;
        blockItems[blockSize] = c;
        blockNorms[blockSize] = norms[c]!;
        blockRows.set(factors.subarray(c * f, (c + 1) * f), blockSize * f);
        blockSize++;
      }
    }
    const x = r * f,
      nr = norms[r]!,
      own = r * n;
    let size = 0;
    seen[r] = r;
    // Items of the block are offered from it alone; the others (its list, other raters' items) once.
    const elsewhere = (c: number) => {
      if (c === EMPTY || c === r || seen[c] === r || mark[c] === main || norms[c] === 0) return;
      seen[c] = r;
      size = heapOffer(heapItems, heapScores, size, n, Math.fround(dotAt(factors, x, factors, c * f, f) / (nr * norms[c]!)), c);
    };
    for (let k = 0; k < n; k++) elsewhere(lists[own + k]!);
    for (let b = 0; b < blockSize; b++) {
      const c = blockItems[b]!;
      if (c === r) continue;
      const s = Math.fround(dotAt(factors, x, blockRows, b * f, f) / (nr * blockNorms[b]!));
      // Most candidates fall below a full heap's weakest: rejected without a call.
      if (size === n && !below(heapScores[0]!, heapItems[0]!, s, c)) continue;
      size = heapOffer(heapItems, heapScores, size, n, s, c);
    }
    for (let p = byItem.indptr[r]!; p < byItem.indptr[r + 1]!; p++) {
      const u = byItem.indices[p]!;
      if (u === main || ratedBy(u) > maxUserItems) continue;
      for (let q = byUser.indptr[u]!; q < byUser.indptr[u + 1]!; q++) elsewhere(byUser.indices[q]!);
    }
    heapSortTo(heapItems, heapScores, size);
    let same = true;
    for (let k = 0; k < n; k++) {
      const c = k < size ? heapItems[k]! : EMPTY;
      if (lists[own + k] !== c) [same, lists[own + k]] = [false, c];
    }
    if (!same) changed++;
  }
  return changed;
}
