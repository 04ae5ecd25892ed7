// Item-KNN weights from a Gram matrix (co-occurrence counts, possibly weighted): each item's k most
// cosine-similar items, sim(i, j) = G_ij / √(G_ii·G_jj), as row i of a dense n × n matrix (zeros
// elsewhere), so a user's scores are the sum of the rows of what they rated, as with EASE's B.
import { topKTo } from './top-k.js';

// Rows [rowStart, rowEnd) of dst (n × n float32) from gram (n × n float64). Items with a zero
// diagonal (no ratings) have no neighbours and are nobody's.
export function cosineNeighboursTo(dst: Float32Array, gram: Float64Array, n: number, k: number, rowStart: number, rowEnd: number): void {
  if (dst.length !== n * n || gram.length !== n * n)
    throw new Error(`cosineNeighboursTo: dst ${dst.length}, gram ${gram.length}, expected ${n * n}`);
  const norms = new Float64Array(n);
  for (let j = 0; j < n; j++) norms[j] = Math.sqrt(gram[j * n + j]!);
  const sims = new Float32Array(n);
  const top = new Uint32Array(k),
    best = new Float32Array(k);
  for (let i = rowStart; i < rowEnd; i++) {
    const row = i * n;
    dst.fill(0, row, row + n);
    if (norms[i] === 0) continue;
    for (let j = 0; j < n; j++) sims[j] = j === i || norms[j] === 0 ? NaN : gram[row + j]! / (norms[i]! * norms[j]!);
    const got = topKTo(top, best, sims, n, Math.min(k, n));
    for (let q = 0; q < got; q++) if (best[q]! > 0) dst[row + top[q]!] = best[q]!;
  }
}
