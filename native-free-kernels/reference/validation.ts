// Reference twin of ../validation.ts: every candidate item sorted, metrics from their definitions.
import type { Csr } from '../csr.js';
import type { HeldOut, RowScorer } from '../validation.js';

/** Same contract as the fast twin (scratch unused). */
export function rankingMetricsTo(
  sums: Float64Array,
  train: Csr,
  held: HeldOut,
  score: RowScorer,
  k: number,
  from: number,
  to: number,
): void {
  const scores = new Float32Array(train.cols);
  for (let v = from; v < to; v++) {
    const relevant = new Set(held.indices.subarray(held.indptr[v]!, held.indptr[v + 1]!));
    if (relevant.size === 0) continue;
    const u = held.users[v]!;
    const rated = new Set(train.indices.subarray(train.indptr[u]!, train.indptr[u + 1]!));
    score(u, scores);
    const ranked = [...scores.keys()]
      .filter((i) => !rated.has(i))
      .sort((a, b) => scores[b]! - scores[a]! || a - b)
      .slice(0, k);
    let dcg = 0,
      idcg = 0,
      hits = 0;
    ranked.forEach((item, r) => {
      if (relevant.has(item)) {
        hits++;
        dcg += 1 / Math.log2(r + 2);
      }
    });
    for (let r = 0; r < Math.min(k, relevant.size); r++) idcg += 1 / Math.log2(r + 2);
    sums[0] = sums[0]! + dcg / idcg;
    sums[1] = sums[1]! + hits / relevant.size;
    sums[2] = sums[2]! + 1;
  }
}
