// EASE (Steck 2019): item-to-item weights B = I − P·diag(1/diag P), zero diagonal, with
// P = (XᵀWX + λI)⁻¹ over a chosen set of items. The inverse is a blocked Gauss-Jordan sweep: each
// block of `b` pivots is one small inverse (sweepPivotTo, one thread) and one rank-b update of every
// other row (sweepUpdateTo, in row ranges on any number of threads), so the n³ work runs as
// register-blocked products instead of a pass over the whole matrix per pivot.
import type { Csr } from './csr.js';
import { shareAtMost, valueShares } from './validation.js';

/**
 * Each rating's weight in the item-weights models: its quantile among `values` (the share valued at
 * most it: scale-free, and implicit data with one value weighs 1) when byQuantile, else 1 from `cut`
 * on and `below` under it.
 */
export function ratingWeightsTo(dst: Float32Array, values: Float32Array, w: { cut: number; below: number; byQuantile: boolean }): void {
  if (dst.length !== values.length) throw new Error(`ratingWeightsTo: dst length ${dst.length} != values length ${values.length}`);
  if (!w.byQuantile) {
    for (let k = 0; k < values.length; k++) dst[k] = values[k]! >= w.cut ? 1 : w.below;
    return;
  }
  const t = valueShares(values);
  for (let k = 0; k < values.length; k++) dst[k] = shareAtMost(t, values[k]!);
}

// Rows of XᵀX in [rowStart, rowEnd) (row r of dst is column r of the kept items): every user's kept
// items, each pair's weights multiplied. `column[i]` is item i's place among the kept items or -1;
// `weights` holds one weight per stored rating of m (m's order). dst is n × n, its rows `stride`
// apart (the WebAssembly sweep's f32 rows are padded, wasm-ease.ts), rows outside the range untouched.
export function weightedGramTo(
  dst: Float64Array | Float32Array,
  m: Csr,
  column: Int32Array,
  weights: Float32Array,
  n: number,
  rowStart: number,
  rowEnd: number,
  stride = n,
): void {
  if (dst.length < spanOf(n, stride)) throw new Error(`weightedGramTo: dst length ${dst.length}, expected at least ${spanOf(n, stride)}`);
  if (weights.length !== m.indices.length) throw new Error(`weightedGramTo: ${weights.length} weights for ${m.indices.length} ratings`);
  for (let r = rowStart; r < rowEnd; r++) dst.fill(0, r * stride, r * stride + n);
  const cols: number[] = [],
    ws: number[] = [];
  for (let u = 0; u < m.rows; u++) {
    cols.length = 0;
    ws.length = 0;
    let mine = false;
    for (let e = m.indptr[u]!; e < m.indptr[u + 1]!; e++) {
      const c = column[m.indices[e]!]!;
      if (c < 0) continue;
      cols.push(c);
      ws.push(weights[e]!);
      if (c >= rowStart && c < rowEnd) mine = true;
    }
    if (!mine) continue;
    for (let a = 0; a < cols.length; a++) {
      const c = cols[a]!;
      if (c < rowStart || c >= rowEnd) continue;
      const row = c * stride,
        wa = ws[a]!;
      for (let k = 0; k < cols.length; k++) dst[row + cols[k]!]! += wa * ws[k]!;
    }
  }
}

// Adds λ to the diagonal of rows [rowStart, rowEnd) (rows `stride` apart).
export function addDiagonalTo(
  a: Float64Array | Float32Array,
  n: number,
  lambda: number,
  rowStart: number,
  rowEnd: number,
  stride = n,
): void {
  for (let r = rowStart; r < rowEnd; r++) a[r * stride + r]! += lambda;
}

// Entries of n rows `stride` apart, the last one unpadded.
const spanOf = (n: number, stride: number): number => (n === 0 ? 0 : (n - 1) * stride + n);

// Scratch of one sweep: the pivot block's inverse (b × b) and its rows times it, transposed (n × b).
export const sweepScratchLength = (n: number, b: number): number => b * b + n * b;

/**
 * First half of sweeping the pivots [k, k + b) of `a` (n × n, row-major, symmetric positive definite
 * before the first sweep): inverts the pivot block into scratch, writes the block's rows of the result
 * (D⁻¹·A_K· into a's rows K) and keeps them transposed in scratch for sweepUpdateTo. False when the
 * block is not positive definite (a is then unusable).
 */
