// Reference twin of ../rows.ts: rows copied out as plain arrays, filtered and mapped. Same contracts
// (f32 sums where the contract has them), arguments checked the same way.

function row(factors: Float32Array, f: number, r: number): number[] {
  return Array.from(factors.subarray(r * f, (r + 1) * f));
}

function check(name: string, factors: Float32Array, rows: number, f: number, list: ArrayLike<number> = []): void {
  if (!Number.isInteger(rows) || rows < 0 || !Number.isInteger(f) || f < 0) throw new Error(`${name}: rows and f must be integers ≥ 0, got ${rows}, ${f}`);
  if (factors.length !== rows * f) throw new Error(`${name}: factors length ${factors.length}, expected rows*f = ${rows * f}`);
  for (const r of Array.from(list)) if (!(Number.isInteger(r) && r >= 0 && r < rows)) throw new Error(`${name}: row ${r} outside [0, ${rows})`);
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
  check('rowNormsTo', factors, rows, f);
  if (dst.length !== rows) throw new Error(`rowNormsTo: dst length ${dst.length}, expected rows = ${rows}`);
  for (let r = 0; r < rows; r++) dst[r] = norm(row(factors, f, r));
}

export function rowIsZero(factors: Float32Array, rows: number, f: number, r: number): boolean {
  check('rowIsZero', factors, rows, f, [r]);
  return isZero(row(factors, f, r));
}

export function unitRowsTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, rows: number, f: number, list: Uint32Array): void {
  check('unitRowsTo', factors, rows, f, list);
  if (norms.length !== rows) throw new Error(`unitRowsTo: norms length ${norms.length}, expected rows = ${rows}`);
  if (dst.length !== list.length * f) throw new Error(`unitRowsTo: dst length ${dst.length}, expected list.length*f = ${list.length * f}`);
  Array.from(list).forEach((r, p) => dst.set(row(factors, f, r).map((v) => v / norms[r]!), p * f));
}

export function meanRowsTo(dst: Float32Array, factors: Float32Array, rows: number, f: number, list: ArrayLike<number>): number {
  check('meanRowsTo', factors, rows, f, list);
  if (dst.length !== f) throw new Error(`meanRowsTo: dst length ${dst.length}, expected f = ${f}`);
  return mean(dst, Array.from(list, (r) => row(factors, f, r)).filter((x) => !isZero(x)));
}

export function meanUnitRowsTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, rows: number, f: number, list: ArrayLike<number>): number {
  check('meanUnitRowsTo', factors, rows, f, list);
  if (norms.length !== rows) throw new Error(`meanUnitRowsTo: norms length ${norms.length}, expected rows = ${rows}`);
  if (dst.length !== f) throw new Error(`meanUnitRowsTo: dst length ${dst.length}, expected f = ${f}`);
  const used = Array.from(list).filter((r) => norms[r] !== 0);
  return mean(dst, used.map((r) => row(factors, f, r).map((v) => v / norms[r]!)));
}

export function steerTo(dst: Float32Array, factors: Float32Array, norms: Float32Array, rows: number, f: number, list: ArrayLike<number>, length: number): void {
  check('steerTo', factors, rows, f, list);
  if (norms.length !== rows) throw new Error(`steerTo: norms length ${norms.length}, expected rows = ${rows}`);
  if (dst.length !== f) throw new Error(`steerTo: dst length ${dst.length}, expected f = ${f}`);
  // Each row of norm ≠ 0 pulls along its unit direction by length / list.length (f32 after each addition).
  const v = Array.from(dst);
  for (const r of Array.from(list)) {
    if (norms[r] === 0) continue;
    row(factors, f, r).forEach((x, a) => (v[a] = Math.fround(v[a]! + (length * x) / (norms[r]! * list.length))));
  }
  dst.set(v);
}
