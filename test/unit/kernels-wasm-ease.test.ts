// EASE's WebAssembly SIMD sweep (native-free-kernels/wasm-ease.ts) against the reference inverse
// (Gaussian elimination in f64) on odd sizes and across block boundaries, row ranges split as the
// pool's threads split them, a matrix that is not positive definite refused; and easeFit through a
// real pool of 1 and 2 threads giving the reference B with either kernel.
import t from 'tap';
import { sharedCsr, transpose } from '../../native-free-kernels/csr.js';
import { addDiagonalTo, weightedGramTo } from '../../native-free-kernels/ease.js';
import { easeWeights, inverse } from '../../native-free-kernels/reference/ease.js';
import { wasmSweepMemory, wasmSweepPivot, wasmSweepUpdate, wasmSweptRows } from '../../native-free-kernels/wasm-ease.js';
import { easeFit } from '../../src/engine/training/item-weights.js';
import { easeColumns, weighRatings } from '../../src/engine/training/item-weights-tasks.js';
import { TrainingPool } from '../../src/engine/training/pool.js';
import { randomMatrix } from '../helpers/random-matrix.js';

// A Gram matrix of random ratings plus λ (`scale` times its diagonal's mean), n × n f64.
function gram(n: number, seed: number, scale = 1): Float64Array {
  const m = randomMatrix(seed, 2 * n + 3, n, 0.2, 5);
  const g = new Float64Array(n * n);
  weightedGramTo(
    g,
    m,
    Int32Array.from({ length: n }, (_, i) => i),
    Float32Array.from(m.values),
    n,
    0,
    n,
  );
  let trace = 0;
  for (let i = 0; i < n; i++) trace += g[i * n + i]!;
  addDiagonalTo(g, n, (scale * trace) / n + 1, 0, n);
  return g;
}

// The matrix swept in the kernel's memory, its update split at `cuts`; the result unpadded, or
// undefined when a block is not positive definite.
function sweep(g: Float64Array, n: number, block: number, cuts: number[] = []): Float32Array | undefined {
  const memory = wasmSweepMemory(n, block)!;
  const { rows, stride } = wasmSweptRows(memory, n);
  for (let i = 0; i < n; i++) rows.set(g.subarray(i * n, (i + 1) * n), i * stride);
  const bounds = [0, ...cuts, n];
  for (let k = 0; k < n; k += block) {
    const b = Math.min(block, n - k);
    if (!wasmSweepPivot(memory, n, block, k, b)) return undefined;
    // Later ranges first: a range must not depend on another having run.
    for (let r = bounds.length - 2; r >= 0; r--) wasmSweepUpdate(memory, n, block, k, b, bounds[r]!, bounds[r + 1]!);
  }
  for (let i = 0; i < n; i++)
    for (let j = n; j < stride; j++) if (rows[i * stride + j] !== 0) throw new Error(`padding of row ${i} is ${rows[i * stride + j]}`);
  return Float32Array.from({ length: n * n }, (_, q) => rows[Math.floor(q / n) * stride + (q % n)]!);
}

// The largest difference relative to the reference's largest entry.
function relativeError(got: ArrayLike<number>, want: ArrayLike<number>): number {
  let diff = 0,
    big = 0;
  for (let q = 0; q < want.length; q++) {
    diff = Math.max(diff, Math.abs(got[q]! - want[q]!));
    big = Math.max(big, Math.abs(want[q]!));
  }
  return diff / big;
}

t.test('the wasm sweep matches the reference inverse on odd sizes and block boundaries', async (t) => {
  t.ok(wasmSweepMemory(4, 8), 'this engine runs WebAssembly SIMD');
  for (const [n, block] of [
    [1, 8],
    [5, 8],
    [8, 8],
    [33, 8],
    [64, 64],
    [65, 64],
    [100, 16],
    [128, 64],
    [257, 64],
  ] as const) {
    const g = gram(n, n);
    const got = sweep(g, n, block)!;
    const error = relativeError(got, inverse(g, n));
    t.ok(error < 2e-5, `n ${n}, blocks of ${block}: ${error.toExponential(1)}`);
  }
});

t.test('rows split in ranges give the same matrix as one range', async (t) => {
  for (const [n, block, cuts] of [
    [33, 8, [11]],
    [100, 16, [20, 50, 51]],
    [257, 64, [64, 128]],
    [257, 64, [100]],
  ] as const) {
    const g = gram(n, 7 * n);
    t.same(sweep(g, n, block, [...cuts]), sweep(g, n, block), `n ${n}, cuts ${cuts}`);
  }
});

t.test('a block that is not positive definite is refused', async (t) => {
  t.equal(sweep(Float64Array.of(1, 2, 2, 1), 2, 8), undefined, 'in the first block');
  // Positive definite leading blocks, the trouble past the first block's end.
  const n = 20,
    g = gram(n, 3);
  g[17 * n + 17] = -1;
  t.equal(sweep(g, n, 8), undefined, 'in a later block');
});

t.test('a block that does not fit the memory is refused', async (t) => {
  const memory = wasmSweepMemory(20, 8)!;
  t.throws(() => wasmSweepPivot(memory, 20, 8, 4, 8), /does not fit/);
  t.throws(() => wasmSweepPivot(memory, 20, 8, 16, 8), /does not fit/);
  t.throws(() => wasmSweepUpdate(memory, 20, 8, 0, 8, 0, 21), /outside/);
});

t.test('easeFit gives the reference B on 1 and 2 threads, with either kernel', async (t) => {
  const m = sharedCsr(randomMatrix(11, 300, 150, 0.1, 5));
  const w = weighRatings({ m, weighting: { cut: 0, below: 1, byQuantile: true } });
  const cols = easeColumns({ byItem: transpose(m), maxItems: 130, minCount: 1 });
  const n = cols.n;
  const g = new Float64Array(n * n);
  weightedGramTo(g, w, cols.column, w.values, n, 0, n);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += g[i * n + i]!;
  addDiagonalTo(g, n, (2 * trace) / n, 0, n);
  const want = easeWeights(inverse(g, n), n);
  const byThreads: Float32Array[] = [];
  for (const threads of [1, 2]) {
    const pool = new TrainingPool(threads);
    try {
      const wasm = await easeFit(pool, w, cols, 2);
      const ts = await easeFit(pool, w, cols, 2, 'typescript');
      t.ok(Math.abs(wasm.lambda - ts.lambda) <= 1e-6 * ts.lambda, `λ ${wasm.lambda} (its Gram matrix in f32), ${ts.lambda}`);
      t.ok(relativeError(new Float32Array(wasm.weights), want) < 2e-5, `wasm, ${threads} threads`);
      t.ok(relativeError(new Float32Array(ts.weights), want) < 1e-6, `typescript, ${threads} threads`);
      byThreads.push(new Float32Array(wasm.weights));
      for (const kernel of ['wasm', 'typescript'] as const)
        await t.rejects(easeFit(pool, w, cols, -2, kernel), /not positive definite/, `${kernel}: λ below zero`);
    } finally {
      await pool.close();
    }
  }
  t.same(byThreads[1], byThreads[0], 'two threads give what one does');
});
