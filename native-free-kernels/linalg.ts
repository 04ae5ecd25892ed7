// Small dense linear algebra for factor models: Gram matrix and Cholesky solve.
import { checkGram, checkParts, checkSolve } from './checks.js';

/** dst (f*f, row-major) = FᵀF for row-major factors F (n*f). Accumulates in f64 to keep the Gram well conditioned. */
export function gramTo(dst: Float64Array, factors: Float32Array, n: number, f: number): void {
  checkGram(dst, factors, n, f);
  dst.fill(0);
  for (let r = 0; r < n; r++) {
    const row = r * f;
    for (let a = 0; a < f; a++) {
      const ya = factors[row + a]!;
      if (ya === 0) continue;
      const da = a * f;
      // Upper triangle only; mirrored below.
      for (let b = a; b < f; b++) dst[da + b]! += ya * factors[row + b]!;
    }
  }
  for (let a = 0; a < f; a++) for (let b = 0; b < a; b++) dst[a * f + b] = dst[b * f + a]!;
}

/**
 * dst = parts[0] + parts[1] + … elementwise, summed from 0 in part order (the Gram matrix of a
 * factor matrix from the Gram matrices of its row ranges). Every part has dst's length.
 */
export function sumTo(dst: Float64Array, parts: readonly Float64Array[]): void {
  checkParts(dst, parts);
  dst.fill(0);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    for (let a = 0; a < dst.length; a++) dst[a]! += part[a]!;
  }
}

/**
 * Solves a·x = b for symmetric positive definite a (f*f, not modified): only a's lower triangle is
 * read (diagonal included), so a caller may build that alone. scratch needs f*f entries (holds the
 * Cholesky factor). x may alias b. Throws if a is not positive definite.
 */
export function choleskySolveTo(x: Float64Array, a: Float64Array, b: Float64Array, f: number, scratch: Float64Array): void {
  checkSolve(x, a, b, f, scratch);
  if (!choleskyFactorTo(scratch, a, 0, f)) throw new Error('choleskySolveTo: matrix is not positive definite');
  choleskySubstituteTo(x, scratch, b, f);
}

/**
 * dst (f*f) = (a + shift·I)⁻¹ for symmetric positive definite a + shift·I (a not modified): one
 * Cholesky factorisation, then a solve per column. scratch needs f*f + f entries. Throws if the
 * matrix is not positive definite.
 */
export function shiftedInverseTo(dst: Float64Array, a: Float64Array, shift: number, f: number, scratch: Float64Array): void {
  if (a.length !== f * f || dst.length !== f * f) throw new Error(`shiftedInverseTo: a and dst need ${f * f} entries`);
  if (scratch.length < f * f + f) throw new Error(`shiftedInverseTo: scratch length ${scratch.length}, need at least ${f * f + f}`);
  const l = scratch.subarray(0, f * f),
    x = scratch.subarray(f * f, f * f + f);
  if (!choleskyFactorTo(l, a, shift, f)) throw new Error('shiftedInverseTo: matrix is not positive definite');
  for (let col = 0; col < f; col++) {
    x.fill(0);
    x[col] = 1;
    choleskySubstituteTo(x, l, x, f);
    for (let i = 0; i < f; i++) dst[i * f + col] = x[i]!;
  }
}

