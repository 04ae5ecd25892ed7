// Compressed sparse row matrices: building from (row, col, value) triples and transposing.
import { checkCsr, checkTriples } from './checks.js';

export interface Csr {
  rows: number;
  cols: number;
  indptr: Uint32Array /* rows+1 */;
  indices: Uint32Array;
  values: Float32Array;
}

// Two stable counting sorts (by column, then by row) give columns ascending within each row while
// keeping write order among repeats, so the last write of a (row, col) is the last of its run.
export function csrFromTriples(rows: number, cols: number, r: Uint32Array, c: Uint32Array, v: Float32Array): Csr {
  checkTriples(rows, cols, r, c, v);
  const m = r.length;

  const colStart = new Uint32Array(cols + 1);
  for (let e = 0; e < m; e++) colStart[c[e]! + 1]!++;
  for (let j = 0; j < cols; j++) colStart[j + 1]! += colStart[j]!;
  const byCol = new Uint32Array(m);
  for (let e = 0; e < m; e++) byCol[colStart[c[e]!]!++] = e;

  const rowStart = new Uint32Array(rows + 1);
  for (let e = 0; e < m; e++) rowStart[r[e]! + 1]!++;
  for (let i = 0; i < rows; i++) rowStart[i + 1]! += rowStart[i]!;
  const order = new Uint32Array(m);
  const fill = rowStart.slice(0, rows);
  for (let p = 0; p < m; p++) {
    const e = byCol[p]!;
    order[fill[r[e]!]!++] = e;
  }

  // Compact runs of equal columns in place; `out` never overtakes `p`.
  const indptr = new Uint32Array(rows + 1);
  const idx = new Uint32Array(m);
  const val = new Float32Array(m);
  let out = 0;
  for (let i = 0; i < rows; i++) {
    const end = rowStart[i + 1]!;
    const rowFirst = out;
    for (let p = rowStart[i]!; p < end; p++) {
      const e = order[p]!;
      const col = c[e]!;
      if (out > rowFirst && idx[out - 1] === col) val[out - 1] = v[e]!;
      else {
        idx[out] = col;
        val[out] = v[e]!;
        out++;
      }
    }
    indptr[i + 1] = out;
  }
  return { rows, cols, indptr, indices: idx.slice(0, out), values: val.slice(0, out) };
}

// Arrays of n elements, in SharedArrayBuffers when pool tasks are to share them without a copy.
const u32 = (n: number, shared: boolean) => (shared ? new Uint32Array(new SharedArrayBuffer(4 * n)) : new Uint32Array(n));
const f32 = (n: number, shared: boolean) => (shared ? new Float32Array(new SharedArrayBuffer(4 * n)) : new Float32Array(n));

/**
 * The matrix of triples already in (row, col) order, each pair once (a ratings snapshot): its
 * columns and values as they are, the row pointers from a count. Throws on triples out of order.
 */
export function csrFromSorted(rows: number, cols: number, r: Uint32Array, c: Uint32Array, v: Float32Array, shared = false): Csr {
  checkTriples(rows, cols, r, c, v);
  const m = r.length;
  const indptr = u32(rows + 1, shared);
  for (let e = 0; e < m; e++) {
    if (e > 0 && (r[e]! < r[e - 1]! || (r[e] === r[e - 1] && c[e]! <= c[e - 1]!)))
      throw new Error(`triples out of (row, column) order at ${e}`);
    indptr[r[e]! + 1]!++;
  }
  for (let i = 0; i < rows; i++) indptr[i + 1]! += indptr[i]!;
  const indices = u32(m, shared);
  indices.set(c);
  const values = f32(m, shared);
  values.set(v);
  return { rows, cols, indptr, indices, values };
}

// Rows are visited in order, so the rows inside each output row come out ascending without a sort.
export function transpose(m: Csr, shared = false): Csr {
  checkCsr(m);
  const { rows, cols, indptr, indices, values } = m;
  const nnz = indices.length;
  const tIndptr = u32(cols + 1, shared);
  for (let p = 0; p < nnz; p++) tIndptr[indices[p]! + 1]!++;
  for (let j = 0; j < cols; j++) tIndptr[j + 1]! += tIndptr[j]!;
  const fill = tIndptr.slice(0, cols);
  const tIndices = u32(nnz, shared);
  const tValues = f32(nnz, shared);
  for (let i = 0; i < rows; i++) {
    const end = indptr[i + 1]!;
    for (let p = indptr[i]!; p < end; p++) {
      const q = fill[indices[p]!]!++;
      tIndices[q] = i;
      tValues[q] = values[p]!;
    }
  }
  return { rows: cols, cols: rows, indptr: tIndptr, indices: tIndices, values: tValues };
}

// A copy in SharedArrayBuffers, for pool tasks to share without copying.
export function sharedCsr(m: Csr): Csr {
  const copy = <T extends Uint32Array | Float32Array>(a: T): T => {
    const out = new (a.constructor as new (b: SharedArrayBuffer) => T)(new SharedArrayBuffer(a.byteLength));
    out.set(a);
    return out;
  };
  return { rows: m.rows, cols: m.cols, indptr: copy(m.indptr), indices: copy(m.indices), values: copy(m.values) };
}
