// Reference twin of ../item-knn.ts: every pair's cosine, each row sorted whole.
export function cosineNeighbours(gram: Float64Array, n: number, k: number): Float32Array {
  const out = new Float32Array(n * n);
  for (let i = 0; i < n; i++) {
    const gi = gram[i * n + i]!;
    if (gi === 0) continue;
    const sims: { j: number; s: number }[] = [];
    for (let j = 0; j < n; j++) {
      const gj = gram[j * n + j]!;
      if (j === i || gj === 0) continue;
      sims.push({ j, s: Math.fround(gram[i * n + j]! / (Math.sqrt(gi) * Math.sqrt(gj))) });
    }
    sims.sort((a, b) => b.s - a.s || a.j - b.j);
    for (const { j, s } of sims.slice(0, k)) if (s > 0) out[i * n + j] = s;
  }
  return out;
}
