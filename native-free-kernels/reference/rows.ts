// Reference twin of ../rows.ts: rows copied out as plain arrays, filtered and mapped. Same contracts
// (f32 sums where the contract has them), arguments checked by the kernel's own checks.
import { checkIndex, checkRowArgs } from '../checks.js';

function row(factors: Float32Array, f: number, r: number): number[] {
  return Array.from(factors.subarray(r * f, (r + 1) * f));
}

const norm = (x: number[]): number => Math.sqrt(x.reduce((s, v) => s + v * v, 0));
const isZero = (x: number[]): boolean => x.every((v) => v === 0);

// The mean of vectors as the contract has it: summed in f32 (each addition rounded), then divided
// and rounded (zeros for none).
function mean(dst: Float32Array, xs: number[][]): number {
  const sum = new Array<number>(dst.length).fill(0);
  for (const x of xs) x.forEach((v, a) => (sum[a] = Math.fround(sum[a]! + v)));
  dst.set(sum.map((s) => (xs.length === 0 ? 0 : s / xs.length)));
  return xs.length;
}

export function rowNormsTo(dst: Float32Array, factors: Float32Array, rows: number, f: number): void {
  checkRowArgs('rowNormsTo', factors, rows, f, dst, rows, 'rows');
  for (let r = 0; r < rows; r++) dst[r] = norm(row(factors, f, r));
}

export function rowIsZero(factors: Float32Array, rows: number, f: number, r: number): boolean {
  checkRowArgs('rowIsZero', factors, rows, f, undefined, 0, '');
  checkIndex('rowIsZero', 'row', r, rows);
  return isZero(row(factors, f, r));
}

export function unitRowsTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  rows: number,
  f: number,
  list: Uint32Array,
): void {
  checkRowArgs('unitRowsTo', factors, rows, f, dst, list.length * f, 'list.length*f', norms, list);
  Array.from(list).forEach((r, p) =>
    dst.set(
      row(factors, f, r).map((v) => v / norms[r]!),
      p * f,
    ),
  );
}

export function meanRowsTo(dst: Float32Array, factors: Float32Array, rows: number, f: number, list: ArrayLike<number>): number {
  checkRowArgs('meanRowsTo', factors, rows, f, dst, f, 'f', undefined, list);
  return mean(
    dst,
    Array.from(list, (r) => row(factors, f, r)).filter((x) => !isZero(x)),
  );
}

export function meanUnitRowsTo(
  dst: Float32Array,
  factors: Float32Array,
  norms: Float32Array,
  rows: number,
  f: number,
  list: ArrayLike<number>,
): number {
  checkRowArgs('meanUnitRowsTo', factors, rows, f, dst, f, 'f', norms, list);
  const used = Array.from(list).filter((r) => norms[r] !== 0);
  return mean(
    dst,
    used.map((r) => row(factors, f, r).map((v) => v / norms[r]!)),
  );
}

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
  // Each row of norm ≠ 0 pulls along its unit direction by length / list.length (f32 after each addition).
  const v = Array.from(dst);
  for (const r of Array.from(list)) {
    if (norms[r] === 0) continue;
    row(factors, f, r).forEach((x, a) => (v[a] = Math.fround(v[a]! + (length * x) / (norms[r]! * list.length))));
  }
  dst.set(v);
}
