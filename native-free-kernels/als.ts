// Implicit-feedback ALS half-step (Hu, Koren, Volinsky 2008) solved per row by warm-started conjugate gradient.
import type { Csr } from './csr.js';
import { checkHalfStep, checkLoss } from './checks.js';
import { gramTo } from './linalg.js';

/**
 * L2 regularization of a row: a constant λ, or frequency-scaled (Rendle, Krichene, Zhang, Koren 2022):
 * λ of a row with n nonzeros = scale · (n + offset)^exponent, where offset is the unobserved weight
 * times the other side's row count, so a row's λ grows with the weight its own terms carry.
 */
export type Regularization = number | { scale: number; offset: number; exponent: number };

export function rowRegularization(r: Regularization, nonzeros: number): number {
  return typeof r === 'number' ? r : r.scale * (nonzeros + r.offset) ** r.exponent;
}

/**
 * Rating values as the confidence they give (Hu et al.'s r in 1 + alpha·r): dst[k] = max(src[k] −
 * shift, 0) + floor, so ratings at or below `shift` still count as seen, with weight `floor`.
 * shift 0, floor 0 keeps the values.
 */
export function confidenceValuesTo(dst: Float32Array, src: Float32Array, shift: number, floor: number): void {
  if (dst.length !== src.length) throw new Error(`confidenceValuesTo: dst length ${dst.length} != src length ${src.length}`);
  for (let k = 0; k < src.length; k++) dst[k] = Math.max(src[k]! - shift, 0) + floor;
}

// Below this squared residual the row has converged; the same cut-off as implicit's CG solver.
const EPS = 1e-20;

/**
 * Recomputes every row of dst (rows*f) against the fixed `other` factors (cols*f) with Gram
 * matrix gram = otherᵀother (f*f). Confidence is 1 + alpha·r on nonzeros, preference 1 there;
 * each row's λ is rowRegularization(regularization, its nonzeros).
 * Each row runs cgSteps CG iterations starting from its current value (warm start); the per-row
 * matrix YᵀCᵤY + λI is only applied, never formed, so a row costs O(f² + nnz·f) per step.
 * scratch needs 4*f entries. Rows without nonzeros become zero. Only rows [rowStart, rowEnd) are
 * computed, so a pool can share one half-step among workers writing disjoint rows of one buffer.
 */
export function alsHalfStepTo(
  dst: Float32Array,
  m: Csr,
  other: Float32Array,
  gram: Float64Array,
  f: number,
  regularization: Regularization,
  alpha: number,
  cgSteps: number,
  scratch: Float64Array,
  rowStart = 0,
  rowEnd = m.rows,
): void {
  checkHalfStep(dst, m, other, gram, f, scratch, rowStart, rowEnd);
  const { indptr, indices, values } = m;
  // Scratch layout: x | r (residual) | p (direction) | ap.
  const X = 0,
    R = f,
    P = 2 * f,
    AP = 3 * f;
  const s = scratch;
  for (let u = rowStart; u < rowEnd; u++) {
    const start = indptr[u]!,
      end = indptr[u + 1]!;
    const row = u * f;
    if (start === end) {
      dst.fill(0, row, row + f);
      continue;
    }
    for (let a = 0; a < f; a++) s[X + a] = dst[row + a]!;
    const lambda = rowRegularization(regularization, end - start);
    // r = b − A·x with b = Σ c·y and A·x = YᵀY·x + Σ (c−1)(y·x) y + λx.
    for (let a = 0; a < f; a++) {
      let acc = lambda * s[X + a]!;
      acc += rowDot(gram, a * f, s, X, f);
      s[R + a] = -acc;
    }
    for (let k = start; k < end; k++) {
      const c = 1 + alpha * values[k]!;
      const y = indices[k]! * f;
      addScaledTo(s, R, c - (c - 1) * rowDot(other, y, s, X, f), other, y, f);
    }
    let rsold = 0;
    for (let a = 0; a < f; a++) {
      s[P + a] = s[R + a]!;
      rsold += s[R + a]! * s[R + a]!;
    }
    for (let it = 0; it < cgSteps && rsold >= EPS; it++) {
      for (let a = 0; a < f; a++) {
        let acc = lambda * s[P + a]!;
        acc += rowDot(gram, a * f, s, P, f);
        s[AP + a] = acc;
      }
      for (let k = start; k < end; k++) {
        const y = indices[k]! * f;
        addScaledTo(s, AP, alpha * values[k]! * rowDot(other, y, s, P, f), other, y, f);
      }
      let pap = 0;
      for (let a = 0; a < f; a++) pap += s[P + a]! * s[AP + a]!;
      if (!(pap > 0)) break; // Not positive definite along p (λ = 0 and degenerate Y): keep what we have.
      const step = rsold / pap;
      let rsnew = 0;
      for (let a = 0; a < f; a++) {
        s[X + a]! += step * s[P + a]!;
        s[R + a]! -= step * s[AP + a]!;
        rsnew += s[R + a]! * s[R + a]!;
      }
      if (rsnew < EPS) {
        rsold = rsnew;
        break;
      }
      const beta = rsnew / rsold;
      for (let a = 0; a < f; a++) s[P + a] = s[R + a]! + beta * s[P + a]!;
      rsold = rsnew;
    }
    for (let a = 0; a < f; a++) dst[row + a] = s[X + a]!;
  }
}

