// Reference twin of ../corated-lists.ts: each row's candidates gathered in a Set, scored, then a full
// sort. Same contract, except that scratch is not used and arguments are not checked. Scores come
// from the same dotAt as the kernel's: near-parallel rows tie to the last bit, and a dot summed in
// another order would break those ties otherwise.
import type { Csr } from '../csr.js';
import { dotAt } from '../dot.js';

const EMPTY = 0xffffffff;

export function coRatedListsTo(
  lists: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  _items: number,
  f: number,
  byItem: Csr,
  byUser: Csr,
  maxRaters: number,
  maxUserItems: number,
  rowStart: number,
  rowEnd: number,
): number {
  let changed = 0;
  for (let r = rowStart; r < rowEnd; r++) {
    const raters = [...byItem.indices.subarray(byItem.indptr[r]!, byItem.indptr[r + 1]!)];
    if (norms[r] === 0 || raters.length === 0 || raters.length > maxRaters) continue;
    const candidates = new Set(lists.subarray(r * n, (r + 1) * n));
    for (const u of raters) {
      const rated = byUser.indices.subarray(byUser.indptr[u]!, byUser.indptr[u + 1]!);
      if (rated.length <= maxUserItems) for (const i of rated) candidates.add(i);
    }
    const scored = [...candidates]
      .filter((i) => i !== EMPTY && i !== r && norms[i] !== 0)
      .map((i) => ({ item: i, score: Math.fround(dotAt(factors, r * f, factors, i * f, f) / (norms[r]! * norms[i]!)) }))
      .sort((a, b) => b.score - a.score || a.item - b.item);
    const best = Array.from({ length: n }, (_, k) => (k < scored.length ? scored[k]!.item : EMPTY));
    if (best.some((i, k) => lists[r * n + k] !== i)) changed++;
    lists.set(best, r * n);
  }
  return changed;
}
