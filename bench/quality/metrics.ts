// Top-10 ranking metrics over all items the user did not rate in training.
import { topKTo } from '../../native-free-kernels/top-k.js';
import type { Csr } from '../../native-free-kernels/csr.js';
import type { Scorer } from './models.js';

export interface Metrics {
  precision: number;
  recall: number;
  ndcg: number;
  users: number;
}

/**
 * For each test user with at least one relevant test item (rating ≥ threshold): rank every item
 * not rated in train, take the top k. P@k = hits/k, Recall@k = hits/|relevant|, NDCG@k with binary
 * gains and ideal DCG over min(k, |relevant|). Means over the evaluated users.
 */
export function evaluate(train: Csr, test: Csr, score: Scorer, k = 10, threshold = 4): Metrics {
  const items = train.cols;
  const scores = new Float32Array(items);
  const mask = new Uint8Array(items);
  const relevant = new Uint8Array(items);
  const topIdx = new Uint32Array(k);
  const topScore = new Float32Array(k);
  const discount = Float64Array.from({ length: k }, (_, r) => 1 / Math.log2(r + 2));
  let p = 0,
    rc = 0,
    nd = 0,
    users = 0;
  for (let u = 0; u < test.rows; u++) {
    let nRel = 0;
    for (let e = test.indptr[u]!; e < test.indptr[u + 1]!; e++) {
      if (test.values[e]! >= threshold) {
        relevant[test.indices[e]!] = 1;
        nRel++;
      }
    }
    if (nRel === 0) continue;
    mask.fill(1);
    for (let e = train.indptr[u]!; e < train.indptr[u + 1]!; e++) mask[train.indices[e]!] = 0;
    score(u, scores);
    const got = topKTo(topIdx, topScore, scores, items, k, mask);
    let hits = 0,
      dcg = 0,
      idcg = 0;
    for (let r = 0; r < got; r++) {
      if (relevant[topIdx[r]!] === 1) {
        hits++;
        dcg += discount[r]!;
      }
    }
    for (let r = 0; r < Math.min(k, nRel); r++) idcg += discount[r]!;
    p += hits / k;
    rc += hits / nRel;
    nd += dcg / idcg;
    users++;
    for (let e = test.indptr[u]!; e < test.indptr[u + 1]!; e++) relevant[test.indices[e]!] = 0;
  }
  return { precision: p / users, recall: rc / users, ndcg: nd / users, users };
}
