// WebAssembly SIMD twin of ../../als.ts alsHalfStepTo (AssemblyScript, compiled by `npm run build` to
// dist/native-free-kernels/wasm/als.wasm). Arguments are byte offsets into the module's own memory,
// which ../../wasm-als.ts fills (one memory per thread: a half-step's rows are copied in and out).
// The CG runs in f32 (f32x4, two accumulators), not f64 as the TypeScript kernel does: factors agree
// to about 1e-4 relative, within what three CG steps leave of the exact solve anyway.
import { hsum } from './simd';


// a · b over f entries (f a multiple of 4: the caller pads rows).
@inline function dot(a: usize, b: usize, f: i32): f32 {
  let s0 = f32x4.splat(0), s1 = f32x4.splat(0);
  let k = 0;
  for (; k + 8 <= f; k += 8) {
    const o = <usize>k << 2;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(a + o), v128.load(b + o)));
    s1 = f32x4.add(s1, f32x4.mul(v128.load(a + o, 16), v128.load(b + o, 16)));
  }
  if (k < f) {
    const o = <usize>k << 2;
    s0 = f32x4.add(s0, f32x4.mul(v128.load(a + o), v128.load(b + o)));
  }
  return hsum(f32x4.add(s0, s1));
}

// dst += s · x over f entries.
@inline function axpy(dst: usize, s: f32, x: usize, f: i32): void {
  const v = f32x4.splat(s);
  for (let k = 0; k < f; k += 4) {
    const o = <usize>k << 2;
    v128.store(dst + o, f32x4.add(v128.load(dst + o), f32x4.mul(v, v128.load(x + o))));
  }
}

const EPS: f32 = 1e-20;

/**
 * Rows [0, rows) of dst (rows × f f32, in place, warm start) against `other` (× f f32) with gram
 * (f × f f32): cgSteps CG steps per row on (YᵀY + Σ (c−1) y yᵀ + λ_row I) x = Σ c y, c = 1 + alpha·v.
 * indptr (rows + 1 u32, from 0), indices (u32 rows of other), values (f32), lambdas (rows f32);
 * scratch 4f f32. f is a multiple of 4 (rows padded with zeros).
 */
export function halfStep(rows: i32, f: i32, indptr: usize, indices: usize, values: usize, other: usize, gram: usize, lambdas: usize, dst: usize, alpha: f32, cgSteps: i32, scratch: usize): void {
  const bytes = <usize>f << 2;
  const X = scratch, R = X + bytes, P = R + bytes, AP = P + bytes;
  for (let u = 0; u < rows; u++) {
    const start = load<u32>(indptr + (<usize>u << 2)), end = load<u32>(indptr + (<usize>(u + 1) << 2));
    const row = dst + <usize>u * bytes;
    if (start === end) {
      memory.fill(row, 0, bytes);
      continue;
    }
    memory.copy(X, row, bytes);
    const lambda = load<f32>(lambdas + (<usize>u << 2));
    // r = b − A·x with b = Σ c·y and A·x = YᵀY·x + Σ (c−1)(y·x) y + λx.
    for (let a = 0; a < f; a++) store<f32>(R + (<usize>a << 2), -(dot(gram + <usize>a * bytes, X, f) + lambda * load<f32>(X + (<usize>a << 2))));
    for (let k = start; k < end; k++) {
      const c: f32 = 1 + alpha * load<f32>(values + (<usize>k << 2));
      const y = other + <usize>load<u32>(indices + (<usize>k << 2)) * bytes;
      axpy(R, c - (c - 1) * dot(y, X, f), y, f);
    }
    memory.copy(P, R, bytes);
    let rsold = dot(R, R, f);
    for (let it = 0; it < cgSteps && rsold >= EPS; it++) {
      for (let a = 0; a < f; a++) store<f32>(AP + (<usize>a << 2), dot(gram + <usize>a * bytes, P, f) + lambda * load<f32>(P + (<usize>a << 2)));
      for (let k = start; k < end; k++) {
        const y = other + <usize>load<u32>(indices + (<usize>k << 2)) * bytes;
        axpy(AP, alpha * load<f32>(values + (<usize>k << 2)) * dot(y, P, f), y, f);
      }
      const pap = dot(P, AP, f);
      if (!(pap > 0)) break;
      const step = rsold / pap;
      axpy(X, step, P, f);
      axpy(R, -step, AP, f);
      const rsnew = dot(R, R, f);
      if (rsnew < EPS) break;
      const beta = f32x4.splat(rsnew / rsold);
      for (let a = 0; a < f; a += 4) {
        const o = <usize>a << 2;
        v128.store(P + o, f32x4.add(v128.load(R + o), f32x4.mul(beta, v128.load(P + o))));
      }
      rsold = rsnew;
    }
    memory.copy(row, X, bytes);
  }
}
