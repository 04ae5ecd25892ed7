// One round of "neighbours of neighbours" over approximate item lists (made through the item index,
// ivf.ts): an item's candidates are its own list and the first `fanout` items of the lists of its
// first `fanout` neighbours (and, given `reverse`, of the items that list it among their first),
// ranked exactly by cosine similarity; the best n become its list. The
// index misses true neighbours that lie in lists far from the item's own centroid, and those are
// mostly neighbours of the neighbours it found: a round recovers most of them for a few hundred dot
// products an item, against the thousands of candidates the index scores (bench/kernels/item-lists-recall.ts).
import { rowCosinesTo } from './scores.js';
import { topKTo } from './top-k.js';

const EMPTY = 0xffffffff;

/** Scratch refineItemListsTo needs: `items` ints (which row saw which candidate) plus room for one row's candidates. */
export const refineScratchLength = (items: number, n: number, fanout: number): number => items + 2 * (n + 2 * fanout * fanout) + 2 * n;

/**
 * Each item's reverse neighbours (items × fanout, EMPTY after the last): the items whose heads hold
 * it, the lowest first, at most `fanout` of them. An item the index listed badly is often in the
 * lists of items that it should list.
 */
export function reverseHeadsTo(reverse: Uint32Array, heads: Uint32Array, items: number, fanout: number): void {
  if (reverse.length !== items * fanout || heads.length !== items * fanout)
    throw new Error(`reverseHeadsTo: reverse ${reverse.length} and heads ${heads.length}, expected items*fanout = ${items * fanout}`);
  reverse.fill(EMPTY);
  const count = new Uint32Array(items);
  for (let j = 0; j < items; j++) {
    for (let l = 0; l < fanout; l++) {
      const r = heads[j * fanout + l]!;
      if (r === EMPTY) break;
      if (count[r]! < fanout) reverse[r * fanout + count[r]!++] = j;
    }
  }
}

/** The first `fanout` items of every list (items × fanout), what a round reads of other rows' lists. */
export function listHeadsTo(heads: Uint32Array, lists: Uint32Array, n: number, items: number, fanout: number): void {
  if (heads.length !== items * fanout || lists.length !== items * n || fanout > n)
    throw new Error(`listHeadsTo: heads ${heads.length}, lists ${lists.length} for ${items} items, n ${n}, fanout ${fanout}`);
  for (let r = 0; r < items; r++) heads.set(lists.subarray(r * n, r * n + fanout), r * fanout);
}

/**
 * stale[r] = 1 for the rows whose candidates in the next round may differ from the last round's: a
 * row's candidates are its list and what its heads and reverse neighbours (and theirs heads) hold,
 * so a row none of whose heads, reverse neighbours or their heads changed would make the list it
 * holds again (its list is the best of a superset of its candidates). Returns how many are stale.
 * lastHeads/lastReverse: those of the previous round (before it refined the lists).
 */
export function staleRowsTo(
  stale: Uint8Array,
  heads: Uint32Array,
  lastHeads: Uint32Array,
  reverse: Uint32Array,
  lastReverse: Uint32Array,
  items: number,
  fanout: number,
): number {
  const m = items * fanout;
  if (stale.length !== items || heads.length !== m || lastHeads.length !== m || reverse.length !== m || lastReverse.length !== m)
    throw new Error(`staleRowsTo: stale needs ${items} entries, heads and reverse (and their last) items*fanout = ${m}`);
  const moved = new Uint8Array(items);
  for (let r = 0; r < items; r++) {
    for (let k = r * fanout; k < (r + 1) * fanout; k++) {
      if (heads[k] !== lastHeads[k]) moved[r] = 1;
      if (reverse[k] !== lastReverse[k]) stale[r] = 1;
    }
  }
  let count = 0;
  for (let r = 0; r < items; r++) {
    let s = stale[r] === 1 || moved[r] === 1;
    for (let k = r * fanout; k < (r + 1) * fanout && !s; k++) {
      const h = heads[k]!,
        v = reverse[k]!;
      s = (h !== EMPTY && moved[h] === 1) || (v !== EMPTY && moved[v] === 1);
    }
    stale[r] = s ? 1 : 0;
    if (s) count++;
  }
  return count;
}