// The per-rating work of a half-step (a factor row, f32, or a Gram matrix row, f64, against a scratch
// vector; then a row scaled into another). Four partial sums / writes a step, as dot.ts's dotAt (V8
// keeps them in registers). dotAt takes f32 rows only, so its hot call sites in rankings stay
// monomorphic; this fallback of the WebAssembly half-step (wasm-als.ts) takes both.
function rowDot(row: Float32Array | Float64Array, r: number, v: Float64Array, j: number, f: number): number {
  let d0 = 0,
    d1 = 0,
    d2 = 0,
    d3 = 0;
  let a = 0;
  for (; a + 4 <= f; a += 4) {
    d0 += row[r + a]! * v[j + a]!;
    d1 += row[r + a + 1]! * v[j + a + 1]!;
    d2 += row[r + a + 2]! * v[j + a + 2]!;
    d3 += row[r + a + 3]! * v[j + a + 3]!;
  }
  for (; a < f; a++) d0 += row[r + a]! * v[j + a]!;
  return d0 + d1 + d2 + d3;
}

function addScaledTo(v: Float64Array, j: number, w: number, row: Float32Array, r: number, f: number): void {
  let a = 0;
  for (; a + 4 <= f; a += 4) {
    v[j + a]! += w * row[r + a]!;
    v[j + a + 1]! += w * row[r + a + 1]!;
    v[j + a + 2]! += w * row[r + a + 2]!;
    v[j + a + 3]! += w * row[r + a + 3]!;
  }
  for (; a < f; a++) v[j + a]! += w * row[r + a]!;
}

/**
 * Σ over all (u, i) of c·(p − xᵤ·yᵢ)² plus Σ λᵤ‖xᵤ‖² + Σ λᵢ‖yᵢ‖² (rowRegularization of each row's
 * nonzeros, userReg for users and itemReg for items), with c = 1, p = 0 off the nonzeros.
 * The dense part Σ (xᵤ·yᵢ)² is computed as Σ_ab (XᵀX)_ab (YᵀY)_ab so no rows×cols pass is needed.
 */
export function alsLoss(
  m: Csr,
  userFactors: Float32Array,
  itemFactors: Float32Array,
  rows: number,
  cols: number,
  f: number,
  userReg: Regularization,
  itemReg: Regularization,
  alpha: number,
  itemGram?: Float64Array, // the items' Gram matrix when the caller has made it (f × f)
): number {
  checkLoss(m, userFactors, itemFactors, rows, cols, f);
  if (itemGram && itemGram.length !== f * f) throw new Error(`alsLoss: itemGram length ${itemGram.length}, expected ${f * f}`);
  // The dense term Σ (x_u·y_i)² is the elementwise product of the two Gram matrices, each made in one
  // pass over its rows: a pass per pair of factors read the 1M × 32 users' factors 1,024 times (13 s
  // of the 20M-rating training's 16 s "finishing", bench/scale/training-phases.ts).
  const xx = new Float64Array(f * f);
  gramTo(xx, userFactors, rows, f);
  const yy = itemGram ?? new Float64Array(f * f);
  if (!itemGram) gramTo(yy, itemFactors, cols, f);
  let loss = 0;
  for (let a = 0; a < f * f; a++) loss += xx[a]! * yy[a]!;
  // Replace the dense c = 1, p = 0 term by the true one on each nonzero.
  for (let u = 0; u < rows; u++) {
    for (let k = m.indptr[u]!; k < m.indptr[u + 1]!; k++) {
      const c = 1 + alpha * m.values[k]!;
      const y = m.indices[k]! * f;
      let s = 0;
      for (let a = 0; a < f; a++) s += userFactors[u * f + a]! * itemFactors[y + a]!;
      loss += c * (1 - s) * (1 - s) - s * s;
    }
  }
  const itemNonzeros = new Uint32Array(cols);
  for (let k = 0; k < m.indices.length; k++) itemNonzeros[m.indices[k]!]!++;
  const penalty = (factors: Float32Array, row: number, lambda: number) => {
    let s = 0;
    for (let a = row * f; a < (row + 1) * f; a++) s += factors[a]! * factors[a]!;
    return lambda * s;
  };
  for (let u = 0; u < rows; u++) loss += penalty(userFactors, u, rowRegularization(userReg, m.indptr[u + 1]! - m.indptr[u]!));
  for (let i = 0; i < cols; i++) loss += penalty(itemFactors, i, rowRegularization(itemReg, itemNonzeros[i]!));
  return loss;
}