export function sweepPivotTo(a: Float64Array, n: number, k: number, b: number, scratch: Float64Array): boolean {
  const dinv = scratch.subarray(0, b * b),
    panT = scratch.subarray(b * b, b * b + n * b);
  for (let t = 0; t < b; t++) for (let s = 0; s < b; s++) dinv[t * b + s] = a[(k + t) * n + k + s]!;
  if (!invertSmallInPlace(dinv, b)) return false;
  // panT[j·b + t] = (D⁻¹·A_K,j)_t, for every column j (those of K give the identity, replaced below).
  for (let t = 0; t < b; t++) {
    const drow = t * b;
    for (let j = 0; j < n; j++) {
      let s = 0;
      for (let q = 0; q < b; q++) s += dinv[drow + q]! * a[(k + q) * n + j]!;
      panT[j * b + t] = s;
    }
  }
  for (let t = 0; t < b; t++) {
    const row = (k + t) * n;
    for (let j = 0; j < n; j++) a[row + j] = panT[j * b + t]!;
    for (let s = 0; s < b; s++) a[row + k + s] = dinv[t * b + s]!;
  }
  return true;
}

/**
 * Second half, for rows [rowStart, rowEnd) outside the block: A_ij −= A_iK·(D⁻¹A_Kj) for columns
 * outside the block, A_iK = −A_iK·D⁻¹. Rows of different ranges may run on different threads at once
 * (each reads its own rows and the scratch sweepPivotTo filled).
 */
export function sweepUpdateTo(
  a: Float64Array,
  n: number,
  k: number,
  b: number,
  scratch: Float64Array,
  rowStart: number,
  rowEnd: number,
  r: Float64Array,
): void {
  if (r.length < 4 * b) throw new Error(`sweepUpdateTo: r length ${r.length}, need ${4 * b}`);
  if (k % 2 !== 0) throw new Error(`sweepUpdateTo: block start ${k} must be even`);
  const dinv = scratch.subarray(0, b * b),
    panT = scratch.subarray(b * b, b * b + n * b);
  const rows: number[] = [];
  for (let i = rowStart; i < rowEnd; i++) if (i < k || i >= k + b) rows.push(i);
  let q = 0;
  for (; q + 4 <= rows.length; q += 4) updateRows4(a, n, k, b, panT, rows[q]!, rows[q + 1]!, rows[q + 2]!, rows[q + 3]!, r);
  for (; q < rows.length; q++) updateRow1(a, n, k, b, panT, rows[q]!, r);
  for (const i of rows) {
    const row = i * n;
    for (let t = 0; t < b; t++) r[t] = a[row + k + t]!;
    for (let s = 0; s < b; s++) {
      let x = 0;
      for (let t = 0; t < b; t++) x += r[t]! * dinv[t * b + s]!;
      a[row + k + s] = -x;
    }
  }
}

// Four rows at once: each panel column is read once for four rows, two columns a pass.
function updateRows4(
  a: Float64Array,
  n: number,
  k: number,
  b: number,
  panT: Float64Array,
  i0: number,
  i1: number,
  i2: number,
  i3: number,
  r: Float64Array,
): void {
  const o0 = i0 * n,
    o1 = i1 * n,
    o2 = i2 * n,
    o3 = i3 * n;
  for (let t = 0; t < b; t++) {
    r[t] = a[o0 + k + t]!;
    r[b + t] = a[o1 + k + t]!;
    r[2 * b + t] = a[o2 + k + t]!;
    r[3 * b + t] = a[o3 + k + t]!;
  }
  const end = k + b;
  let j = 0;
  for (; j + 2 <= n; j += 2) {
    if (j >= k && j < end) continue; // the block's columns are written after
    const p = j * b,
      p1 = p + b;
    let s00 = 0,
      s01 = 0,
      s10 = 0,
      s11 = 0,
      s20 = 0,
      s21 = 0,
      s30 = 0,
      s31 = 0;
    for (let t = 0; t < b; t++) {
      const x = panT[p + t]!,
        y = panT[p1 + t]!;
      const r0 = r[t]!,
        r1 = r[b + t]!,
        r2 = r[2 * b + t]!,
        r3 = r[3 * b + t]!;
      s00 += r0 * x;
      s01 += r0 * y;
      s10 += r1 * x;
      s11 += r1 * y;
      s20 += r2 * x;
      s21 += r2 * y;
      s30 += r3 * x;
      s31 += r3 * y;
    }
    a[o0 + j]! -= s00;
    a[o0 + j + 1]! -= s01;
    a[o1 + j]! -= s10;
    a[o1 + j + 1]! -= s11;
    a[o2 + j]! -= s20;
    a[o2 + j + 1]! -= s21;
    a[o3 + j]! -= s30;
    a[o3 + j + 1]! -= s31;
  }
  // The last column of an odd n (block starts are even, so no pair straddles the block).
  const c = n - 1;
  if (n % 2 === 1 && (c < k || c >= end)) {
    const p = c * b;
    let s0 = 0,
      s1 = 0,
      s2 = 0,
      s3 = 0;
    for (let t = 0; t < b; t++) {
      const x = panT[p + t]!;
      s0 += r[t]! * x;
      s1 += r[b + t]! * x;
      s2 += r[2 * b + t]! * x;
      s3 += r[3 * b + t]! * x;
    }
    a[o0 + c]! -= s0;
    a[o1 + c]! -= s1;
    a[o2 + c]! -= s2;
    a[o3 + c]! -= s3;
  }
}

