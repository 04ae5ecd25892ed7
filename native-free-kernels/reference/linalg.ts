// Reference twin of ../linalg.ts: naive Gram matrix and Gaussian elimination with partial pivoting.
import { checkGram, checkParts, checkSolve } from '../checks.js';

export function gramTo(dst: Float64Array, factors: Float32Array, n: number, f: number): void {
  checkGram(dst, factors, n, f);
  for (let a = 0; a < f; a++) {
    for (let b = 0; b < f; b++) {
      let sum = 0;
      for (let r = 0; r < n; r++) sum += factors[r * f + a]! * factors[r * f + b]!;
      dst[a * f + b] = sum;
    }
  }
}

/** Same contract as the fast twin, but solved by Gaussian elimination so it also cross-checks the method. */
export function choleskySolveTo(x: Float64Array, a: Float64Array, b: Float64Array, f: number, scratch: Float64Array): void {
  checkSolve(x, a, b, f, scratch);
  const m: number[][] = [];
  for (let i = 0; i < f; i++) {
    const row: number[] = [];
    for (let j = 0; j < f; j++) row.push(a[i * f + j]!);
    row.push(b[i]!);
    m.push(row);
  }
  for (let col = 0; col < f; col++) {
    let pivot = col;
    for (let i = col + 1; i < f; i++) if (Math.abs(m[i]![col]!) > Math.abs(m[pivot]![col]!)) pivot = i;
    if (m[pivot]![col] === 0) throw new Error('choleskySolveTo: matrix is singular');
    [m[col], m[pivot]] = [m[pivot]!, m[col]!];
    for (let i = col + 1; i < f; i++) {
      const factor = m[i]![col]! / m[col]![col]!;
      for (let j = col; j <= f; j++) m[i]![j] = m[i]![j]! - factor * m[col]![j]!;
    }
  }
  for (let i = f - 1; i >= 0; i--) {
    let s = m[i]![f]!;
    for (let j = i + 1; j < f; j++) s -= m[i]![j]! * x[j]!;
    x[i] = s / m[i]![i]!;
  }
}

export function sumTo(dst: Float64Array, parts: readonly Float64Array[]): void {
  checkParts(dst, parts);
  for (let a = 0; a < dst.length; a++) dst[a] = parts.reduce((s, p) => s + p[a]!, 0);
}
