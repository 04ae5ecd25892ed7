// The WebAssembly SIMD ALS half-step (native-free-kernels/wasm-als.ts) against its TypeScript twin
// (als.ts alsHalfStepTo) on random ratings: plain and frequency-scaled λ, sub-ranges of rows, empty
// rows; factors within f32 rounding of the twin's (its CG runs in f64). And f not a multiple of 4
// is declined (the twin runs instead).
import t from 'tap';
import { alsHalfStepTo, type Regularization } from '../../native-free-kernels/als.js';
import { gramTo } from '../../native-free-kernels/linalg.js';
import { mulberry32 } from '../../native-free-kernels/random.js';
import { wasmHalfStepTo } from '../../native-free-kernels/wasm-als.js';
import { randomMatrix } from '../helpers/random-matrix.js';

function worst(a: Float32Array, b: Float32Array): number {
  let w = 0;
  for (let k = 0; k < a.length; k++) w = Math.max(w, Math.abs(a[k]! - b[k]!) / (1e-3 + Math.abs(b[k]!)));
  return w;
}

t.test('the SIMD half-step agrees with the TypeScript one', async (t) => {
  const cases: [number, Regularization, number, number][] = [
    [8, 5, 0, 40],
    [32, 20, 3, 37],
    [64, { scale: 0.02, offset: 30, exponent: 1 }, 0, 40],
    [16, { scale: 0.5, offset: 4, exponent: 0.5 }, 10, 11],
  ];
  for (const [f, regularization, rowStart, rowEnd] of cases) {
    const m = randomMatrix(f, 40, 70, 0.15, 5);
    const rand = mulberry32(f + 1);
    const start = Float32Array.from({ length: m.rows * f }, () => rand() * 0.1);
    const other = Float32Array.from({ length: m.cols * f }, () => rand() * 0.1);
    const gram = new Float64Array(f * f);
    gramTo(gram, other, m.cols, f);
    const wasm = Float32Array.from(start),
      ts = Float32Array.from(start);
    t.equal(wasmHalfStepTo(wasm, m, other, gram, f, regularization, 0.7, 3, rowStart, rowEnd), true, `f ${f} runs`);
    alsHalfStepTo(ts, m, other, gram, f, regularization, 0.7, 3, new Float64Array(4 * f), rowStart, rowEnd);
    t.ok(worst(wasm, ts) < 1e-3, `f ${f}, rows [${rowStart}, ${rowEnd}): within f32 rounding (${worst(wasm, ts)})`);
    t.same(wasm.subarray(0, rowStart * f), start.subarray(0, rowStart * f), 'rows before the range untouched');
    t.same(wasm.subarray(rowEnd * f), start.subarray(rowEnd * f), 'rows after it untouched');
  }
});

t.test('empty rows become zero; f not a multiple of 4 is declined', async (t) => {
  const f = 4;
  const m = { rows: 2, cols: 3, indptr: Uint32Array.of(0, 0, 2), indices: Uint32Array.of(0, 2), values: Float32Array.of(1, 3) };
  const dst = new Float32Array(2 * f).fill(0.5);
  const other = Float32Array.from({ length: 3 * f }, (_, k) => (k % 5) / 10);
  const gram = new Float64Array(f * f);
  gramTo(gram, other, 3, f);
  t.equal(wasmHalfStepTo(dst, m, other, gram, f, 1, 1, 3, 0, 2), true);
  t.same([...dst.subarray(0, f)], [0, 0, 0, 0], 'the row without ratings');
  t.ok(
    dst.subarray(f).some((x) => x !== 0.5),
    'the other row solved',
  );
  const odd = new Float32Array(2 * 3).fill(0.5);
  t.equal(wasmHalfStepTo(odd, m, new Float32Array(3 * 3), new Float64Array(9), 3, 1, 1, 3, 0, 2), false);
  t.ok(
    odd.every((x) => x === 0.5),
    'nothing done',
  );
});