// l (f*f, lower triangle) = the Cholesky factor of a + shift·I; false when that is not positive definite.
// Reads a's lower triangle only (choleskySolveTo promises it). Column j is made four rows at a time:
// four dot products side by side, each summed in the same order as alone (the same bits), so that
// their additions overlap instead of each waiting on the one before (a chain of dependent additions
// is latency-bound; 1.5–1.7× faster at f = 32–64, bench/kernels/fold-in-speed.ts).
function choleskyFactorTo(l: Float64Array, a: Float64Array, shift: number, f: number): boolean {
  for (let j = 0; j < f; j++) {
    const rj = j * f;
    let d = a[rj + j]! + shift;
    for (let k = 0; k < j; k++) d -= l[rj + k]! * l[rj + k]!;
    if (!(d > 0)) return false;
    const ljj = Math.sqrt(d);
    l[rj + j] = ljj;
    let i = j + 1;
    for (; i + 4 <= f; i += 4) {
      const r0 = i * f,
        r1 = r0 + f,
        r2 = r1 + f,
        r3 = r2 + f;
      let s0 = a[r0 + j]!,
        s1 = a[r1 + j]!,
        s2 = a[r2 + j]!,
        s3 = a[r3 + j]!;
      for (let k = 0; k < j; k++) {
        const ljk = l[rj + k]!;
        s0 -= l[r0 + k]! * ljk;
        s1 -= l[r1 + k]! * ljk;
        s2 -= l[r2 + k]! * ljk;
        s3 -= l[r3 + k]! * ljk;
      }
      l[r0 + j] = s0 / ljj;
      l[r1 + j] = s1 / ljj;
      l[r2 + j] = s2 / ljj;
      l[r3 + j] = s3 / ljj;
    }
    for (; i < f; i++) {
      let s = a[i * f + j]!;
      for (let k = 0; k < j; k++) s -= l[i * f + k]! * l[rj + k]!;
      l[i * f + j] = s / ljj;
    }
  }
  return true;
}

// x = (l·lᵀ)⁻¹ b: forward then backward substitution, in place in x so that x may alias b.
function choleskySubstituteTo(x: Float64Array, l: Float64Array, b: Float64Array, f: number): void {
  for (let i = 0; i < f; i++) {
    let s = b[i]!;
    for (let k = 0; k < i; k++) s -= l[i * f + k]! * x[k]!;
    x[i] = s / l[i * f + i]!;
  }
  for (let i = f - 1; i >= 0; i--) {
    let s = x[i]!;
    for (let k = i + 1; k < f; k++) s -= l[k * f + i]! * x[k]!;
    x[i] = s / l[i * f + i]!;
  }
}

/**
 * Solves b·x = y in place (y becomes x) for a small square b (k*k, overwritten) by Gaussian
 * elimination with partial pivoting. false when b is singular to working precision.
 * b and y start at bAt and yAt (they may share one array): callers solving from their scratch
 * pass offsets, since a subarray per call is an allocation on the request path.
 */
export function smallSolveInPlace(b: Float64Array, y: Float64Array, k: number, bAt = 0, yAt = 0): boolean {
  for (let c = 0; c < k; c++) {
    let p = c;
    for (let r = c + 1; r < k; r++) if (Math.abs(b[bAt + r * k + c]!) > Math.abs(b[bAt + p * k + c]!)) p = r;
    const pivot = b[bAt + p * k + c]!;
    if (!(Math.abs(pivot) > 1e-12)) return false;
    if (p !== c) {
      for (let j = 0; j < k; j++) {
        const t = b[bAt + c * k + j]!;
        b[bAt + c * k + j] = b[bAt + p * k + j]!;
        b[bAt + p * k + j] = t;
      }
      const t = y[yAt + c]!;
      y[yAt + c] = y[yAt + p]!;
      y[yAt + p] = t;
    }
    for (let r = c + 1; r < k; r++) {
      const m = b[bAt + r * k + c]! / pivot;
      if (m === 0) continue;
      for (let j = c; j < k; j++) b[bAt + r * k + j]! -= m * b[bAt + c * k + j]!;
      y[yAt + r]! -= m * y[yAt + c]!;
    }
  }
  for (let r = k - 1; r >= 0; r--) {
    let s = y[yAt + r]!;
    for (let j = r + 1; j < k; j++) s -= b[bAt + r * k + j]! * y[yAt + j]!;
    y[yAt + r] = s / b[bAt + r * k + r]!;
  }
  return true;
}