/**
 * Rows [rowStart, rowEnd) of `lists` (n each, best first by cosine similarity, ties by candidate
 * order, EMPTY after the last) refined in place: a row's candidates are its own list and the heads
 * (listHeadsTo, made before the round and never written, so every row reads the same lists
 * whichever thread refines it) of its first `fanout` neighbours. Rows of norm 0 stay as they are;
 * candidates of norm 0, the row itself and EMPTY slots are never listed. scratch:
 * refineScratchLength(items, n, fanout) 32-bit words; its first `items` entries must hold -1 before
 * the first call (they are left holding row numbers, which calls on other rows do not take for
 * their own). Equal scores: the lower item first, as the exact ranking. Given `stale`
 * (staleRowsTo), rows marked 0 are left as they are. Returns how many of the rows' lists changed
 * (rounds stop when few do). cosines: what scores the candidates, scores.ts rowCosinesTo over
 * factors and norms unless given (score-rows.ts rowCosinesTo: the same f32 in WebAssembly SIMD).
 */
export function refineItemListsTo(
  lists: Uint32Array,
  heads: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  items: number,
  f: number,
  fanout: number,
  rowStart: number,
  rowEnd: number,
  scratch: Int32Array,
  reverse?: Uint32Array,
  stale?: Uint8Array,
  cosines: (dst: Float32Array, row: number, items: Uint32Array) => void = (dst, row, list) =>
    rowCosinesTo(dst, factors, norms, items, f, row, list),
): number {
  const name = 'refineItemListsTo';
  if (stale && stale.length !== items) throw new Error(`${name}: stale needs ${items} entries`);
  if (reverse && reverse.length !== items * fanout) throw new Error(`${name}: reverse needs items*fanout = ${items * fanout} entries`);
  if (lists.length !== items * n || heads.length !== items * fanout)
    throw new Error(`${name}: lists need items*n = ${items * n} entries and heads items*fanout = ${items * fanout}`);
  if (factors.length !== items * f || norms.length !== items)
    throw new Error(`${name}: factors or norms do not hold ${items} rows of ${f}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= items))
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${items})`);
  if (!(Number.isInteger(fanout) && fanout >= 0 && fanout <= n))
    throw new Error(`${name}: fanout must be an integer in [0, ${n}], got ${fanout}`);
  if (scratch.length < refineScratchLength(items, n, fanout))
    throw new Error(`${name}: scratch length ${scratch.length} < ${refineScratchLength(items, n, fanout)}`);
  const most = n + 2 * fanout * fanout;
  const word = (k: number) => scratch.byteOffset + k * 4;
  const seen = scratch.subarray(0, items);
  const candidates = new Uint32Array(scratch.buffer, word(items), most);
  const scores = new Float32Array(scratch.buffer, word(items + most), most);
  const at = new Uint32Array(scratch.buffer, word(items + 2 * most), n);
  const best = new Float32Array(scratch.buffer, word(items + 2 * most + n), n);
  let changed = 0;
  for (let r = rowStart; r < rowEnd; r++) {
    if (norms[r] === 0 || stale?.[r] === 0) continue;
    const own = r * n;
    let count = 0;
    seen[r] = r;
    const offer = (c: number) => {
      if (c === EMPTY || seen[c] === r || norms[c] === 0) return;
      seen[c] = r;
      candidates[count++] = c;
    };
    for (let k = 0; k < n; k++) offer(lists[own + k]!);
    for (const around of reverse ? [heads, reverse] : [heads]) {
      for (let k = 0; k < fanout; k++) {
        const j = around[r * fanout + k]!;
        if (j === EMPTY) break;
        offer(j);
        for (let l = 0; l < fanout; l++) offer(heads[j * fanout + l]!);
      }
    }
    // In item order, so that equal scores keep the lower item, as the exact ranking does (items
    // rated by the same few users have equal rows: ties are common on sparse catalogues).
    const list = candidates.subarray(0, count).sort();
    cosines(scores, r, list);
    const got = topKTo(at, best, scores, count, Math.min(n, count));
    let same = true;
    for (let k = 0; k < got; k++) {
      const i = candidates[at[k]!]!;
      if (lists[own + k] !== i) [same, lists[own + k]] = [false, i];
    }
    for (let k = got; k < n; k++) if (lists[own + k] !== EMPTY) [same, lists[own + k]] = [false, EMPTY];
    if (!same) changed++;
  }
  return changed;
}
