// Loads the WebAssembly SIMD score kernels that `npm run build` compiles from wasm/assembly/ into
// dist/native-free-kernels/wasm/scores.wasm, once per thread. Undefined where the engine cannot run
// WebAssembly SIMD with shared memory: the TypeScript kernels score instead.
import { readFileSync } from 'node:fs';

// The kernels' exports (wasm/assembly/scores.ts): pointers are byte offsets into the memory.
export interface ScoreKernels {
  cosineScores(dst: number, rows: number, norms: number, n: number, f: number, item: number): void;
  groupFold(dst: number, low: number, queries: number, count: number, rows: number, n: number, f: number, first: number): void;
  groupFinish(dst: number, low: number, norms: number, n: number, total: number, consensus: number): void;
  positionScores(
    dst: number,
    query: number,
    rows: number,
    f: number,
    members: number,
    positions: number,
    count: number,
    skip: number,
  ): void;
  boundedTop(
    items: number,
    scores: number,
    k: number,
    filled: number,
    query: number,
    queryNorm: number,
    rows: number,
    norms: number,
    order: number,
    count: number,
    f: number,
    maxRows: number,
    partial: number,
    dots: number,
    qrows: number,
    qscales: number,
    qerrors: number,
    qlengths: number,
    quantized: number,
    qq: number,
  ): number;
  readonly rescored: WebAssembly.Global; // rows boundedTop scored exactly, its last call on this thread
  rowDots(dst: number, query: number, rows: number, f: number, items: number, count: number): void;
  rowCosines(dst: number, query: number, queryNorm: number, rows: number, norms: number, f: number, items: number, count: number): void;
  userLists(
    items: number,
    scores: number,
    k: number,
    users: number,
    used: number,
    rows: number,
    norms: number,
    order: number,
    count: number,
    f: number,
    rated: number,
    dots: number,
    state: number,
  ): void;
}

let compiled: WebAssembly.Module | undefined | null = null;

export function scoreModule(): WebAssembly.Module | undefined {
  if (compiled === null) {
    // A missing file is a broken build, not a missing feature: that throws.
    const bytes = readFileSync(new URL('./wasm/scores.wasm', import.meta.url));
    compiled = WebAssembly.validate(bytes) ? new WebAssembly.Module(bytes) : undefined;
  }
  return compiled;
}

// The kernels over `memory` (shared, from this thread or posted by another).
export function scoreKernels(module: WebAssembly.Module, memory: WebAssembly.Memory): ScoreKernels {
  return new WebAssembly.Instance(module, { env: { memory } }).exports as unknown as ScoreKernels;
}
