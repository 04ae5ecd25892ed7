// EASE's blocked sweep inverse in WebAssembly SIMD (wasm/assembly/ease.ts, compiled by `npm run build`
// to dist/native-free-kernels/wasm/ease.wasm), in f32. The matrix lives in a shared WebAssembly memory
// that the caller posts to every training thread: they write the Gram matrix into it, then sweep
// each block's pivot and row ranges on that one copy, in place, with no copy in or out. Its twin is
// ease.ts sweepPivotTo / sweepUpdateTo (f64).
//
// Layout of the memory (byte offsets, from n and the block size alone, so every thread derives it):
//   page 0   unused (the module's own)
//   a        n rows of ld f32, ld = n rounded up to 8; the padding columns are zero and stay so
//   inv      b × b f64, the pivot block's inverse as it is made
//   negd     b × b f32, −D⁻¹
//   panel    b × ld f32, the block's new rows
//   mult     n × b f32, each row's A_iK during its update
import { readFileSync } from 'node:fs';

interface EaseExports {
  pivot(a: number, ld: number, k: number, b: number, inv: number, negd: number, panel: number): number;
  update(a: number, ld: number, k: number, b: number, panel: number, mult: number, rowStart: number, rowEnd: number): void;
}

const PAGE = 65536;
// wasm32 addresses: a larger matrix is swept in TypeScript.
const MAX_PAGES = 65536;

function layoutOf(n: number, b: number) {
  const ld = Math.ceil(n / 8) * 8;
  const a = PAGE,
    inv = a + n * ld * 4,
    negd = inv + b * b * 8,
    panel = negd + b * b * 4,
    mult = panel + b * ld * 4;
  return { ld, a, inv, negd, panel, mult, end: mult + n * b * 4 };
}

let compiled: WebAssembly.Module | undefined | null = null;

function easeModule(): WebAssembly.Module | undefined {
  if (compiled === null) {
    // A missing file is a broken build, not a missing feature: that throws.
    const bytes = readFileSync(new URL('./wasm/ease.wasm', import.meta.url));
    compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : undefined;
  }
  return compiled;
}

// Whether this engine runs the kernel (wasmSweepMemory then gives a memory up to 4 GiB).
export const wasmSweepRuns = (): boolean => easeModule() !== undefined;

// Instantiating is cheap next to a block's work (tens of microseconds), and a memory posted to a
// thread arrives as a new object each time, so an instance is made per call rather than cached.
const kernels = (module: WebAssembly.Module, memory: WebAssembly.Memory) =>
  new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as EaseExports;

/**
 * A shared memory for an n × n matrix (zero; wasmSweptRows gives its rows, to fill) swept in blocks of
 * at most `b` pivots; undefined where the engine cannot run the kernel (no WebAssembly SIMD, or more
 * than wasm32's 4 GiB): the TypeScript sweep runs instead.
 */
export function wasmSweepMemory(n: number, b: number): WebAssembly.Memory | undefined {
  const pages = Math.ceil(layoutOf(n, b).end / PAGE);
  if (pages > MAX_PAGES || !easeModule()) return undefined;
  return new WebAssembly.Memory({ initial: pages, maximum: pages, shared: true });
}

// sweepPivotTo's contract for pivots [k, k + b) of the matrix in `memory` (made for blocks of at
// most `block`): false when the block is not positive definite.
export function wasmSweepPivot(memory: WebAssembly.Memory, n: number, block: number, k: number, b: number): boolean {
  checkBlock('wasmSweepPivot', n, block, k, b);
  const at = layoutOf(n, block);
  return kernels(easeModule()!, memory).pivot(at.a, at.ld, k, b, at.inv, at.negd, at.panel) === 1;
}

// sweepUpdateTo's contract for rows [rowStart, rowEnd), after wasmSweepPivot of the same block.
export function wasmSweepUpdate(
  memory: WebAssembly.Memory,
  n: number,
  block: number,
  k: number,
  b: number,
  rowStart: number,
  rowEnd: number,
): void {
  checkBlock('wasmSweepUpdate', n, block, k, b);
  if (!(Number.isInteger(rowStart) && Number.isInteger(rowEnd) && 0 <= rowStart && rowStart <= rowEnd && rowEnd <= n))
    throw new Error(`wasmSweepUpdate: row range [${rowStart}, ${rowEnd}) outside [0, ${n})`);
  const at = layoutOf(n, block);
  kernels(easeModule()!, memory).update(at.a, at.ld, k, b, at.panel, at.mult, rowStart, rowEnd);
}

// The matrix in `memory` (the inverse once every block is swept): n rows `stride` f32 apart, the
// padding between them zero.
export function wasmSweptRows(memory: WebAssembly.Memory, n: number): { rows: Float32Array; stride: number } {
  const { a, ld } = layoutOf(n, 0);
  return { rows: new Float32Array(memory.buffer, a, n * ld), stride: ld };
}

// Blocks start on multiples of the block size the memory was made for (so columns stay 8-aligned).
function checkBlock(name: string, n: number, block: number, k: number, b: number): void {
  if (!(block % 8 === 0 && k % block === 0 && b >= 1 && b <= block && k + b <= n))
    throw new Error(`${name}: block [${k}, ${k + b}) does not fit blocks of ${block} over ${n} pivots`);
}
