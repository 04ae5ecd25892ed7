// Row-wise arithmetic on factor matrices (rows × f, row-major): norms, unit rows, means of rows and
// a vector steered towards rows. Rows are named by index; every index is checked before anything is
// written.

import { checkIndex, checkRowArgs } from './checks.js';

/** dst[r] = the Euclidean norm of row r, its squares summed in f64 in column order (0 for a row of zeros). */
export function rowNormsTo(dst: Float32Array, factors: Float32Array, rows: number, f: number): void {
  checkRowArgs('rowNormsTo', factors, rows, f, dst, rows, 'rows');
  for (let r = 0; r < rows; r++) {
    const y = r * f;
    let ss = 0;
    for (let a = 0; a < f; a++) ss += factors[y + a]! * factors[y + a]!;
    dst[r] = Math.sqrt(ss);
  }
}

// Whether factors[y .. y+f) are all 0 (unchecked).
function zeroAt(factors: Float32Array, y: number, f: number): boolean {
  for (let a = 0; a < f; a++) if (factors[y + a] !== 0) return false;
  return true;
}

/** True when every entry of row r is 0 (−0 counts as 0, NaN does not). */
export function rowIsZero(factors: Float32Array, rows: number, f: number, r: number): boolean {
  checkRowArgs('rowIsZero', factors, rows, f, undefined, 0, '');
  checkIndex('rowIsZero', 'row', r, rows);
  return zeroAt(factors, r * f, f);
}

/**
 * Row p of dst (dst: list.length × f) = row list[p] of factors divided by norms[list[p]] (the
 * caller's norms, normally rowNormsTo's). A listed row of norm 0 gives NaN (or ±Infinity): callers
 * list rows with factors.
 */
export function unitRowsTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  rows: number,
  f: number,
  list: Uint32Array,
): void {
  checkRowArgs('unitRowsTo', factors, rows, f, dst, list.length * f, 'list.length*f', norms, list);
  for (let p = 0; p < list.length; p++) {
    const i = list[p]!,
      n = norms[i]!,
      x = p * f,
      y = i * f;
    for (let a = 0; a < f; a++) dst[x + a] = factors[y + a]! / n;
  }
}

/**
 * dst (f) = the mean of the listed rows that are not all zeros (rowIsZero), summed into dst (f32) in
 * list order and then divided by their count, which is returned (a row listed twice counts twice).
 * With no such row, dst is all zeros and 0 is returned.
 */
export function meanRowsTo(dst: Float32Array, factors: Float32Array, rows: number, f: number, list: ArrayLike<number>): number {
  checkRowArgs('meanRowsTo', factors, rows, f, dst, f, 'f', undefined, list);
  dst.fill(0);
  let used = 0;
  for (let k = 0; k < list.length; k++) {
    const y = list[k]! * f;
    if (zeroAt(factors, y, f)) continue;
    used++;
    for (let a = 0; a < f; a++) dst[a]! += factors[y + a]!;
  }
  if (used > 0) for (let a = 0; a < f; a++) dst[a]! /= used;
  return used;
}

/**
 * dst (f) = the mean of the unit rows (row / norms[row]) of the listed rows of norm ≠ 0, summed into
 * dst (f32) in list order and then divided by their count, which is returned. With no such row, dst
 * is all zeros and 0 is returned.
 */
export function meanUnitRowsTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  rows: number,
  f: number,
  list: ArrayLike<number>,
): number {
  checkRowArgs('meanUnitRowsTo', factors, rows, f, dst, f, 'f', norms, list);
  dst.fill(0);
  let used = 0;
  for (let k = 0; k < list.length; k++) {
    const i = list[k]!,
      n = norms[i]!,
      y = i * f;
    if (n === 0) continue;
    used++;
    for (let a = 0; a < f; a++) dst[a]! += factors[y + a]! / n;
  }
  if (used > 0) for (let a = 0; a < f; a++) dst[a]! /= used;
  return used;
}

/**
 * Steers dst (f, in place) towards the listed rows: for each listed row c of norm n ≠ 0, in list
 * order, dst[a] += (length · factors[c·f + a]) / (n · list.length). Rows of norm 0 add nothing but
 * still count in list.length, so each row pulls with 1/list.length of `length` whatever the others.
 */
export function steerTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  rows: number,
  f: number,
  list: ArrayLike<number>,
  length: number,
): void {
  checkRowArgs('steerTo', factors, rows, f, dst, f, 'f', norms, list);
  const count = list.length;
  for (let k = 0; k < count; k++) {
    const c = list[k]!,
      n = norms[c]!,
      y = c * f;
    if (n === 0) continue;
    for (let a = 0; a < f; a++) dst[a]! += (length * factors[y + a]!) / (n * count);
  }
}
