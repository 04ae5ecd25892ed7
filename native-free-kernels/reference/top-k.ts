// Reference twin of ../top-k.ts: collect candidates, full sort, take the first k.
import { checkTopK } from '../checks.js';

export function topKTo(dstIdx: Uint32Array, dstScore: Float32Array, scores: Float32Array, n: number, k: number, mask?: Uint8Array): number {
  checkTopK(dstIdx, dstScore, scores, n, k, mask);
  const candidates: number[] = [];
  for (let i = 0; i < n; i++) {
    if (mask !== undefined && mask[i] !== 1) continue;
    if (Number.isNaN(scores[i]!)) continue;
    candidates.push(i);
  }
  candidates.sort((a, b) => scores[b]! - scores[a]! || a - b);
  const count = Math.min(k, candidates.length);
  for (let p = 0; p < count; p++) {
    dstIdx[p] = candidates[p]!;
    dstScore[p] = scores[candidates[p]!]!;
  }
  return count;
}