function updateRow1(a: Float64Array, n: number, k: number, b: number, panT: Float64Array, i: number, r: Float64Array): void {
  const o = i * n;
  for (let t = 0; t < b; t++) r[t] = a[o + k + t]!;
  for (let j = 0; j < n; j++) {
    if (j >= k && j < k + b) continue;
    const p = j * b;
    let s = 0;
    for (let t = 0; t < b; t++) s += r[t]! * panT[p + t]!;
    a[o + j]! -= s;
  }
}

// Gauss-Jordan inverse of a small symmetric positive definite block, in place. False on a
// non-positive pivot.
function invertSmallInPlace(m: Float64Array, b: number): boolean {
  for (let k = 0; k < b; k++) {
    const rk = k * b;
    const pivot = m[rk + k]!;
    if (!(pivot > 0)) return false;
    m[rk + k] = 1;
    const inv = 1 / pivot;
    for (let j = 0; j < b; j++) m[rk + j]! *= inv;
    for (let i = 0; i < b; i++) {
      if (i === k) continue;
      const ri = i * b;
      const fac = m[ri + k]!;
      if (fac === 0) continue;
      m[ri + k] = 0;
      for (let j = 0; j < b; j++) m[ri + j]! -= fac * m[rk + j]!;
    }
  }
  return true;
}

// Rows [rowStart, rowEnd) of B (n × n) from the inverse P: B_ij = −P_ij / P_jj, B_ii = 0. P's rows
// are `stride` apart (the WebAssembly sweep pads them, wasm-ease.ts).
export function easeWeightsTo(
  dst: Float32Array,
  p: Float64Array | Float32Array,
  n: number,
  rowStart: number,
  rowEnd: number,
  stride = n,
): void {
  if (dst.length !== n * n || p.length < spanOf(n, stride))
    throw new Error(`easeWeightsTo: dst length ${dst.length} or p length ${p.length} too short for ${n} rows ${stride} apart`);
  // −1/P_jj once per call, not a division and a diagonal read per entry.
  const scale = new Float64Array(n);
  for (let j = 0; j < n; j++) scale[j] = -1 / p[j * stride + j]!;
  for (let i = rowStart; i < rowEnd; i++) {
    const row = i * n,
      from = i * stride;
    for (let j = 0; j < n; j++) dst[row + j] = p[from + j]! * scale[j]!;
    dst[row + i] = 0;
  }
}

// A user's scores over the kept items: Σ weight · B's row of each rated kept item (dst length n).
export function easeScoresTo(
  dst: Float32Array,
  weightsB: Float32Array,
  n: number,
  rows: ArrayLike<number>,
  values: ArrayLike<number>,
): void {
  dst.fill(0);
  for (let q = 0; q < rows.length; q++) {
    const w = values[q]!,
      off = rows[q]! * n;
    for (let j = 0; j < n; j++) dst[j]! += w * weightsB[off + j]!;
  }
}

// The whole inverse on one thread (tests, small matrices): every block swept in turn.
export function sweepInverseInPlace(a: Float64Array, n: number, b: number): boolean {
  const scratch = new Float64Array(sweepScratchLength(n, b)),
    r = new Float64Array(4 * b);
  for (let k = 0; k < n; k += b) {
    const size = Math.min(b, n - k);
    if (!sweepPivotTo(a, n, k, size, scratch)) return false;
    sweepUpdateTo(a, n, k, size, scratch, 0, n, r);
  }
  return true;
}
