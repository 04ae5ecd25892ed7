// Small dense linear algebra for factor models: Gram matrix and Cholesky solve.

/** dst (f*f, row-major) = FᵀF for row-major factors F (n*f). Accumulates in f64 to keep the Gram well conditioned. */
export function gramTo(dst: Float64Array, factors: Float32Array, n: number, f: number): void {
  if (dst.length !== f * f) throw new Error(`gramTo: dst length ${dst.length}, expected ${f * f}`);
  if (factors.length !== n * f) throw new Error(`gramTo: factors length ${factors.length}, expected ${n * f}`);
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
  for (let k = 0; k < parts.length; k++) if (parts[k]!.length !== dst.length) throw new Error(`sumTo: part ${k} length ${parts[k]!.length}, expected dst length ${dst.length}`);
  dst.fill(0);
  for (let k = 0; k < parts.length; k++) {
    const part = parts[k]!;
    for (let a = 0; a < dst.length; a++) dst[a]! += part[a]!;
  }
}

/**
 * Solves a·x = b for symmetric positive definite a (f*f, not modified). scratch needs f*f entries
 * (holds the Cholesky factor). x may alias b. Throws if a is not positive definite.
 */
export function choleskySolveTo(x: Float64Array, a: Float64Array, b: Float64Array, f: number, scratch: Float64Array): void {
  if (a.length !== f * f) throw new Error(`choleskySolveTo: a length ${a.length}, expected ${f * f}`);
  if (x.length !== f) throw new Error(`choleskySolveTo: x length ${x.length}, expected ${f}`);
  if (b.length !== f) throw new Error(`choleskySolveTo: b length ${b.length}, expected ${f}`);
  if (scratch.length < f * f) throw new Error(`choleskySolveTo: scratch length ${scratch.length}, need at least ${f * f}`);
  const l = scratch;
  for (let j = 0; j < f; j++) {
    let d = a[j * f + j]!;
    for (let k = 0; k < j; k++) d -= l[j * f + k]! * l[j * f + k]!;
    if (!(d > 0)) throw new Error('choleskySolveTo: matrix is not positive definite');
    const ljj = Math.sqrt(d);
    l[j * f + j] = ljj;
    for (let i = j + 1; i < f; i++) {
      let s = a[i * f + j]!;
      for (let k = 0; k < j; k++) s -= l[i * f + k]! * l[j * f + k]!;
      l[i * f + j] = s / ljj;
    }
  }
  // Forward then backward substitution, in place in x so that x may alias b.
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
