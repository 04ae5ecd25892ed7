// Reference twin of ../csr.ts: builds CSR via a map of maps and plain sorts.
import { checkCsr, checkTriples } from '../checks.js';
import type { Csr } from '../csr.js';

export type { Csr } from '../csr.js';

export function csrFromTriples(rows: number, cols: number, r: Uint32Array, c: Uint32Array, v: Float32Array): Csr {
  checkTriples(rows, cols, r, c, v);
  const byRow: Map<number, number>[] = [];
  for (let i = 0; i < rows; i++) byRow.push(new Map());
  for (let e = 0; e < r.length; e++) {
    const row = r[e]!;
    const col = c[e]!;
    byRow[row]!.set(col, v[e]!); // later writes replace earlier ones
  }
  const indptr = [0];
  const indices: number[] = [];
  const values: number[] = [];
  for (const row of byRow) {
    for (const col of [...row.keys()].sort((a, b) => a - b)) {
      indices.push(col);
      values.push(row.get(col)!);
    }
    indptr.push(indices.length);
  }
  return { rows, cols, indptr: Uint32Array.from(indptr), indices: Uint32Array.from(indices), values: Float32Array.from(values) };
}

export function transpose(m: Csr): Csr {
  checkCsr(m);
  const r: number[] = [];
  const c: number[] = [];
  const v: number[] = [];
  for (let i = 0; i < m.rows; i++) {
    for (let p = m.indptr[i]!; p < m.indptr[i + 1]!; p++) {
      r.push(m.indices[p]!);
      c.push(i);
      v.push(m.values[p]!);
    }
  }
  return csrFromTriples(m.cols, m.rows, Uint32Array.from(r), Uint32Array.from(c), Float32Array.from(v));
}
