// Reference twin of ../ease.ts: the weighted Gram matrix pair by pair, the inverse by Gaussian
// elimination with partial pivoting on [A | I], B straight from its definition.
import type { Csr } from '../csr.js';

export function weightedGram(m: Csr, column: Int32Array, weights: Float32Array, n: number): Float64Array {
  const g = new Float64Array(n * n);
  for (let u = 0; u < m.rows; u++) {
    for (let e = m.indptr[u]!; e < m.indptr[u + 1]!; e++) {
      for (let q = m.indptr[u]!; q < m.indptr[u + 1]!; q++) {
        const a = column[m.indices[e]!]!,
          b = column[m.indices[q]!]!;
        if (a >= 0 && b >= 0) g[a * n + b]! += weights[e]! * weights[q]!;
      }
    }
  }
  return g;
}

export function inverse(a: Float64Array, n: number): Float64Array {
  const m = Array.from({ length: n }, (_, i) => [
    ...Array.from({ length: n }, (_, j) => a[i * n + j]!),
    ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)),
  ]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let i = col + 1; i < n; i++) if (Math.abs(m[i]![col]!) > Math.abs(m[pivot]![col]!)) pivot = i;
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    const p = m[col]![col]!;
    for (let j = 0; j < 2 * n; j++) m[col]![j]! /= p;
    for (let i = 0; i < n; i++) {
      if (i === col) continue;
      const f = m[i]![col]!;
      for (let j = 0; j < 2 * n; j++) m[i]![j]! -= f * m[col]![j]!;
    }
  }
  return Float64Array.from({ length: n * n }, (_, k) => m[Math.floor(k / n)]![n + (k % n)]!);
}

export function easeWeights(p: Float64Array, n: number): Float32Array {
  return Float32Array.from({ length: n * n }, (_, k) => {
    const i = Math.floor(k / n),
      j = k % n;
    return i === j ? 0 : -p[k]! / p[j * n + j]!;
  });
}
