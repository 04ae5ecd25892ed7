// Reference twin of ../als.ts: dense confidence matrix and an exact normal-equation solve per row.
import { choleskySolveTo } from './linalg.js';
import type { Csr } from '../csr.js';
import type { Regularization } from '../als.js';
import { checkHalfStep, checkLoss } from '../checks.js';

// Written out again here so the twin does not share the fast file's formula.
const rowRegularization = (r: Regularization, n: number): number => (typeof r === 'number' ? r : r.scale * (n + r.offset) ** r.exponent);

function dense(m: Csr, alpha: number): { c: number[][]; p: number[][] } {
  const c: number[][] = [];
  const p: number[][] = [];
  for (let u = 0; u < m.rows; u++) {
    c.push(new Array<number>(m.cols).fill(1));
    p.push(new Array<number>(m.cols).fill(0));
    for (let k = m.indptr[u]!; k < m.indptr[u + 1]!; k++) {
      c[u]![m.indices[k]!] = 1 + alpha * m.values[k]!;
      p[u]![m.indices[k]!] = 1;
    }
  }
  return { c, p };
}

/** Same contract as the fast twin; gram, cgSteps and the warm start are ignored because the solve is exact. */
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
): void {
  checkHalfStep(dst, m, other, gram, f, scratch, 0, m.rows);
  void cgSteps;
  const { c, p } = dense(m, alpha);
  for (let u = 0; u < m.rows; u++) {
    if (m.indptr[u] === m.indptr[u + 1]) {
      for (let a = 0; a < f; a++) dst[u * f + a] = 0;
      continue;
    }
    const A = new Float64Array(f * f);
    const b = new Float64Array(f);
    for (let i = 0; i < m.cols; i++) {
      const cui = c[u]![i]!;
      for (let a = 0; a < f; a++) {
        b[a] = b[a]! + cui * p[u]![i]! * other[i * f + a]!;
        for (let d = 0; d < f; d++) A[a * f + d] = A[a * f + d]! + cui * other[i * f + a]! * other[i * f + d]!;
      }
    }
    const lambda = rowRegularization(regularization, m.indptr[u + 1]! - m.indptr[u]!);
    for (let a = 0; a < f; a++) A[a * f + a] = A[a * f + a]! + lambda;
    const x = new Float64Array(f);
    choleskySolveTo(x, A, b, f, new Float64Array(f * f));
    for (let a = 0; a < f; a++) dst[u * f + a] = x[a]!;
  }
}

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
): number {
  checkLoss(m, userFactors, itemFactors, rows, cols, f);
  const { c, p } = dense(m, alpha);
  let loss = 0;
  for (let u = 0; u < rows; u++) {
    for (let i = 0; i < cols; i++) {
      let s = 0;
      for (let a = 0; a < f; a++) s += userFactors[u * f + a]! * itemFactors[i * f + a]!;
      loss += c[u]![i]! * (p[u]![i]! - s) ** 2;
    }
  }
  const itemNonzeros = new Array<number>(cols).fill(0);
  for (const i of m.indices) itemNonzeros[i]!++;
  for (let u = 0; u < rows; u++) {
    const lambda = rowRegularization(userReg, m.indptr[u + 1]! - m.indptr[u]!);
    for (let a = 0; a < f; a++) loss += lambda * userFactors[u * f + a]! ** 2;
  }
  for (let i = 0; i < cols; i++) {
    const lambda = rowRegularization(itemReg, itemNonzeros[i]!);
    for (let a = 0; a < f; a++) loss += lambda * itemFactors[i * f + a]! ** 2;
  }
  return loss;
}
