// The ALS half-step in WebAssembly SIMD (wasm/assembly/als.ts, compiled by `npm run build` to
// dist/native-free-kernels/wasm/als.wasm): each thread has its own instance and memory, into which a
// half-step's rows, the other side's factors and the Gram matrix are copied, and the rows copied back.
// Its twin is als.ts alsHalfStepTo (the CG in f64; this one in f32).
import { readFileSync } from 'node:fs';
import type { Csr } from './csr.js';
import { rowRegularization, type Regularization } from './als.js';

interface AlsExports {
  memory: WebAssembly.Memory;
  halfStep(
    rows: number,
    f: number,
    indptr: number,
    indices: number,
    values: number,
    other: number,
    gram: number,
    lambdas: number,
    dst: number,
    alpha: number,
    cgSteps: number,
    scratch: number,
  ): void;
}

const PAGE = 65536;
const align = (bytes: number) => Math.ceil(bytes / 16) * 16;

// undefined: not loaded yet; null: the engine cannot run it (the TypeScript kernel runs instead).
let kernels: AlsExports | undefined | null;

function loaded(): AlsExports | null {
  if (kernels === undefined) {
    // A missing file is a broken build, not a missing feature: that throws.
    const bytes = readFileSync(new URL('./wasm/als.wasm', import.meta.url));
    kernels = WebAssembly.validate(bytes)
      ? (new WebAssembly.Instance(new WebAssembly.Module(bytes), {}).exports as unknown as AlsExports)
      : null;
  }
  return kernels;
}

/**
 * alsHalfStepTo's contract (als.ts) for rows [rowStart, rowEnd), in WebAssembly SIMD; false (nothing
 * done) where it cannot run: no SIMD, or f not a multiple of 4.
 */
export function wasmHalfStepTo(
  dst: Float32Array,
  m: Csr,
  other: Float32Array,
  gram: Float64Array,
  f: number,
  regularization: Regularization,
  alpha: number,
  cgSteps: number,
  rowStart: number,
  rowEnd: number,
): boolean {
  const k = f % 4 === 0 ? loaded() : null;
  if (!k) return false;
  if (dst.length !== m.rows * f) throw new Error(`wasmHalfStepTo: dst length ${dst.length}, expected ${m.rows * f}`);
  if (other.length !== m.cols * f) throw new Error(`wasmHalfStepTo: other length ${other.length}, expected ${m.cols * f}`);
  if (gram.length !== f * f) throw new Error(`wasmHalfStepTo: gram length ${gram.length}, expected ${f * f}`);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= m.rows))
    throw new Error(`wasmHalfStepTo: row range [${rowStart}, ${rowEnd}) outside [0, ${m.rows})`);
  const rows = rowEnd - rowStart,
    start = m.indptr[rowStart]!,
    end = m.indptr[rowEnd]!,
    nnz = end - start;
  const at = { other: 0, gram: 0, indptr: 0, indices: 0, values: 0, lambdas: 0, dst: 0, scratch: 0 };
  let top = 16; // address 0 stays unused
  for (const [name, bytes] of [
    ['other', other.length * 4],
    ['gram', f * f * 4],
    ['indptr', (rows + 1) * 4],
    ['indices', nnz * 4],
    ['values', nnz * 4],
    ['lambdas', rows * 4],
    ['dst', rows * f * 4],
    ['scratch', 4 * f * 4],
  ] as const) {
    at[name] = top;
    top += align(bytes);
  }
  const need = Math.ceil(top / PAGE) - k.memory.buffer.byteLength / PAGE;
  if (need > 0) k.memory.grow(need);
  const buffer = k.memory.buffer;
  new Float32Array(buffer, at.other, other.length).set(other);
  new Float32Array(buffer, at.gram, f * f).set(gram);
  const indptr = new Uint32Array(buffer, at.indptr, rows + 1),
    lambdas = new Float32Array(buffer, at.lambdas, rows);
  for (let r = 0; r <= rows; r++) indptr[r] = m.indptr[rowStart + r]! - start;
  for (let r = 0; r < rows; r++) lambdas[r] = rowRegularization(regularization, indptr[r + 1]! - indptr[r]!);
  new Uint32Array(buffer, at.indices, nnz).set(m.indices.subarray(start, end));
  new Float32Array(buffer, at.values, nnz).set(m.values.subarray(start, end));
  const out = new Float32Array(buffer, at.dst, rows * f);
  out.set(dst.subarray(rowStart * f, rowEnd * f));
  k.halfStep(rows, f, at.indptr, at.indices, at.values, at.other, at.gram, at.lambdas, at.dst, alpha, cgSteps, at.scratch);
  dst.set(out, rowStart * f);
  return true;
}
