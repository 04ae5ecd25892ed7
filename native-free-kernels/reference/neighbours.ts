// Reference twin of ../neighbours.ts: cosine for every pair, then a full sort per item.

function cosine(factors: Float32Array, f: number, i: number, j: number): number {
  let dot = 0;
  let ni = 0;
  let nj = 0;
  for (let d = 0; d < f; d++) {
    const a = factors[i * f + d]!;
    const b = factors[j * f + d]!;
    dot += a * b;
    ni += a * a;
    nj += b * b;
  }
  if (ni === 0 || nj === 0) return 0;
  return dot / (Math.sqrt(ni) * Math.sqrt(nj));
}

export function itemNeighboursTo(dstIdx: Uint32Array, dstScore: Float32Array, factors: Float32Array, n: number, f: number, k: number, scratch: Float32Array): void {
  if (factors.length !== n * f || dstIdx.length < n * k || dstScore.length < n * k || scratch.length < 2 * n) throw new Error('length mismatch');
  for (let i = 0; i < n; i++) {
    const others: { j: number; s: number }[] = [];
    for (let j = 0; j < n; j++) {
      if (j === i) continue;
      const s = Math.fround(cosine(factors, f, i, j));
      if (!Number.isNaN(s)) others.push({ j, s });
    }
    others.sort((a, b) => b.s - a.s || a.j - b.j);
    for (let p = 0; p < k; p++) {
      const o = others[p];
      dstIdx[i * k + p] = o ? o.j : 0xffffffff;
      dstScore[i * k + p] = o ? o.s : NaN;
    }
  }
}
