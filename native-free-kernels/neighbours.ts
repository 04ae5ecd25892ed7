// Item-item nearest neighbours by cosine similarity of factor rows.
import { topKTo } from './top-k.js';

const NO_NEIGHBOUR = 0xffffffff;

// scratch needs length >= 2n: [0, n) holds row norms, [n, 2n) one item's similarities.
// dstIdx/dstScore need length >= n*k. Only the lists of items [rowStart, rowEnd) are written, so a
// pool can share the work among workers writing disjoint parts of one buffer.
export function itemNeighboursTo(
  dstIdx: Uint32Array,
  dstScore: Float32Array,
  factors: Float32Array,
  n: number,
  f: number,
  k: number,
  scratch: Float32Array,
  rowStart = 0,
  rowEnd = n,
): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(f) || f < 0 || !Number.isInteger(k) || k < 0) throw new Error(`n, f, k must be non-negative integers, got ${n}, ${f}, ${k}`);
  if (factors.length !== n * f) throw new Error(`factors length ${factors.length}, expected n*f = ${n * f}`);
  if (dstIdx.length < n * k || dstScore.length < n * k) throw new Error(`dst lengths ${dstIdx.length}/${dstScore.length} < n*k ${n * k}`);
  if (scratch.length < 2 * n) throw new Error(`scratch length ${scratch.length} < 2n ${2 * n}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= n)) {
    throw new Error(`row range [${rowStart}, ${rowEnd}) outside [0, ${n})`);
  }
  if (k === 0) return;

  for (let i = 0; i < n; i++) {
    let ss = 0;
    const base = i * f;
    for (let d = 0; d < f; d++) {
      const x = factors[base + d]!;
      ss += x * x;
    }
    scratch[i] = Math.sqrt(ss);
  }

  // One subarray view per item (not per element) lets topKTo write straight into place.
  const sims = scratch.subarray(n, 2 * n);
  for (let i = rowStart; i < rowEnd; i++) {
    const bi = i * f;
    const ni = scratch[i]!;
    for (let j = 0; j < n; j++) {
      const nj = scratch[j]!;
      if (ni === 0 || nj === 0) {
        sims[j] = 0;
        continue;
      }
      let dot = 0;
      const bj = j * f;
      for (let d = 0; d < f; d++) dot += factors[bi + d]! * factors[bj + d]!;
      sims[j] = dot / (ni * nj);
    }
    // NaN makes topKTo skip the item itself without needing a mask buffer.
    sims[i] = NaN;
    const at = i * k;
    const outIdx = dstIdx.subarray(at, at + k);
    const outScore = dstScore.subarray(at, at + k);
    const got = topKTo(outIdx, outScore, sims, n, k);
    for (let s = got; s < k; s++) {
      outIdx[s] = NO_NEIGHBOUR;
      outScore[s] = NaN;
    }
  }
}
