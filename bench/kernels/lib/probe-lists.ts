// Item lists through the item index (native-free-kernels/ivf.ts) with a chosen number of candidates:
// each row scores the members of the lists whose centroids lie nearest it, at least `minCandidates`
// of them, exactly by cosine similarity. More candidates than a request's ranking takes (rankings.ts
// MIN_CANDIDATES) buy the training's lists recall at a cost linear in the candidates
// (../item-lists-recall.ts). Only that bench runs it, so it lives here and not among the production
// kernels; test/unit/kernels-probe-lists.test.ts holds it to the exact lists.
import { dotAt } from '../../../native-free-kernels/dot.js';
import { gatherPositions, listScoresTo } from '../../../native-free-kernels/ivf.js';
import { topKTo } from '../../../native-free-kernels/top-k.js';

const EMPTY = 0xffffffff;

/**
 * Rows [rowStart, rowEnd) of `dst` (items × n): the n items of the probed lists (at least
 * minCandidates members, nearest centroid first) of highest cosine similarity with the row, best
 * first, equal scores the lower item first (as the exact ranking), never the row itself or a row of
 * norm 0; EMPTY after the last. Rows of norm 0 get an empty list.
 */
export function probeItemListsTo(
  dst: Uint32Array,
  n: number,
  factors: Float32Array,
  norms: Float32Array,
  items: number,
  f: number,
  centroids: Float32Array,
  lists: number,
  offsets: Uint32Array,
  members: Uint32Array,
  minCandidates: number,
  rowStart: number,
  rowEnd: number,
): void {
  const name = 'probeItemListsTo';
  if (dst.length !== items * n || factors.length !== items * f || norms.length !== items)
    throw new Error(`${name}: dst, factors or norms do not hold ${items} rows`);
  if (centroids.length !== lists * f || offsets.length !== lists + 1 || members.length !== items)
    throw new Error(`${name}: the index does not hold ${lists} lists of ${items} items`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= items))
    throw new Error(`${name}: row range [${rowStart}, ${rowEnd}) outside [0, ${items})`);
  if (!(minCandidates >= 0)) throw new Error(`${name}: minCandidates must be ≥ 0, got ${minCandidates}`);
  const listScores = new Float64Array(lists),
    taken = new Uint8Array(lists);
  let candidates = new Uint32Array(0),
    scores = new Float32Array(0);
  const at = new Uint32Array(n),
    best = new Float32Array(n);
  for (let r = rowStart; r < rowEnd; r++) {
    const own = r * n;
    dst.fill(EMPTY, own, own + n);
    if (norms[r] === 0) continue;
    listScoresTo(listScores, factors, f, centroids, lists, r);
    taken.fill(0);
    const positions = gatherPositions(listScores, taken, lists, offsets, minCandidates);
    if (candidates.length < positions.length)
      [candidates, scores] = [new Uint32Array(positions.length), new Float32Array(positions.length)];
    let count = 0;
    for (let p = 0; p < positions.length; p++) {
      const i = members[positions[p]!]!;
      if (i !== r && i !== EMPTY && norms[i] !== 0) candidates[count++] = i;
    }
    candidates.subarray(0, count).sort();
    const x = r * f,
      nr = norms[r]!;
    for (let c = 0; c < count; c++) {
      const i = candidates[c]!;
      scores[c] = dotAt(factors, x, factors, i * f, f) / (nr * norms[i]!);
    }
    const got = topKTo(at, best, scores, count, Math.min(n, count));
    for (let k = 0; k < got; k++) dst[own + k] = candidates[at[k]!]!;
  }
}
