// Groups of item rows of (nearly) equal direction: on sparse catalogues, items rated by the same one
// or two users get the same factor row up to their ratings' confidence, and their exact ranking
// among each other is decided by float rounding. After a round of neighbours of neighbours
// (native-free-kernels/refine-lists.ts) offerGroupsTo offers a row its whole group: found by hashing
// each unit row rounded to `scale`; a hash collision only adds candidates, which are scored exactly.
// Only ../item-lists-recall.ts measures it (the training does not group), so it lives here and not
// among the production kernels; test/unit/kernels-direction-groups.test.ts checks it.
import { rowCosinesTo } from '../../../native-free-kernels/scores.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';

const EMPTY = 0xffffffff;

export interface DirectionGroups {
  of: Uint32Array; // each row's group, EMPTY for a row alone in its direction or of norm 0
  offsets: Uint32Array; // groups + 1: group g holds members[offsets[g] .. offsets[g+1]), rows ascending
  members: Uint32Array;
}

export function directionGroupsOf(factors: Float32Array, norms: Float32Array, items: number, f: number, scale = 1e5): DirectionGroups {
  if (factors.length !== items * f || norms.length !== items)
    throw new Error(`directionGroupsOf: factors or norms do not hold ${items} rows of ${f}`);
  const key = new Map<number, number>(); // hash → first row, then group index + items
  const hashes = new Float64Array(items);
  const count = new Map<number, number>();
  for (let r = 0; r < items; r++) {
    if (norms[r] === 0) continue;
    // Two 26-bit FNV-style hashes of the rounded unit coordinates combined into one exact double.
    let a = 2166136261,
      b = 5381;
    for (let k = 0; k < f; k++) {
      const q = Math.round((factors[r * f + k]! / norms[r]!) * scale) | 0;
      a = Math.imul(a ^ q, 16777619) >>> 0;
      b = (Math.imul(b, 33) + q) >>> 0;
    }
    const h = (a & 0x3ffffff) * 0x4000000 + (b & 0x3ffffff);
    hashes[r] = h;
    count.set(h, (count.get(h) ?? 0) + 1);
  }
  let groups = 0;
  for (const [h, c] of count) if (c > 1) key.set(h, groups++);
  const of = new Uint32Array(items).fill(EMPTY);
  const offsets = new Uint32Array(groups + 1);
  for (let r = 0; r < items; r++) {
    if (norms[r] === 0) continue;
    const g = key.get(hashes[r]!);
    if (g !== undefined) {
      of[r] = g;
      offsets[g + 1]!++;
    }
  }
  for (let g = 0; g < groups; g++) offsets[g + 1]! += offsets[g]!;
  const members = new Uint32Array(offsets[groups]!);
  const fill = offsets.slice(0, groups);
  for (let r = 0; r < items; r++) if (of[r] !== EMPTY) members[fill[of[r]!]!++] = r;
  return { of, offsets, members };
}

/**
 * Rows [rowStart, rowEnd) of `lists` (n each) re-ranked with the first `cap` members of their group
 * offered beside their list, as refineItemListsTo ranks (rowCosinesTo, equal scores the lower item
 * first; rows of norm 0, the row itself and EMPTY never listed; given `stale`, rows marked 0 left as
 * they are). After a round of refineItemListsTo over the same rows this gives the lists that round
 * would give with the group among its candidates: both keep the best n of their candidates in one
 * order (score, then item), and the best n of a union are the best n of one part's best n and the
 * other part. So the production round carries no group parameter and no per-row cost for it.
 */
export function offerGroupsTo(
  lists: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  items: number,
  f: number,
  groups: DirectionGroups,
  cap: number,
  rowStart: number,
  rowEnd: number,
  stale?: Uint8Array,
): void {
  if (lists.length !== items * n || factors.length !== items * f || norms.length !== items || groups.of.length !== items)
    throw new Error(`offerGroupsTo: lists, factors, norms or groups do not hold ${items} rows`);
  const seen = new Int32Array(items).fill(-1);
  const candidates = new Uint32Array(n + cap),
    scores = new Float32Array(n + cap);
  const at = new Uint32Array(n),
    best = new Float32Array(n);
  for (let r = rowStart; r < rowEnd; r++) {
    const g = groups.of[r]!;
    if (g === EMPTY || norms[r] === 0 || stale?.[r] === 0) continue;
    const own = r * n;
    let count = 0;
    seen[r] = r;
    const offer = (c: number) => {
      if (c === EMPTY || seen[c] === r || norms[c] === 0) return;
      seen[c] = r;
      candidates[count++] = c;
    };
    for (let k = 0; k < n; k++) offer(lists[own + k]!);
    const from = groups.offsets[g]!,
      to = Math.min(groups.offsets[g + 1]!, from + cap);
    for (let p = from; p < to; p++) offer(groups.members[p]!);
    const list = candidates.subarray(0, count).sort();
    rowCosinesTo(scores, factors, norms, items, f, r, list);
    const got = topKTo(at, best, scores, count, Math.min(n, count));
    for (let k = 0; k < n; k++) lists[own + k] = k < got ? candidates[at[k]!]! : EMPTY;
  }
}
